/* libFuzzer harness: the PoRep C1 output JSON (filecoin_c1.h). An input
 * whose first byte is 0x01 is Curio's envelope (the rest of the bytes),
 * any other the C1 JSON itself. A C1 that parses must write, parse back
 * and write again to the same bytes, and the circuit views must not
 * crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_c1.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* write(c1) parses back and writes again to the same bytes. */
static void round_trip(const fil_c1_t *c1, int curio, uint64_t sector_num)
{
    cuzk_error_t err;
    char *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    cuzk_status st =
        curio ? fil_c1_write_curio(&a, &na, c1, sector_num, &err) : fil_c1_write(&a, &na, c1, &err);
    if (st != CUZK_OK)
        __builtin_trap(); /* a parsed C1 always fits its shape */
    fil_c1_t back;
    uint64_t num = 0, size = 0;
    st = curio ? fil_c1_parse_curio(&back, &num, &size, (const uint8_t *)a, na, &err)
               : fil_c1_parse(&back, (const uint8_t *)a, na, &err);
    if (st != CUZK_OK || (curio && (num != sector_num || size != c1->sector_size)))
        __builtin_trap();
    st = curio ? fil_c1_write_curio(&b, &nb, &back, num, &err) : fil_c1_write(&b, &nb, &back, &err);
    if (st != CUZK_OK || na != nb || memcmp(a, b, na) != 0)
        __builtin_trap();
    free(a);
    free(b);
    fil_c1_free(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fil_porep_challenge_t ch; /* 130 KB: not on the stack */
    cuzk_error_t err;
    fil_c1_t c1;
    uint64_t sector_num = 0, sector_size = 0;
    const int curio = size > 0 && data[0] == 0x01;
    cuzk_status st =
        curio ? fil_c1_parse_curio(&c1, &sector_num, &sector_size, data + 1, size - 1, &err)
              : fil_c1_parse(&c1, data, size, &err);
    if (st != CUZK_OK) {
        if (c1.proofs || c1.partitions)
            __builtin_trap(); /* left zeroed */
        return 0;
    }
    round_trip(&c1, curio, sector_num);
    fil_porep_public_t pub;
    (void)fil_c1_public(&pub, &c1, 0, &err);
    for (unsigned k = 0; k < c1.partitions; k++)
        for (unsigned i = 0; i < c1.challenges; i++)
            (void)fil_c1_porep_challenge(&ch, &c1, k, i, &err);
    fil_c1_free(&c1);
    return 0;
}
