/* Random satisfiable test circuits for the benchmarks (cli_circuit.h). */
#include <stdlib.h>

#include "cli_circuit.h"

static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void cli_test_fr(fr_t *out, uint64_t *s)
{
    uint64_t l[FR_LIMBS];
    for (int i = 0; i < FR_LIMBS; i++)
        l[i] = next_rand(s);
    l[FR_LIMBS - 1] &= 0x0fffffffffffffffULL;
    fr_from_limbs(out, l);
}

cuzk_status cli_test_circuit(circuit_t *c, fr_t **w_out, unsigned log_m, uint64_t seed)
{
    uint32_t m = 1u << log_m, n_pub = 1, n_in = n_pub + 1;
    uint32_t rows = m - n_in, seeds = rows / 8 + 2;
    uint32_t n_vars = n_in + seeds + rows;
    fr_t *w = malloc((size_t)n_vars * sizeof *w);
    circuit_builder_t *b = circuit_builder_new(m, n_vars, n_pub);
    if (!w || !b) {
        free(w);
        circuit_builder_free(b);
        return CUZK_ERR_NOMEM;
    }
    uint64_t s = seed;
    w[0] = FR_ONE;
    for (uint32_t j = n_in; j < n_in + seeds; j++) {
        uint64_t r = next_rand(&s) % 10;
        if (r < 9)
            w[j] = r < 5 ? FR_ZERO : FR_ONE;
        else
            cli_test_fr(&w[j], &s);
    }
    cuzk_status st = CUZK_OK;
    for (uint32_t i = 0; i < rows && st == CUZK_OK; i++) {
        /* operands among the seeds and earlier products (not the inputs) */
        uint32_t avail = seeds + i, out = n_in + avail;
        uint32_t x = n_in + (uint32_t)(next_rand(&s) % avail);
        uint32_t y = n_in + (uint32_t)(next_rand(&s) % avail);
        uint32_t z = n_in + (uint32_t)(next_rand(&s) % avail);
        fr_t a = w[x], t;
        st = circuit_builder_add(b, CIRCUIT_A, i, x, &FR_ONE, NULL);
        if (st == CUZK_OK && i % 2) {
            fr_add(&a, &a, &w[z]);
            st = circuit_builder_add(b, CIRCUIT_A, i, z, &FR_ONE, NULL);
        }
        if (st == CUZK_OK)
            st = circuit_builder_add(b, CIRCUIT_B, i, y, &FR_ONE, NULL);
        if (st == CUZK_OK)
            st = circuit_builder_add(b, CIRCUIT_C, i, out, &FR_ONE, NULL);
        fr_mul(&t, &a, &w[y]);
        w[out] = t;
    }
    /* the public output: the last product's value (an input row below uses
     * it, A = w_1) */
    w[1] = w[n_vars - 1];
    for (uint32_t k = 0; k < n_in && st == CUZK_OK; k++)
        st = circuit_builder_add(b, CIRCUIT_A, rows + k, k, &FR_ONE, NULL);
    if (st != CUZK_OK) {
        circuit_builder_free(b);
        free(w);
        return st;
    }
    if ((st = circuit_builder_finish(c, b, NULL)) != CUZK_OK) {
        free(w);
        return st;
    }
    *w_out = w;
    return CUZK_OK;
}
