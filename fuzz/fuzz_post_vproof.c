/* libFuzzer harness: bincode FallbackPoStSectorProof (filecoin_vanilla.h).
 * A proof that parses must write back to the same bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_vanilla.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fil_post_vproof_t v; /* 200+ KB: not on the stack */
    cuzk_error_t err;
    if (fil_post_vproof_parse(&v, data, size, &err) != CUZK_OK)
        return 0;
    fr_t root;
    for (unsigned i = 0; i < v.n_proofs; i++)
        (void)fil_merkle_path_compute_root(&root, FIL_HASHER_POSEIDON, &v.paths[i], &err);
    uint8_t *back = NULL;
    size_t n = 0;
    if (fil_post_vproof_write(&back, &n, &v, &err) != CUZK_OK || n != size ||
        memcmp(back, data, n) != 0)
        __builtin_trap(); /* parse and write are inverses */
    free(back);
    return 0;
}
