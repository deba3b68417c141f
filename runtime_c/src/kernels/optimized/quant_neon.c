/* aarch64 bodies of quant_kernels.h: 8 floats per step. FRINTA is roundf (half away from
 * zero); the clamp selects lo where v >= lo fails, which NaN does, as the reference does. */
#if defined(__aarch64__)
#include <arm_neon.h>

#include "kernels/optimized/quant_kernels.h"

static inline int32x4_t quant4_neon(float32x4_t x, float32x4_t scale, float32x4_t zp,
                                    float32x4_t lo, float32x4_t hi) {
  float32x4_t v = vaddq_f32(vrndaq_f32(vdivq_f32(x, scale)), zp);
  v = vbslq_f32(vcgeq_f32(v, lo), v, lo);
  v = vbslq_f32(vcgtq_f32(v, hi), hi, v);
  return vcvtq_s32_f32(v);
}

static void f32_to_q8_neon(const float* x, void* out, int64_t n, int is_unsigned, float scale,
                           float zp, float lo, float hi) {
  const float32x4_t vs = vdupq_n_f32(scale), vz = vdupq_n_f32(zp);
  const float32x4_t vlo = vdupq_n_f32(lo), vhi = vdupq_n_f32(hi);
  uint8_t* o = (uint8_t*)out;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const int32x4_t a = quant4_neon(vld1q_f32(x + i), vs, vz, vlo, vhi);
    const int32x4_t b = quant4_neon(vld1q_f32(x + i + 4), vs, vz, vlo, vhi);
    const int16x8_t w = vcombine_s16(vmovn_s32(a), vmovn_s32(b));
    /* In the byte range already: the narrowing only drops the high bytes. */
    vst1_u8(o + i, vmovn_u16(vreinterpretq_u16_s16(w)));
  }
  for (; i < n; ++i) o[i] = (uint8_t)el_quant_one(x[i], scale, zp, lo, hi);
  (void)is_unsigned;
}

static void q8_to_f32_neon(const void* x, int is_unsigned, float* out, int64_t n, float scale,
                           int32_t zp) {
  const uint8_t* p = (const uint8_t*)x;
  const float32x4_t vs = vdupq_n_f32(scale);
  const int32x4_t vz = vdupq_n_s32(zp);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const int16x8_t w = is_unsigned ? vreinterpretq_s16_u16(vmovl_u8(vld1_u8(p + i)))
                                    : vmovl_s8(vld1_s8((const int8_t*)(p + i)));
    const int32x4_t lo = vsubq_s32(vmovl_s16(vget_low_s16(w)), vz);
    const int32x4_t hi = vsubq_s32(vmovl_s16(vget_high_s16(w)), vz);
    vst1q_f32(out + i, vmulq_f32(vcvtq_f32_s32(lo), vs));
    vst1q_f32(out + i + 4, vmulq_f32(vcvtq_f32_s32(hi), vs));
  }
  for (; i < n; ++i) {
    const int32_t v = is_unsigned ? (int32_t)p[i] : (int32_t)(int8_t)p[i];
    out[i] = (float)(v - zp) * scale;
  }
}

static void f32_mul_to_s8_neon(const float* x, int8_t* out, int64_t n, float inv, float lo,
                               float hi) {
  const float32x4_t vi = vdupq_n_f32(inv), vlo = vdupq_n_f32(lo), vhi = vdupq_n_f32(hi);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    int32x4_t q[2];
    for (int h = 0; h < 2; ++h) {
      float32x4_t v = vrndaq_f32(vmulq_f32(vld1q_f32(x + i + 4 * h), vi));
      v = vbslq_f32(vcgeq_f32(v, vlo), v, vlo);
      v = vbslq_f32(vcgtq_f32(v, vhi), vhi, v);
      q[h] = vcvtq_s32_f32(v);
    }
    vst1_s8(out + i, vmovn_s16(vcombine_s16(vmovn_s32(q[0]), vmovn_s32(q[1]))));
  }
  for (; i < n; ++i) out[i] = (int8_t)el_quant_mul_one(x[i], inv, lo, hi);
}

const el_quant_kernels el_quant_neon = {.f32_to_q8 = f32_to_q8_neon, .q8_to_f32 = q8_to_f32_neon,
                                        .f32_mul_to_s8 = f32_mul_to_s8_neon};

#endif /* __aarch64__ */
