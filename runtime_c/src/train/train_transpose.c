/* Channels-last columns to channel planes: the copy behind the filter gradient's channel-major
 * input. With 16 channels at a time on AVX-512 a 16 x 16 block goes through registers (16 loads,
 * 16 stores) instead of one scalar load and store per element. Copies only: the same values on
 * every path. */
#include "train/train_internal.h"
#if defined(__x86_64__)
#include "kernels/optimized/simd_x86.h"
#endif

static void to_planes_plain(const float* src, size_t step, int cols, int channels, float* dst,
                            size_t plane) {
  for (int c = 0; c < channels; ++c, dst += plane) {
    for (int i = 0; i < cols; ++i) dst[i] = src[(size_t)i * step + (size_t)c];
  }
}

#if defined(__x86_64__)
/* r[i] (column i, 16 channels) -> r[c] (channel c, 16 columns). */
EL_TARGET_AVX512 static inline void transpose16(__m512 r[16]) {
  __m512 t[16], u[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  /* u[4i + j], 128-bit lane L: column 4L + j of rows 4i .. 4i + 3. */
  for (int i = 0; i < 16; i += 4) {
    u[i] = _mm512_shuffle_ps(t[i], t[i + 2], 0x44);
    u[i + 1] = _mm512_shuffle_ps(t[i], t[i + 2], 0xEE);
    u[i + 2] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0x44);
    u[i + 3] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
  }
  for (int j = 0; j < 4; ++j) {
    const __m512 p0 = _mm512_shuffle_f32x4(u[j], u[4 + j], 0x88);
    const __m512 p1 = _mm512_shuffle_f32x4(u[j], u[4 + j], 0xDD);
    const __m512 q0 = _mm512_shuffle_f32x4(u[8 + j], u[12 + j], 0x88);
    const __m512 q1 = _mm512_shuffle_f32x4(u[8 + j], u[12 + j], 0xDD);
    r[j] = _mm512_shuffle_f32x4(p0, q0, 0x88);
    r[8 + j] = _mm512_shuffle_f32x4(p0, q0, 0xDD);
    r[4 + j] = _mm512_shuffle_f32x4(p1, q1, 0x88);
    r[12 + j] = _mm512_shuffle_f32x4(p1, q1, 0xDD);
  }
}

EL_TARGET_AVX512 static void to_planes_avx512(const float* src, size_t step, int cols,
                                              int channels, float* dst, size_t plane) {
  __m512 r[16];
  for (int c0 = 0; c0 < channels; c0 += 16) {
    for (int w0 = 0; w0 < cols; w0 += 16) {
      const int n = cols - w0 < 16 ? cols - w0 : 16;
      for (int i = 0; i < 16; ++i) {
        r[i] = i < n ? _mm512_loadu_ps(src + (size_t)(w0 + i) * step + (size_t)c0) : _mm512_setzero_ps();
      }
      transpose16(r);
      const __mmask16 keep = (__mmask16)(n == 16 ? 0xFFFF : (1u << n) - 1u);
      for (int c = 0; c < 16; ++c) {
        _mm512_mask_storeu_ps(dst + (size_t)(c0 + c) * plane + (size_t)w0, keep, r[c]);
      }
    }
  }
}
#endif

void el_train_to_planes(const el_train_kernels* k, const float* src, size_t step, int cols,
                        int channels, float* dst, size_t plane) {
#if defined(__x86_64__)
  if (el_isa_at_least(k->isa, EL_ISA_AVX512) && channels % 16 == 0) {
    to_planes_avx512(src, step, cols, channels, dst, plane);
    return;
  }
#else
  (void)k;
#endif
  to_planes_plain(src, step, cols, channels, dst, plane);
}
