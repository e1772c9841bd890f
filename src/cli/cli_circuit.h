/* Random satisfiable circuits with a witness, for `cuzk bench prove` and
 * `cuzk bench engine`: 1 public output; an eighth of the variables are
 * seeds (90% bits, 10% random); each row multiplies one or two earlier
 * variables (A has two terms in every other row) by another, into a new
 * variable; then the input rows of the convention. So most witness values
 * are 0 or 1, as in Filecoin circuits. */
#ifndef CUZK_CLI_CIRCUIT_H
#define CUZK_CLI_CIRCUIT_H

#include <stdint.h>

#include "cuzk/circuit.h"
#include "cuzk/fr.h"
#include "cuzk/status.h"

/* A random Fr (below 2^252) from the splitmix64 state *s. */
void cli_test_fr(fr_t *out, uint64_t *s);

/* A circuit of exactly 2^log_m rows (input rows included) and its witness
 * (*w_out malloc'd, c->n_vars values). CUZK_ERR_NOMEM, or the builder's. */
cuzk_status cli_test_circuit(circuit_t *c, fr_t **w_out, unsigned log_m, uint64_t seed);

#endif
