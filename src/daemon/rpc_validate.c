/* Checks on what clients send, before any of it reaches the engine, a file
 * name or a log line. protobuf-c's unpack already guarantees the shape
 * (lengths, wire types); these are the rules the types cannot say. */
#include <stdio.h>
#include <string.h>

#include "cuzk/journal.h"
#include "cuzk/request.h"
#include "cuzk/rpc.h"

void rpc_limits_default(rpc_limits_t *limits)
{
    limits->max_partitions = 64;
    limits->max_witness_bytes = (size_t)1 << 30;
    limits->max_total_bytes = RPC_MAX_MESSAGE_DEFAULT;
}

/* Adds n to *total unless that passes max (no overflow either way). */
static int add_within(size_t *total, size_t n, size_t max)
{
    if (n > max || *total > max - n)
        return 0;
    *total += n;
    return 1;
}

static cuzk_status check_witnesses(const Cuzk__V1__SubmitProofRequest *req, const rpc_limits_t *lim,
                                   cuzk_error_t *err)
{
    cuzk_status s = request_circuit_id_check(req->circuit_id, err);
    if (s != CUZK_OK)
        return s;
    if (req->n_witnesses < 1 || req->n_witnesses > lim->max_partitions)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%zu witnesses (1..%zu allowed)", req->n_witnesses,
                              lim->max_partitions);
    size_t total = 0;
    for (size_t i = 0; i < req->n_witnesses; i++) {
        size_t n = req->witnesses[i].len;
        if (n < 1 || n > lim->max_witness_bytes)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "witnesses[%zu] has %zu bytes (1..%zu allowed)", i, n,
                                  lim->max_witness_bytes);
        if (!add_within(&total, n, lim->max_total_bytes))
            return cuzk_error_set(err, CUZK_ERR_ARG, "witnesses are over %zu bytes in all",
                                  lim->max_total_bytes);
    }
    if (!add_within(&total, req->vanilla_proof.len, lim->max_total_bytes))
        return cuzk_error_set(err, CUZK_ERR_ARG, "request is over %zu bytes in all",
                              lim->max_total_bytes);
    for (size_t i = 0; i < req->n_vanilla_proofs; i++)
        if (!add_within(&total, req->vanilla_proofs[i].len, lim->max_total_bytes))
            return cuzk_error_set(err, CUZK_ERR_ARG, "request is over %zu bytes in all",
                                  lim->max_total_bytes);
    return CUZK_OK;
}

static cuzk_status check_bytes32(const ProtobufCBinaryData *b, const char *name, cuzk_error_t *err)
{
    if (b->len != 0 && b->len != 32)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s has %zu bytes (32 expected)", name, b->len);
    return CUZK_OK;
}

/* Shapes only: what the values mean is the daemon's (daemon_filecoin.c). */
static cuzk_status check_vanilla(const Cuzk__V1__SubmitProofRequest *req, const rpc_limits_t *lim,
                                 cuzk_error_t *err)
{
    int porep = req->proof_kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    if (req->n_witnesses)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "witnesses: a Filecoin request takes vanilla "
                              "proofs");
    if (req->circuit_id && req->circuit_id[0]) {
        cuzk_status s = request_circuit_id_check(req->circuit_id, err);
        if (s != CUZK_OK)
            return s;
    }
    if (porep && (req->n_vanilla_proofs || !req->vanilla_proof.len))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              req->n_vanilla_proofs
                                  ? "vanilla_proofs: a PoRep takes its C1 in vanilla_proof"
                                  : "vanilla_proof is missing (the C1 output)");
    if (!porep && (req->vanilla_proof.len || !req->n_vanilla_proofs))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              req->vanilla_proof.len
                                  ? "vanilla_proof: this kind takes vanilla_proofs"
                                  : "vanilla_proofs is missing");
    if (req->n_vanilla_proofs >= JOURNAL_INPUTS_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%zu vanilla_proofs (at most %d)",
                              req->n_vanilla_proofs, JOURNAL_INPUTS_MAX - 1);
    size_t total = 0;
    for (size_t i = 0; i < req->n_vanilla_proofs + (size_t)porep; i++) {
        size_t n = porep ? req->vanilla_proof.len : req->vanilla_proofs[i].len;
        if (n < 1 || n > lim->max_witness_bytes)
            return cuzk_error_set(err, CUZK_ERR_ARG, "vanilla_proofs[%zu] has %zu bytes (1..%zu)",
                                  i, n, lim->max_witness_bytes);
        if (!add_within(&total, n, lim->max_total_bytes))
            return cuzk_error_set(err, CUZK_ERR_ARG, "vanilla proofs are over %zu bytes in all",
                                  lim->max_total_bytes);
    }
    cuzk_status s;
    if ((s = check_bytes32(&req->randomness, "randomness", err)) != CUZK_OK ||
        (s = check_bytes32(&req->comm_r_old, "comm_r_old", err)) != CUZK_OK ||
        (s = check_bytes32(&req->comm_r_new, "comm_r_new", err)) != CUZK_OK ||
        (s = check_bytes32(&req->comm_d_new, "comm_d_new", err)) != CUZK_OK)
        return s;
    return CUZK_OK;
}

cuzk_status rpc_validate_submit(const Cuzk__V1__SubmitProofRequest *req, const rpc_limits_t *limits,
                                cuzk_error_t *err)
{
    if (!req || !limits)
        return cuzk_error_set(err, CUZK_ERR_ARG, "rpc_validate_submit: NULL argument");
    if (req->base.descriptor != &cuzk__v1__submit_proof_request__descriptor)
        return cuzk_error_set(err, CUZK_ERR_ARG, "rpc_validate_submit: not a SubmitProofRequest");
    if (limits->max_partitions < 1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "rpc_validate_submit: max_partitions is 0");
    cuzk_status s = request_id_check(req->request_id, err);
    if (s != CUZK_OK)
        return s;
    /* proto3 enums are open: any int32 can arrive on the wire. */
    int prio = (int)req->priority;
    if (prio < CUZK__V1__PRIORITY__PRIORITY_UNSPECIFIED || prio > CUZK__V1__PRIORITY__CRITICAL)
        return cuzk_error_set(err, CUZK_ERR_ARG, "priority %d is not a Priority", prio);
    int kind = (int)req->proof_kind;
    switch (kind) {
    case CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT: return check_witnesses(req, limits, err);
    case CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT:
    case CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE:
    case CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION:
    case CUZK__V1__PROOF_KIND__WINNING_POST: return check_vanilla(req, limits, err);
    case CUZK__V1__PROOF_KIND__PROOF_KIND_UNSPECIFIED:
        return cuzk_error_set(err, CUZK_ERR_ARG, "proof_kind is unspecified");
    default: return cuzk_error_set(err, CUZK_ERR_ARG, "proof_kind %d is not a ProofKind", kind);
    }
}
