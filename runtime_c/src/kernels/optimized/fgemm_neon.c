/* aarch64 float GEMM micro-kernels: 4 rows x 16 channels with fused multiply-add. */
#if defined(__aarch64__)
#include "kernels/optimized/fgemm.h"

#include <arm_neon.h>

enum { MR = 4 };

static void store16(float* dst, const float32x4_t v[4], float32x4_t lo, float32x4_t hi, int count) {
  for (int q = 0; q < 4; ++q) {
    const float32x4_t c = vminq_f32(vmaxq_f32(v[q], lo), hi);
    if (count >= 4 * q + 4) {
      vst1q_f32(dst + 4 * q, c);
    } else {
      float tmp[4];
      vst1q_f32(tmp, c);
      for (int i = 4 * q; i < count; ++i) dst[i] = tmp[i - 4 * q];
      return;
    }
  }
}

static void igemm_neon(int taps, int tap_len, const float* const* a, const ptrdiff_t* step,
                       int rows, const float* w, size_t block_bytes, int n, const float* bias,
                       float lo, float hi, float* out, ptrdiff_t out_stride) {
  const float32x4_t vlo = vdupq_n_f32(lo), vhi = vdupq_n_f32(hi);
  for (int c = 0; c < n; c += 16) {
    const float* wb = (const float*)((const char*)w + (size_t)(c / 16) * block_bytes);
    float32x4_t acc[MR][4];
    for (int r = 0; r < MR; ++r) {
      for (int q = 0; q < 4; ++q) acc[r][q] = vld1q_f32(bias + c + 4 * q);
    }
    const float* wi = wb;
    const float* at[MR];
    for (int r = 0; r < MR; ++r) at[r] = a[r];
    for (int t = 0; t < taps; ++t) {
      for (int i = 0; i < tap_len; ++i, wi += 16) {
        const float32x4_t w0 = vld1q_f32(wi), w1 = vld1q_f32(wi + 4);
        const float32x4_t w2 = vld1q_f32(wi + 8), w3 = vld1q_f32(wi + 12);
        for (int r = 0; r < MR; ++r) {
          const float x = at[r][i];
          acc[r][0] = vfmaq_n_f32(acc[r][0], w0, x);
          acc[r][1] = vfmaq_n_f32(acc[r][1], w1, x);
          acc[r][2] = vfmaq_n_f32(acc[r][2], w2, x);
          acc[r][3] = vfmaq_n_f32(acc[r][3], w3, x);
        }
      }
      for (int r = 0; r < MR; ++r) at[r] += step[r];
    }
    for (int r = 0; r < rows; ++r) store16(out + r * out_stride + c, acc[r], vlo, vhi, n - c);
  }
}

static void gemm_neon(int k, const float* const* a, int rows, const float* w, size_t block_bytes,
                      int n, const float* bias, float lo, float hi, float* out, ptrdiff_t out_stride) {
  static const ptrdiff_t no_step[MR] = {0};
  igemm_neon(1, k, a, no_step, rows, w, block_bytes, n, bias, lo, hi, out, out_stride);
}

static void gemv_neon(int k, const float* a, const float* w, size_t block_bytes, int n,
                      const float* bias, float lo, float hi, float* out) {
  const float32x4_t vlo = vdupq_n_f32(lo), vhi = vdupq_n_f32(hi);
  for (int c = 0; c < n; c += 16) {
    const float* wb = (const float*)((const char*)w + (size_t)(c / 16) * block_bytes);
    float32x4_t acc[4];
    for (int q = 0; q < 4; ++q) acc[q] = vld1q_f32(bias + c + 4 * q);
    for (int i = 0; i < k; ++i) {
      const float* wi = wb + (size_t)i * 16;
      for (int q = 0; q < 4; ++q) acc[q] = vfmaq_n_f32(acc[q], vld1q_f32(wi + 4 * q), a[i]);
    }
    store16(out + c, acc, vlo, vhi, n - c);
  }
}

const el_fgemm_kernels el_fgemm_neon = {MR, gemm_neon, gemv_neon, igemm_neon, NULL, NULL};

#endif /* __aarch64__ */
