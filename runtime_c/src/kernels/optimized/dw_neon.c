/* aarch64 depthwise kernels: 16 channels per step, input bytes widened to int32 and multiplied
 * by the int32 weights; float with fused multiply-add. */
#if defined(__aarch64__)
#include <string.h>

#include "kernels/optimized/dw_kernels.h"
#include "kernels/optimized/simd_neon.h"

/* 16 input bytes (the first `count`, the rest zero) widened to four int32x4. */
static inline void widen16(const uint8_t* p, int count, int is_unsigned, int32x4_t x[4]) {
  uint8x16_t bytes;
  if (count >= 16) {
    bytes = vld1q_u8(p);
  } else {
    uint8_t tmp[16] = {0};
    memcpy(tmp, p, (size_t)count);
    bytes = vld1q_u8(tmp);
  }
  int16x8_t lo, hi;
  if (is_unsigned) {
    lo = vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(bytes)));
    hi = vreinterpretq_s16_u16(vmovl_u8(vget_high_u8(bytes)));
  } else {
    const int8x16_t s = vreinterpretq_s8_u8(bytes);
    lo = vmovl_s8(vget_low_s8(s));
    hi = vmovl_s8(vget_high_s8(s));
  }
  x[0] = vmovl_s16(vget_low_s16(lo));
  x[1] = vmovl_s16(vget_high_s16(lo));
  x[2] = vmovl_s16(vget_low_s16(hi));
  x[3] = vmovl_s16(vget_high_s16(hi));
}

static void q8_neon(int taps, const void* const* x, ptrdiff_t step, int count, int is_unsigned,
                    int channels, const int32_t* w, int stride, const el_requant* rq, int8_t* out,
                    ptrdiff_t out_step) {
  for (int i = 0; i < count; ++i) {
    for (int c = 0; c < channels; c += 16) {
      const int left = channels - c;
      int32x4_t acc[4] = {vdupq_n_s32(0), vdupq_n_s32(0), vdupq_n_s32(0), vdupq_n_s32(0)};
      for (int t = 0; t < taps; ++t) {
        int32x4_t xv[4];
        widen16((const uint8_t*)x[t] + i * step + c, left, is_unsigned, xv);
        const int32_t* wt = w + (size_t)t * (size_t)stride + c;
        for (int q = 0; q < 4; ++q) acc[q] = vmlaq_s32(acc[q], xv[q], vld1q_s32(wt + 4 * q));
      }
      el_store_bytes_neon(out + i * out_step + c, el_requant16_neon(acc, rq, c), left);
    }
  }
}

static void f32_neon(int taps, const float* const* x, ptrdiff_t step, int count, int channels,
                     const float* w, int stride, const float* bias, float lo, float hi,
                     float* out, ptrdiff_t out_step) {
  const float32x4_t vlo = vdupq_n_f32(lo), vhi = vdupq_n_f32(hi);
  for (int i = 0; i < count; ++i) {
    int c = 0;
    for (; c + 4 <= channels; c += 4) {
      float32x4_t acc = vld1q_f32(bias + c);
      for (int t = 0; t < taps; ++t) {
        acc = vfmaq_f32(acc, vld1q_f32(x[t] + i * step + c), vld1q_f32(w + (size_t)t * (size_t)stride + c));
      }
      vst1q_f32(out + i * out_step + c, vminq_f32(vmaxq_f32(acc, vlo), vhi));
    }
    for (; c < channels; ++c) {
      float acc = bias[c];
      for (int t = 0; t < taps; ++t) acc += x[t][i * step + c] * w[(size_t)t * (size_t)stride + c];
      out[i * out_step + c] = acc < lo ? lo : (acc > hi ? hi : acc);
    }
  }
}

const el_dw_kernels el_dw_neon = {q8_neon, f32_neon, 0};

#endif /* __aarch64__ */
