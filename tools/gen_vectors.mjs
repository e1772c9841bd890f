#!/usr/bin/env node
// Cross-implementation test vectors for BLS12-381, computed with @noble/curves
// (an independent, audited JavaScript implementation) and checked in C by
// tests/test_noble_vectors.c.
//
// Run:   node tools/gen_vectors.mjs [--seed <text>] [--out <file>]
// Needs: Node.js >= 20 and the npm registry on the first run: @noble/curves is
//        installed into a cache folder outside the repository
//        ($CUZK_NPM_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/cuzk-npm),
//        never vendored. CI does not run this script; it checks the committed
//        output, tests/vectors/noble_bls12_381.txt.
//
// The output depends only on the seed (default below) and the pinned noble
// version: randomness comes from SHA-256 in counter mode, so rerunning the
// script rewrites the same file byte for byte.
//
// Format: one vector per line, `op field1 field2 ...`, lowercase hex without
// 0x; lines starting with `#` are comments. Fp 96 hex chars, Fr 64, both
// canonical big-endian; Fp2 `c0 c1`; Fp12 as 12 Fp, c0.c0.c0 c0.c0.c1 c0.c1.c0
// ... c1.c2.c1 (Fp12 = Fp6[w]/(w^2 - v), Fp6 = Fp2[v]/(v^3 - (u + 1)),
// Fp2 = Fp[u]/(u^2 + 1)); G1/G2 as zcash uncompressed points (96/192 bytes).

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const NOBLE_VERSION = '2.4.0';
const DEFAULT_SEED = 'cuzk-noble-bls12-381-v1';
const SCRIPT_DIR = dirname(fileURLToPath(import.meta.url));
const DEFAULT_OUT = resolve(SCRIPT_DIR, '..', 'tests', 'vectors', 'noble_bls12_381.txt');

function args_parse(argv) {
  const opts = { seed: DEFAULT_SEED, out: DEFAULT_OUT };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if ((a === '--seed' || a === '--out') && i + 1 < argv.length) {
      opts[a.slice(2)] = argv[++i];
    } else {
      process.stderr.write('usage: node tools/gen_vectors.mjs [--seed <text>] [--out <file>]\n');
      process.exit(2);
    }
  }
  return opts;
}

function cache_dir() {
  if (process.env.CUZK_NPM_CACHE) return process.env.CUZK_NPM_CACHE;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'cuzk-npm');
}

// Installs the pinned noble into the cache folder unless it is already there.
async function noble_load() {
  const dir = cache_dir();
  const pkg_dir = join(dir, 'node_modules', '@noble', 'curves');
  const pkg_json = join(pkg_dir, 'package.json');
  const have = existsSync(pkg_json) && JSON.parse(readFileSync(pkg_json, 'utf8')).version;
  if (have !== NOBLE_VERSION) {
    mkdirSync(dir, { recursive: true });
    process.stderr.write(`installing @noble/curves@${NOBLE_VERSION} into ${dir}\n`);
    execFileSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund',
      `@noble/curves@${NOBLE_VERSION}`], { stdio: ['ignore', 'inherit', 'inherit'] });
  }
  const mod = await import(pathToFileURL(join(pkg_dir, 'bls12-381.js')).href);
  return mod.bls12_381;
}

// Deterministic bytes: SHA-256(seed | counter).
function rng_create(seed) {
  let counter = 0;
  const bytes = (n) => {
    const chunks = [];
    let have = 0;
    while (have < n) {
      const h = createHash('sha256').update(`${seed}/${counter++}`).digest();
      chunks.push(h);
      have += h.length;
    }
    return Buffer.concat(chunks).subarray(0, n);
  };
  // 512 random bits reduced mod m: bias below 2^-128.
  const below = (m) => BigInt('0x' + bytes(64).toString('hex')) % m;
  return { bytes, below };
}

const hex_from_bytes = (b) => Buffer.from(b).toString('hex');
const hex_from_int = (v, nbytes) => v.toString(16).padStart(2 * nbytes, '0');

async function main() {
  const opts = args_parse(process.argv.slice(2));
  const bls = await noble_load();
  const { Fp, Fp2, Fp12, Fr } = bls.fields;
  const G1 = bls.G1.Point;
  const G2 = bls.G2.Point;
  const P = Fp.ORDER;
  const R = Fr.ORDER;
  const rng = rng_create(opts.seed);

  const fp_hex = (a) => hex_from_int(Fp.create(a), 48);
  const fr_hex = (a) => hex_from_int(Fr.create(a), 32);
  const fp2_hex = (a) => `${fp_hex(a.c0)} ${fp_hex(a.c1)}`;
  const fp6_hex = (a) => `${fp2_hex(a.c0)} ${fp2_hex(a.c1)} ${fp2_hex(a.c2)}`;
  const fp12_hex = (a) => `${fp6_hex(a.c0)} ${fp6_hex(a.c1)}`;
  // An identity reached by arithmetic is some (X, Y, 0); noble encodes only
  // the canonical ZERO, so map every identity onto it first.
  const g1_norm = (pt) => (pt.is0() ? G1.ZERO : pt);
  const g2_norm = (pt) => (pt.is0() ? G2.ZERO : pt);
  const g1_hex = (pt) => hex_from_bytes(g1_norm(pt).toBytes(false));
  const g2_hex = (pt) => hex_from_bytes(g2_norm(pt).toBytes(false));

  const rand_fp = () => rng.below(P);
  const rand_fr = () => rng.below(R);
  const rand_fr_nonzero = () => 1n + rng.below(R - 1n);
  const rand_fp2 = () => Fp2.create({ c0: rand_fp(), c1: rand_fp() });
  const rand_fp12 = () => Fp12.fromBigTwelve(Array.from({ length: 12 }, rand_fp));
  const rand_g1 = () => G1.BASE.multiply(rand_fr_nonzero());
  const rand_g2 = () => G2.BASE.multiply(rand_fr_nonzero());
  // multiplyUnsafe accepts 0 (giving the identity); multiply does not.
  const g1_mul = (pt, k) => pt.multiplyUnsafe(k);
  const g2_mul = (pt, k) => pt.multiplyUnsafe(k);

  // Edge values: 0, 1, 2, -1, -2, (m-1)/2, (m+1)/2, 2^k - 1 patterns.
  const edges = (m) => [0n, 1n, 2n, m - 1n, m - 2n, (m - 1n) / 2n, (m + 1n) / 2n,
    (1n << 64n) - 1n, 1n << 255n < m ? 1n << 255n : 1n << 200n];
  const fp_edges = edges(P);
  const fr_edges = edges(R);
  const fp2_edges = [Fp2.ZERO, Fp2.ONE, Fp2.create({ c0: 0n, c1: 1n }), Fp2.neg(Fp2.ONE),
    Fp2.create({ c0: P - 1n, c1: P - 1n }), Fp2.create({ c0: 1n, c1: 1n }),
    Fp2.create({ c0: 0n, c1: P - 1n })];

  const out = [];
  const emit = (line) => out.push(line);
  const section = (name, text) => emit(`# ${name}: ${text}`);

  // ---- Fp ----------------------------------------------------------------
  const N_FIELD = 16;
  const pairs = (edge_list, rand, n) => {
    const v = [];
    for (const a of edge_list.slice(0, 5)) for (const b of edge_list.slice(0, 3)) v.push([a, b]);
    v.push([edge_list[3], edge_list[3]]);
    for (let i = 0; i < n; i++) v.push([rand(), rand()]);
    return v;
  };
  section('fp_add', 'a b a+b');
  for (const [a, b] of pairs(fp_edges, rand_fp, N_FIELD)) emit(`fp_add ${fp_hex(a)} ${fp_hex(b)} ${fp_hex(Fp.add(a, b))}`);
  section('fp_sub', 'a b a-b');
  for (const [a, b] of pairs(fp_edges, rand_fp, N_FIELD)) emit(`fp_sub ${fp_hex(a)} ${fp_hex(b)} ${fp_hex(Fp.sub(a, b))}`);
  section('fp_mul', 'a b a*b');
  for (const [a, b] of pairs(fp_edges, rand_fp, N_FIELD)) emit(`fp_mul ${fp_hex(a)} ${fp_hex(b)} ${fp_hex(Fp.mul(a, b))}`);
  section('fp_inv', 'a a^-1 (a != 0: noble rejects 0)');
  for (const a of [...fp_edges.filter((x) => x !== 0n), ...Array.from({ length: N_FIELD }, rand_fp)])
    emit(`fp_inv ${fp_hex(a)} ${fp_hex(Fp.inv(a))}`);

  // fp_sqrt: a square a, noble's root s, and s's zcash sign (1 when s > (p-1)/2).
  // Either root is acceptable; the C test compares squares and s up to sign.
  section('fp_sqrt', 'a root sign(root: 1 if lexicographically largest)');
  const fp_try_sqrt = (a) => {
    try {
      return Fp.sqrt(a);
    } catch {
      return undefined; // noble throws on non-squares
    }
  };
  const roots = [];
  const nonsquares = [];
  for (const a of [0n, 1n, 4n, 9n, P - 1n]) {
    const s = fp_try_sqrt(a);
    if (s === undefined) nonsquares.push(a); // -1: p = 3 mod 4
    else roots.push([a, s]);
  }
  while (roots.length < N_FIELD + 4 || nonsquares.length < 15) {
    const a = rand_fp();
    const s = fp_try_sqrt(a);
    if (s === undefined) nonsquares.push(a);
    else roots.push([a, s]);
  }
  for (const [a, s] of roots.slice(0, N_FIELD + 4)) {
    if (Fp.sqr(s) !== a) throw new Error('noble sqrt disagrees with itself');
    emit(`fp_sqrt ${fp_hex(a)} ${fp_hex(s)} ${s > (P - 1n) / 2n ? 1 : 0}`);
  }
  section('fp_nonsqr', 'a, a non-square (noble sqrt throws): fp_sqrt must fail');
  for (const a of nonsquares.slice(0, 15)) emit(`fp_nonsqr ${fp_hex(a)}`);

  // ---- Fr ----------------------------------------------------------------
  section('fr_add', 'a b a+b');
  for (const [a, b] of pairs(fr_edges, rand_fr, N_FIELD)) emit(`fr_add ${fr_hex(a)} ${fr_hex(b)} ${fr_hex(Fr.add(a, b))}`);
  section('fr_mul', 'a b a*b');
  for (const [a, b] of pairs(fr_edges, rand_fr, N_FIELD)) emit(`fr_mul ${fr_hex(a)} ${fr_hex(b)} ${fr_hex(Fr.mul(a, b))}`);
  section('fr_inv', 'a a^-1 (a != 0)');
  for (const a of [...fr_edges.filter((x) => x !== 0n), ...Array.from({ length: N_FIELD }, rand_fr)])
    emit(`fr_inv ${fr_hex(a)} ${fr_hex(Fr.inv(a))}`);

  // ---- Fp2, Fp12 ---------------------------------------------------------
  section('fp2_mul', 'a.c0 a.c1 b.c0 b.c1 (a*b).c0 (a*b).c1');
  {
    const v = [];
    for (const a of fp2_edges) v.push([a, fp2_edges[2]], [a, fp2_edges[4]]);
    v.push([fp2_edges[2], fp2_edges[2]]); // u * u = -1
    for (let i = 0; i < N_FIELD; i++) v.push([rand_fp2(), rand_fp2()]);
    for (const [a, b] of v) emit(`fp2_mul ${fp2_hex(a)} ${fp2_hex(b)} ${fp2_hex(Fp2.mul(a, b))}`);
  }
  section('fp2_inv', 'a.c0 a.c1 (a^-1).c0 (a^-1).c1 (a != 0)');
  for (const a of [...fp2_edges.slice(1), ...Array.from({ length: N_FIELD }, rand_fp2)])
    emit(`fp2_inv ${fp2_hex(a)} ${fp2_hex(Fp2.inv(a))}`);

  const N_FP12 = 8;
  const gt = bls.pairing(G1.BASE, G2.BASE);
  section('fp12_mul', 'a[12] b[12] (a*b)[12]');
  {
    const v = [[Fp12.ONE, gt], [gt, gt], [gt, Fp12.conjugate(gt)], [Fp12.ZERO, gt]];
    for (let i = 0; i < N_FP12 - 1; i++) v.push([rand_fp12(), rand_fp12()]);
    for (const [a, b] of v) emit(`fp12_mul ${fp12_hex(a)} ${fp12_hex(b)} ${fp12_hex(Fp12.mul(a, b))}`);
  }
  section('fp12_inv', 'a[12] (a^-1)[12] (a != 0)');
  for (const a of [Fp12.ONE, gt, ...Array.from({ length: N_FP12 + 1 }, rand_fp12)])
    emit(`fp12_inv ${fp12_hex(a)} ${fp12_hex(Fp12.inv(a))}`);

  // ---- G1, G2 ------------------------------------------------------------
  const curve_vectors = (pre, Pt, rand_pt, pt_hex, pt_norm, n_rand) => {
    const g = Pt.BASE;
    const p = rand_pt();
    const q = rand_pt();
    section(`${pre}_add`, 'P Q P+Q (zcash uncompressed)');
    const adds = [[g, g], [p, p], [p, p.negate()], [p, Pt.ZERO], [Pt.ZERO, q], [Pt.ZERO, Pt.ZERO],
      [g, g.double()], [p, q]];
    for (let i = 0; i < n_rand; i++) adds.push([rand_pt(), rand_pt()]);
    for (const [a, b] of adds) emit(`${pre}_add ${pt_hex(a)} ${pt_hex(b)} ${pt_hex(a.add(b))}`);
    section(`${pre}_dbl`, 'P 2P');
    const dbls = [g, Pt.ZERO, p, p.negate()];
    for (let i = 0; i < n_rand; i++) dbls.push(rand_pt());
    for (const a of dbls) emit(`${pre}_dbl ${pt_hex(a)} ${pt_hex(a.double())}`);
    section(`${pre}_mul`, 'P k [k]P (k in Fr, big-endian)');
    const muls = [[g, 0n], [g, 1n], [g, 2n], [g, R - 1n], [p, 0n], [p, 1n], [p, R - 1n],
      [p, R - 2n], [Pt.ZERO, rand_fr_nonzero()], [g, (1n << 64n) - 1n], [p, 1n << 254n]];
    for (let i = 0; i < n_rand; i++) muls.push([rand_pt(), rand_fr()]);
    for (const [a, k] of muls) emit(`${pre}_mul ${pt_hex(a)} ${fr_hex(k)} ${pt_hex(a.multiplyUnsafe(k))}`);
    section(`${pre}_compress`, 'P(uncompressed) P(compressed)');
    const cs = [g, g.negate(), Pt.ZERO, p, p.negate()];
    for (let i = 0; i < n_rand; i++) cs.push(rand_pt());
    for (const a of cs) emit(`${pre}_compress ${pt_hex(a)} ${hex_from_bytes(pt_norm(a).toBytes(true))}`);
  };
  curve_vectors('g1', G1, rand_g1, g1_hex, g1_norm, 16);
  curve_vectors('g2', G2, rand_g2, g2_hex, g2_norm, 12);

  // ---- Pairing -----------------------------------------------------------
  // noble refuses infinity in pairings, so no vector has it.
  section('pairing', 'P Q e(P,Q)[12]');
  {
    const a = rand_fr_nonzero();
    const v = [[G1.BASE, G2.BASE], [G1.BASE.negate(), G2.BASE], [G1.BASE, G2.BASE.negate()],
      [G1.BASE.multiply(a), G2.BASE], [G1.BASE, G2.BASE.multiply(a)],
      [G1.BASE.multiply(R - 1n), G2.BASE.multiply(R - 1n)]];
    for (let i = 0; i < 6; i++) v.push([rand_g1(), rand_g2()]);
    for (const [p, q] of v) emit(`pairing ${g1_hex(p)} ${g2_hex(q)} ${fp12_hex(bls.pairing(p, q))}`);
  }
  section('pairing_product', 'P1 Q1 P2 Q2 e(P1,Q1)*e(P2,Q2)[12]');
  {
    const a = rand_fr_nonzero();
    const b = rand_fr_nonzero();
    const pa = G1.BASE.multiply(a);
    const qb = G2.BASE.multiply(b);
    const v = [
      [pa, G2.BASE, pa.negate(), G2.BASE], // e(aG, H) e(-aG, H) = 1
      [pa, qb, G1.BASE.multiply(Fr.mul(a, b)).negate(), G2.BASE], // bilinearity: = 1
      [pa, qb, pa, qb], // e(P, Q)^2
      [G1.BASE, G2.BASE, G1.BASE, G2.BASE.negate()],
    ];
    for (let i = 0; i < 7; i++) v.push([rand_g1(), rand_g2(), rand_g1(), rand_g2()]);
    for (const [p1, q1, p2, q2] of v) {
      const f = bls.pairingBatch([{ g1: p1, g2: q1 }, { g1: p2, g2: q2 }]);
      const g = Fp12.mul(bls.pairing(p1, q1), bls.pairing(p2, q2));
      if (!Fp12.eql(f, g)) throw new Error('noble pairingBatch disagrees with pairing products');
      emit(`pairing_product ${g1_hex(p1)} ${g2_hex(q1)} ${g1_hex(p2)} ${g2_hex(q2)} ${fp12_hex(f)}`);
    }
  }

  const header = [
    '# BLS12-381 test vectors computed by @noble/curves, checked by tests/test_noble_vectors.c.',
    `# Generated by tools/gen_vectors.mjs with @noble/curves@${NOBLE_VERSION}, seed "${opts.seed}".`,
    '# Do not edit by hand: rerun the script (same seed => same file).',
    '# Format: op field..., lowercase big-endian hex; Fp 96 hex chars, Fr 64; Fp2 "c0 c1";',
    '# Fp12 12 Fp c0.c0.c0 c0.c0.c1 c0.c1.c0 ... c1.c2.c1; G1/G2 zcash encodings.',
  ];
  mkdirSync(dirname(opts.out), { recursive: true });
  writeFileSync(opts.out, [...header, ...out, ''].join('\n'));
  const n = out.filter((l) => !l.startsWith('#')).length;
  process.stderr.write(`wrote ${n} vectors to ${opts.out}\n`);
}

await main();
