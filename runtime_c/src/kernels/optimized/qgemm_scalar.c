/* Plain C integer GEMM (PAIR16 layout), written for the compiler's vectorizer: 16 independent
 * int32 lanes per channel block, int16 operands. */
#include <math.h>
#include <string.h>

#include "kernels/optimized/qgemm.h"

enum { MR = 4 };

static void gemm(int kp, const void* a, size_t a_stride, const void* b, size_t b_block, int nb,
                 int32_t* acc) {
  for (int blk = 0; blk < nb; ++blk) {
    const int16_t* bb = (const int16_t*)((const char*)b + (size_t)blk * b_block);
    for (int r = 0; r < MR; ++r) {
      const int16_t* ar = (const int16_t*)((const char*)a + (size_t)r * a_stride);
      uint32_t s[EL_QGEMM_NR] = {0};
      for (int k = 0; k < kp; k += 2) {
        const int32_t a0 = ar[k], a1 = ar[k + 1];
        const int16_t* bp = bb + (size_t)k * EL_QGEMM_NR;
        for (int j = 0; j < EL_QGEMM_NR; ++j) s[j] += (uint32_t)(a0 * bp[2 * j] + a1 * bp[2 * j + 1]);
      }
      memcpy(acc + r * 64 + blk * EL_QGEMM_NR, s, sizeof s);
    }
  }
}

static void gemv(int kp, const void* a, const void* b, size_t b_block, int nb, int32_t* acc) {
  const int16_t* ar = (const int16_t*)a;
  for (int blk = 0; blk < nb; ++blk) {
    const int16_t* bb = (const int16_t*)((const char*)b + (size_t)blk * b_block);
    uint32_t s[EL_QGEMM_NR] = {0};
    for (int k = 0; k < kp; k += 2) {
      const int32_t a0 = ar[k], a1 = ar[k + 1];
      const int16_t* bp = bb + (size_t)k * EL_QGEMM_NR;
      for (int j = 0; j < EL_QGEMM_NR; ++j) s[j] += (uint32_t)(a0 * bp[2 * j] + a1 * bp[2 * j + 1]);
    }
    memcpy(acc + blk * EL_QGEMM_NR, s, sizeof s);
  }
}

static void requant(const int32_t* acc, int rows, int n, const el_requant* rq, int c0, int8_t* out,
                    ptrdiff_t out_stride) {
  for (int r = 0; r < rows; ++r) {
    for (int j = 0; j < n; ++j) {
      const int c = c0 + j;
      out[r * out_stride + j] =
          (int8_t)el_requant_one(el_wrap_fold(acc[r * 64 + j], rq->bias[c], 1), rq->mult[c], rq->lshift[c],
                                 rq->rshift[c], rq->out_zp, rq->act_min, rq->act_max);
    }
  }
}

void el_qgemm_rescale_scalar(const int32_t* acc, const int32_t* bias, const double* scale,
                             const float* fscale, int n, int32_t zp, int32_t lo, int32_t hi,
                             int8_t* out) {
  (void)fscale;
  for (int j = 0; j < n; ++j) {
    /* Rounded and clamped in double, as the reference: huge products clamp too. */
    const double v = round((double)el_wrap_fold(acc[j], bias[j], 1) * scale[j]) + (double)zp;
    out[j] = (int8_t)(v > (double)hi ? hi : (v >= (double)lo ? (int32_t)v : lo));
  }
}

/* The bounds keep the single-precision error under what rescale_avx512 / rescale_avx2 (in
 * qgemm_x86.c) allow for: lanes whose rounding matters lie within 2^9 of zero, products and
 * scales stay normal floats (no subnormal loses relative precision, none overflows). */
int el_qgemm_rescale_floats(const double* scale, int n, int32_t zp, int32_t lo, int32_t hi,
                            float* fscale) {
  if (lo < -256 || hi > 256 || lo > hi || zp < -256 || zp > 256) return 0;
  for (int j = 0; j < n; ++j) {
    const double m = fabs(scale[j]);
    /* Written so that a NaN scale fails it too. */
    if (!(m == 0.0 || (m >= 0x1p-100 && m <= 0x1p100))) return 0;
    fscale[j] = (float)scale[j];
  }
  return 1;
}

const el_qgemm_kernels el_qgemm_scalar = {
    .format = EL_QFORMAT_PAIR16, .mr = MR, .kstep = 2, .a_xor = 0, .gemm = gemm, .gemv = gemv,
    .requant = requant, .igemm = NULL,
    .rescale = el_qgemm_rescale_scalar};
