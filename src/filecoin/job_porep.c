/* The PoRep half of a proving job (filecoin_job.h): the C1 output (its
 * JSON, or Curio's envelope of it: lib/ffi/cuzk_funcs.go c1OutputWrapper)
 * parsed, the public values it carries completed, and a partition's
 * challenges taken out of it as the circuit reads them
 * (RFP@87348a7 storage-proofs-porep/src/stacked/circuit/proof.rs
 * StackedCompound::circuit; API seal.rs seal_commit_phase2 takes the
 * same C1). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_c1.h"
#include "job_internal.h"

static int has_text(const uint8_t *b, size_t n, const char *t)
{
    size_t m = strlen(t);
    for (size_t i = 0; i + m <= n; i++)
        if (b[i] == (uint8_t)t[0] && !memcmp(b + i, t, m))
            return 1;
    return 0;
}

/* The members the C1 carries, where pub lacks them; a registered proof
 * in pub must be the C1's. */
static cuzk_status complete(fil_job_t *j, cuzk_error_t *err)
{
    fil_public_t *p = &j->pub;
    const fil_c1_t *c1 = &j->c1;
    const fil_seal_info_t *info = fil_seal_info(c1->registered_proof);
    if (p->have & FIL_PUB_REGISTERED_PROOF) {
        const fil_seal_info_t *want = fil_seal_info(p->seal);
        if (p->seal != c1->registered_proof)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "the C1 is a %s proof; the public values say %s", info->name,
                                  want ? want->name : "an unknown proof");
    } else {
        if (p->sector_size && p->sector_size != info->sector_size)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "the C1 is a %s proof of %llu-byte sectors; the public values "
                                  "say %llu",
                                  info->name, (unsigned long long)info->sector_size,
                                  (unsigned long long)p->sector_size);
        p->seal = c1->registered_proof;
        p->sector_size = info->sector_size;
        p->api = info->api;
        p->have |= FIL_PUB_REGISTERED_PROOF;
    }
    if (!(p->have & FIL_PUB_SEED))
        memcpy(p->seed, c1->seed, 32);
    if (!(p->have & FIL_PUB_TICKET))
        memcpy(p->ticket, c1->ticket, 32);
    if (!(p->have & FIL_PUB_REPLICA_ID))
        fr_to_le(p->replica_id, &c1->replica_id);
    if (!(p->have & FIL_PUB_COMM_D))
        fr_to_le(p->comm_d, &c1->comm_d);
    if (!(p->have & FIL_PUB_COMM_R))
        fr_to_le(p->comm_r, &c1->comm_r);
    p->have |= FIL_PUB_SEED | FIL_PUB_TICKET | FIL_PUB_REPLICA_ID | FIL_PUB_COMM_D | FIL_PUB_COMM_R;
    return CUZK_OK;
}

cuzk_status fil_job_porep_load(fil_job_t *j, const uint8_t *const *v, const size_t *lens, size_t n,
                               cuzk_error_t *err)
{
    if (n != 1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "a PoRep takes one C1 output, not %zu files", n);
    cuzk_status st;
    int curio = has_text(v[0], lens[0], "\"Phase1Out\"");
    uint64_t num = 0, size = 0;
    if (curio)
        st = fil_c1_parse_curio(&j->c1, &num, &size, v[0], lens[0], err);
    else
        st = fil_c1_parse(&j->c1, v[0], lens[0], err);
    if (st != CUZK_OK)
        return fil_job_prefixed(err, st, fil_job_name(j, 0));
    if (curio) { /* the envelope's sector number is the request's */
        if ((j->pub.have & FIL_PUB_SECTOR_ID) && j->pub.sector_id != num)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "%s: the envelope's SectorNum is %llu; the public values say "
                                  "sector %llu",
                                  fil_job_name(j, 0), (unsigned long long)num,
                                  (unsigned long long)j->pub.sector_id);
        j->pub.sector_id = num;
        j->pub.have |= FIL_PUB_SECTOR_ID;
    }
    return complete(j, err);
}

cuzk_status fil_job_porep_partition(fil_job_part_t *out, const fil_job_t *j, unsigned i,
                                    cuzk_error_t *err)
{
    unsigned k = (j->pub.have & FIL_PUB_PARTITION) ? j->pub.partition : i;
    fil_partition_t *p = &out->p;
    p->kind = FIL_CIRCUIT_POREP;
    fil_c1_shape(&p->porep.shape, &j->c1);
    out->porep_ch = calloc(p->porep.shape.challenges, sizeof *out->porep_ch);
    if (!out->porep_ch)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "C1 partition %u: no memory for %u challenges",
                              k, p->porep.shape.challenges);
    /* roots that disagree, indices that do not open the challenge: what
     * Proof::verify would refuse (filecoin_c1.h) */
    cuzk_error_t e = {0};
    cuzk_status st = fil_c1_public(&p->porep.pub, &j->c1, k, &e);
    for (unsigned c = 0; st == CUZK_OK && c < p->porep.shape.challenges; c++)
        st = fil_c1_porep_challenge(&out->porep_ch[c], &j->c1, k, c, &e);
    if (st == CUZK_ERR_NOMEM)
        return cuzk_error_set(err, st, "C1 partition %u: %s", k, e.msg);
    if (st != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_INVALID,
                              "C1 partition %u: %s: the vanilla proof is not valid", k, e.msg);
    p->porep.ch = out->porep_ch;
    return CUZK_OK;
}
