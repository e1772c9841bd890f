/* 32-bit carry-chain primitives: PTX on the device, an exact emulation on
 * the host.
 *
 * Each function is one PTX instruction (PTX ISA, "Extended-Precision
 * Integer Arithmetic Instructions"): `_cc` writes the carry flag CC.CF, a
 * `c` after the verb (addc, subc, madc) reads it. For sub and subc the flag
 * is the borrow. The flag is implicit state, so a chain is a run of these
 * calls with nothing in between that could need the flag; on the device the
 * `asm volatile` keeps the calls in source order.
 *
 * Host emulation: the same device code compiles for the host (nvcc's host
 * pass, __CUDA_ARCH__ undefined) with the flag in a thread-local variable.
 * The CPU test (tests/test_cuda_arith.c, target HOST_EMU) runs every device
 * formula that way, so a wrong chain shows up without a GPU; what only the
 * GPU can show is the compiler keeping CC.CF alive between statements. */
#ifndef CUZK_CUDA_PTX_CUH
#define CUZK_CUDA_PTX_CUH

#ifndef __CUDACC__
#error "ptx.cuh is CUDA C: compile it with nvcc"
#endif

#include <stdint.h>

/* Everything in the device headers is inlined into its kernel. */
#define CUZK_HD __host__ __device__ __forceinline__

/* Fixed-count limb loops unroll on the device, so that limb arrays stay in
 * registers (HOPPER.md: a run-time index moves them to local memory). The
 * host pass needs no pragma (and its compiler would warn about nvcc's). */
#ifdef __CUDA_ARCH__
#define CUZK_UNROLL _Pragma("unroll")
#else
#define CUZK_UNROLL
#endif

#ifndef __CUDA_ARCH__
/* The emulated CC.CF: 0 or 1. */
__attribute__((unused)) static thread_local uint32_t ptx_emu_cf;
#endif

CUZK_HD uint32_t ptx_add_cc(uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    uint32_t d;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    uint64_t s = (uint64_t)a + b;
    ptx_emu_cf = (uint32_t)(s >> 32);
    return (uint32_t)s;
#endif
}

CUZK_HD uint32_t ptx_addc_cc(uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    uint32_t d;
    asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    uint64_t s = (uint64_t)a + b + ptx_emu_cf;
    ptx_emu_cf = (uint32_t)(s >> 32);
    return (uint32_t)s;
#endif
}

/* Ends a chain: reads the flag, leaves it undefined for what follows. */
CUZK_HD uint32_t ptx_addc(uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    uint32_t d;
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    return a + b + ptx_emu_cf;
#endif
}

CUZK_HD uint32_t ptx_sub_cc(uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    uint32_t d;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    ptx_emu_cf = a < b;
    return a - b;
#endif
}

CUZK_HD uint32_t ptx_subc_cc(uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    uint32_t d;
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    uint64_t d = (uint64_t)a - b - ptx_emu_cf;
    ptx_emu_cf = (uint32_t)(d >> 32) & 1;
    return (uint32_t)d;
#endif
}

CUZK_HD uint32_t ptx_subc(uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    uint32_t d;
    asm volatile("subc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    return a - b - ptx_emu_cf;
#endif
}

/* lo(a b) + c, carry out. */
CUZK_HD uint32_t ptx_mad_lo_cc(uint32_t a, uint32_t b, uint32_t c)
{
#ifdef __CUDA_ARCH__
    uint32_t d;
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    uint64_t s = (uint64_t)(uint32_t)(a * b) + c;
    ptx_emu_cf = (uint32_t)(s >> 32);
    return (uint32_t)s;
#endif
}

/* lo(a b) + c + carry, carry out. */
CUZK_HD uint32_t ptx_madc_lo_cc(uint32_t a, uint32_t b, uint32_t c)
{
#ifdef __CUDA_ARCH__
    uint32_t d;
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    uint64_t s = (uint64_t)(uint32_t)(a * b) + c + ptx_emu_cf;
    ptx_emu_cf = (uint32_t)(s >> 32);
    return (uint32_t)s;
#endif
}

/* hi(a b) + c, carry out. */
CUZK_HD uint32_t ptx_mad_hi_cc(uint32_t a, uint32_t b, uint32_t c)
{
#ifdef __CUDA_ARCH__
    uint32_t d;
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    uint64_t s = (((uint64_t)a * b) >> 32) + c;
    ptx_emu_cf = (uint32_t)(s >> 32);
    return (uint32_t)s;
#endif
}

/* hi(a b) + c + carry, carry out. */
CUZK_HD uint32_t ptx_madc_hi_cc(uint32_t a, uint32_t b, uint32_t c)
{
#ifdef __CUDA_ARCH__
    uint32_t d;
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    uint64_t s = (((uint64_t)a * b) >> 32) + c + ptx_emu_cf;
    ptx_emu_cf = (uint32_t)(s >> 32);
    return (uint32_t)s;
#endif
}

/* hi(a b) + c + carry; ends a chain. */
CUZK_HD uint32_t ptx_madc_hi(uint32_t a, uint32_t b, uint32_t c)
{
#ifdef __CUDA_ARCH__
    uint32_t d;
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    return (uint32_t)((((uint64_t)a * b) >> 32) + c + ptx_emu_cf);
#endif
}

#endif
