/* What the constraint-system tests share (cs_fixture.h). */
#include "cs_fixture.h"

#include "test_util.h"

cs_t *csf_new(cs_mode mode)
{
    cs_t *cs = NULL;
    cuzk_error_t err = {0};
    if (cs_new(&cs, mode, &err) != CUZK_OK)
        fail_msg("cs_new: %s", err.msg);
    return cs;
}

void csf_assert_ok(const cs_t *cs)
{
    cuzk_error_t err;
    if (cs_status(cs, &err) != CUZK_OK)
        fail_msg("cs: %s", err.msg);
}

cs_counts_t csf_counts(const cs_t *cs)
{
    cs_counts_t c;
    cs_counts(&c, cs);
    return c;
}
