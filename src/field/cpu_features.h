/* Run-time CPU feature flags for the field code (see cpu_features.c). */
#ifndef CUZK_CPU_FEATURES_H
#define CUZK_CPU_FEATURES_H

/* Nonzero when fp/fr multiplication uses the mulx/adx assembly. Written
 * once by a constructor before main; read-only afterwards. */
extern int cuzk_field_use_adx;

#endif
