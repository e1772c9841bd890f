/* What the constraint-system tests share (test_cs*.c, test_filecoin_*.c):
 * a new cs that must be made, a cs that must be error-free, its counts. */
#ifndef CUZK_TESTS_CS_FIXTURE_H
#define CUZK_TESTS_CS_FIXTURE_H

#include "cuzk/cs.h"

/* cs_new in mode, failing the test when it cannot. */
cs_t *csf_new(cs_mode mode);
/* Fails the test with the cs's message when it recorded an error. */
void csf_assert_ok(const cs_t *cs);
cs_counts_t csf_counts(const cs_t *cs);

#endif
