#include "kernels/optimized/hybrid_opt.h"

#include <math.h>
#include <string.h>
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include "kernels/hybrid_quant.h"

/* Largest magnitude handled inline; anything else (huge, infinite or NaN products) goes through
 * the reference quantizer. */
#define INLINE_LIMIT 4096.0f

/* roundf (half away from zero) for |x| < INLINE_LIMIT: the truncation is exact and so is the
 * fraction x - t, which decides the step away from zero. */
static inline int32_t round_half_away(float x) {
  const int32_t t = (int32_t)x;
  const float frac = x - (float)t;
  return t + (frac >= 0.5f) - (frac <= -0.5f);
}

/* Scans for the extremes as the reference does (first element, then strict comparisons). A NaN
 * anywhere makes both NaN, so that the callers hand the row to the reference quantizer. */
static void extremes_in_order(const float* values, int size, float* lo, float* hi) {
  float l = size > 0 ? values[0] : 0.0f;
  float h = l;
  int nan = l != l;
  for (int i = 1; i < size; ++i) {
    l = values[i] < l ? values[i] : l;
    h = values[i] > h ? values[i] : h;
    nan |= values[i] != values[i];
  }
  *lo = nan ? NAN : l;
  *hi = nan ? NAN : h;
}

typedef float f32x4 __attribute__((vector_size(16)));
typedef int32_t i32x4 __attribute__((vector_size(16)));

/* v < m ? v : m and v > m ? v : m lane by lane: MINPS / MAXPS exactly on x86-64. */
static inline f32x4 take_less(f32x4 v, f32x4 m) {
#if defined(__SSE__)
  return (f32x4)_mm_min_ps((__m128)v, (__m128)m);
#else
  const i32x4 lt = v < m;
  return (f32x4)(((i32x4)v & lt) | ((i32x4)m & ~lt));
#endif
}
static inline f32x4 take_greater(f32x4 v, f32x4 m) {
#if defined(__SSE__)
  return (f32x4)_mm_max_ps((__m128)v, (__m128)m);
#else
  const i32x4 gt = v > m;
  return (f32x4)(((i32x4)v & gt) | ((i32x4)m & ~gt));
#endif
}

/* The same extremes from two 4-float vector scans (independent lanes, where the single scan
 * waits on each comparison). A NaN never wins a comparison; it, and an infinity, shows in the
 * lanes' sums of x * 0, which are then NaN (such rows are rescanned in order: the callers give
 * them to the reference quantizer anyway). Without NaN the order of the comparisons only
 * decides which of two equal values is kept, which shows only for zeros of either sign: with
 * `zero_sign` an extreme of zero is found again in order too (the symmetric quantizer uses
 * only the magnitudes, so ReLU outputs, whose minimum is a zero, keep the vector scan). */
static void extremes(const float* values, int size, int zero_sign, float* lo, float* hi) {
  if (size < 32) {
    extremes_in_order(values, size, lo, hi);
    return;
  }
  f32x4 l0, l1;
  memcpy(&l0, values, sizeof(l0));
  memcpy(&l1, values + 4, sizeof(l1));
  f32x4 h0 = l0, h1 = l1;
  f32x4 z = l0 * 0.0f + l1 * 0.0f;
  int i = 8;
  for (; i + 8 <= size; i += 8) {
    f32x4 v0, v1;
    memcpy(&v0, values + i, sizeof(v0));
    memcpy(&v1, values + i + 4, sizeof(v1));
    l0 = take_less(v0, l0);
    l1 = take_less(v1, l1);
    h0 = take_greater(v0, h0);
    h1 = take_greater(v1, h1);
    z += v0 * 0.0f + v1 * 0.0f;
  }
  l0 = take_less(l1, l0);
  h0 = take_greater(h1, h0);
  float lm = l0[0], hm = h0[0], zs = z[0] + z[1] + z[2] + z[3];
  for (int k = 1; k < 4; ++k) {
    lm = l0[k] < lm ? l0[k] : lm;
    hm = h0[k] > hm ? h0[k] : hm;
  }
  for (; i < size; ++i) {
    lm = values[i] < lm ? values[i] : lm;
    hm = values[i] > hm ? values[i] : hm;
    zs += values[i] * 0.0f;
  }
  if (zs != 0.0f || (zero_sign && (lm == 0.0f || hm == 0.0f))) {
    extremes_in_order(values, size, lo, hi);
    return;
  }
  *lo = lm;
  *hi = hm;
}

void el_opt_hybrid_quantize_symmetric_with(const el_quant_kernels* k, const float* values, int size,
                                           int8_t* quantized, float* scaling_factor) {
  float lo, hi;
  extremes(values, size, 0, &lo, &hi);
  const float range = fabsf(lo) > fabsf(hi) ? fabsf(lo) : fabsf(hi);
  if (!(range > 0.0f && range < INFINITY)) {
    el_hybrid_quantize_symmetric(values, size, quantized, scaling_factor);
    return;
  }
  *scaling_factor = range / 127.0f;
  const float inv = 127.0f / range;
  if (!(inv < INFINITY)) {
    el_hybrid_quantize_symmetric(values, size, quantized, scaling_factor);
    return;
  }
  /* |values[i] * inv| <= 127 (to rounding): the reference's roundf and clamp. */
  k->f32_mul_to_s8(values, quantized, size, inv, -127.0f, 127.0f);
}

void el_opt_hybrid_quantize_asymmetric(const float* values, int size, int8_t* quantized,
                                       float* scaling_factor, int32_t* zero_point) {
  float lo, hi;
  extremes(values, size, 1, &lo, &hi);
  if (!(fabsf(lo) < INFINITY && fabsf(hi) < INFINITY)) {
    el_hybrid_quantize_asymmetric(values, size, quantized, scaling_factor, zero_point);
    return;
  }
  /* The scale and zero point from the reference, on the two extremes alone (they decide them). */
  const float ends[2] = {lo, hi};
  int8_t ends_q[2];
  el_hybrid_quantize_asymmetric(ends, 2, ends_q, scaling_factor, zero_point);
  const float inv = 1.0f / *scaling_factor;
  const float zp = (float)*zero_point;
  if (lo == hi && lo == 0.0f) {
    memset(quantized, 0, (size_t)size);
    return;
  }
  if (!(inv < INFINITY) || fabsf(zp + lo * inv) >= INLINE_LIMIT ||
      fabsf(zp + hi * inv) >= INLINE_LIMIT) {
    el_hybrid_quantize_asymmetric(values, size, quantized, scaling_factor, zero_point);
    return;
  }
  for (int i = 0; i < size; ++i) {
    int32_t q = round_half_away(zp + values[i] * inv);
    q = q < -128 ? -128 : (q > 127 ? 127 : q);
    quantized[i] = (int8_t)q;
  }
}
