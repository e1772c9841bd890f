/* Names of the backend interface's enums (include/cuzk/backend.h). */
#include "cuzk/backend.h"

const char *prove_part_str(int part)
{
    static const char *const names[PROVE_PART_COUNT] = {"load",  "upload", "h",    "msm_a",
                                                        "msm_b", "msm_l",  "msm_h"};
    return part >= 0 && part < PROVE_PART_COUNT ? names[part] : "invalid";
}
