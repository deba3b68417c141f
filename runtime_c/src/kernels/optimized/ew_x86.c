/* x86-64 elementwise kernels: 8 (AVX2) or 16 (AVX-512) elements per vector through the vector
 * requantization of simd_x86.h; AVX2 tails run the scalar form, AVX-512 tails are masked. */
#if defined(__x86_64__)
#include <math.h>

#include "kernels/optimized/ew_kernels.h"
#include "kernels/optimized/simd_x86.h"

/* expf's argument range: below it the result is denormal (returned as 0 here), above it
 * infinite. exp(r) = 1 + r + r^2 P(r) on |r| <= ln2 / 2 with Cephes' single-precision
 * coefficients, ln 2 split into an exact high part and a correction. */
#define EXP_LO (-87.33654f)
#define EXP_HI 88.37626f
#define LN2_HI 0.693359375f
#define LN2_LO (-2.12194440e-4f)
#define EXP_P0 1.9875691500e-4f
#define EXP_P1 1.3981999507e-3f
#define EXP_P2 8.3334519073e-3f
#define EXP_P3 4.1665795894e-2f
#define EXP_P4 1.6666665459e-1f
#define EXP_P5 5.0000001201e-1f

/* The steps both vector widths take in the same order, so their lanes agree bit for bit. exp:
 * the reduced argument r = x - k ln2 (two parts) and 1 + r + r^2 P(r). */
#define EXP_REDUCED(FNMADD, SET1, k, x) FNMADD(k, SET1(LN2_LO), FNMADD(k, SET1(LN2_HI), x))
#define EXP_POLY(FMADD, MUL, ADD, SET1, r)                                                       \
  ADD(FMADD(FMADD(FMADD(FMADD(FMADD(FMADD(SET1(EXP_P0), r, SET1(EXP_P1)), r, SET1(EXP_P2)), r,   \
                                  SET1(EXP_P3)),                                                 \
                            r, SET1(EXP_P4)),                                                    \
                      r, SET1(EXP_P5)),                                                          \
                MUL(r, r), r),                                                                   \
      SET1(1.0f))
/* tanh's odd series to x^9 for |x| < 0.25: ax + ax x2 (-1/3 + x2 (2/15 + x2 (-17/315 + x2 62/2835))). */
#define TANH_SERIES(FMADD, MUL, SET1, ax, x2)                                                   \
  FMADD(MUL(FMADD(FMADD(FMADD(SET1(62.0f / 2835.0f), x2, SET1(-17.0f / 315.0f)), x2,            \
                        SET1(2.0f / 15.0f)),                                                     \
                  x2, SET1(-1.0f / 3.0f)),                                                       \
            x2),                                                                                 \
        ax, ax)

/* ---- AVX2 ----------------------------------------------------------------------------------- */

EL_TARGET_AVX2 static inline __m256i load8(const void* p, int step, int is_unsigned) {
  if (step == 0) {
    return _mm256_set1_epi32(is_unsigned ? *(const uint8_t*)p : *(const int8_t*)p);
  }
  const __m128i v = _mm_loadl_epi64((const __m128i*)p);
  return is_unsigned ? _mm256_cvtepu8_epi32(v) : _mm256_cvtepi8_epi32(v);
}

/* v / 2^e rounding half away from zero, for e = the count in `e` and mask = 2^e - 1. */
EL_TARGET_AVX2 static inline __m256i rdiv_avx2(__m256i v, __m256i mask, __m128i e) {
  const __m256i rem = _mm256_and_si256(v, mask);
  const __m256i thr = _mm256_sub_epi32(_mm256_srai_epi32(mask, 1), _mm256_srai_epi32(v, 31));
  return _mm256_sub_epi32(_mm256_sra_epi32(v, e), _mm256_cmpgt_epi32(rem, thr));
}

/* The split input rescale of el_q8_binary (before its divide by 2^rshift). */
EL_TARGET_AVX2 static inline __m256i split_avx2(__m256i x, __m256i mh, __m256i ml) {
  const __m256i hi = _mm256_slli_epi32(_mm256_mullo_epi32(x, mh), 5);
  const __m256i lo = _mm256_srai_epi32(
      _mm256_add_epi32(_mm256_mullo_epi32(x, ml), _mm256_set1_epi32(1 << 10)), 11);
  return _mm256_add_epi32(hi, lo);
}

/* 0 once the float-first ADD has sent more than a quarter of at least 32 vectors to the exact
 * path: scales whose ratios are short binary fractions put many outputs exactly on rounding
 * steps, and the float step is then only extra work. */
static inline int give_up(int64_t missed, int64_t tried) {
  return !(tried >= 32 && missed * 4 > tried);
}

/* The folded split input rescale of q8_add_split_avx512 (below) on 8 lanes. */
typedef struct add_in_avx2 {
  __m256i off, mh, ml, c_pos, c_diff;
  __m128i hi_shift, lo_shift;
} add_in_avx2;

EL_TARGET_AVX2 static inline add_in_avx2 add_in_setup_avx2(int32_t off, int32_t mh, int32_t ml,
                                                           int32_t e) {
  add_in_avx2 c;
  c.off = _mm256_set1_epi32(off);
  c.mh = _mm256_set1_epi32(mh);
  c.ml = _mm256_set1_epi32(ml);
  c.c_pos = _mm256_set1_epi32((1 << 10) + (e > 0 ? 1 << (10 + e) : 0));
  c.c_diff = _mm256_set1_epi32(e > 0 ? -(1 << 11) : 0);
  c.hi_shift = _mm_cvtsi32_si128(5 - e);
  c.lo_shift = _mm_cvtsi32_si128(11 + e);
  return c;
}

EL_TARGET_AVX2 __attribute__((always_inline)) static inline __m256i add_in_avx2_8(
    __m128i bytes, int is_unsigned, const add_in_avx2* c) {
  const __m256i w = is_unsigned ? _mm256_cvtepu8_epi32(bytes) : _mm256_cvtepi8_epi32(bytes);
  const __m256i x = _mm256_add_epi32(w, c->off);
  const __m256i hi = _mm256_sll_epi32(_mm256_mullo_epi32(x, c->mh), c->hi_shift);
  const __m256i round = _mm256_add_epi32(
      c->c_pos, _mm256_and_si256(_mm256_srai_epi32(x, 31), c->c_diff));
  const __m256i lo = _mm256_add_epi32(_mm256_mullo_epi32(x, c->ml), round);
  return _mm256_add_epi32(hi, _mm256_sra_epi32(lo, c->lo_shift));
}

EL_TARGET_AVX2 __attribute__((always_inline)) static inline void q8_add_split_avx2(
    const el_q8_binary* p, const uint8_t* a, const uint8_t* b, int8_t* o, int64_t n,
    int is_unsigned) {
  const add_in_avx2 c1 = add_in_setup_avx2(p->off1, p->mh1, p->ml1, p->rs1);
  const add_in_avx2 c2 = add_in_setup_avx2(p->off2, p->mh2, p->ml2, p->rs2);
  const __m256i mo = _mm256_set1_epi32(p->mo), lso = _mm256_set1_epi32(p->lso);
  const __m256i rso = _mm256_set1_epi32(p->rso), zp = _mm256_set1_epi32(p->out_zp);
  const __m256i lo = _mm256_set1_epi32(p->act_min), hi = _mm256_set1_epi32(p->act_max);
  const __m256 ax = _mm256_set1_ps(p->ax), bx = _mm256_set1_ps(p->bx), c = _mm256_set1_ps(p->c);
  const __m256 eps = _mm256_set1_ps(p->eps), top = _mm256_set1_ps(1.0f - p->eps);
  const __m256 flo = _mm256_set1_ps((float)p->act_min), fhi = _mm256_set1_ps((float)p->act_max);
  int approx = p->approx;
  int64_t tried = 0, missed = 0;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i a8 = _mm_loadl_epi64((const __m128i*)(a + i));
    const __m128i b8 = _mm_loadl_epi64((const __m128i*)(b + i));
    if (approx) {
      /* The float form of el_q8_binary (see its approx fields). */
      const __m256i ai = is_unsigned ? _mm256_cvtepu8_epi32(a8) : _mm256_cvtepi8_epi32(a8);
      const __m256i bi = is_unsigned ? _mm256_cvtepu8_epi32(b8) : _mm256_cvtepi8_epi32(b8);
      const __m256 w = _mm256_fmadd_ps(_mm256_cvtepi32_ps(ai), ax,
                                       _mm256_fmadd_ps(_mm256_cvtepi32_ps(bi), bx, c));
      const __m256 fl = _mm256_round_ps(w, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
      const __m256 frac = _mm256_sub_ps(w, fl);
      const __m256 unsure = _mm256_or_ps(_mm256_cmp_ps(frac, eps, _CMP_LT_OQ),
                                         _mm256_cmp_ps(frac, top, _CMP_GT_OQ));
      ++tried;
      if (_mm256_movemask_ps(unsure) == 0) {
        const __m256 q = _mm256_min_ps(_mm256_max_ps(fl, flo), fhi);
        _mm_storel_epi64((__m128i*)(o + i), el_narrow8_avx2(_mm256_cvtps_epi32(q)));
        continue;
      }
      approx = give_up(++missed, tried);
    }
    const __m256i ra = add_in_avx2_8(a8, is_unsigned, &c1);
    const __m256i rb = add_in_avx2_8(b8, is_unsigned, &c2);
    __m256i v = _mm256_add_epi32(el_mbqm_avx2(_mm256_add_epi32(ra, rb), mo, lso, rso), zp);
    v = _mm256_min_epi32(_mm256_max_epi32(v, lo), hi);
    _mm_storel_epi64((__m128i*)(o + i), el_narrow8_avx2(v));
  }
  for (; i < n; ++i) {
    const int32_t x = is_unsigned ? a[i] : (int8_t)a[i];
    const int32_t y = is_unsigned ? b[i] : (int8_t)b[i];
    o[i] = (int8_t)el_q8_binary_one(p, x, y);
  }
}

EL_TARGET_AVX2 static void q8_binary_avx2(const el_q8_binary* p, const void* a, int a_step,
                                          const void* b, int b_step, void* out, int64_t n) {
  if (!p->is_mul && p->split && p->rs1 <= 5 && p->rs2 <= 5 && a_step == 1 && b_step == 1) {
    if (p->is_unsigned) {
      q8_add_split_avx2(p, (const uint8_t*)a, (const uint8_t*)b, (int8_t*)out, n, 1);
    } else {
      q8_add_split_avx2(p, (const uint8_t*)a, (const uint8_t*)b, (int8_t*)out, n, 0);
    }
    return;
  }
  const __m256i off1 = _mm256_set1_epi32(p->off1), off2 = _mm256_set1_epi32(p->off2);
  const __m256i m1 = _mm256_set1_epi32(p->m1), ls1 = _mm256_set1_epi32(p->ls1);
  const __m256i rs1 = _mm256_set1_epi32(p->rs1), m2 = _mm256_set1_epi32(p->m2);
  const __m256i ls2 = _mm256_set1_epi32(p->ls2), rs2 = _mm256_set1_epi32(p->rs2);
  const __m256i mo = _mm256_set1_epi32(p->mo), lso = _mm256_set1_epi32(p->lso);
  const __m256i rso = _mm256_set1_epi32(p->rso), zp = _mm256_set1_epi32(p->out_zp);
  const __m256i lo = _mm256_set1_epi32(p->act_min), hi = _mm256_set1_epi32(p->act_max);
  const __m256i mh1 = _mm256_set1_epi32(p->mh1), ml1 = _mm256_set1_epi32(p->ml1);
  const __m256i mh2 = _mm256_set1_epi32(p->mh2), ml2 = _mm256_set1_epi32(p->ml2);
  const __m256i mask1 = _mm256_set1_epi32((int32_t)((1u << (p->rs1 & 31)) - 1u));
  const __m256i mask2 = _mm256_set1_epi32((int32_t)((1u << (p->rs2 & 31)) - 1u));
  const __m128i e1 = _mm_cvtsi32_si128(p->rs1), e2 = _mm_cvtsi32_si128(p->rs2);
  const __m128i headroom = _mm_cvtsi32_si128(p->left_shift);
  const uint8_t* ap = (const uint8_t*)a;
  const uint8_t* bp = (const uint8_t*)b;
  int8_t* o = (int8_t*)out;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i x = _mm256_add_epi32(load8(ap + i * a_step, a_step, p->is_unsigned), off1);
    const __m256i y = _mm256_add_epi32(load8(bp + i * b_step, b_step, p->is_unsigned), off2);
    __m256i v;
    if (p->is_mul) {
      v = _mm256_mullo_epi32(x, y);
    } else if (p->split) {
      v = _mm256_add_epi32(rdiv_avx2(split_avx2(x, mh1, ml1), mask1, e1),
                           rdiv_avx2(split_avx2(y, mh2, ml2), mask2, e2));
    } else {
      const __m256i rx = el_mbqm_avx2(_mm256_sll_epi32(x, headroom), m1, ls1, rs1);
      const __m256i ry = el_mbqm_avx2(_mm256_sll_epi32(y, headroom), m2, ls2, rs2);
      v = _mm256_add_epi32(rx, ry);
    }
    v = _mm256_add_epi32(el_mbqm_avx2(v, mo, lso, rso), zp);
    v = _mm256_min_epi32(_mm256_max_epi32(v, lo), hi);
    _mm_storel_epi64((__m128i*)(o + i), el_narrow8_avx2(v));
  }
  for (; i < n; ++i) {
    const int32_t x = p->is_unsigned ? ap[i * a_step] : (int8_t)ap[i * a_step];
    const int32_t y = p->is_unsigned ? bp[i * b_step] : (int8_t)bp[i * b_step];
    o[i] = (int8_t)el_q8_binary_one(p, x, y);
  }
}

EL_TARGET_AVX2 static inline __m256 f32_op_avx2(el_f32_op op, __m256 x, __m256 y) {
  return op == EL_F32_ADD ? _mm256_add_ps(x, y)
                          : (op == EL_F32_SUB ? _mm256_sub_ps(x, y) : _mm256_mul_ps(x, y));
}

EL_TARGET_AVX2 static void f32_binary_avx2(el_f32_op op, const float* a, int a_step,
                                           const float* b, int b_step, float* out, int64_t n,
                                           float lo, float hi) {
  const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
  const __m256 a0 = _mm256_set1_ps(a[0]), b0 = _mm256_set1_ps(b[0]);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 x = a_step ? _mm256_loadu_ps(a + i) : a0;
    const __m256 y = b_step ? _mm256_loadu_ps(b + i) : b0;
    /* max/min return their second operand when either is NaN: a NaN passes, as in the
     * reference clamp. */
    const __m256 v = _mm256_min_ps(vhi, _mm256_max_ps(vlo, f32_op_avx2(op, x, y)));
    _mm256_storeu_ps(out + i, v);
  }
  for (; i < n; ++i) {
    const float x = a[i * a_step], y = b[i * b_step];
    const float v = op == EL_F32_ADD ? x + y : (op == EL_F32_SUB ? x - y : x * y);
    out[i] = el_ew_clamp(v, lo, hi);
  }
}

EL_TARGET_AVX2 static void f32_column_sums_avx2(float* out, const float* x, int64_t rows,
                                                int64_t cols) {
  int64_t k = 0;
  for (; k + 32 <= cols; k += 32) {
    __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
    const float* p = x + k;
    for (int64_t r = 0; r < rows; ++r, p += cols) {
      s0 = _mm256_add_ps(s0, _mm256_loadu_ps(p));
      s1 = _mm256_add_ps(s1, _mm256_loadu_ps(p + 8));
      s2 = _mm256_add_ps(s2, _mm256_loadu_ps(p + 16));
      s3 = _mm256_add_ps(s3, _mm256_loadu_ps(p + 24));
    }
    _mm256_storeu_ps(out + k, s0);
    _mm256_storeu_ps(out + k + 8, s1);
    _mm256_storeu_ps(out + k + 16, s2);
    _mm256_storeu_ps(out + k + 24, s3);
  }
  for (; k + 8 <= cols; k += 8) {
    __m256 s0 = _mm256_setzero_ps();
    const float* p = x + k;
    for (int64_t r = 0; r < rows; ++r, p += cols) s0 = _mm256_add_ps(s0, _mm256_loadu_ps(p));
    _mm256_storeu_ps(out + k, s0);
  }
  for (; k < cols; ++k) {
    float s0 = 0.0f;
    for (int64_t r = 0; r < rows; ++r) s0 += x[r * cols + k];
    out[k] = s0;
  }
}

/* 16 columns summed in 16-bit lanes, at most 256 rows at a time: 256 int8 values lie within
 * [-32768, 32512] and 256 uint8 values below 65536 (read back as unsigned), so no lane wraps
 * before it is widened into the int32 sums. */
EL_TARGET_AVX2 static void q8_column_sums_avx2(int32_t* out, const void* x, int is_unsigned,
                                               int64_t rows, int64_t cols) {
  const uint8_t* base = (const uint8_t*)x;
  int64_t k = 0;
  for (; k + 16 <= cols; k += 16) {
    for (int64_t r0 = 0; r0 < rows; r0 += 256) {
      const int64_t r1 = rows - r0 < 256 ? rows : r0 + 256;
      __m256i acc = _mm256_setzero_si256();
      const uint8_t* p = base + r0 * cols + k;
      for (int64_t r = r0; r < r1; ++r, p += cols) {
        const __m128i v = _mm_loadu_si128((const __m128i*)p);
        acc = _mm256_add_epi16(acc, is_unsigned ? _mm256_cvtepu8_epi16(v) : _mm256_cvtepi8_epi16(v));
      }
      const __m128i lo16 = _mm256_castsi256_si128(acc), hi16 = _mm256_extracti128_si256(acc, 1);
      const __m256i lo = is_unsigned ? _mm256_cvtepu16_epi32(lo16) : _mm256_cvtepi16_epi32(lo16);
      const __m256i hi = is_unsigned ? _mm256_cvtepu16_epi32(hi16) : _mm256_cvtepi16_epi32(hi16);
      __m256i* o = (__m256i*)(out + k);
      _mm256_storeu_si256(o, _mm256_add_epi32(_mm256_loadu_si256(o), lo));
      _mm256_storeu_si256(o + 1, _mm256_add_epi32(_mm256_loadu_si256(o + 1), hi));
    }
  }
  for (; k < cols; ++k) {
    uint32_t acc = (uint32_t)out[k];
    for (int64_t r = 0; r < rows; ++r) {
      const uint8_t v = base[r * cols + k];
      acc += is_unsigned ? (uint32_t)v : (uint32_t)(int32_t)(int8_t)v;
    }
    out[k] = (int32_t)acc;
  }
}

EL_TARGET_AVX2 static void requant_row_avx2(const int32_t* acc, void* out, int64_t n,
                                            int32_t mult, int32_t lshift, int32_t rshift,
                                            int32_t zp, int32_t lo, int32_t hi) {
  const __m256i m = _mm256_set1_epi32(mult), ls = _mm256_set1_epi32(lshift);
  const __m256i rs = _mm256_set1_epi32(rshift), z = _mm256_set1_epi32(zp);
  const __m256i vlo = _mm256_set1_epi32(lo), vhi = _mm256_set1_epi32(hi);
  int8_t* o = (int8_t*)out;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256i v = el_mbqm_avx2(_mm256_loadu_si256((const __m256i*)(acc + i)), m, ls, rs);
    v = _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(v, z), vlo), vhi);
    _mm_storel_epi64((__m128i*)(o + i), el_narrow8_avx2(v));
  }
  for (; i < n; ++i) o[i] = (int8_t)el_requant_one(acc[i], mult, lshift, rshift, zp, lo, hi);
}

EL_TARGET_AVX2 static float f32_max_avx2(const float* x, int64_t n) {
  float m = x[0];
  int64_t i = 1;
  if (n >= 9) {
    __m256 v = _mm256_loadu_ps(x + 1);
    for (i = 9; i + 8 <= n; i += 8) v = _mm256_max_ps(v, _mm256_loadu_ps(x + i));
    float lanes[8];
    _mm256_storeu_ps(lanes, v);
    for (int k = 0; k < 8; ++k) m = lanes[k] > m ? lanes[k] : m;
  }
  for (; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

EL_TARGET_AVX2 static inline __m256 exp_avx2(__m256 x) {
  const __m256 under = _mm256_cmp_ps(x, _mm256_set1_ps(EXP_LO), _CMP_LT_OQ);
  x = _mm256_min_ps(_mm256_set1_ps(EXP_HI), _mm256_max_ps(_mm256_set1_ps(EXP_LO), x));
  const __m256 k = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m256 r = EXP_REDUCED(_mm256_fnmadd_ps, _mm256_set1_ps, k, x);
  const __m256 p = EXP_POLY(_mm256_fmadd_ps, _mm256_mul_ps, _mm256_add_ps, _mm256_set1_ps, r);
  const __m256i e = _mm256_slli_epi32(
      _mm256_add_epi32(_mm256_cvtps_epi32(k), _mm256_set1_epi32(127)), 23);
  return _mm256_andnot_ps(under, _mm256_mul_ps(p, _mm256_castsi256_ps(e)));
}

/* logistic(x) from e = exp(-|x|): 1 / (1 + e) for x >= 0, e / (1 + e) below (the reference's
 * exp(x) under -9 differs from that by a relative e < 1.3e-4 of a value under 1.3e-4). */
EL_TARGET_AVX2 static __m256 logistic8(__m256 x) {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  const __m256 e = exp_avx2(_mm256_or_ps(x, sign));
  const __m256 r = _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_add_ps(_mm256_set1_ps(1.0f), e));
  return _mm256_blendv_ps(r, _mm256_mul_ps(e, r), _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LT_OQ));
}

/* tanh(x) = sign(x) (1 - e) / (1 + e) with e = exp(-2|x|); under |x| = 0.25, where 1 - e would
 * lose bits, the odd series to x^9 (next term below 3e-9 of x). */
EL_TARGET_AVX2 static __m256 tanh8(__m256 x) {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  const __m256 ax = _mm256_andnot_ps(sign, x);
  const __m256 e = exp_avx2(_mm256_mul_ps(ax, _mm256_set1_ps(-2.0f)));
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 big = _mm256_div_ps(_mm256_sub_ps(one, e), _mm256_add_ps(one, e));
  const __m256 x2 = _mm256_mul_ps(ax, ax);
  const __m256 small = TANH_SERIES(_mm256_fmadd_ps, _mm256_mul_ps, _mm256_set1_ps, ax, x2);
  const __m256 t = _mm256_blendv_ps(big, small, _mm256_cmp_ps(ax, _mm256_set1_ps(0.25f), _CMP_LT_OQ));
  return _mm256_or_ps(t, _mm256_and_ps(x, sign));
}

EL_TARGET_AVX2 static void f32_logistic_avx2(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, logistic8(_mm256_loadu_ps(x + i)));
  if (i < n) el_ew_f32_logistic_c(x + i, y + i, n - i);
}

EL_TARGET_AVX2 static void f32_tanh_avx2(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, tanh8(_mm256_loadu_ps(x + i)));
  if (i < n) el_ew_f32_tanh_c(x + i, y + i, n - i);
}

EL_TARGET_AVX2 static float f32_exp_sum_avx2(const float* x, float* y, int64_t n, float max,
                                             float beta) {
  const __m256 vmax = _mm256_set1_ps(max), vbeta = _mm256_set1_ps(beta);
  __m256 sum = _mm256_setzero_ps();
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 e = exp_avx2(_mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(x + i), vmax), vbeta));
    _mm256_storeu_ps(y + i, e);
    sum = _mm256_add_ps(sum, e);
  }
  if (i < n) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i keep = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(n - i)), lane);
    const __m256 v = _mm256_maskload_ps(x + i, keep);
    const __m256 e = _mm256_and_ps(_mm256_castsi256_ps(keep),
                                   exp_avx2(_mm256_mul_ps(_mm256_sub_ps(v, vmax), vbeta)));
    _mm256_maskstore_ps(y + i, keep, e);
    sum = _mm256_add_ps(sum, e);
  }
  float lanes[8];
  _mm256_storeu_ps(lanes, sum);
  return ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
}

EL_TARGET_AVX2 static void f32_scale_avx2(float* y, int64_t n, float s) {
  const __m256 vs = _mm256_set1_ps(s);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, _mm256_mul_ps(_mm256_loadu_ps(y + i), vs));
  for (; i < n; ++i) y[i] *= s;
}

const el_ew_kernels el_ew_avx2 = {
    .q8_binary = q8_binary_avx2,
    .f32_binary = f32_binary_avx2,
    .f32_column_sums = f32_column_sums_avx2,
    .q8_column_sums = q8_column_sums_avx2,
    .requant_row = requant_row_avx2,
    .f32_max = f32_max_avx2,
    .f32_exp_sum = f32_exp_sum_avx2,
    .f32_scale = f32_scale_avx2,
    .f32_logistic = f32_logistic_avx2,
    .f32_tanh = f32_tanh_avx2,
};

/* ---- AVX-512 -------------------------------------------------------------------------------- */

EL_TARGET_AVX512 static inline __mmask16 tail16(int64_t left) {
  return (__mmask16)(left >= 16 ? 0xFFFF : ((1u << left) - 1u));
}

EL_TARGET_AVX512 static inline __m512i load16(const void* p, int step, int is_unsigned,
                                              __mmask16 keep) {
  if (step == 0) {
    return _mm512_set1_epi32(is_unsigned ? *(const uint8_t*)p : *(const int8_t*)p);
  }
  const __m128i v = _mm_maskz_loadu_epi8(keep, p);
  return is_unsigned ? _mm512_cvtepu8_epi32(v) : _mm512_cvtepi8_epi32(v);
}

EL_TARGET_AVX512 static inline __m512i rdiv_avx512(__m512i v, __m512i mask, __m128i e) {
  const __m512i rem = _mm512_and_si512(v, mask);
  const __m512i thr = _mm512_sub_epi32(_mm512_srai_epi32(mask, 1), _mm512_srai_epi32(v, 31));
  const __m512i q = _mm512_sra_epi32(v, e);
  return _mm512_mask_add_epi32(q, _mm512_cmpgt_epi32_mask(rem, thr), q, _mm512_set1_epi32(1));
}

EL_TARGET_AVX512 static inline __m512i split_avx512(__m512i x, __m512i mh, __m512i ml) {
  const __m512i hi = _mm512_slli_epi32(_mm512_mullo_epi32(x, mh), 5);
  const __m512i lo = _mm512_srai_epi32(
      _mm512_add_epi32(_mm512_mullo_epi32(x, ml), _mm512_set1_epi32(1 << 10)), 11);
  return _mm512_add_epi32(hi, lo);
}

/* One input of the split ADD rescale with its divide by 2^e folded into one rounding (e <= 5):
 * floor((x * m + 2^10 + 2^(10+e) - [x < 0] 2^11) / 2^(11+e)) for e > 0 (floor((x * m + 2^10) /
 * 2^11) for e = 0) is el_mbqm_one's SRDHM then its rounding divide (nested floors of integers
 * combine; the SRDHM result is negative exactly when x is, as m >= 2^30), and with
 * m = mh 2^16 + ml it is x mh 2^(5-e) + floor((x ml + c) / 2^(11+e)). */
typedef struct add_in_avx512 {
  __m512i off, mh, ml, c_pos, c_neg;
  __m128i hi_shift, lo_shift;
} add_in_avx512;

EL_TARGET_AVX512 static inline add_in_avx512 add_in_setup(int32_t off, int32_t mh, int32_t ml,
                                                          int32_t e) {
  add_in_avx512 c;
  c.off = _mm512_set1_epi32(off);
  c.mh = _mm512_set1_epi32(mh);
  c.ml = _mm512_set1_epi32(ml);
  const int32_t pos = (1 << 10) + (e > 0 ? 1 << (10 + e) : 0);
  c.c_pos = _mm512_set1_epi32(pos);
  c.c_neg = _mm512_set1_epi32(pos - (e > 0 ? 1 << 11 : 0));
  c.hi_shift = _mm_cvtsi32_si128(5 - e);
  c.lo_shift = _mm_cvtsi32_si128(11 + e);
  return c;
}

EL_TARGET_AVX512 __attribute__((always_inline)) static inline __m512i add_in(__m128i bytes, int is_unsigned,
                                              const add_in_avx512* c) {
  const __m512i w = is_unsigned ? _mm512_cvtepu8_epi32(bytes) : _mm512_cvtepi8_epi32(bytes);
  const __m512i x = _mm512_add_epi32(w, c->off);
  const __m512i hi = _mm512_sll_epi32(_mm512_mullo_epi32(x, c->mh), c->hi_shift);
  const __m512i xl = _mm512_mullo_epi32(x, c->ml);
  const __mmask16 neg = _mm512_movepi32_mask(x);
  const __m512i lo = _mm512_mask_add_epi32(_mm512_add_epi32(xl, c->c_pos), neg, xl, c->c_neg);
  return _mm512_add_epi32(hi, _mm512_sra_epi32(lo, c->lo_shift));
}

/* ADD of two full-length operands on the folded split path. */
EL_TARGET_AVX512 __attribute__((always_inline)) static inline void q8_add_split_avx512(const el_q8_binary* p, const uint8_t* a,
                                                        const uint8_t* b, int8_t* o, int64_t n,
                                                        int is_unsigned) {
  const add_in_avx512 c1 = add_in_setup(p->off1, p->mh1, p->ml1, p->rs1);
  const add_in_avx512 c2 = add_in_setup(p->off2, p->mh2, p->ml2, p->rs2);
  const el_mbqm1_params qo = el_mbqm1_setup_avx512(p->mo, p->lso, p->rso);
  const __m512i zp = _mm512_set1_epi32(p->out_zp);
  const __m512i lo = _mm512_set1_epi32(p->act_min), hi = _mm512_set1_epi32(p->act_max);
  const __m512 ax = _mm512_set1_ps(p->ax), bx = _mm512_set1_ps(p->bx), c = _mm512_set1_ps(p->c);
  const __m512 eps = _mm512_set1_ps(p->eps), top = _mm512_set1_ps(1.0f - p->eps);
  const __m512 flo = _mm512_set1_ps((float)p->act_min), fhi = _mm512_set1_ps((float)p->act_max);
  int approx = p->approx;
  int64_t tried = 0, missed = 0;
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m128i a8 = _mm_loadu_si128((const __m128i*)(a + i));
    const __m128i b8 = _mm_loadu_si128((const __m128i*)(b + i));
    if (approx) {
      /* The float form of el_q8_binary (see its approx fields). */
      const __m512i ai = is_unsigned ? _mm512_cvtepu8_epi32(a8) : _mm512_cvtepi8_epi32(a8);
      const __m512i bi = is_unsigned ? _mm512_cvtepu8_epi32(b8) : _mm512_cvtepi8_epi32(b8);
      const __m512 w = _mm512_fmadd_ps(_mm512_cvtepi32_ps(ai), ax,
                                       _mm512_fmadd_ps(_mm512_cvtepi32_ps(bi), bx, c));
      const __m512 fl = _mm512_roundscale_ps(w, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
      const __m512 frac = _mm512_sub_ps(w, fl);
      const __mmask16 unsure = _mm512_cmp_ps_mask(frac, eps, _CMP_LT_OQ) |
                               _mm512_cmp_ps_mask(frac, top, _CMP_GT_OQ);
      ++tried;
      if (unsure == 0) {
        const __m512 q = _mm512_min_ps(_mm512_max_ps(fl, flo), fhi);
        _mm_storeu_si128((__m128i*)(o + i), _mm512_cvtepi32_epi8(_mm512_cvtps_epi32(q)));
        continue;
      }
      approx = give_up(++missed, tried);
    }
    const __m512i ra = add_in(a8, is_unsigned, &c1);
    const __m512i rb = add_in(b8, is_unsigned, &c2);
    __m512i v = _mm512_add_epi32(el_mbqm1_avx512(_mm512_add_epi32(ra, rb), &qo), zp);
    v = _mm512_min_epi32(_mm512_max_epi32(v, lo), hi);
    _mm_storeu_si128((__m128i*)(o + i), _mm512_cvtepi32_epi8(v));
  }
  if (i < n) {
    const __mmask16 keep = tail16(n - i);
    const __m512i ra = add_in(_mm_maskz_loadu_epi8(keep, a + i), is_unsigned, &c1);
    const __m512i rb = add_in(_mm_maskz_loadu_epi8(keep, b + i), is_unsigned, &c2);
    __m512i v = _mm512_add_epi32(el_mbqm1_avx512(_mm512_add_epi32(ra, rb), &qo), zp);
    v = _mm512_min_epi32(_mm512_max_epi32(v, lo), hi);
    _mm_mask_storeu_epi8(o + i, keep, _mm512_cvtepi32_epi8(v));
  }
}

EL_TARGET_AVX512 static void q8_binary_avx512(const el_q8_binary* p, const void* a, int a_step,
                                              const void* b, int b_step, void* out, int64_t n) {
  if (!p->is_mul && p->split && p->rs1 <= 5 && p->rs2 <= 5 && a_step == 1 && b_step == 1) {
    if (p->is_unsigned) {
      q8_add_split_avx512(p, (const uint8_t*)a, (const uint8_t*)b, (int8_t*)out, n, 1);
    } else {
      q8_add_split_avx512(p, (const uint8_t*)a, (const uint8_t*)b, (int8_t*)out, n, 0);
    }
    return;
  }
  const __m512i off1 = _mm512_set1_epi32(p->off1), off2 = _mm512_set1_epi32(p->off2);
  const el_mbqm1_params q1 = el_mbqm1_setup_avx512(p->m1, p->ls1, p->rs1);
  const el_mbqm1_params q2 = el_mbqm1_setup_avx512(p->m2, p->ls2, p->rs2);
  const el_mbqm1_params qo = el_mbqm1_setup_avx512(p->mo, p->lso, p->rso);
  const __m512i zp = _mm512_set1_epi32(p->out_zp);
  const __m512i lo = _mm512_set1_epi32(p->act_min), hi = _mm512_set1_epi32(p->act_max);
  const __m512i mh1 = _mm512_set1_epi32(p->mh1), ml1 = _mm512_set1_epi32(p->ml1);
  const __m512i mh2 = _mm512_set1_epi32(p->mh2), ml2 = _mm512_set1_epi32(p->ml2);
  const __m512i mask1 = _mm512_set1_epi32((int32_t)((1u << (p->rs1 & 31)) - 1u));
  const __m512i mask2 = _mm512_set1_epi32((int32_t)((1u << (p->rs2 & 31)) - 1u));
  const __m128i e1 = _mm_cvtsi32_si128(p->rs1), e2 = _mm_cvtsi32_si128(p->rs2);
  const __m128i headroom = _mm_cvtsi32_si128(p->left_shift);
  const uint8_t* ap = (const uint8_t*)a;
  const uint8_t* bp = (const uint8_t*)b;
  int8_t* o = (int8_t*)out;
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 keep = tail16(n - i);
    const __m512i x = _mm512_add_epi32(load16(ap + i * a_step, a_step, p->is_unsigned, keep), off1);
    const __m512i y = _mm512_add_epi32(load16(bp + i * b_step, b_step, p->is_unsigned, keep), off2);
    __m512i v;
    if (p->is_mul) {
      v = _mm512_mullo_epi32(x, y);
    } else if (p->split) {
      v = _mm512_add_epi32(rdiv_avx512(split_avx512(x, mh1, ml1), mask1, e1),
                           rdiv_avx512(split_avx512(y, mh2, ml2), mask2, e2));
    } else {
      const __m512i rx = el_mbqm1_avx512(_mm512_sll_epi32(x, headroom), &q1);
      const __m512i ry = el_mbqm1_avx512(_mm512_sll_epi32(y, headroom), &q2);
      v = _mm512_add_epi32(rx, ry);
    }
    v = _mm512_add_epi32(el_mbqm1_avx512(v, &qo), zp);
    v = _mm512_min_epi32(_mm512_max_epi32(v, lo), hi);
    _mm_mask_storeu_epi8(o + i, keep, _mm512_cvtepi32_epi8(v));
  }
}

EL_TARGET_AVX512 static inline __m512 f32_op_avx512(el_f32_op op, __m512 x, __m512 y) {
  return op == EL_F32_ADD ? _mm512_add_ps(x, y)
                          : (op == EL_F32_SUB ? _mm512_sub_ps(x, y) : _mm512_mul_ps(x, y));
}

EL_TARGET_AVX512 static void f32_binary_avx512(el_f32_op op, const float* a, int a_step,
                                               const float* b, int b_step, float* out,
                                               int64_t n, float lo, float hi) {
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  const __m512 a0 = _mm512_set1_ps(a[0]), b0 = _mm512_set1_ps(b[0]);
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 keep = tail16(n - i);
    const __m512 x = a_step ? _mm512_maskz_loadu_ps(keep, a + i) : a0;
    const __m512 y = b_step ? _mm512_maskz_loadu_ps(keep, b + i) : b0;
    const __m512 v = _mm512_min_ps(vhi, _mm512_max_ps(vlo, f32_op_avx512(op, x, y)));
    _mm512_mask_storeu_ps(out + i, keep, v);
  }
}

EL_TARGET_AVX512 static void f32_column_sums_avx512(float* out, const float* x, int64_t rows,
                                                    int64_t cols) {
  int64_t k = 0;
  for (; k + 64 <= cols; k += 64) {
    __m512 s0 = _mm512_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
    const float* p = x + k;
    for (int64_t r = 0; r < rows; ++r, p += cols) {
      s0 = _mm512_add_ps(s0, _mm512_loadu_ps(p));
      s1 = _mm512_add_ps(s1, _mm512_loadu_ps(p + 16));
      s2 = _mm512_add_ps(s2, _mm512_loadu_ps(p + 32));
      s3 = _mm512_add_ps(s3, _mm512_loadu_ps(p + 48));
    }
    _mm512_storeu_ps(out + k, s0);
    _mm512_storeu_ps(out + k + 16, s1);
    _mm512_storeu_ps(out + k + 32, s2);
    _mm512_storeu_ps(out + k + 48, s3);
  }
  for (; k < cols; k += 16) {
    const __mmask16 keep = tail16(cols - k);
    __m512 s0 = _mm512_setzero_ps();
    const float* p = x + k;
    for (int64_t r = 0; r < rows; ++r, p += cols) s0 = _mm512_add_ps(s0, _mm512_maskz_loadu_ps(keep, p));
    _mm512_mask_storeu_ps(out + k, keep, s0);
  }
}

/* As q8_column_sums_avx2, 32 columns at a time. */
EL_TARGET_AVX512 static void q8_column_sums_avx512(int32_t* out, const void* x, int is_unsigned,
                                                   int64_t rows, int64_t cols) {
  const uint8_t* base = (const uint8_t*)x;
  for (int64_t k = 0; k < cols; k += 32) {
    const __mmask32 keep = cols - k >= 32 ? 0xFFFFFFFFu : (__mmask32)((1u << (cols - k)) - 1u);
    for (int64_t r0 = 0; r0 < rows; r0 += 256) {
      const int64_t r1 = rows - r0 < 256 ? rows : r0 + 256;
      __m512i acc = _mm512_setzero_si512();
      const uint8_t* p = base + r0 * cols + k;
      for (int64_t r = r0; r < r1; ++r, p += cols) {
        const __m256i v = _mm256_maskz_loadu_epi8(keep, p);
        acc = _mm512_add_epi16(acc, is_unsigned ? _mm512_cvtepu8_epi16(v) : _mm512_cvtepi8_epi16(v));
      }
      const __m256i lo16 = _mm512_castsi512_si256(acc), hi16 = _mm512_extracti64x4_epi64(acc, 1);
      const __m512i lo = is_unsigned ? _mm512_cvtepu16_epi32(lo16) : _mm512_cvtepi16_epi32(lo16);
      const __m512i hi = is_unsigned ? _mm512_cvtepu16_epi32(hi16) : _mm512_cvtepi16_epi32(hi16);
      const __mmask16 k_lo = (__mmask16)keep, k_hi = (__mmask16)(keep >> 16);
      _mm512_mask_storeu_epi32(out + k, k_lo, _mm512_add_epi32(_mm512_maskz_loadu_epi32(k_lo, out + k), lo));
      _mm512_mask_storeu_epi32(out + k + 16, k_hi,
                               _mm512_add_epi32(_mm512_maskz_loadu_epi32(k_hi, out + k + 16), hi));
    }
  }
}

EL_TARGET_AVX512 static void requant_row_avx512(const int32_t* acc, void* out, int64_t n,
                                                int32_t mult, int32_t lshift, int32_t rshift,
                                                int32_t zp, int32_t lo, int32_t hi) {
  const el_mbqm1_params q = el_mbqm1_setup_avx512(mult, lshift, rshift);
  const __m512i z = _mm512_set1_epi32(zp);
  const __m512i vlo = _mm512_set1_epi32(lo), vhi = _mm512_set1_epi32(hi);
  int8_t* o = (int8_t*)out;
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 keep = tail16(n - i);
    __m512i v = el_mbqm1_avx512(_mm512_maskz_loadu_epi32(keep, acc + i), &q);
    v = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(v, z), vlo), vhi);
    _mm_mask_storeu_epi8(o + i, keep, _mm512_cvtepi32_epi8(v));
  }
}

/* Four running maxima (the maximum does not depend on the order it is taken in), so a 256-float
 * row waits on four chains of four instead of one of sixteen. */
EL_TARGET_AVX512 static float f32_max_avx512(const float* x, int64_t n) {
  if (n < 16) {
    float m = x[0];
    for (int64_t i = 1; i < n; ++i) m = x[i] > m ? x[i] : m;
    return m;
  }
  __m512 v0 = _mm512_loadu_ps(x), v1 = v0, v2 = v0, v3 = v0;
  int64_t i = 16;
  for (; i + 64 <= n; i += 64) {
    v0 = _mm512_max_ps(v0, _mm512_loadu_ps(x + i));
    v1 = _mm512_max_ps(v1, _mm512_loadu_ps(x + i + 16));
    v2 = _mm512_max_ps(v2, _mm512_loadu_ps(x + i + 32));
    v3 = _mm512_max_ps(v3, _mm512_loadu_ps(x + i + 48));
  }
  for (; i + 16 <= n; i += 16) v0 = _mm512_max_ps(v0, _mm512_loadu_ps(x + i));
  if (i < n) {
    const __mmask16 keep = tail16(n - i);
    v1 = _mm512_mask_max_ps(v1, keep, v1, _mm512_maskz_loadu_ps(keep, x + i));
  }
  return _mm512_reduce_max_ps(_mm512_max_ps(_mm512_max_ps(v0, v1), _mm512_max_ps(v2, v3)));
}

/* clamp_hi = 0 when every x is <= 0 or NaN (softmax's beta * (x - max) with beta >= 0): the
 * upper clamp changes nothing then. */
EL_TARGET_AVX512 static inline __m512 exp_clamped_avx512(__m512 x, int clamp_hi) {
  const __mmask16 under = _mm512_cmp_ps_mask(x, _mm512_set1_ps(EXP_LO), _CMP_LT_OQ);
  x = _mm512_max_ps(_mm512_set1_ps(EXP_LO), x);
  if (clamp_hi) x = _mm512_min_ps(_mm512_set1_ps(EXP_HI), x);
  /* k = x * log2(e) rounded to the nearest integer (ties to even) by adding 1.5 * 2^23 and
   * taking it off again (|x * log2(e)| < 2^22 after the clamp): the same k as a rounding
   * instruction, one operation cheaper. p * 2^k is one scalef: the same correctly rounded
   * product as a multiplication by the float 2^k (k >= -126, so 2^k is normal). */
  const __m512 magic = _mm512_set1_ps(12582912.0f);
  const __m512 k = _mm512_sub_ps(
      _mm512_add_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)), magic), magic);
  const __m512 r = EXP_REDUCED(_mm512_fnmadd_ps, _mm512_set1_ps, k, x);
  const __m512 p = EXP_POLY(_mm512_fmadd_ps, _mm512_mul_ps, _mm512_add_ps, _mm512_set1_ps, r);
  return _mm512_maskz_scalef_ps((__mmask16)~under, p, k);
}

EL_TARGET_AVX512 static inline __m512 exp_avx512(__m512 x) { return exp_clamped_avx512(x, 1); }

/* As logistic8 and tanh8, 16 lanes. */
EL_TARGET_AVX512 static __m512 logistic16(__m512 x) {
  const __m512 e = exp_avx512(_mm512_castsi512_ps(
      _mm512_or_si512(_mm512_castps_si512(x), _mm512_set1_epi32((int32_t)0x80000000u))));
  const __m512 r = _mm512_div_ps(_mm512_set1_ps(1.0f), _mm512_add_ps(_mm512_set1_ps(1.0f), e));
  return _mm512_mask_mul_ps(r, _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_LT_OQ), e, r);
}

EL_TARGET_AVX512 static __m512 tanh16(__m512 x) {
  const __m512i sign = _mm512_set1_epi32((int32_t)0x80000000u);
  const __m512 ax = _mm512_castsi512_ps(_mm512_andnot_si512(sign, _mm512_castps_si512(x)));
  const __m512 e = exp_avx512(_mm512_mul_ps(ax, _mm512_set1_ps(-2.0f)));
  const __m512 one = _mm512_set1_ps(1.0f);
  __m512 t = _mm512_div_ps(_mm512_sub_ps(one, e), _mm512_add_ps(one, e));
  const __m512 x2 = _mm512_mul_ps(ax, ax);
  const __m512 small = TANH_SERIES(_mm512_fmadd_ps, _mm512_mul_ps, _mm512_set1_ps, ax, x2);
  t = _mm512_mask_mov_ps(t, _mm512_cmp_ps_mask(ax, _mm512_set1_ps(0.25f), _CMP_LT_OQ), small);
  return _mm512_castsi512_ps(_mm512_or_si512(
      _mm512_castps_si512(t), _mm512_and_si512(_mm512_castps_si512(x), sign)));
}

EL_TARGET_AVX512 static void f32_logistic_avx512(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 keep = tail16(n - i);
    _mm512_mask_storeu_ps(y + i, keep, logistic16(_mm512_maskz_loadu_ps(keep, x + i)));
  }
}

EL_TARGET_AVX512 static void f32_tanh_avx512(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 keep = tail16(n - i);
    _mm512_mask_storeu_ps(y + i, keep, tanh16(_mm512_maskz_loadu_ps(keep, x + i)));
  }
}

EL_TARGET_AVX512 static float f32_exp_sum_avx512(const float* x, float* y, int64_t n, float max,
                                                 float beta) {
  const __m512 vmax = _mm512_set1_ps(max), vbeta = _mm512_set1_ps(beta);
  const int clamp_hi = !(beta >= 0.0f);
  __m512 sum = _mm512_setzero_ps();
  int64_t i = 0;
  /* Whole vectors load and store unmasked (masked stores are slow on some cores). */
  if (beta == 1.0f) {
    /* (x - max) * 1 is x - max, and at most 0: two operations fewer per vector. */
    for (; i + 16 <= n; i += 16) {
      const __m512 e = exp_clamped_avx512(_mm512_sub_ps(_mm512_loadu_ps(x + i), vmax), 0);
      _mm512_storeu_ps(y + i, e);
      sum = _mm512_add_ps(sum, e);
    }
  }
  for (; i + 16 <= n; i += 16) {
    const __m512 e = exp_clamped_avx512(
        _mm512_mul_ps(_mm512_sub_ps(_mm512_loadu_ps(x + i), vmax), vbeta), clamp_hi);
    _mm512_storeu_ps(y + i, e);
    sum = _mm512_add_ps(sum, e);
  }
  if (i < n) {
    const __mmask16 keep = tail16(n - i);
    const __m512 v = _mm512_maskz_loadu_ps(keep, x + i);
    const __m512 e = exp_clamped_avx512(_mm512_mul_ps(_mm512_sub_ps(v, vmax), vbeta), clamp_hi);
    _mm512_mask_storeu_ps(y + i, keep, e);
    sum = _mm512_mask_add_ps(sum, keep, sum, e);
  }
  return _mm512_reduce_add_ps(sum);
}

EL_TARGET_AVX512 static void f32_scale_avx512(float* y, int64_t n, float s) {
  const __m512 vs = _mm512_set1_ps(s);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, _mm512_mul_ps(_mm512_loadu_ps(y + i), vs));
  if (i < n) {
    const __mmask16 keep = tail16(n - i);
    _mm512_mask_storeu_ps(y + i, keep, _mm512_mul_ps(_mm512_maskz_loadu_ps(keep, y + i), vs));
  }
}

const el_ew_kernels el_ew_avx512 = {
    .q8_binary = q8_binary_avx512,
    .f32_binary = f32_binary_avx512,
    .f32_column_sums = f32_column_sums_avx512,
    .q8_column_sums = q8_column_sums_avx512,
    .requant_row = requant_row_avx512,
    .f32_max = f32_max_avx512,
    .f32_exp_sum = f32_exp_sum_avx512,
    .f32_scale = f32_scale_avx512,
    .f32_logistic = f32_logistic_avx512,
    .f32_tanh = f32_tanh_avx512,
};

#endif /* __x86_64__ */
