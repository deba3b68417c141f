/* The AVX-512 form of el_rq_block's requantization used where many vectors share a block's
 * parameters (the indirect CONV_2D kernel, depthwise): the accumulators already hold the bias,
 * and the zero point and clamp are applied to packed bytes. Included only by x86 kernel files,
 * inside #if defined(__x86_64__), after simd_x86.h. */
#ifndef EDGELITE_KERNELS_OPTIMIZED_RQ_X86_H_
#define EDGELITE_KERNELS_OPTIMIZED_RQ_X86_H_

#include "kernels/optimized/simd_x86.h"

#define EL_INLINE_AVX512 EL_TARGET_AVX512 static inline __attribute__((always_inline))

/* One block's parameters in registers. FAST: no channel has a left shift and every one a right
 * shift (e >= 1), as nearly all models have. Then the odd products are shifted by e - 1 only,
 * which leaves bits 31 + e .. 62 + e in the high half of the 64-bit lane where the blend takes
 * them, and the negative correction keys on the product's sign: for -2^30 <= p < 0 both sums
 * floor to 0 when e >= 1, so p < 0 decides as p < -2^30 does. */
typedef struct el_rqf {
  __m512i mult, mult_odd, lshift, round_even, round_odd, neg_even, neg_odd, shift_even, shift_odd;
} el_rqf;

EL_INLINE_AVX512 el_rqf el_rqf_load(const el_rq_block* b, int fast) {
  el_rqf p;
  p.mult = _mm512_load_si512(b->mult);
  p.mult_odd = _mm512_load_si512(b->mult_odd);
  p.round_even = _mm512_load_si512(b->round_even);
  p.round_odd = _mm512_load_si512(b->round_odd);
  p.shift_even = _mm512_load_si512(b->shift_even);
  if (fast) {
    p.shift_odd = _mm512_load_si512(b->shift_odd_high);
    p.lshift = p.neg_even = p.neg_odd = _mm512_setzero_si512();
  } else {
    p.shift_odd = _mm512_load_si512(b->shift_odd);
    p.lshift = _mm512_load_si512(b->lshift);
    p.neg_even = _mm512_load_si512(b->neg_even);
    p.neg_odd = _mm512_load_si512(b->neg_odd);
  }
  return p;
}

/* x (bias included) requantized without the zero point: the reference's MBQM per lane. */
EL_INLINE_AVX512 __m512i el_rqf_scale(__m512i x, const el_rqf* p, int fast) {
  if (!fast) x = _mm512_sllv_epi32(x, p->lshift);
  __m512i pe = _mm512_mul_epi32(x, p->mult);
  __m512i po = _mm512_mul_epi32(_mm512_srli_epi64(x, 32), p->mult_odd);
  if (fast) {
    const __m512i neg = _mm512_set1_epi64((int64_t)1 << 31);
    const __mmask8 ke = _mm512_movepi64_mask(pe);
    const __mmask8 ko = _mm512_movepi64_mask(po);
    pe = _mm512_add_epi64(pe, p->round_even);
    po = _mm512_add_epi64(po, p->round_odd);
    pe = _mm512_srav_epi64(_mm512_mask_sub_epi64(pe, ke, pe, neg), p->shift_even);
    po = _mm512_srav_epi64(_mm512_mask_sub_epi64(po, ko, po, neg), p->shift_odd);
  } else {
    const __m512i lim = _mm512_set1_epi64(-((int64_t)1 << 30));
    const __mmask8 ke = _mm512_cmplt_epi64_mask(pe, lim);
    const __mmask8 ko = _mm512_cmplt_epi64_mask(po, lim);
    pe = _mm512_add_epi64(pe, p->round_even);
    po = _mm512_add_epi64(po, p->round_odd);
    pe = _mm512_srav_epi64(_mm512_mask_sub_epi64(pe, ke, pe, p->neg_even), p->shift_even);
    po = _mm512_srav_epi64(_mm512_mask_sub_epi64(po, ko, po, p->neg_odd), p->shift_odd);
    po = _mm512_slli_epi64(po, 32);
  }
  return _mm512_mask_blend_epi32(0xAAAA, pe, po);
}

/* Whether channels 0 .. n - 1 of the blocks at b allow the FAST form (el_rq_block.flags). */
static inline int el_rqf_fast(const el_rq_block* b, int n) {
  for (int c = 0; c < n; c += 16, ++b) {
    if (!b->flags[0]) return 0;
  }
  return 1;
}

/* Output bytes of four scaled vectors a, b, c, d: saturated to int16 (a with b, c with d) where
 * the zero point is added (saturating: whatever saturates lies outside the output range, as its
 * exact sum does), then to int8 (uint8 when is_unsigned) and clamped. The packs interleave
 * 4-channel groups per 128-bit lane; the permutation gathers a's 16 bytes first, then b's, c's,
 * d's. Exact: the activation range lies inside the output type's, so each saturation only moves
 * values that the clamp moves anyway. zp16 holds the zero point in every int16 lane, lo8 / hi8
 * the activation range in every byte. */
EL_INLINE_AVX512 __m512i el_rqf_bytes(__m512i a, __m512i b, __m512i c, __m512i d, __m512i zp16,
                                      __m512i lo8, __m512i hi8, int is_unsigned) {
  const __m512i ab = _mm512_adds_epi16(_mm512_packs_epi32(a, b), zp16);
  const __m512i cd = _mm512_adds_epi16(_mm512_packs_epi32(c, d), zp16);
  __m512i v;
  if (is_unsigned) {
    v = _mm512_min_epu8(_mm512_max_epu8(_mm512_packus_epi16(ab, cd), lo8), hi8);
  } else {
    v = _mm512_min_epi8(_mm512_max_epi8(_mm512_packs_epi16(ab, cd), lo8), hi8);
  }
  const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  return _mm512_permutexvar_epi32(order, v);
}

#endif /* EDGELITE_KERNELS_OPTIMIZED_RQ_X86_H_ */
