/* Products with at most 16 output channels on AVX-512. The float GEMM fills one 16-lane vector
 * per row with 16 channels, so each fused multiply-add needs its own broadcast of an input
 * value: the loads, not the multiplies, set the pace. Here four consecutive k share a register
 * instead: a 128-bit broadcast puts x[k..k+3] in every quarter of the vector and four weight
 * vectors hold four channels x four k each, so one broadcast feeds four multiply-adds. Each
 * output ends as ((sum over k = 0 mod 4) + (k = 2 mod 4)) + ((k = 1 mod 4) + (k = 3 mod 4)),
 * every partial sum in k order: an order fixed by the shapes, whatever the rows or threads. */
#include <string.h>

#include "train/train_internal.h"
#if defined(__x86_64__)
#include "kernels/optimized/simd_x86.h"
#endif

bool el_train_quads_fit(const el_train_kernels* k, int n, int tap_len) {
#if defined(__x86_64__)
  return el_isa_at_least(k->isa, EL_ISA_AVX512) && n > 0 && n <= EL_TRAIN_QUAD_N && tap_len % 4 == 0;
#else
  (void)k;
  (void)n;
  (void)tap_len;
  return false;
#endif
}

/* Quad q of `packed` is 4 vectors of 16 floats; lane 4 * b + l of vector v holds
 * src[4q + l][4b + v] (0 past n), so that after the fold of el_train_igemm_quads channel
 * 4b + v lands in lane 4b + v. */
void el_train_pack_quads(const float* src, ptrdiff_t ld, int k, int n, float* packed) {
  for (int q = 0; q < k / 4; ++q, packed += 64) {
    for (int v = 0; v < 4; ++v) {
      for (int b = 0; b < 4; ++b) {
        const int ch = 4 * b + v;
        for (int l = 0; l < 4; ++l) {
          packed[16 * v + 4 * b + l] = ch < n ? src[(ptrdiff_t)(4 * q + l) * ld + ch] : 0.0f;
        }
      }
    }
  }
}

#if defined(__x86_64__)
EL_TARGET_AVX512 void el_train_igemm_quads(int taps, int tap_len, const float* const* a,
                                           const ptrdiff_t* step, int rows, const float* packed,
                                           int n, float* out, ptrdiff_t out_stride) {
  enum { R = EL_TRAIN_QUAD_MR };
  __m512 acc[R][4];
  const float* ar[R];
  for (int r = 0; r < R; ++r) {
    ar[r] = a[r < rows ? r : 0];
    for (int v = 0; v < 4; ++v) acc[r][v] = _mm512_setzero_ps();
  }
  const float* w = packed;
  for (int t = 0; t < taps; ++t) {
    for (int i = 0; i < tap_len; i += 4, w += 64) {
      const __m512 w0 = _mm512_loadu_ps(w), w1 = _mm512_loadu_ps(w + 16);
      const __m512 w2 = _mm512_loadu_ps(w + 32), w3 = _mm512_loadu_ps(w + 48);
      _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r) {
        const __m512 x = _mm512_broadcast_f32x4(_mm_loadu_ps(ar[r] + i));
        acc[r][0] = _mm512_fmadd_ps(x, w0, acc[r][0]);
        acc[r][1] = _mm512_fmadd_ps(x, w1, acc[r][1]);
        acc[r][2] = _mm512_fmadd_ps(x, w2, acc[r][2]);
        acc[r][3] = _mm512_fmadd_ps(x, w3, acc[r][3]);
      }
    }
    for (int r = 0; r < R; ++r) ar[r] += step[r];
  }
  const __mmask16 keep = (__mmask16)(n >= 16 ? 0xFFFF : (1u << n) - 1u);
  for (int r = 0; r < rows; ++r) {
    /* Per quarter b: lanes [v0 l0..3 | ...] -> lane v = sum over l of vector v's quarter b. */
    const __m512 s0 = _mm512_add_ps(_mm512_unpacklo_ps(acc[r][0], acc[r][1]),
                                    _mm512_unpackhi_ps(acc[r][0], acc[r][1]));
    const __m512 s1 = _mm512_add_ps(_mm512_unpacklo_ps(acc[r][2], acc[r][3]),
                                    _mm512_unpackhi_ps(acc[r][2], acc[r][3]));
    const __m512 sum = _mm512_add_ps(_mm512_shuffle_ps(s0, s1, _MM_SHUFFLE(1, 0, 1, 0)),
                                     _mm512_shuffle_ps(s0, s1, _MM_SHUFFLE(3, 2, 3, 2)));
    _mm512_mask_storeu_ps(out + (ptrdiff_t)r * out_stride, keep, sum);
  }
}
#else
void el_train_igemm_quads(int taps, int tap_len, const float* const* a, const ptrdiff_t* step,
                          int rows, const float* packed, int n, float* out,
                          ptrdiff_t out_stride) {
  /* Never called: el_train_quads_fit is false off x86-64. */
  (void)taps;
  (void)tap_len;
  (void)a;
  (void)step;
  (void)rows;
  (void)packed;
  (void)n;
  (void)out;
  (void)out_stride;
}
#endif
