/* The hybrid epilogue on 16-float vectors (AVX-512), the same operations as the plain C body:
 * int32 to float, the scale products in the reference's order, the bias, the reference clamp
 * (a NaN passes). */
#if defined(__x86_64__)
#include "kernels/optimized/hconv_epilogue.h"
#include "kernels/optimized/simd_x86.h"

EL_TARGET_AVX512 void el_hconv_row_avx512(const el_hconv_epilogue* e, const int32_t* acc,
                                          const int32_t* corr, const float* cs,
                                          const float* bias, float scale, int count,
                                          float* dst) {
  const __m512 vlo = _mm512_set1_ps(e->lo), vhi = _mm512_set1_ps(e->hi);
  const __m512 vs = _mm512_set1_ps(scale);
  const __m512 cs0 = _mm512_set1_ps(cs != 0 ? cs[0] : 1.0f);
  for (int x = 0; x < count; x += 16) {
    const __mmask16 m = (__mmask16)(count - x >= 16 ? 0xFFFF : ((1u << (count - x)) - 1u));
    const __m512i s = _mm512_add_epi32(_mm512_maskz_loadu_epi32(m, acc + x),
                                       _mm512_maskz_loadu_epi32(m, corr + x));
    __m512 v = _mm512_cvtepi32_ps(s);
    if (cs != 0) v = _mm512_mul_ps(v, e->per_channel ? _mm512_maskz_loadu_ps(m, cs + x) : cs0);
    v = _mm512_mul_ps(v, vs);
    if (bias != 0) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(m, bias + x));
    v = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(v, vlo, _CMP_LT_OQ), v, vlo);
    v = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(v, vhi, _CMP_GT_OQ), v, vhi);
    _mm512_mask_storeu_ps(dst + x, m, v);
  }
}

#endif /* __x86_64__ */
