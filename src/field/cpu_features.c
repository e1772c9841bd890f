/* Which multiplication path the field code takes, fixed once at start-up:
 * the mulx/adx assembly when the CPU has BMI2 and ADX (every x86-64 since
 * 2014), otherwise the portable __int128 code. CUZK_NO_ASM=1 in the
 * environment forces the portable path, so tests can check both. */
#include <stdlib.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

#include "cpu_features.h"

int cuzk_field_use_adx;

__attribute__((constructor)) static void cpu_features_init(void)
{
    const char *off = getenv("CUZK_NO_ASM");
    if (off && off[0] && off[0] != '0')
        return;
#if defined(__x86_64__) && defined(__GNUC__)
    /* CPUID leaf 7: EBX bit 8 is BMI2 (mulx), bit 19 is ADX (adcx/adox).
     * (clang 14's __builtin_cpu_supports does not know "adx".) */
    unsigned a, b, c, d;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
        cuzk_field_use_adx = ((b >> 8) & 1) && ((b >> 19) & 1);
#endif
}
