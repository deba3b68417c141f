/* Weight packing (once per node, in prepare) and the kernel table lookup. */
#include <string.h>

#include "kernels/optimized/qgemm.h"

static int32_t weight(const void* w, int is_unsigned, size_t i) {
  return is_unsigned ? (int32_t)((const uint8_t*)w)[i] : (int32_t)((const int8_t*)w)[i];
}

void el_qgemm_pack_groups(el_qformat f, const void* w, int is_unsigned, int32_t w_offset, int n,
                          int groups, int glen, int gstride, int kp, void* packed, int32_t* sums) {
  const int blocks = (n + EL_QGEMM_NR - 1) / EL_QGEMM_NR;
  const int kdim = groups * glen;
  memset(packed, 0, el_qgemm_block_bytes(f, kp) * (size_t)blocks);
  for (int c = 0; c < n; ++c) {
    const int blk = c / EL_QGEMM_NR, lane = c % EL_QGEMM_NR;
    int32_t sum = 0;
    for (int src = 0; src < kdim; ++src) {
      const int k = src / glen * gstride + src % glen;
      const int32_t v = weight(w, is_unsigned, (size_t)c * (size_t)kdim + (size_t)src) + w_offset;
      sum += v;
      if (f == EL_QFORMAT_QUAD) {
        int8_t* b = (int8_t*)packed + el_qgemm_block_bytes(f, kp) * (size_t)blk;
        b[(size_t)(k / 4) * 64 + (size_t)lane * 4 + (size_t)(k % 4)] = (int8_t)v;
      } else {
        int16_t* b = (int16_t*)((char*)packed + el_qgemm_block_bytes(f, kp) * (size_t)blk);
        b[(size_t)(k / 2) * 32 + (size_t)lane * 2 + (size_t)(k % 2)] = (int16_t)v;
      }
    }
    if (sums != NULL) sums[c] = sum;
  }
}

void el_qgemm_pack(el_qformat f, const void* w, int is_unsigned, int32_t w_offset, int n, int kdim,
                   int kp, void* packed, int32_t* sums) {
  el_qgemm_pack_groups(f, w, is_unsigned, w_offset, n, 1, kdim, kdim, kp, packed, sums);
}

extern const el_qgemm_kernels el_qgemm_scalar;
#if defined(__x86_64__)
extern const el_qgemm_kernels el_qgemm_avx2;
extern const el_qgemm_kernels el_qgemm_avx512;
extern const el_qgemm_kernels el_qgemm_avx512_vnni;
#endif
#if defined(__aarch64__)
extern const el_qgemm_kernels el_qgemm_neon;
extern const el_qgemm_kernels el_qgemm_neon_dot;
#endif

const el_qgemm_kernels* el_qgemm_kernels_for(el_isa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case EL_ISA_AVX512_VNNI:
      return &el_qgemm_avx512_vnni;
    case EL_ISA_AVX512:
      return &el_qgemm_avx512;
    case EL_ISA_AVX2:
      return &el_qgemm_avx2;
#endif
#if defined(__aarch64__)
    case EL_ISA_NEON_DOT:
      return &el_qgemm_neon_dot;
    case EL_ISA_NEON:
      return &el_qgemm_neon;
#endif
    default:
      return &el_qgemm_scalar;
  }
}
