/* x86-64 bodies of quant_kernels.h: 8 (AVX2) or 16 (AVX-512) floats per vector. roundf is a
 * truncation plus one where the dropped fraction is at least a half (the fraction q - trunc(q)
 * is exact in float); the clamp's max(v, lo) puts NaN on lo as the reference does. */
#if defined(__x86_64__)
#include "kernels/optimized/quant_kernels.h"
#include "kernels/optimized/simd_x86.h"

/* ---- AVX2 ----------------------------------------------------------------------------------- */

/* clamp(roundf(q) + zp, lo, hi) as int32 lanes. */
EL_TARGET_AVX2 static inline __m256i round_clamp8_avx2(__m256 q, __m256 zp, __m256 lo, __m256 hi) {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  const __m256 t = _mm256_round_ps(q, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  const __m256 frac = _mm256_andnot_ps(sign, _mm256_sub_ps(q, t));
  const __m256 up =
      _mm256_and_ps(_mm256_cmp_ps(frac, _mm256_set1_ps(0.5f), _CMP_GE_OQ), _mm256_set1_ps(1.0f));
  const __m256 r = _mm256_add_ps(t, _mm256_or_ps(up, _mm256_and_ps(q, sign)));
  const __m256 v = _mm256_min_ps(_mm256_max_ps(_mm256_add_ps(r, zp), lo), hi);
  return _mm256_cvttps_epi32(v);
}

EL_TARGET_AVX2 static inline __m256i quant8_avx2(__m256 x, __m256 scale, __m256 zp, __m256 lo,
                                                 __m256 hi) {
  return round_clamp8_avx2(_mm256_div_ps(x, scale), zp, lo, hi);
}

EL_TARGET_AVX2 static void f32_to_q8_avx2(const float* x, void* out, int64_t n, int is_unsigned,
                                          float scale, float zp, float lo, float hi) {
  const __m256 vs = _mm256_set1_ps(scale), vz = _mm256_set1_ps(zp);
  const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  uint8_t* o = (uint8_t*)out;
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i a = quant8_avx2(_mm256_loadu_ps(x + i), vs, vz, vlo, vhi);
    const __m256i b = quant8_avx2(_mm256_loadu_ps(x + i + 8), vs, vz, vlo, vhi);
    const __m256i c = quant8_avx2(_mm256_loadu_ps(x + i + 16), vs, vz, vlo, vhi);
    const __m256i d = quant8_avx2(_mm256_loadu_ps(x + i + 24), vs, vz, vlo, vhi);
    /* The values are inside the byte range already, so the saturating packs only narrow. */
    const __m256i ab = _mm256_packs_epi32(a, b);
    const __m256i cd = _mm256_packs_epi32(c, d);
    const __m256i bytes =
        is_unsigned ? _mm256_packus_epi16(ab, cd) : _mm256_packs_epi16(ab, cd);
    _mm256_storeu_si256((__m256i*)(o + i), _mm256_permutevar8x32_epi32(bytes, order));
  }
  for (; i + 8 <= n; i += 8) {
    const __m256i a = quant8_avx2(_mm256_loadu_ps(x + i), vs, vz, vlo, vhi);
    const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
    const __m128i bytes = is_unsigned ? _mm_packus_epi16(w, w) : _mm_packs_epi16(w, w);
    _mm_storel_epi64((__m128i*)(o + i), bytes);
  }
  for (; i < n; ++i) o[i] = (uint8_t)el_quant_one(x[i], scale, zp, lo, hi);
}

EL_TARGET_AVX2 static void q8_to_f32_avx2(const void* x, int is_unsigned, float* out, int64_t n,
                                          float scale, int32_t zp) {
  const uint8_t* p = (const uint8_t*)x;
  const __m256 vs = _mm256_set1_ps(scale);
  const __m256i vz = _mm256_set1_epi32(zp);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i b = _mm_loadl_epi64((const __m128i*)(p + i));
    const __m256i w = is_unsigned ? _mm256_cvtepu8_epi32(b) : _mm256_cvtepi8_epi32(b);
    const __m256 f = _mm256_cvtepi32_ps(_mm256_sub_epi32(w, vz));
    _mm256_storeu_ps(out + i, _mm256_mul_ps(f, vs));
  }
  for (; i < n; ++i) {
    const int32_t v = is_unsigned ? (int32_t)p[i] : (int32_t)(int8_t)p[i];
    out[i] = (float)(v - zp) * scale;
  }
}

EL_TARGET_AVX2 static void f32_mul_to_s8_avx2(const float* x, int8_t* out, int64_t n, float inv,
                                              float lo, float hi) {
  const __m256 vi = _mm256_set1_ps(inv), vz = _mm256_setzero_ps();
  const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    /* roundf(q) + 0: the added zero only turns -0 into +0, which converts alike. */
    const __m256i a = round_clamp8_avx2(_mm256_mul_ps(_mm256_loadu_ps(x + i), vi), vz, vlo, vhi);
    const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
    _mm_storel_epi64((__m128i*)(out + i), _mm_packs_epi16(w, w));
  }
  for (; i < n; ++i) out[i] = (int8_t)el_quant_mul_one(x[i], inv, lo, hi);
}

const el_quant_kernels el_quant_avx2 = {.f32_to_q8 = f32_to_q8_avx2, .q8_to_f32 = q8_to_f32_avx2,
                                        .f32_mul_to_s8 = f32_mul_to_s8_avx2};

/* ---- AVX-512 -------------------------------------------------------------------------------- */

/* clamp(roundf(q) + zp, lo, hi) as int32 lanes. */
EL_TARGET_AVX512 static inline __m512i round_clamp16_avx512(__m512 q, __m512 zp, __m512 lo,
                                                            __m512 hi) {
  const __m512 t = _mm512_roundscale_ps(q, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  const __m512 frac = _mm512_abs_ps(_mm512_sub_ps(q, t));
  const __mmask16 up = _mm512_cmp_ps_mask(frac, _mm512_set1_ps(0.5f), _CMP_GE_OQ);
  const __m512 sign = _mm512_and_ps(q, _mm512_set1_ps(-0.0f));
  const __m512 step = _mm512_or_ps(_mm512_maskz_mov_ps(up, _mm512_set1_ps(1.0f)), sign);
  const __m512 r = _mm512_add_ps(t, step);
  const __m512 v = _mm512_min_ps(_mm512_max_ps(_mm512_add_ps(r, zp), lo), hi);
  return _mm512_cvttps_epi32(v);
}

EL_TARGET_AVX512 static inline __m512i quant16_avx512(__m512 x, __m512 scale, __m512 zp,
                                                      __m512 lo, __m512 hi) {
  return round_clamp16_avx512(_mm512_div_ps(x, scale), zp, lo, hi);
}

EL_TARGET_AVX512 static void f32_to_q8_avx512(const float* x, void* out, int64_t n,
                                              int is_unsigned, float scale, float zp, float lo,
                                              float hi) {
  const __m512 vs = _mm512_set1_ps(scale), vz = _mm512_set1_ps(zp);
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  uint8_t* o = (uint8_t*)out;
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 m = n - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - i)) - 1u);
    const __m512i v = quant16_avx512(_mm512_maskz_loadu_ps(m, x + i), vs, vz, vlo, vhi);
    /* In the byte range already: the narrowing only drops the high bytes. */
    _mm_mask_storeu_epi8(o + i, m, _mm512_cvtepi32_epi8(v));
  }
  (void)is_unsigned;
}

EL_TARGET_AVX512 static void q8_to_f32_avx512(const void* x, int is_unsigned, float* out,
                                              int64_t n, float scale, int32_t zp) {
  const uint8_t* p = (const uint8_t*)x;
  const __m512 vs = _mm512_set1_ps(scale);
  const __m512i vz = _mm512_set1_epi32(zp);
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 m = n - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - i)) - 1u);
    const __m128i b = _mm_maskz_loadu_epi8(m, p + i);
    const __m512i w = is_unsigned ? _mm512_cvtepu8_epi32(b) : _mm512_cvtepi8_epi32(b);
    const __m512 f = _mm512_cvtepi32_ps(_mm512_sub_epi32(w, vz));
    _mm512_mask_storeu_ps(out + i, m, _mm512_mul_ps(f, vs));
  }
}

EL_TARGET_AVX512 static void f32_mul_to_s8_avx512(const float* x, int8_t* out, int64_t n,
                                                  float inv, float lo, float hi) {
  const __m512 vi = _mm512_set1_ps(inv), vz = _mm512_setzero_ps();
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 m = n - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - i)) - 1u);
    const __m512 q = _mm512_mul_ps(_mm512_maskz_loadu_ps(m, x + i), vi);
    _mm_mask_storeu_epi8(out + i, m, _mm512_cvtepi32_epi8(round_clamp16_avx512(q, vz, vlo, vhi)));
  }
}

const el_quant_kernels el_quant_avx512 = {.f32_to_q8 = f32_to_q8_avx512,
                                          .q8_to_f32 = q8_to_f32_avx512,
                                          .f32_mul_to_s8 = f32_mul_to_s8_avx512};

#endif /* __x86_64__ */
