/* Float GEMM packing, the kernel table, and the plain C kernel (16 independent lanes per
 * channel block, for the compiler's vectorizer). */
#include <string.h>

#include "kernels/optimized/fgemm.h"

void el_fgemm_pack(const float* w, int n, int k, float* packed) {
  const int blocks = (n + EL_FGEMM_NR - 1) / EL_FGEMM_NR;
  memset(packed, 0, el_fgemm_block_bytes(k) * (size_t)blocks);
  for (int c = 0; c < n; ++c) {
    float* b = packed + (size_t)(c / EL_FGEMM_NR) * (size_t)k * EL_FGEMM_NR + c % EL_FGEMM_NR;
    for (int i = 0; i < k; ++i) b[(size_t)i * EL_FGEMM_NR] = w[(size_t)c * (size_t)k + (size_t)i];
  }
}

enum { MR = 4 };

static void igemm(int taps, int tap_len, const float* const* a, const ptrdiff_t* step, int rows,
                  const float* w, size_t block_bytes, int n, const float* bias, float lo, float hi,
                  float* out, ptrdiff_t out_stride) {
  for (int c = 0; c < n; c += EL_FGEMM_NR) {
    const float* wb = (const float*)((const char*)w + (size_t)(c / EL_FGEMM_NR) * block_bytes);
    const int count = n - c < EL_FGEMM_NR ? n - c : EL_FGEMM_NR;
    for (int r = 0; r < rows; ++r) {
      float s[EL_FGEMM_NR];
      for (int j = 0; j < EL_FGEMM_NR; ++j) s[j] = bias[c + j];
      const float* wr = wb;
      for (int t = 0; t < taps; ++t) {
        const float* ar = a[r] + t * step[r];
        for (int i = 0; i < tap_len; ++i, wr += EL_FGEMM_NR) {
          const float x = ar[i];
          for (int j = 0; j < EL_FGEMM_NR; ++j) s[j] += x * wr[j];
        }
      }
      float* o = out + r * out_stride + c;
      for (int j = 0; j < count; ++j) o[j] = s[j] < lo ? lo : (s[j] > hi ? hi : s[j]);
    }
  }
}

static void gemm(int k, const float* const* a, int rows, const float* w, size_t block_bytes, int n,
                 const float* bias, float lo, float hi, float* out, ptrdiff_t out_stride) {
  static const ptrdiff_t no_step[MR] = {0};
  igemm(1, k, a, no_step, rows, w, block_bytes, n, bias, lo, hi, out, out_stride);
}

static void gemv(int k, const float* a, const float* w, size_t block_bytes, int n,
                 const float* bias, float lo, float hi, float* out) {
  gemm(k, &a, 1, w, block_bytes, n, bias, lo, hi, out, 0);
}

const el_fgemm_kernels el_fgemm_scalar = {MR, gemm, gemv, igemm, NULL, NULL};

extern const el_fgemm_kernels el_fgemm_avx2;
extern const el_fgemm_kernels el_fgemm_avx512;
extern const el_fgemm_kernels el_fgemm_neon;

const el_fgemm_kernels* el_fgemm_kernels_for(el_isa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case EL_ISA_AVX512_VNNI:
    case EL_ISA_AVX512:
      return &el_fgemm_avx512;
    case EL_ISA_AVX2:
      return &el_fgemm_avx2;
#endif
#if defined(__aarch64__)
    case EL_ISA_NEON_DOT:
    case EL_ISA_NEON:
      return &el_fgemm_neon;
#endif
    default:
      return &el_fgemm_scalar;
  }
}
