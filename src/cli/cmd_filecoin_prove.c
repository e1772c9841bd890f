/* `cuzk filecoin setup|prove|verify`: Filecoin proofs from vanilla proofs,
 * with the real v28 parameter files (or insecure test ones made by setup
 * under the same names).
 *
 *   setup --kind K --sector-size S [--api V] [--seed N] [--params-dir DIR]
 *       an INSECURE key pair <stem>.params / <stem>.vk for the circuit, for
 *       tests and benchmarks without the real parameters;
 *   prove --kind K --sector-size S --vanilla FILE... [--public FILE]
 *         [value flags] [--params-dir DIR] [--circuit-cache DIR]
 *         [--device cpu|cuda] [--threads N] [--witness-pack off|auto|always]
 *         [--public-out FILE] --out FILE
 *       every partition proved, each verified against the inputs derived
 *       from the public values (filecoin_public.h) before the proofs (192
 *       bytes each, in partition order) are written; the vanilla proofs
 *       are parsed, completed and checked by a proving job
 *       (filecoin_job.h), as the daemon's are; a witness is made packed
 *       (zeros and ones as bits, fil_job_witness_pack) where the device
 *       expands packs and the kind's witness is mostly bits (auto, the
 *       default), for every kind and device (always), or never (off);
 *   verify --public FILE [value flags] [--params-dir DIR | --vk FILE] PROOF
 *       exit 0 valid, 1 invalid, 2 bad input.
 *
 * Value flags override or complete the public values: --api V,
 * --randomness HEX, --miner-id N, --sector-id N, --partition K,
 * --comm-r-old HEX, --comm-d-new HEX, --comm-r-new HEX, --h N (HEX: 64
 * digits, the 32 bytes as stored). The parameter folder defaults to
 * $FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters;
 * the circuit cache to the parameter folder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_backend.h"
#include "cli_util.h"
#include "cuzk/bellperson.h"
#include "cuzk/engine.h"
#include "cuzk/filecoin_job.h"
#include "cuzk/fr_pack.h"
#include "cuzk/filecoin_params.h"
#include "cuzk/filecoin_prove.h"
#include "cuzk/filecoin_public.h"
#include "cuzk/groth16.h"
#include "cuzk/key.h"
#include "cuzk/key_load.h"
#include "cuzk/key_write.h"
#include "cuzk/prover.h"
#include "cuzk/setup.h"

#define MAX_VANILLA 4096

typedef struct fp_args {
    const char *sub;
    fil_circuit_kind kind;
    uint64_t sector_size;
    fil_public_t over; /* values from flags (have bits say which) */
    int have_api;
    uint64_t seed;
    int threads;
    device_kind device;
    engine_witness_pack pack; /* --witness-pack (filecoin prove) */
    const char *out, *public_path, *public_out, *params_dir, *cache_dir, *vk_path;
    const char *vanilla[MAX_VANILLA];
    int n_vanilla;
    const char *proof_path;
} fp_args_t;

static int usage(const char *sub)
{
    fprintf(stderr,
            "usage: cuzk filecoin setup --kind K --sector-size S [--api V] [--seed N]\n"
            "                           [--params-dir DIR] [--threads N]\n"
            "       cuzk filecoin prove --kind K --sector-size S --vanilla FILE...\n"
            "                           [--public FILE] [values] [--params-dir DIR]\n"
            "                           [--circuit-cache DIR] [--device cpu|cuda]\n"
            "                           [--threads N] [--witness-pack off|auto|always]\n"
            "                           [--public-out FILE] --out PROOF\n"
            "       cuzk filecoin verify --public FILE [values] [--params-dir DIR | --vk FILE]\n"
            "                            PROOF\n"
            "  K: porep (--vanilla: the C1 JSON or Curio's envelope of it), winning-post,\n"
            "     window-post, snap-deals, snap-deals-poseidon\n"
            "  S: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB\n"
            "  values: --api V --randomness HEX --miner-id N --sector-id N --partition K\n"
            "          --comm-r-old HEX --comm-d-new HEX --comm-r-new HEX --h N\n"
            "  (cuzk filecoin %s: see the usage above)\n",
            sub);
    return CLI_USAGE;
}

static cuzk_status uint_arg(uint64_t *out, const char *s, const char *what, cuzk_error_t *err)
{
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *end || s[0] == '-')
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: '%s' is not a whole number", what, s);
    *out = v;
    return CUZK_OK;
}

static int parse(fp_args_t *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->sub = argv[0];
    a->kind = FIL_CIRCUIT_COUNT;
    a->device = DEVICE_AUTO;
    a->pack = ENGINE_PACK_AUTO;
    a->over.api = FIL_API_1_1;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        cuzk_error_t err = {0};
        cuzk_status st = CUZK_OK;
        uint64_t u = 0;
        if (o[0] != '-') {
            if (!strcmp(a->sub, "verify") && !a->proof_path) {
                a->proof_path = o;
                continue;
            }
            return usage(a->sub);
        }
        if (!strcmp(o, "--vanilla")) {
            /* every following non-option argument is a vanilla file */
            while (i + 1 < argc && argv[i + 1][0] != '-') {
                if (a->n_vanilla == MAX_VANILLA) {
                    fprintf(stderr, "cuzk filecoin: more than %d vanilla files\n", MAX_VANILLA);
                    return CLI_USAGE;
                }
                a->vanilla[a->n_vanilla++] = argv[++i];
            }
            continue;
        }
        if (!v) {
            fprintf(stderr, "cuzk filecoin %s: %s needs a value\n", a->sub, o);
            return CLI_USAGE;
        }
        i++;
        if (!strcmp(o, "--kind"))
            st = fil_circuit_kind_parse(&a->kind, v, &err);
        else if (!strcmp(o, "--sector-size"))
            st = fil_sector_size_parse(&a->sector_size, v, &err);
        else if (!strcmp(o, "--api")) {
            st = fil_api_version_parse(&a->over.api, v, &err);
            a->have_api = 1;
        } else if (!strcmp(o, "--seed"))
            st = uint_arg(&a->seed, v, o, &err);
        else if (!strcmp(o, "--threads")) {
            st = uint_arg(&u, v, o, &err);
            a->threads = (int)u;
        } else if (!strcmp(o, "--device")) {
            if (!cli_device_arg(&a->device, "filecoin", v))
                return CLI_USAGE;
        } else if (!strcmp(o, "--witness-pack")) {
            int m = engine_witness_pack_parse(v);
            if (m < 0) {
                fprintf(stderr, "cuzk filecoin %s: --witness-pack '%s': off, auto or always\n",
                        a->sub, v);
                return CLI_USAGE;
            }
            a->pack = (engine_witness_pack)m;
        } else if (!strcmp(o, "--out"))
            a->out = v;
        else if (!strcmp(o, "--public"))
            a->public_path = v;
        else if (!strcmp(o, "--public-out"))
            a->public_out = v;
        else if (!strcmp(o, "--params-dir"))
            a->params_dir = v;
        else if (!strcmp(o, "--circuit-cache"))
            a->cache_dir = v;
        else if (!strcmp(o, "--vk"))
            a->vk_path = v;
        else if (!strcmp(o, "--randomness")) {
            st = fil_hex32_parse(a->over.randomness, v, o, &err);
            a->over.have |= FIL_PUB_RANDOMNESS;
        } else if (!strcmp(o, "--comm-r-old")) {
            st = fil_hex32_parse(a->over.comm_r_old, v, o, &err);
            a->over.have |= FIL_PUB_COMM_R_OLD;
        } else if (!strcmp(o, "--comm-d-new")) {
            st = fil_hex32_parse(a->over.comm_d_new, v, o, &err);
            a->over.have |= FIL_PUB_COMM_D_NEW;
        } else if (!strcmp(o, "--comm-r-new")) {
            st = fil_hex32_parse(a->over.comm_r_new, v, o, &err);
            a->over.have |= FIL_PUB_COMM_R_NEW;
        } else if (!strcmp(o, "--miner-id")) {
            st = uint_arg(&a->over.miner_id, v, o, &err);
            a->over.have |= FIL_PUB_MINER_ID;
        } else if (!strcmp(o, "--sector-id")) {
            st = uint_arg(&a->over.sector_id, v, o, &err);
            a->over.have |= FIL_PUB_SECTOR_ID;
        } else if (!strcmp(o, "--partition") || !strcmp(o, "--h")) {
            st = uint_arg(&u, v, o, &err);
            if (st == CUZK_OK && u > (1u << 20))
                st = cuzk_error_set(&err, CUZK_ERR_ARG, "%s %s is out of range", o, v);
            *(o[2] == 'p' ? &a->over.partition : &a->over.h) = (unsigned)u;
            a->over.have |= o[2] == 'p' ? FIL_PUB_PARTITION : FIL_PUB_H;
        } else {
            fprintf(stderr, "cuzk filecoin %s: unknown option %s\n", a->sub, o);
            return usage(a->sub);
        }
        if (st != CUZK_OK)
            return cli_fail("filecoin", o, &err);
    }
    return CLI_OK;
}

static const char *params_dir(const fp_args_t *a)
{
    return a->params_dir ? a->params_dir : fil_params_dir_default();
}

/* Copies the values given by flags over p. */
static void apply_flags(fil_public_t *p, const fp_args_t *a)
{
    const fil_public_t *o = &a->over;
    if (a->have_api)
        p->api = o->api;
    if (o->have & FIL_PUB_RANDOMNESS)
        memcpy(p->randomness, o->randomness, 32);
    if (o->have & FIL_PUB_COMM_R_OLD)
        memcpy(p->comm_r_old, o->comm_r_old, 32);
    if (o->have & FIL_PUB_COMM_D_NEW)
        memcpy(p->comm_d_new, o->comm_d_new, 32);
    if (o->have & FIL_PUB_COMM_R_NEW)
        memcpy(p->comm_r_new, o->comm_r_new, 32);
    if (o->have & FIL_PUB_MINER_ID)
        p->miner_id = o->miner_id;
    if (o->have & FIL_PUB_SECTOR_ID)
        p->sector_id = o->sector_id;
    if (o->have & FIL_PUB_PARTITION)
        p->partition = o->partition;
    if (o->have & FIL_PUB_H)
        p->h = o->h;
    p->have |= o->have;
}

static int read_all(uint8_t **out, size_t *n, const char *path)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cuzk filecoin: cannot open %s\n", path);
        return 0;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + len, 1, cap - len, f)) > 0;) {
        len += got;
        if (len == cap) {
            uint8_t *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        fprintf(stderr, "cuzk filecoin: cannot read %s\n", path);
        free(buf);
        return 0;
    }
    *out = buf;
    *n = len;
    return 1;
}

/* The public values: --public (if given), then the flags. */
static int load_public(fil_public_t *p, const fp_args_t *a)
{
    cuzk_error_t err = {0};
    memset(p, 0, sizeof *p);
    if (a->public_path) {
        uint8_t *b;
        size_t n;
        if (!read_all(&b, &n, a->public_path))
            return 0;
        cuzk_status st = fil_public_parse(p, b, n, &err);
        free(b);
        if (st != CUZK_OK) {
            cli_fail("filecoin", a->public_path, &err);
            return 0;
        }
        if ((a->kind != FIL_CIRCUIT_COUNT && a->kind != p->kind) ||
            (a->sector_size && a->sector_size != p->sector_size)) {
            fprintf(stderr,
                    "cuzk filecoin: %s is a %s proof of %s sectors, not what the "
                    "flags say\n",
                    a->public_path, fil_circuit_kind_str(p->kind),
                    fil_sector_size_str(p->sector_size));
            fil_public_free(p);
            return 0;
        }
    } else {
        p->kind = a->kind;
        p->sector_size = a->sector_size;
        p->api = FIL_API_1_1;
    }
    apply_flags(p, a);
    return 1;
}

/* The .params (when asked) and .vk paths of stem in dir. */
static int key_paths(char *params, char *vk, size_t cap, const char *stem, const char *dir,
                     int need_params)
{
    cuzk_error_t err = {0};
    if ((params &&
         fil_params_path(params, cap, dir, stem, "params", need_params, &err) != CUZK_OK) ||
        (vk && fil_params_path(vk, cap, dir, stem, "vk", 1, &err) != CUZK_OK)) {
        cli_fail("filecoin", "parameters", &err);
        return 0;
    }
    return 1;
}

static int load_circuit(circuit_t *c, const fp_args_t *a, fil_circuit_kind kind,
                        uint64_t sector_size, fil_api_version api, const char *stem)
{
    cuzk_error_t err = {0};
    const char *dir = a->cache_dir ? a->cache_dir : params_dir(a);
    size_t len = strlen(dir) + strlen(stem) + 32;
    char *path = malloc(len);
    if (!path)
        return 0;
    snprintf(path, len, "%s/%s.cuzk-%s.ccs", dir, stem, FIL_CIRCUIT_CACHE_REV);
    double t0 = cli_now();
    fil_circuit_source src;
    cuzk_status st = fil_circuit_load(c, &src, kind, sector_size, api, path, a->threads, &err);
    if (st == CUZK_OK && src != FIL_CIRCUIT_CACHED)
        fprintf(stderr, "cuzk filecoin: circuit %s %s (%u constraints) in %.2f s -> %s\n",
                src == FIL_CIRCUIT_REBUILT ? "re-recorded (the cache was unusable)" : "recorded",
                fil_circuit_kind_str(kind), c->n_rows, cli_now() - t0, path);
    free(path);
    if (st == CUZK_ERR_IO) /* a read-only parameter folder, a full disk */
        fprintf(stderr,
                "cuzk filecoin: circuit cache in %s: %s (--circuit-cache DIR keeps it "
                "elsewhere)\n",
                dir, err.msg);
    else if (st != CUZK_OK)
        cli_fail("filecoin", "circuit", &err);
    return st == CUZK_OK;
}

static int cmd_setup_(const fp_args_t *a)
{
    if (a->kind == FIL_CIRCUIT_COUNT || !a->sector_size)
        return usage(a->sub);
    char stem[256], params[4096], vk[4096];
    const char *dir = params_dir(a);
    cuzk_error_t err = {0};
    if (fil_params_stem(stem, sizeof stem, a->kind, a->sector_size, a->over.api, &err) != CUZK_OK ||
        fil_params_path(params, sizeof params, dir, stem, "params", 0, &err) != CUZK_OK ||
        fil_params_path(vk, sizeof vk, dir, stem, "vk", 0, &err) != CUZK_OK)
        return cli_fail("filecoin setup", "parameters", &err);
    fprintf(stderr,
            "cuzk filecoin setup: WARNING: insecure test parameters (toxic waste from seed "
            "%llu): never use them on chain\n",
            (unsigned long long)a->seed);
    circuit_t c;
    if (!load_circuit(&c, a, a->kind, a->sector_size, a->over.api, stem))
        return CLI_USAGE;
    double t0 = cli_now();
    groth16_key_t k = {0};
    int rc = CLI_USAGE;
    if (groth16_setup(&k, &c, GROTH16_BELLPERSON, a->seed, a->threads, &err) != CUZK_OK)
        rc = cli_fail("filecoin setup", "setup", &err);
    else if (bellperson_params_write_file(params, &k, &err) != CUZK_OK)
        rc = cli_fail("filecoin setup", params, &err);
    else if (bellperson_vk_write_file(vk, &k.vk, &err) != CUZK_OK)
        rc = cli_fail("filecoin setup", vk, &err);
    else {
        printf("%s: %u constraints, %u inputs, domain 2^%u, in %.2f s\n%s\n", params, c.n_rows,
               c.n_public, k.log_m, cli_now() - t0, vk);
        rc = CLI_OK;
    }
    groth16_key_free(&k);
    circuit_free(&c);
    return rc;
}

/* ---- prove: the vanilla proofs through a proving job (filecoin_job.h) ---- */

/* The vanilla files' bytes, in order. */
static int read_vanilla(uint8_t **bytes, size_t *lens, const fp_args_t *a)
{
    for (int i = 0; i < a->n_vanilla; i++)
        if (!read_all(&bytes[i], &lens[i], a->vanilla[i]))
            return 0;
    return 1;
}

/* The job of the vanilla files and public values p: their parse errors
 * and inconsistencies are bad input (exit 2), an invalid vanilla proof
 * exits 1. */
static int make_job(fil_job_t **job, const fil_public_t *p, const fp_args_t *a)
{
    uint8_t **bytes = calloc((size_t)a->n_vanilla, sizeof *bytes);
    size_t *lens = calloc((size_t)a->n_vanilla, sizeof *lens);
    int rc = CLI_USAGE;
    if (!bytes || !lens)
        fprintf(stderr, "cuzk filecoin: out of memory for %d vanilla proofs\n", a->n_vanilla);
    else if (read_vanilla(bytes, lens, a)) {
        cuzk_error_t err = {0};
        cuzk_status st = fil_job_new(job, p, (const uint8_t *const *)bytes, lens,
                                     (size_t)a->n_vanilla, a->vanilla, &err);
        if (st == CUZK_OK)
            rc = CLI_OK;
        else {
            fprintf(stderr, "cuzk filecoin prove: %s\n", err.msg);
            rc = st == CUZK_ERR_INVALID ? CLI_INVALID : CLI_USAGE;
        }
    }
    for (int i = 0; bytes && i < a->n_vanilla; i++)
        free(bytes[i]);
    free(bytes);
    free(lens);
    return rc;
}

/* Proves partition i of the witness w, or of its pack pw where w is NULL
 * (fil_job_witness or fil_job_witness_pack made it, values only, and
 * matched its inputs with in[0..n_in)) and verifies the proof
 * against the .vk. A proof that does not verify is explained:
 * fil_job_diagnose evaluates every constraint of the partition (the
 * vanilla proof is not valid, naming the constraint); when they all hold,
 * the key files do not belong together. Checking every constraint before
 * proving cost every good proof 12 s per 32 GiB partition on 2 cores; now
 * only a failed one pays for it. Returns CLI_OK, CLI_INVALID, CLI_USAGE. */
static int prove_one(groth16_proof_t *proof, const groth16_pk_t *pk, const groth16_vk_t *vk,
                     const circuit_t *c, const fr_t *w, const fr_pack_t *pw, const fr_t *in,
                     size_t n_in, const cli_backend_t *be, const fil_job_t *job, int threads,
                     unsigned i)
{
    cuzk_error_t err = {0};
    /* the check is the verification below, against the .vk file */
    groth16_prove_opts_t opts = {threads, 1, NULL};
    fr_t r, s;
    if (fr_random(&r, &err) != CUZK_OK || fr_random(&s, &err) != CUZK_OK)
        return cli_fail("filecoin prove", "blinding", &err);
    cuzk_status st = w ? groth16_prove(proof, pk, c, w, &r, &s, be->be, &opts, &err)
                       : groth16_prove_packed(proof, pk, c, pw, &r, &s, be->be, &opts, &err);
    if (st != CUZK_OK)
        return cli_fail("filecoin prove", "prove", &err);
    int valid = 0;
    if (groth16_verify(&valid, vk, proof, in, n_in, &err) != CUZK_OK)
        return cli_fail("filecoin prove", "verify", &err);
    if (valid)
        return CLI_OK;
    st = fil_job_diagnose(job, i, threads ? threads : -1, &err);
    if (st == CUZK_ERR_INVALID) {
        fprintf(stderr, "cuzk filecoin prove: %s\n", err.msg);
        return CLI_INVALID;
    }
    if (st != CUZK_OK)
        return cli_fail("filecoin prove", "checking the witness", &err);
    fprintf(stderr,
            "cuzk filecoin prove: partition %u: the proof does not verify against the .vk, "
            "though the witness satisfies every constraint (do the .params and .vk belong "
            "together?)\n",
            i);
    return CLI_INVALID;
}

static int write_file(const char *path, const void *data, size_t len)
{
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (!tmp)
        return 0;
    snprintf(tmp, n, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = 0;
    if (ok && rename(tmp, path) != 0)
        ok = 0;
    if (!ok) {
        remove(tmp);
        fprintf(stderr, "cuzk filecoin: cannot write %s\n", path);
    }
    free(tmp);
    return ok;
}

/* The proofs, and the completed public values when asked. */
static int write_outputs(const fp_args_t *a, const groth16_proof_t *proofs, unsigned parts,
                         const fil_job_t *job)
{
    uint8_t *bytes = calloc(parts, BELLPERSON_PROOF_BYTES);
    if (!bytes)
        return CLI_USAGE;
    bellperson_proofs_write(bytes, proofs, parts);
    int ok = write_file(a->out, bytes, (size_t)parts * BELLPERSON_PROOF_BYTES);
    free(bytes);
    if (!ok)
        return CLI_USAGE;
    if (a->public_out) {
        char *json = NULL;
        cuzk_error_t err = {0};
        if (fil_public_write(&json, fil_job_public(job), &err) != CUZK_OK)
            return cli_fail("filecoin prove", a->public_out, &err);
        ok = write_file(a->public_out, json, strlen(json));
        free(json);
        if (!ok)
            return CLI_USAGE;
    }
    return CLI_OK;
}

static int cmd_prove_(const fp_args_t *a)
{
    /* without --public: --kind and --sector-size (a PoRep's C1 says both) */
    if (!a->out || a->n_vanilla == 0 ||
        (!a->public_path && a->kind != FIL_CIRCUIT_POREP &&
         (a->kind == FIL_CIRCUIT_COUNT || !a->sector_size)))
        return usage(a->sub);
    fil_public_t p;
    if (!load_public(&p, a))
        return CLI_USAGE;
    if (p.kind < 0 || p.kind >= FIL_CIRCUIT_COUNT) {
        fprintf(stderr, "cuzk filecoin prove: --kind %s is not provable yet\n",
                fil_circuit_kind_str(p.kind));
        fil_public_free(&p);
        return CLI_USAGE;
    }
    cuzk_error_t err = {0};
    fil_job_t *job = NULL;
    bellperson_params_t bp;
    memset(&bp, 0, sizeof bp);
    groth16_vk_t vk;
    memset(&vk, 0, sizeof vk);
    groth16_pk_t pk;
    memset(&pk, 0, sizeof pk);
    circuit_t c;
    memset(&c, 0, sizeof c);
    cli_backend_t be;
    memset(&be, 0, sizeof be);
    groth16_proof_t *proofs = NULL;
    fr_t *w = NULL;
    char params[4096], vkp[4096];
    double t0 = cli_now();
    int rc = make_job(&job, &p, a);
    fil_public_free(&p);
    if (rc != CLI_OK)
        goto out;
    rc = CLI_USAGE;
    const fil_circuit_kind kind = fil_job_kind(job);
    const uint64_t size = fil_job_sector_size(job);
    const char *stem = fil_job_param_stem(job);
    unsigned parts = fil_job_partitions(job);
    if (!key_paths(params, vkp, sizeof params, stem, params_dir(a), 1))
        goto out;
    if (bellperson_params_open(&bp, params, BELLPERSON_CHECK_KEY, a->threads, &err) != CUZK_OK) {
        rc = cli_fail("filecoin prove", params, &err);
        goto out;
    }
    if (bellperson_vk_load(&vk, vkp, &err) != CUZK_OK) {
        rc = cli_fail("filecoin prove", vkp, &err);
        goto out;
    }
    if (!load_circuit(&c, a, kind, size, fil_job_api(job), stem))
        goto out;
    if (groth16_pk_from_params(&pk, &bp, c.n_vars, &err) != CUZK_OK ||
        bp.vk.n_ic != (size_t)c.n_public + 1 || vk.n_ic != bp.vk.n_ic) {
        if (!err.msg[0])
            cuzk_error_set(&err, CUZK_ERR_FORMAT,
                           "the key has %zu IC points (.vk: %zu); the circuit has %u inputs",
                           bp.vk.n_ic, vk.n_ic, c.n_public);
        rc = cli_fail("filecoin prove", params, &err);
        goto out;
    }
    if (c.n_public != fil_job_n_inputs(job)) {
        fprintf(stderr,
                "cuzk filecoin prove: the circuit has %u inputs; the public values give %zu\n",
                c.n_public, fil_job_n_inputs(job));
        goto out;
    }
    if (cli_backend_open(&be, a->device, 0, &err) != CUZK_OK) {
        rc = cli_fail("filecoin prove", "--device", &err);
        goto out;
    }
    /* packed where the device expands packs (the CUDA backend; the
     * prover expands them for the others) and the kind's witness is
     * mostly bits: the 4.2 GB vector of a 32 GiB PoRep partition is
     * never made */
    const int packed =
        a->pack == ENGINE_PACK_ALWAYS ||
        (a->pack == ENGINE_PACK_AUTO && be.be->msms_packed && fil_circuit_packs_well(kind));
    proofs = calloc(parts, sizeof *proofs);
    w = packed ? NULL : malloc((size_t)c.n_vars * sizeof *w);
    if (!proofs || (!packed && !w))
        goto out;
    /* the witness on every CPU (--threads N: N), into one buffer or a pack */
    fil_witness_opts_t wo = {FIL_WITNESS_FAST, a->threads ? a->threads : -1, c.n_vars, c.n_public};
    double t_load = cli_now() - t0;
    for (unsigned i = 0; i < parts; i++) {
        double ti = cli_now();
        fr_t *in = NULL;
        size_t n_in = 0;
        fr_pack_t pw = {0};
        cuzk_status st = fil_job_inputs(&in, &n_in, job, i, &err);
        if (st == CUZK_OK)
            st = packed ? fil_job_witness_pack(&pw, c.n_vars, c.n_public, job, i, &wo, &err)
                        : fil_job_witness(w, c.n_vars, c.n_public, job, i, &wo, &err);
        if (st != CUZK_OK) {
            free(in);
            fprintf(stderr, "cuzk filecoin prove: %s\n", err.msg);
            rc = st == CUZK_ERR_INVALID ? CLI_INVALID : CLI_USAGE;
            goto out;
        }
        double tw = cli_now() - ti;
        rc = prove_one(&proofs[i], &pk, &vk, &c, w, &pw, in, n_in, &be, job, a->threads, i);
        free(in);
        size_t pack_bytes = pw.bytes;
        fr_pack_free(&pw);
        if (rc != CLI_OK)
            goto out;
        char how[48] = "";
        if (packed)
            snprintf(how, sizeof how, " (packed, %.1f MiB)", (double)pack_bytes / 1048576.0);
        fprintf(stderr,
                "cuzk filecoin prove: partition %u/%u: witness %.2f s%s, proof %.2f s, "
                "verified\n",
                i + 1, parts, tw, how, cli_now() - ti - tw);
    }
    if ((rc = write_outputs(a, proofs, parts, job)) != CLI_OK)
        goto out;
    printf("%s: %u %s partition proof%s of %s sectors, verified; load %.2f s, total %.2f s\n",
           a->out, parts, fil_circuit_kind_str(kind), parts == 1 ? "" : "s",
           fil_sector_size_str(size), t_load, cli_now() - t0);
out:
    free(w);
    free(proofs);
    cli_backend_close(&be);
    groth16_pk_release(&pk);
    circuit_free(&c);
    groth16_vk_free(&vk);
    bellperson_params_close(&bp);
    fil_job_free(job);
    return rc;
}

static int cmd_verify_(const fp_args_t *a)
{
    if (!a->proof_path || !a->public_path)
        return usage(a->sub);
    fil_public_t p;
    if (!load_public(&p, a))
        return CLI_USAGE;
    cuzk_error_t err = {0};
    int rc = CLI_USAGE;
    groth16_vk_t vk;
    memset(&vk, 0, sizeof vk);
    uint8_t *bytes = NULL;
    groth16_proof_t *proofs = NULL;
    fr_t *in = NULL;
    size_t len = 0;
    char stem[256], vkp[4096];
    unsigned parts = fil_public_partitions(&p);
    if (fil_public_check(&p, &err) != CUZK_OK) {
        rc = cli_fail("filecoin verify", "public values", &err);
        goto out;
    }
    const char *vk_path = a->vk_path;
    if (!vk_path) {
        if (fil_params_stem(stem, sizeof stem, p.kind, p.sector_size, p.api, &err) != CUZK_OK) {
            rc = cli_fail("filecoin", "parameters", &err);
            goto out;
        }
        if (!key_paths(NULL, vkp, sizeof vkp, stem, params_dir(a), 0))
            goto out;
        vk_path = vkp;
    }
    if (bellperson_vk_load(&vk, vk_path, &err) != CUZK_OK) {
        rc = cli_fail("filecoin verify", vk_path, &err);
        goto out;
    }
    if (!read_all(&bytes, &len, a->proof_path))
        goto out;
    if (len != (size_t)parts * BELLPERSON_PROOF_BYTES) {
        fprintf(stderr, "cuzk filecoin verify: %s holds %zu bytes; %u partition proofs are %zu\n",
                a->proof_path, len, parts, (size_t)parts * BELLPERSON_PROOF_BYTES);
        goto out;
    }
    proofs = calloc(parts, sizeof *proofs);
    in = calloc(vk.n_ic, sizeof *in);
    if (!proofs || !in)
        goto out;
    if (bellperson_proofs_read(proofs, parts, bytes, len, &err) != CUZK_OK) {
        /* a proof that does not decode is not a proof of anything */
        fprintf(stderr, "cuzk filecoin verify: %s: %s: INVALID\n", a->proof_path, err.msg);
        rc = CLI_INVALID;
        goto out;
    }
    for (unsigned i = 0; i < parts; i++) {
        size_t n = 0;
        int valid = 0;
        if (fil_public_inputs(in, vk.n_ic, &n, &p, i, &err) != CUZK_OK ||
            groth16_verify(&valid, &vk, &proofs[i], in, n, &err) != CUZK_OK) {
            rc = cli_fail("filecoin verify", "partition", &err);
            goto out;
        }
        if (!valid) {
            printf("%s: partition %u of %u: INVALID\n", a->proof_path, i, parts);
            rc = CLI_INVALID;
            goto out;
        }
    }
    printf("%s: %u %s partition proof%s: valid\n", a->proof_path, parts,
           fil_circuit_kind_str(p.kind), parts == 1 ? "" : "s");
    rc = CLI_OK;
out:
    free(in);
    free(proofs);
    free(bytes);
    groth16_vk_free(&vk);
    fil_public_free(&p);
    return rc;
}

int cmd_filecoin_prove(int argc, char **argv)
{
    fp_args_t *a = malloc(sizeof *a);
    if (!a)
        return CLI_USAGE;
    int rc = parse(a, argc, argv);
    if (rc == CLI_OK) {
        if (!strcmp(a->sub, "setup"))
            rc = cmd_setup_(a);
        else if (!strcmp(a->sub, "prove"))
            rc = cmd_prove_(a);
        else
            rc = cmd_verify_(a);
    }
    free(a);
    return rc;
}
