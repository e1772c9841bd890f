/* libFuzzer harness: the public values JSON (filecoin_public.h); what
 * parses must write back and parse again to the same members. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_public.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fil_public_t p, q;
    cuzk_error_t err;
    if (fil_public_parse(&p, data, size, &err) != CUZK_OK)
        return 0;
    char *json = NULL;
    if (fil_public_write(&json, &p, &err) != CUZK_OK)
        abort(); /* what parsed is valid, so it writes */
    if (fil_public_parse(&q, (const uint8_t *)json, strlen(json), &err) != CUZK_OK ||
        q.have != p.have || q.n_sectors != p.n_sectors)
        abort();
    fr_t in[64];
    size_t n;
    (void)fil_public_inputs(in, 64, &n, &p, 0, &err);
    free(json);
    fil_public_free(&q);
    fil_public_free(&p);
    return 0;
}
