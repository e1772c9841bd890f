/* libFuzzer harness: a Filecoin proving job (filecoin_job.h) from a
 * request's bytes, as the daemon gets them. Input: byte 0 picks the kind
 * (2 KiB: window-post, winning-post, snap-deals, snap-deals-poseidon,
 * porep), byte 1 the public values' shape (bit 0 "partition", bit 1 the
 * sectors given, bit 2 another randomness), byte 2 how many copies of
 * the vanilla proof are sent (1..4); the rest is the vanilla proof. A job
 * that is made must hand out every partition, its inputs and, for PoSt,
 * its witness without a crash, and every error must carry a message. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs.h"
#include "cuzk/filecoin_job.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const fil_circuit_kind KINDS[] = {FIL_CIRCUIT_WINDOW_POST, FIL_CIRCUIT_WINNING_POST,
                                         FIL_CIRCUIT_SNAP_DEALS, FIL_CIRCUIT_SNAP_DEALS_POSEIDON,
                                         FIL_CIRCUIT_POREP};

static void public_of(fil_public_t *p, fil_post_pub_sector_t *sectors, uint8_t kind, uint8_t flags,
                      unsigned copies)
{
    memset(p, 0, sizeof *p);
    p->kind = KINDS[kind % 5];
    p->sector_size = 2048;
    p->api = FIL_API_1_1;
    p->miner_id = 1000;
    p->have = FIL_PUB_MINER_ID;
    if (flags & 1) {
        p->partition = (flags >> 4) & 1;
        p->have |= FIL_PUB_PARTITION;
    }
    memset(p->randomness, (flags & 4) ? 0x11 : 0x5a, 31);
    p->have |= FIL_PUB_RANDOMNESS;
    memset(p->comm_r_old, 1, 31);
    memset(p->comm_d_new, 2, 31);
    memset(p->comm_r_new, 3, 31);
    p->have |= FIL_PUB_COMM_R_OLD | FIL_PUB_COMM_D_NEW | FIL_PUB_COMM_R_NEW;
    if ((flags & 2) && p->kind != FIL_CIRCUIT_POREP) {
        for (unsigned i = 0; i < copies; i++) {
            sectors[i].id = 1 + i;
            memset(sectors[i].comm_r, 7, 31);
        }
        p->sectors = sectors;
        p->n_sectors = copies;
        p->have |= FIL_PUB_SECTORS;
    }
}

/* The PoSt witness of partition i (2 KiB circuits are small). */
static void post_witness(const fil_job_t *j, unsigned i)
{
    cs_t *cs = NULL;
    if (cs_new(&cs, CS_COUNT, NULL) != CUZK_OK)
        return;
    cuzk_status st =
        fil_circuit_synth_blank(cs, fil_job_kind(j), fil_job_sector_size(j), fil_job_api(j), NULL);
    cs_counts_t k;
    cs_counts(&k, cs);
    cs_free(cs);
    if (st != CUZK_OK)
        return;
    fr_t *w = malloc((size_t)(k.inputs + k.aux) * sizeof *w);
    if (!w)
        return;
    cuzk_error_t err = {0};
    st = fil_job_witness(w, (size_t)(k.inputs + k.aux), (size_t)(k.inputs - 1), j, i, NULL, &err);
    if (st != CUZK_OK && !err.msg[0])
        __builtin_trap();
    free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    unsigned copies = 1 + data[2] % 4;
    fil_post_pub_sector_t sectors[4];
    fil_public_t p;
    public_of(&p, sectors, data[0], data[1], copies);
    const uint8_t *v[4];
    size_t lens[4];
    for (unsigned i = 0; i < copies; i++) {
        v[i] = data + 3;
        lens[i] = size - 3;
    }
    fil_job_t *j = NULL;
    cuzk_error_t err = {0};
    cuzk_status st = fil_job_new(&j, &p, v, lens, copies, NULL, &err);
    if (st != CUZK_OK) {
        if (j || !err.msg[0])
            __builtin_trap();
        return 0;
    }
    for (unsigned i = 0; i < fil_job_partitions(j); i++) {
        fil_job_part_t part;
        err.msg[0] = 0;
        st = fil_job_partition(&part, j, i, &err);
        if (st != CUZK_OK && !err.msg[0])
            __builtin_trap();
        fil_job_part_free(&part);
        fr_t *in = NULL;
        size_t n = 0;
        if (fil_job_inputs(&in, &n, j, i, &err) != CUZK_OK || n != fil_job_n_inputs(j))
            __builtin_trap();
        free(in);
        if (fil_job_kind(j) == FIL_CIRCUIT_WINDOW_POST ||
            fil_job_kind(j) == FIL_CIRCUIT_WINNING_POST)
            post_witness(j, i);
    }
    fil_job_free(j);
    return 0;
}
