/* The host's field and curve types in a CUDA unit, and the proof that the
 * device types (field.cuh, ec.cuh) have their bytes, so that host arrays go
 * to the device as they are. */
#ifndef CUZK_CUDA_HOST_TYPES_CUH
#define CUZK_CUDA_HOST_TYPES_CUH

#include <stddef.h>
#include <stdint.h>

#include "backend/cuda/arith/ec.cuh"

#include "cuzk/status.h"

/* The host headers are read inside namespace cuzk_host so that host and
 * device names never meet: cuzk_host::fp_t, cuzk_host::g1_jac_t... are the
 * host's types, and their functions keep C linkage. */
namespace cuzk_host
{
#include "cuzk/backend.h"
#include "cuzk/bases.h"
#include "cuzk/fp.h"
#include "cuzk/fp2.h"
#include "cuzk/fr.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"
#include "cuzk/ntt.h"
#include "cuzk/pk.h"
} // namespace cuzk_host

namespace cuzk_host
{
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "32-bit limbs read 64-bit host limbs");
static_assert(sizeof(dfp_t) == sizeof(fp_t), "dfp_t has fp_t's bytes");
static_assert(sizeof(dfr_t) == sizeof(fr_t), "dfr_t has fr_t's bytes");
static_assert(sizeof(dfp2_t) == sizeof(fp2_t) && offsetof(dfp2_t, c1) == offsetof(fp2_t, c1),
              "dfp2_t has fp2_t's bytes");
static_assert(sizeof(dg1_affine_t) == sizeof(g1_affine_t) &&
                  offsetof(dg1_affine_t, y) == offsetof(g1_affine_t, y),
              "G1 affine layout");
static_assert(sizeof(dg1_jac_t) == sizeof(g1_jac_t) &&
                  offsetof(dg1_jac_t, z) == offsetof(g1_jac_t, z),
              "G1 Jacobian layout");
static_assert(sizeof(dg2_affine_t) == sizeof(g2_affine_t) &&
                  offsetof(dg2_affine_t, y) == offsetof(g2_affine_t, y),
              "G2 affine layout");
static_assert(sizeof(dg2_jac_t) == sizeof(g2_jac_t) &&
                  offsetof(dg2_jac_t, z) == offsetof(g2_jac_t, z),
              "G2 Jacobian layout");
} // namespace cuzk_host

#endif
