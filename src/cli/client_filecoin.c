/* A Filecoin request from gen-vanilla's public values (client_filecoin.h).
 * The fields are those Curio sets (curio lib/ffi/cuzk_funcs.go), and the
 * registered proof numbers those daemon_filecoin.c proof_shape reads
 * back: RegisteredSealProof (the fil_seal_proof value), RegisteredPoStProof
 * 0..4 Winning V1, 5..9 Window V1, 10..14 Window V1_2, and
 * RegisteredUpdateProof 0..4, each by sector size 2 KiB, 8 MiB, 512 MiB,
 * 32 GiB, 64 GiB. */
#include "client_filecoin.h"

#include <stdio.h>
#include <string.h>

const char CLIENT_FIL_USAGE[] =
    "filecoin: --public DIR/public.json   the public values `cuzk filecoin gen-vanilla`\n"
    "                               wrote; the request's kind, miner, sector, randomness\n"
    "                               and commitments come from it (--kind is then optional)\n"
    "          --vanilla FILE...    the vanilla proofs, in order (porep: c1.json or\n"
    "                               c1.curio.json; PoSt: sector-*.vproof, those of the\n"
    "                               partition; snap-deals: partition-*.vproof)\n"
    "          --registered-proof N Curio's number (default: from kind, size and api)\n"
    "          --partition K        window-post: the partition (default: public.json's\n"
    "                               \"partition\", else 0)\n";

static const uint64_t SIZES[5] = {2048ull, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};

int client_fil_take(client_fil_opts_t *o, const char **file, const char *cmd, int argc, char **argv,
                    int *i)
{
    const char *n = argv[*i];
    if (strcmp(n, "--public") && strcmp(n, "--vanilla") && strcmp(n, "--registered-proof") &&
        strcmp(n, "--partition"))
        return 0;
    if (*i + 1 >= argc || !argv[*i + 1][0]) {
        fprintf(stderr, "cuzk %s: %s: needs a value\n", cmd, n);
        return -1;
    }
    const char *v = argv[++*i];
    long x = 0;
    if (!strcmp(n, "--public")) {
        o->public_path = v;
        return 1;
    }
    if (!strcmp(n, "--vanilla")) {
        *file = v;
        return 2;
    }
    if (!strcmp(n, "--registered-proof")) {
        if (!client_parse_long(&x, v, 0, 1000000)) {
            fprintf(stderr, "cuzk %s: %s: '%s' is not a registered proof number\n", cmd, n, v);
            return -1;
        }
        o->registered_proof = (uint64_t)x;
        o->have_rp = 1;
        return 1;
    }
    if (!client_parse_long(&x, v, 0, 1000000)) {
        fprintf(stderr, "cuzk %s: %s: '%s' is not a partition index (0..1000000)\n", cmd, n, v);
        return -1;
    }
    o->partition = (unsigned)x;
    o->have_part = 1;
    return 1;
}

/* The request kind of a circuit kind; 0 (GROTH16_CIRCUIT) when the daemon
 * proves none. */
static Cuzk__V1__ProofKind kind_of(fil_circuit_kind k)
{
    switch (k) {
    case FIL_CIRCUIT_POREP: return CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    case FIL_CIRCUIT_WINNING_POST: return CUZK__V1__PROOF_KIND__WINNING_POST;
    case FIL_CIRCUIT_WINDOW_POST: return CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION;
    case FIL_CIRCUIT_SNAP_DEALS: return CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE;
    default: return CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT;
    }
}

cuzk_status client_fil_registered_proof(uint64_t *out, const fil_public_t *p, cuzk_error_t *err)
{
    if (p->kind == FIL_CIRCUIT_POREP) {
        *out = (uint64_t)p->seal;
        return CUZK_OK;
    }
    unsigned s = 0;
    while (s < 5 && SIZES[s] != p->sector_size)
        s++;
    if (s == 5)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "sector_size %llu: no registered proof has it (give "
                              "--registered-proof)",
                              (unsigned long long)p->sector_size);
    switch (p->kind) {
    case FIL_CIRCUIT_WINNING_POST: *out = s; return CUZK_OK;
    /* V1 and V1_1 WindowPoSt draw the same challenges; V1_2 is api 1.2 */
    case FIL_CIRCUIT_WINDOW_POST: *out = (p->api == FIL_API_1_2 ? 10u : 5u) + s; return CUZK_OK;
    case FIL_CIRCUIT_SNAP_DEALS: *out = s; return CUZK_OK;
    default:
        return cuzk_error_set(err, CUZK_ERR_ARG, "kind %s: the daemon takes no such request",
                              fil_circuit_kind_str(p->kind));
    }
}

/* Reads and parses the public values file. */
static cuzk_status load_public(fil_public_t *out, const char *path, cuzk_error_t *err)
{
    char *paths[1] = {(char *)path};
    client_files_t f = {0};
    cuzk_status s = client_files_map(&f, paths, 1, err);
    if (s == CUZK_OK) {
        s = fil_public_parse(out, f.blobs[0].data, f.blobs[0].len, err);
        client_files_unmap(&f);
    }
    if (s != CUZK_OK) { /* the map's message names the file; the parser's does not */
        char m[CUZK_ERRMSG_MAX];
        snprintf(m, sizeof m, "%s", err->msg);
        cuzk_error_set(err, s, "--public: %s%s%s", strstr(m, path) ? "" : path,
                       strstr(m, path) ? "" : ": ", m);
    }
    return s;
}

/* The partition: --partition, else the file's, else 0; only WindowPoSt. */
static cuzk_status pick_partition(client_fil_t *f, const client_fil_opts_t *o, cuzk_error_t *err)
{
    const fil_public_t *p = &f->pub;
    int in_file = (p->have & FIL_PUB_PARTITION) != 0;
    if (f->kind != CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION) {
        if (o->have_part)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "--partition: only a window-post request has one");
        return CUZK_OK;
    }
    if (o->have_part && in_file && o->partition != p->partition)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "--partition %u: the public values are partition %u's", o->partition,
                              p->partition);
    f->partition = o->have_part ? o->partition : in_file ? p->partition : 0;
    return CUZK_OK;
}

cuzk_status client_fil_load(client_fil_t *out, client_job_t *job, const client_fil_opts_t *o,
                            cuzk_error_t *err)
{
    memset(out, 0, sizeof *out);
    if (!o->public_path) {
        if (job->kind != CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT)
            return cuzk_error_set(err, CUZK_ERR_ARG, "--public: needed with a Filecoin --kind");
        if (o->have_rp || o->have_part)
            return cuzk_error_set(err, CUZK_ERR_ARG, "%s: only with --public",
                                  o->have_rp ? "--registered-proof" : "--partition");
        return CUZK_OK; /* a GROTH16_CIRCUIT request */
    }
    if (job->circuit_id)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "--circuit: not with --public (a Filecoin "
                              "request names no circuit)");
    cuzk_status s = load_public(&out->pub, o->public_path, err);
    if (s != CUZK_OK)
        return s;
    out->kind = kind_of(out->pub.kind);
    if (out->kind == CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT)
        s = cuzk_error_set(err, CUZK_ERR_ARG, "--public: kind %s: the daemon takes no such request",
                           fil_circuit_kind_str(out->pub.kind));
    else if (job->kind != CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT && job->kind != out->kind)
        s = cuzk_error_set(err, CUZK_ERR_ARG, "--kind: %s holds a %s proof's public values",
                           o->public_path, fil_circuit_kind_str(out->pub.kind));
    else if (o->have_rp)
        out->registered_proof = o->registered_proof;
    else
        s = client_fil_registered_proof(&out->registered_proof, &out->pub, err);
    if (s == CUZK_OK)
        s = pick_partition(out, o, err);
    if (s != CUZK_OK) {
        client_fil_free(out);
        return s;
    }
    job->kind = out->kind;
    return CUZK_OK;
}

void client_fil_free(client_fil_t *f)
{
    fil_public_free(&f->pub);
    memset(f, 0, sizeof *f);
}

void client_fil_fill(Cuzk__V1__SubmitProofRequest *req, client_fil_t *f)
{
    fil_public_t *p = &f->pub;
    req->proof_kind = f->kind;
    req->sector_size = p->sector_size;
    req->registered_proof = f->registered_proof;
    if (p->have & FIL_PUB_MINER_ID)
        req->miner_id = p->miner_id;
    switch (f->kind) {
    case CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT:
    case CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE:
        if (p->have & FIL_PUB_SECTOR_ID)
            req->sector_number = p->sector_id;
        if (f->kind == CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE) {
            req->comm_r_old = (ProtobufCBinaryData){32, p->comm_r_old};
            req->comm_r_new = (ProtobufCBinaryData){32, p->comm_r_new};
            req->comm_d_new = (ProtobufCBinaryData){32, p->comm_d_new};
        }
        break;
    default: /* PoSt */
        req->randomness = (ProtobufCBinaryData){32, p->randomness};
        req->partition_index = f->partition;
        break;
    }
}
