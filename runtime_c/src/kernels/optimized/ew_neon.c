/* aarch64 elementwise kernels: 8 (integer) or 4 (float) elements per step through the NEON
 * requantization; tails run the scalar form. */
#if defined(__aarch64__)
#include <math.h>

#include "kernels/optimized/ew_kernels.h"
#include "kernels/optimized/simd_neon.h"

static inline int16x8_t load8(const uint8_t* p, int step, int is_unsigned) {
  if (step == 0) return vdupq_n_s16(is_unsigned ? (int16_t)*p : (int16_t)(int8_t)*p);
  if (is_unsigned) return vreinterpretq_s16_u16(vmovl_u8(vld1_u8(p)));
  return vmovl_s8(vld1_s8((const int8_t*)p));
}

static inline int32x4_t mbqm1(int32x4_t x, int32_t m, int32_t ls, int32_t rs) {
  return el_mbqm_neon(x, vdupq_n_s32(m), vdupq_n_s32(ls), vdupq_n_s32(rs));
}

static void q8_binary_neon(const el_q8_binary* p, const void* a, int a_step, const void* b,
                           int b_step, void* out, int64_t n) {
  const uint8_t* ap = (const uint8_t*)a;
  const uint8_t* bp = (const uint8_t*)b;
  int8_t* o = (int8_t*)out;
  const int32x4_t headroom = vdupq_n_s32(p->left_shift);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const int16x8_t xa = load8(ap + i * a_step, a_step, p->is_unsigned);
    const int16x8_t xb = load8(bp + i * b_step, b_step, p->is_unsigned);
    int32x4_t r[2];
    for (int h = 0; h < 2; ++h) {
      const int32x4_t x = vaddq_s32(vmovl_s16(h ? vget_high_s16(xa) : vget_low_s16(xa)), vdupq_n_s32(p->off1));
      const int32x4_t y = vaddq_s32(vmovl_s16(h ? vget_high_s16(xb) : vget_low_s16(xb)), vdupq_n_s32(p->off2));
      int32x4_t v;
      if (p->is_mul) {
        v = vmulq_s32(x, y);
      } else {
        v = vaddq_s32(mbqm1(vshlq_s32(x, headroom), p->m1, p->ls1, p->rs1),
                      mbqm1(vshlq_s32(y, headroom), p->m2, p->ls2, p->rs2));
      }
      v = vaddq_s32(mbqm1(v, p->mo, p->lso, p->rso), vdupq_n_s32(p->out_zp));
      r[h] = vminq_s32(vmaxq_s32(v, vdupq_n_s32(p->act_min)), vdupq_n_s32(p->act_max));
    }
    vst1_s8(o + i, vmovn_s16(vcombine_s16(vmovn_s32(r[0]), vmovn_s32(r[1]))));
  }
  for (; i < n; ++i) {
    const int32_t x = p->is_unsigned ? ap[i * a_step] : (int8_t)ap[i * a_step];
    const int32_t y = p->is_unsigned ? bp[i * b_step] : (int8_t)bp[i * b_step];
    o[i] = (int8_t)el_q8_binary_one(p, x, y);
  }
}

static inline float32x4_t f32_op_neon(el_f32_op op, float32x4_t x, float32x4_t y) {
  return op == EL_F32_ADD ? vaddq_f32(x, y) : (op == EL_F32_SUB ? vsubq_f32(x, y) : vmulq_f32(x, y));
}

static void f32_binary_neon(el_f32_op op, const float* a, int a_step, const float* b, int b_step,
                            float* out, int64_t n, float lo, float hi) {
  const float32x4_t vlo = vdupq_n_f32(lo), vhi = vdupq_n_f32(hi);
  const float32x4_t a0 = vdupq_n_f32(a[0]), b0 = vdupq_n_f32(b[0]);
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const float32x4_t x = a_step ? vld1q_f32(a + i) : a0;
    const float32x4_t y = b_step ? vld1q_f32(b + i) : b0;
    /* Compare and select, as the reference clamps: a NaN and a -0 below a 0 bound pass. */
    float32x4_t v = f32_op_neon(op, x, y);
    v = vbslq_f32(vcltq_f32(v, vlo), vlo, v);
    vst1q_f32(out + i, vbslq_f32(vcgtq_f32(v, vhi), vhi, v));
  }
  for (; i < n; ++i) {
    const float x = a[i * a_step], y = b[i * b_step];
    const float v = op == EL_F32_ADD ? x + y : (op == EL_F32_SUB ? x - y : x * y);
    out[i] = el_ew_clamp(v, lo, hi);
  }
}

static void f32_column_sums_neon(float* out, const float* x, int64_t rows, int64_t cols) {
  int64_t k = 0;
  for (; k + 16 <= cols; k += 16) {
    float32x4_t s0 = vdupq_n_f32(0.0f), s1 = s0, s2 = s0, s3 = s0;
    const float* p = x + k;
    for (int64_t r = 0; r < rows; ++r, p += cols) {
      s0 = vaddq_f32(s0, vld1q_f32(p));
      s1 = vaddq_f32(s1, vld1q_f32(p + 4));
      s2 = vaddq_f32(s2, vld1q_f32(p + 8));
      s3 = vaddq_f32(s3, vld1q_f32(p + 12));
    }
    vst1q_f32(out + k, s0);
    vst1q_f32(out + k + 4, s1);
    vst1q_f32(out + k + 8, s2);
    vst1q_f32(out + k + 12, s3);
  }
  for (; k + 4 <= cols; k += 4) {
    float32x4_t s0 = vdupq_n_f32(0.0f);
    const float* p = x + k;
    for (int64_t r = 0; r < rows; ++r, p += cols) s0 = vaddq_f32(s0, vld1q_f32(p));
    vst1q_f32(out + k, s0);
  }
  for (; k < cols; ++k) {
    float s0 = 0.0f;
    for (int64_t r = 0; r < rows; ++r) s0 += x[r * cols + k];
    out[k] = s0;
  }
}

/* 16 columns summed in 16-bit lanes, at most 256 rows at a time (see ew_x86.c). */
static void q8_column_sums_neon(int32_t* out, const void* x, int is_unsigned, int64_t rows,
                                int64_t cols) {
  const uint8_t* base = (const uint8_t*)x;
  int64_t k = 0;
  for (; k + 16 <= cols; k += 16) {
    for (int64_t r0 = 0; r0 < rows; r0 += 256) {
      const int64_t r1 = rows - r0 < 256 ? rows : r0 + 256;
      uint16x8_t a0 = vdupq_n_u16(0), a1 = a0;
      const uint8_t* p = base + r0 * cols + k;
      for (int64_t r = r0; r < r1; ++r, p += cols) {
        const uint8x16_t v = vld1q_u8(p);
        if (is_unsigned) {
          a0 = vaddw_u8(a0, vget_low_u8(v));
          a1 = vaddw_u8(a1, vget_high_u8(v));
        } else {
          const int8x16_t sv = vreinterpretq_s8_u8(v);
          a0 = vreinterpretq_u16_s16(vaddw_s8(vreinterpretq_s16_u16(a0), vget_low_s8(sv)));
          a1 = vreinterpretq_u16_s16(vaddw_s8(vreinterpretq_s16_u16(a1), vget_high_s8(sv)));
        }
      }
      int32x4_t w[4];
      if (is_unsigned) {
        w[0] = vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(a0)));
        w[1] = vreinterpretq_s32_u32(vmovl_u16(vget_high_u16(a0)));
        w[2] = vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(a1)));
        w[3] = vreinterpretq_s32_u32(vmovl_u16(vget_high_u16(a1)));
      } else {
        w[0] = vmovl_s16(vget_low_s16(vreinterpretq_s16_u16(a0)));
        w[1] = vmovl_s16(vget_high_s16(vreinterpretq_s16_u16(a0)));
        w[2] = vmovl_s16(vget_low_s16(vreinterpretq_s16_u16(a1)));
        w[3] = vmovl_s16(vget_high_s16(vreinterpretq_s16_u16(a1)));
      }
      for (int q = 0; q < 4; ++q) vst1q_s32(out + k + 4 * q, vaddq_s32(vld1q_s32(out + k + 4 * q), w[q]));
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

static void requant_row_neon(const int32_t* acc, void* out, int64_t n, int32_t mult,
                             int32_t lshift, int32_t rshift, int32_t zp, int32_t lo, int32_t hi) {
  int8_t* o = (int8_t*)out;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    int32x4_t r[2];
    for (int h = 0; h < 2; ++h) {
      const int32x4_t v = vaddq_s32(mbqm1(vld1q_s32(acc + i + 4 * h), mult, lshift, rshift), vdupq_n_s32(zp));
      r[h] = vminq_s32(vmaxq_s32(v, vdupq_n_s32(lo)), vdupq_n_s32(hi));
    }
    vst1_s8(o + i, vmovn_s16(vcombine_s16(vmovn_s32(r[0]), vmovn_s32(r[1]))));
  }
  for (; i < n; ++i) o[i] = (int8_t)el_requant_one(acc[i], mult, lshift, rshift, zp, lo, hi);
}

static float f32_max_neon(const float* x, int64_t n) {
  float m = x[0];
  int64_t i = 1;
  if (n >= 5) {
    float32x4_t v = vld1q_f32(x + 1);
    for (i = 5; i + 4 <= n; i += 4) v = vmaxq_f32(v, vld1q_f32(x + i));
    const float r = vmaxvq_f32(v);
    m = r > m ? r : m;
  }
  for (; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

/* exp with the range reduction and Cephes polynomial of ew_x86.c; below expf's normal range 0. */
static inline float32x4_t exp_neon(float32x4_t x) {
  const uint32x4_t under = vcltq_f32(x, vdupq_n_f32(-87.33654f));
  x = vminq_f32(vmaxq_f32(x, vdupq_n_f32(-87.33654f)), vdupq_n_f32(88.37626f));
  const float32x4_t k = vrndnq_f32(vmulq_f32(x, vdupq_n_f32(1.44269504088896341f)));
  float32x4_t r = vfmsq_f32(x, k, vdupq_n_f32(0.693359375f));
  r = vfmsq_f32(r, k, vdupq_n_f32(-2.12194440e-4f));
  float32x4_t p = vdupq_n_f32(1.9875691500e-4f);
  p = vfmaq_f32(vdupq_n_f32(1.3981999507e-3f), p, r);
  p = vfmaq_f32(vdupq_n_f32(8.3334519073e-3f), p, r);
  p = vfmaq_f32(vdupq_n_f32(4.1665795894e-2f), p, r);
  p = vfmaq_f32(vdupq_n_f32(1.6666665459e-1f), p, r);
  p = vfmaq_f32(vdupq_n_f32(5.0000001201e-1f), p, r);
  p = vaddq_f32(vfmaq_f32(r, p, vmulq_f32(r, r)), vdupq_n_f32(1.0f));
  const int32x4_t e = vshlq_n_s32(vaddq_s32(vcvtq_s32_f32(k), vdupq_n_s32(127)), 23);
  const float32x4_t y = vmulq_f32(p, vreinterpretq_f32_s32(e));
  return vreinterpretq_f32_u32(vbicq_u32(vreinterpretq_u32_f32(y), under));
}

static float f32_exp_sum_neon(const float* x, float* y, int64_t n, float max, float beta) {
  const float32x4_t vmax = vdupq_n_f32(max), vbeta = vdupq_n_f32(beta);
  float32x4_t sum = vdupq_n_f32(0.0f);
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const float32x4_t e = exp_neon(vmulq_f32(vsubq_f32(vld1q_f32(x + i), vmax), vbeta));
    vst1q_f32(y + i, e);
    sum = vaddq_f32(sum, e);
  }
  float total = vaddvq_f32(sum);
  for (; i < n; ++i) {
    y[i] = expf((x[i] - max) * beta);
    total += y[i];
  }
  return total;
}

static void f32_scale_neon(float* y, int64_t n, float s) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) vst1q_f32(y + i, vmulq_n_f32(vld1q_f32(y + i), s));
  for (; i < n; ++i) y[i] *= s;
}

const el_ew_kernels el_ew_neon = {
    .q8_binary = q8_binary_neon,
    .f32_binary = f32_binary_neon,
    .f32_column_sums = f32_column_sums_neon,
    .q8_column_sums = q8_column_sums_neon,
    .requant_row = requant_row_neon,
    .f32_max = f32_max_neon,
    .f32_exp_sum = f32_exp_sum_neon,
    .f32_scale = f32_scale_neon,
    .f32_logistic = el_ew_f32_logistic_c,
    .f32_tanh = el_ew_f32_tanh_c,
};

#endif /* __aarch64__ */
