/* Plain C bodies of quant_kernels.h and the table of bodies per ISA level. */
#include "kernels/optimized/quant_kernels.h"

static void f32_to_q8(const float* x, void* out, int64_t n, int is_unsigned, float scale,
                      float zp, float lo, float hi) {
  if (is_unsigned) {
    uint8_t* o = (uint8_t*)out;
    for (int64_t i = 0; i < n; ++i) o[i] = (uint8_t)el_quant_one(x[i], scale, zp, lo, hi);
  } else {
    int8_t* o = (int8_t*)out;
    for (int64_t i = 0; i < n; ++i) o[i] = (int8_t)el_quant_one(x[i], scale, zp, lo, hi);
  }
}

static void q8_to_f32(const void* x, int is_unsigned, float* out, int64_t n, float scale,
                      int32_t zp) {
  if (is_unsigned) {
    const uint8_t* u = (const uint8_t*)x;
    for (int64_t i = 0; i < n; ++i) out[i] = (float)((int32_t)u[i] - zp) * scale;
  } else {
    const int8_t* s = (const int8_t*)x;
    for (int64_t i = 0; i < n; ++i) out[i] = (float)((int32_t)s[i] - zp) * scale;
  }
}

/* roundf without a library call where |v| < 2^22 (the truncation and the fraction v - t are
 * exact there); anything else, NaN included, takes el_quant_mul_one. */
static void f32_mul_to_s8(const float* x, int8_t* out, int64_t n, float inv, float lo, float hi) {
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i] * inv;
    if (!(v > -4194304.0f && v < 4194304.0f)) {
      out[i] = (int8_t)el_quant_mul_one(x[i], inv, lo, hi);
      continue;
    }
    const int32_t t = (int32_t)v;
    const float frac = v - (float)t;
    const float r = (float)(t + (frac >= 0.5f) - (frac <= -0.5f));
    out[i] = (int8_t)(r > hi ? (int32_t)hi : (r >= lo ? (int32_t)r : (int32_t)lo));
  }
}

static const el_quant_kernels kScalar = {
    .f32_to_q8 = f32_to_q8, .q8_to_f32 = q8_to_f32, .f32_mul_to_s8 = f32_mul_to_s8};

extern const el_quant_kernels el_quant_avx2;
extern const el_quant_kernels el_quant_avx512;
extern const el_quant_kernels el_quant_neon;

const el_quant_kernels* el_quant_kernels_for(el_isa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case EL_ISA_AVX512_VNNI:
    case EL_ISA_AVX512:
      return &el_quant_avx512;
    case EL_ISA_AVX2:
      return &el_quant_avx2;
#endif
#if defined(__aarch64__)
    case EL_ISA_NEON_DOT:
    case EL_ISA_NEON:
      return &el_quant_neon;
#endif
    default:
      return &kScalar;
  }
}
