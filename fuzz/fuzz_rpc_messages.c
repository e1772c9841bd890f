/* libFuzzer harness for the bytes the daemon takes from its clients:
 * protobuf-c's unpack of every cuzk.v1 message (the requests the server
 * parses, the responses the client parses), then cuzk's own checks
 * (rpc_validate_submit, request_circuit_id_check).
 *
 * Input: one message's wire bytes, tried as every message type. Properties
 * (anything else traps):
 *  - unpack either fails or gives a message that packs to exactly
 *    get_packed_size bytes, and pack(unpack(pack(m))) == pack(m): the first
 *    repack normalises (last value of a repeated scalar field wins, string
 *    bytes after a NUL are gone), after that bytes are stable (except for
 *    protobuf-c's field-0 quirk, see has_field_zero);
 *  - rpc_validate_submit, on every SubmitProofRequest and every ProveRequest's
 *    submit, returns a status equal to err.code with a message, and when it
 *    accepts, the request meets the rules as restated here independently
 *    (kind, circuit id alphabet and leading dot, witness count and sizes,
 *    request id, priority);
 *  - request_circuit_id_check on the input as text agrees with the same
 *    restated rule.
 * Seeds (fuzz/corpus/rpc_messages/): made by this file's seed writer:
 *   clang -DCUZK_FUZZ_WRITE_SEEDS -Iinclude -I<build>/gen fuzz/fuzz_rpc_messages.c \
 *         <build>/lib/libcuzk.a -lprotobuf-c -lgrpc -lgpr -lpthread -o /tmp/seeds \
 *     && /tmp/seeds fuzz/corpus/rpc_messages
 * (well-formed requests and responses of each type, a Filecoin-kind
 * request, bad circuit ids, a truncated message). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/request.h"
#include "cuzk/rpc.h"

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c))                                                                                  \
            __builtin_trap();                                                                      \
    } while (0)

static const ProtobufCMessageDescriptor *const k_types[] = {
    &cuzk__v1__submit_proof_request__descriptor, &cuzk__v1__submit_proof_response__descriptor,
    &cuzk__v1__await_proof_request__descriptor,  &cuzk__v1__await_proof_response__descriptor,
    &cuzk__v1__prove_request__descriptor,        &cuzk__v1__prove_response__descriptor,
    &cuzk__v1__cancel_proof_request__descriptor, &cuzk__v1__cancel_proof_response__descriptor,
    &cuzk__v1__get_status_request__descriptor,   &cuzk__v1__get_status_response__descriptor,
    &cuzk__v1__get_metrics_request__descriptor,  &cuzk__v1__get_metrics_response__descriptor,
    &cuzk__v1__preload_srs_request__descriptor,  &cuzk__v1__preload_srs_response__descriptor,
    &cuzk__v1__evict_srs_request__descriptor,    &cuzk__v1__evict_srs_response__descriptor,
};

/* The rules restated, independently of util/request.c. */
static int ref_circuit_id_ok(const char *id)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-";
    size_t n = strlen(id);
    return n >= 1 && n <= REQUEST_CIRCUIT_ID_MAX && id[0] != '.' && strspn(id, alphabet) == n &&
           !strstr(id, "..");
}

static int ref_request_id_ok(const char *id)
{
    size_t n = strlen(id);
    if (n > REQUEST_ID_MAX)
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)id[i] < 0x20 || (unsigned char)id[i] > 0x7e)
            return 0;
    return 1;
}

static void check_validate(const Cuzk__V1__SubmitProofRequest *r)
{
    /* Small limits, so the fuzzer reaches every bound. */
    rpc_limits_t lim = {.max_partitions = 3, .max_witness_bytes = 64, .max_total_bytes = 100};
    cuzk_error_t err = {CUZK_OK, ""};
    cuzk_status s = rpc_validate_submit(r, &lim, &err);
    if (s != CUZK_OK) {
        CHECK(err.code == s && err.msg[0] != '\0');
        CHECK(s == CUZK_ERR_ARG || s == CUZK_ERR_UNSUPPORTED);
        if (s == CUZK_ERR_UNSUPPORTED)
            CHECK(r->proof_kind >= CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT &&
                  r->proof_kind <= CUZK__V1__PROOF_KIND__WINNING_POST);
        return;
    }
    CHECK(ref_request_id_ok(r->request_id));
    CHECK((int)r->priority >= 0 && (int)r->priority <= CUZK__V1__PRIORITY__CRITICAL);
    if (r->proof_kind != CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT) {
        /* a Filecoin kind: its vanilla proofs, never witnesses */
        CHECK(r->proof_kind >= CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT &&
              r->proof_kind <= CUZK__V1__PROOF_KIND__WINNING_POST);
        CHECK(r->n_witnesses == 0);
    } else {
        CHECK(ref_circuit_id_ok(r->circuit_id));
        CHECK(r->n_witnesses >= 1 && r->n_witnesses <= lim.max_partitions);
    }
    size_t total = r->vanilla_proof.len;
    for (size_t i = 0; i < r->n_witnesses; i++) {
        CHECK(r->witnesses[i].len >= 1 && r->witnesses[i].len <= lim.max_witness_bytes);
        total += r->witnesses[i].len;
    }
    for (size_t i = 0; i < r->n_vanilla_proofs; i++)
        total += r->vanilla_proofs[i].len;
    CHECK(total <= lim.max_total_bytes);
}

/* protobuf-c 1.4.1 keeps an unknown field numbered 0 when its tag comes in
 * an overlong varint (0x85 0x00), yet refuses the one-byte tag it packs it
 * back as (0x05): such a message does not survive a repack. Field 0 is
 * invalid protobuf and the daemon never reads unknown fields, so the
 * repack property is checked only for messages without one, here or in any
 * sub-message. */
static int has_field_zero(const ProtobufCMessage *m)
{
    for (unsigned i = 0; i < m->n_unknown_fields; i++)
        if (m->unknown_fields[i].tag == 0)
            return 1;
    const ProtobufCMessageDescriptor *d = m->descriptor;
    for (unsigned f = 0; f < d->n_fields; f++) {
        const ProtobufCFieldDescriptor *fd = &d->fields[f];
        if (fd->type != PROTOBUF_C_TYPE_MESSAGE)
            continue;
        const char *base = (const char *)m + fd->offset;
        if (fd->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(const size_t *)((const char *)m + fd->quantifier_offset);
            ProtobufCMessage *const *subs = *(ProtobufCMessage *const *const *)base;
            for (size_t i = 0; i < n; i++)
                if (has_field_zero(subs[i]))
                    return 1;
        } else {
            const ProtobufCMessage *sub = *(const ProtobufCMessage *const *)base;
            if (sub && has_field_zero(sub))
                return 1;
        }
    }
    return 0;
}

static void check_type(const ProtobufCMessageDescriptor *d, const uint8_t *data, size_t size)
{
    ProtobufCMessage *m = protobuf_c_message_unpack(d, NULL, size, data);
    if (!m)
        return;
    if (d == &cuzk__v1__submit_proof_request__descriptor)
        check_validate((const Cuzk__V1__SubmitProofRequest *)m);
    if (d == &cuzk__v1__prove_request__descriptor && ((Cuzk__V1__ProveRequest *)m)->submit)
        check_validate(((Cuzk__V1__ProveRequest *)m)->submit);
    if (has_field_zero(m)) {
        protobuf_c_message_free_unpacked(m, NULL);
        return;
    }
    size_t n1 = protobuf_c_message_get_packed_size(m);
    uint8_t *b1 = malloc(n1 ? n1 : 1);
    CHECK(b1 && protobuf_c_message_pack(m, b1) == n1);
    ProtobufCMessage *m2 = protobuf_c_message_unpack(d, NULL, n1, b1);
    CHECK(m2);
    size_t n2 = protobuf_c_message_get_packed_size(m2);
    CHECK(n2 == n1);
    uint8_t *b2 = malloc(n2 ? n2 : 1);
    CHECK(b2 && protobuf_c_message_pack(m2, b2) == n2);
    CHECK(memcmp(b1, b2, n1) == 0);
    free(b1);
    free(b2);
    protobuf_c_message_free_unpacked(m2, NULL);
    protobuf_c_message_free_unpacked(m, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < sizeof k_types / sizeof k_types[0]; i++)
        check_type(k_types[i], data, size);

    /* The input as a circuit id (bounded, NUL-terminated). */
    char id[REQUEST_CIRCUIT_ID_MAX + 8];
    size_t n = size < sizeof id - 1 ? size : sizeof id - 1;
    memcpy(id, data, n);
    id[n] = '\0';
    cuzk_error_t err = {CUZK_OK, ""};
    cuzk_status s = request_circuit_id_check(id, &err);
    CHECK((s == CUZK_OK) == ref_circuit_id_ok(id));
    CHECK(s == CUZK_OK || (err.code == s && err.msg[0] != '\0'));
    return 0;
}

#ifdef CUZK_FUZZ_WRITE_SEEDS
/* ---- the seed writer (see the header) ---- */
#include <stdio.h>

static const char *g_dir;

static void put(const char *name, const ProtobufCMessage *m)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    size_t n = protobuf_c_message_get_packed_size(m);
    uint8_t *b = malloc(n + 1);
    protobuf_c_message_pack(m, b);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b, 1, n, f) != n) {
        perror(path);
        exit(1);
    }
    fclose(f);
    free(b);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s <corpus dir>\n", argv[0]);
        return 2;
    }
    g_dir = argv[1];
    static uint8_t w[3][24];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 24; j++)
            w[i][j] = (uint8_t)(i * 40 + j * (j & 1));
    ProtobufCBinaryData ws[3] = {{24, w[0]}, {24, w[1]}, {24, w[2]}};
    Cuzk__V1__SubmitProofRequest sub = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    sub.request_id = "req-1";
    sub.proof_kind = CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT;
    sub.priority = CUZK__V1__PRIORITY__HIGH;
    sub.circuit_id = "multiplier-2.v1";
    sub.n_witnesses = 3;
    sub.witnesses = ws;
    put("submit_groth16", &sub.base);
    sub.n_witnesses = 1;
    sub.circuit_id = "../keys/x";
    put("submit_traversal", &sub.base);
    sub.circuit_id = ".hidden";
    put("submit_dot", &sub.base);

    Cuzk__V1__SubmitProofRequest fil = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    static uint8_t r32[32] = {1, 2, 3};
    ProtobufCBinaryData vps[2] = {{3, (uint8_t *)"abc"}, {32, r32}};
    fil.request_id = "porep-1";
    fil.proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    fil.sector_size = 34359738368ull;
    fil.registered_proof = 8;
    fil.vanilla_proof = (ProtobufCBinaryData){5, (uint8_t *)"{\"a\"}"};
    fil.n_vanilla_proofs = 2;
    fil.vanilla_proofs = vps;
    fil.sector_number = 7;
    fil.miner_id = 1000;
    fil.randomness = (ProtobufCBinaryData){32, r32};
    fil.partition_index = 2;
    fil.comm_r_old = fil.comm_r_new = fil.comm_d_new = (ProtobufCBinaryData){32, r32};
    put("submit_filecoin", &fil.base);

    Cuzk__V1__ProveRequest pr = CUZK__V1__PROVE_REQUEST__INIT;
    sub.circuit_id = "multiplier";
    pr.submit = &sub;
    put("prove", &pr.base);

    Cuzk__V1__AwaitProofRequest aw = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    aw.job_id = "17";
    aw.timeout_ms = 30000;
    put("await", &aw.base);
    Cuzk__V1__CancelProofRequest ca = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    ca.job_id = "17";
    put("cancel", &ca.base);
    Cuzk__V1__PreloadSrsRequest pl = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
    pl.circuit_id = "porep-32g";
    put("preload", &pl.base);

    Cuzk__V1__AwaitProofResponse ar = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
    ar.job_id = "17";
    ar.status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
    ar.proof = (ProtobufCBinaryData){6, (uint8_t *)"{\"a\":1"};
    ar.total_ms = 1234;
    ar.public_signals = (ProtobufCBinaryData){6, (uint8_t *)"[\"33\"]"};
    put("await_response", &ar.base);

    Cuzk__V1__GPUStatus g = CUZK__V1__GPUSTATUS__INIT;
    g.name = "gpu0";
    g.vram_total_bytes = 1ull << 34;
    Cuzk__V1__GPUStatus *gp[1] = {&g};
    Cuzk__V1__SRSStatus srs = CUZK__V1__SRSSTATUS__INIT;
    srs.circuit_id = "multiplier";
    srs.tier = CUZK__V1__SRSSTATUS__TIER__WARM;
    Cuzk__V1__SRSStatus *sp[1] = {&srs};
    Cuzk__V1__GetStatusResponse gs = CUZK__V1__GET_STATUS_RESPONSE__INIT;
    gs.n_gpus = 1;
    gs.gpus = gp;
    gs.n_loaded_srs = 1;
    gs.loaded_srs = sp;
    gs.uptime_seconds = 5;
    put("status_response", &gs.base);

    /* A truncated message: the first bytes of the Filecoin request. */
    char path[512];
    snprintf(path, sizeof path, "%s/truncated", g_dir);
    uint8_t b[512];
    size_t n = protobuf_c_message_pack(&fil.base, b);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b, 1, n / 2, f) != n / 2)
        return 1;
    fclose(f);
    return 0;
}
#endif
