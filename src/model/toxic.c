/* The toxic waste of the test setup and the setup pieces the CPU and GPU
 * setups share (include/cuzk/toxic.h). */
#include "cuzk/toxic.h"

#include "cuzk/g1.h"
#include "cuzk/g2.h"

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void draw_fr(fr_t *out, uint64_t *s)
{
    for (;;) {
        uint64_t l[FR_LIMBS];
        for (int i = 0; i < FR_LIMBS; i++)
            l[i] = splitmix64(s);
        l[FR_LIMBS - 1] &= 0x7fffffffffffffffULL; /* r < 2^255 */
        if (fr_from_limbs(out, l) == CUZK_OK && !fr_is_zero(out))
            return;
    }
}

int groth16_tau_is_root_of_unity(const fr_t *x)
{
    fr_t t = *x;
    for (int i = 0; i < FR_TWO_ADICITY; i++)
        fr_sqr(&t, &t);
    return fr_is_one(&t);
}

void groth16_toxic_from_seed(groth16_toxic_t *out, uint64_t seed)
{
    uint64_t s = seed;
    do
        draw_fr(&out->tau, &s);
    while (groth16_tau_is_root_of_unity(&out->tau));
    draw_fr(&out->alpha, &s);
    draw_fr(&out->beta, &s);
    draw_fr(&out->gamma, &s);
    draw_fr(&out->delta, &s);
}

void groth16_setup_vanishing(fr_t *zfac, const fr_t *tau, unsigned log_n, const fr_t *scale)
{
    fr_t t = *tau, n_inv;
    for (unsigned i = 0; i < log_n; i++)
        fr_sqr(&t, &t);
    fr_sub(&t, &t, &FR_ONE);
    fr_from_u64(&n_inv, (uint64_t)1 << log_n);
    fr_inv(&n_inv, &n_inv);
    fr_mul(&t, &t, &n_inv);
    fr_mul(zfac, &t, scale);
}

void groth16_setup_vk_points(groth16_vk_t *vk, const groth16_toxic_t *tw)
{
    g1_jac_t g1, p1;
    g2_jac_t g2, p2;
    g1_from_affine(&g1, &G1_GENERATOR);
    g2_from_affine(&g2, &G2_GENERATOR);
    g1_mul_fr(&p1, &g1, &tw->alpha);
    g1_to_affine(&vk->alpha_g1, &p1);
    g1_mul_fr(&p1, &g1, &tw->beta);
    g1_to_affine(&vk->beta_g1, &p1);
    g1_mul_fr(&p1, &g1, &tw->delta);
    g1_to_affine(&vk->delta_g1, &p1);
    g2_mul_fr(&p2, &g2, &tw->beta);
    g2_to_affine(&vk->beta_g2, &p2);
    g2_mul_fr(&p2, &g2, &tw->gamma);
    g2_to_affine(&vk->gamma_g2, &p2);
    g2_mul_fr(&p2, &g2, &tw->delta);
    g2_to_affine(&vk->delta_g2, &p2);
}
