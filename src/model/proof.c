/* Proof and verifying-key types (include/cuzk/proof.h). */
#include "cuzk/proof.h"

#include <stdlib.h>

void groth16_vk_free(groth16_vk_t *vk)
{
    if (!vk)
        return;
    free(vk->ic);
    vk->ic = NULL;
    vk->n_ic = 0;
}
