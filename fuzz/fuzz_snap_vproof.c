/* libFuzzer harness: bincode SnapDeals PartitionProof (filecoin_vanilla.h).
 * The first byte picks the sector shape (k_shapes, mod its size), the rest
 * is the proof. A proof that parses must write back to the same bytes and
 * go through fil_snap_vproof_witness without a crash (public values from
 * the proof's own roots, so that the later checks run too). Seeds:
 * tests/test_filecoin_vanilla_snap.c with CUZK_SNAP_SEEDS=<dir>. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_vanilla.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The same table as the test's k_seed_shapes. */
static const struct {
    fil_update_kind kind;
    unsigned lg;
} k_shapes[] = {{FIL_UPDATE_SHA, 5},
                {FIL_UPDATE_SHA, 6},
                {FIL_UPDATE_SHA, 10},
                {FIL_UPDATE_POSEIDON, 5},
                {FIL_UPDATE_POSEIDON, 8}};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const unsigned pick = data[0] % (sizeof k_shapes / sizeof k_shapes[0]);
    fil_update_shape_t sh;
    cuzk_error_t err;
    if (fil_update_shape_init(&sh, k_shapes[pick].kind, UINT64_C(1) << k_shapes[pick].lg, &err) !=
        CUZK_OK)
        __builtin_trap();
    fil_snap_vproof_t v;
    if (fil_snap_vproof_parse(&v, &sh, data + 1, size - 1, &err) != CUZK_OK) {
        if (v.challenges || v.apex_leafs || !strstr(err.msg, "snap vanilla proof"))
            __builtin_trap(); /* a failed parse leaves nothing and names the format */
        return 0;
    }
    uint8_t *back = NULL;
    size_t n = 0;
    if (fil_snap_vproof_write(&back, &n, &v, &err) != CUZK_OK || n != size - 1 ||
        memcmp(back, data + 1, n) != 0)
        __builtin_trap(); /* parse and write are inverses */
    free(back);
    fil_snap_public_t pub;
    memset(&pub, 0, sizeof pub);
    pub.h = sh.hs[0];
    pub.comm_d_new = v.challenges[0].d_new.root;
    (void)fil_merkle_node(&pub.comm_r_old, FIL_HASHER_POSEIDON,
                          (fr_t[2]){v.comm_c, v.challenges[0].r_old.root}, 2, NULL);
    (void)fil_merkle_node(&pub.comm_r_new, FIL_HASHER_POSEIDON,
                          (fr_t[2]){v.comm_c, v.challenges[0].r_new.root}, 2, NULL);
    fil_update_witness_t w;
    if (fil_snap_vproof_witness(&w, &sh, &v, &pub, &err) == CUZK_OK)
        fil_update_witness_free(&w);
    fil_snap_vproof_free(&v);
    return 0;
}
