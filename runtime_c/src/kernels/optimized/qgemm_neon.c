/* aarch64 integer GEMM micro-kernels: NEON (PAIR16 layout, widening int16 multiply-accumulate)
 * and NEON with SDOT (QUAD layout, signed 4-byte dot products; A stays signed). */
#if defined(__aarch64__)
#include <string.h>

#include "kernels/optimized/qgemm.h"
#include "kernels/optimized/simd_neon.h"

enum { MR = 4 };

static void store_acc(int32_t* acc, const int32x4_t c[4]) {
  for (int q = 0; q < 4; ++q) vst1q_s32(acc + 4 * q, c[q]);
}

/* ---- NEON, PAIR16 ------------------------------------------------------------------------- */

static void gemm_neon(int kp, const void* a, size_t a_stride, const void* b, size_t b_block, int nb,
                      int32_t* acc) {
  for (int blk = 0; blk < nb; ++blk) {
    const int16_t* w = (const int16_t*)((const char*)b + (size_t)blk * b_block);
    int32x4_t c[MR][4];
    for (int r = 0; r < MR; ++r) {
      for (int q = 0; q < 4; ++q) c[r][q] = vdupq_n_s32(0);
    }
    for (int k = 0; k < kp; k += 2) {
      /* Lanes 0-7 and 8-15, split into their k and k+1 weights. */
      const int16x8x2_t w0 = vld2q_s16(w + (size_t)k * 16);
      const int16x8x2_t w1 = vld2q_s16(w + (size_t)k * 16 + 16);
      for (int r = 0; r < MR; ++r) {
        const int16_t* ar = (const int16_t*)((const char*)a + (size_t)r * a_stride);
        const int16_t x0 = ar[k], x1 = ar[k + 1];
        c[r][0] = vmlal_n_s16(vmlal_n_s16(c[r][0], vget_low_s16(w0.val[0]), x0), vget_low_s16(w0.val[1]), x1);
        c[r][1] = vmlal_n_s16(vmlal_n_s16(c[r][1], vget_high_s16(w0.val[0]), x0), vget_high_s16(w0.val[1]), x1);
        c[r][2] = vmlal_n_s16(vmlal_n_s16(c[r][2], vget_low_s16(w1.val[0]), x0), vget_low_s16(w1.val[1]), x1);
        c[r][3] = vmlal_n_s16(vmlal_n_s16(c[r][3], vget_high_s16(w1.val[0]), x0), vget_high_s16(w1.val[1]), x1);
      }
    }
    for (int r = 0; r < MR; ++r) store_acc(acc + r * 64 + blk * 16, c[r]);
  }
}

static void gemv_neon(int kp, const void* a, const void* b, size_t b_block, int nb, int32_t* acc) {
  const int16_t* ar = (const int16_t*)a;
  for (int blk = 0; blk < nb; ++blk) {
    const int16_t* w = (const int16_t*)((const char*)b + (size_t)blk * b_block);
    int32x4_t c[4] = {vdupq_n_s32(0), vdupq_n_s32(0), vdupq_n_s32(0), vdupq_n_s32(0)};
    for (int k = 0; k < kp; k += 2) {
      const int16x8x2_t w0 = vld2q_s16(w + (size_t)k * 16);
      const int16x8x2_t w1 = vld2q_s16(w + (size_t)k * 16 + 16);
      const int16_t x0 = ar[k], x1 = ar[k + 1];
      c[0] = vmlal_n_s16(vmlal_n_s16(c[0], vget_low_s16(w0.val[0]), x0), vget_low_s16(w0.val[1]), x1);
      c[1] = vmlal_n_s16(vmlal_n_s16(c[1], vget_high_s16(w0.val[0]), x0), vget_high_s16(w0.val[1]), x1);
      c[2] = vmlal_n_s16(vmlal_n_s16(c[2], vget_low_s16(w1.val[0]), x0), vget_low_s16(w1.val[1]), x1);
      c[3] = vmlal_n_s16(vmlal_n_s16(c[3], vget_high_s16(w1.val[0]), x0), vget_high_s16(w1.val[1]), x1);
    }
    store_acc(acc + blk * 16, c);
  }
}

static void requant_neon(const int32_t* acc, int rows, int n, const el_requant* rq, int c0,
                         int8_t* out, ptrdiff_t out_stride) {
  for (int j = 0; j < n; j += 16) {
    for (int r = 0; r < rows; ++r) {
      const int32_t* ar = acc + r * 64 + j;
      const int32x4_t v[4] = {vld1q_s32(ar), vld1q_s32(ar + 4), vld1q_s32(ar + 8), vld1q_s32(ar + 12)};
      el_store_bytes_neon(out + r * out_stride + j, el_requant16_neon(v, rq, c0 + j), n - j);
    }
  }
}

const el_qgemm_kernels el_qgemm_neon = {
    .format = EL_QFORMAT_PAIR16, .mr = MR, .kstep = 2, .a_xor = 0, .gemm = gemm_neon,
    .gemv = gemv_neon, .requant = requant_neon, .igemm = NULL,
    .rescale = el_qgemm_rescale_scalar};

/* ---- NEON with SDOT, QUAD ----------------------------------------------------------------- */

static inline int8x16_t dup4(const int8_t* p) {
  int32_t v;
  memcpy(&v, p, sizeof v);
  return vreinterpretq_s8_s32(vdupq_n_s32(v));
}

EL_TARGET_DOT static void gemm_dot(int kp, const void* a, size_t a_stride, const void* b,
                                   size_t b_block, int nb, int32_t* acc) {
  for (int blk = 0; blk < nb; ++blk) {
    const int8_t* w = (const int8_t*)b + (size_t)blk * b_block;
    int32x4_t c[MR][4];
    for (int r = 0; r < MR; ++r) {
      for (int q = 0; q < 4; ++q) c[r][q] = vdupq_n_s32(0);
    }
    for (int k = 0; k < kp; k += 4) {
      const int8_t* wk = w + (size_t)k * 16;
      const int8x16_t w0 = vld1q_s8(wk), w1 = vld1q_s8(wk + 16);
      const int8x16_t w2 = vld1q_s8(wk + 32), w3 = vld1q_s8(wk + 48);
      for (int r = 0; r < MR; ++r) {
        const int8x16_t x = dup4((const int8_t*)a + (size_t)r * a_stride + k);
        c[r][0] = vdotq_s32(c[r][0], w0, x);
        c[r][1] = vdotq_s32(c[r][1], w1, x);
        c[r][2] = vdotq_s32(c[r][2], w2, x);
        c[r][3] = vdotq_s32(c[r][3], w3, x);
      }
    }
    for (int r = 0; r < MR; ++r) store_acc(acc + r * 64 + blk * 16, c[r]);
  }
}

EL_TARGET_DOT static void gemv_dot(int kp, const void* a, const void* b, size_t b_block, int nb,
                                   int32_t* acc) {
  for (int blk = 0; blk < nb; ++blk) {
    const int8_t* w = (const int8_t*)b + (size_t)blk * b_block;
    int32x4_t c[4] = {vdupq_n_s32(0), vdupq_n_s32(0), vdupq_n_s32(0), vdupq_n_s32(0)};
    for (int k = 0; k < kp; k += 4) {
      const int8_t* wk = w + (size_t)k * 16;
      const int8x16_t x = dup4((const int8_t*)a + k);
      c[0] = vdotq_s32(c[0], vld1q_s8(wk), x);
      c[1] = vdotq_s32(c[1], vld1q_s8(wk + 16), x);
      c[2] = vdotq_s32(c[2], vld1q_s8(wk + 32), x);
      c[3] = vdotq_s32(c[3], vld1q_s8(wk + 48), x);
    }
    store_acc(acc + blk * 16, c);
  }
}

const el_qgemm_kernels el_qgemm_neon_dot = {
    .format = EL_QFORMAT_QUAD, .mr = MR, .kstep = 4, .a_xor = 0, .gemm = gemm_dot,
    .gemv = gemv_dot, .requant = requant_neon, .igemm = NULL,
    .rescale = el_qgemm_rescale_scalar};

#endif /* __aarch64__ */
