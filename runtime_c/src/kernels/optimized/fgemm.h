/* Float matrix products behind the optimized float32 CONV_2D and FULLY_CONNECTED:
 * out[m][n] = clamp(bias[n] + sum_k A[m][k] * W[n][k]). Weights are packed once, in prepare, in
 * blocks of 16 output channels ([k][16] floats, padded channels zero). Every output is summed in
 * k order from its bias whichever entry computes it. */
#ifndef EDGELITE_KERNELS_OPTIMIZED_FGEMM_H_
#define EDGELITE_KERNELS_OPTIMIZED_FGEMM_H_

#include <stddef.h>
#include <stdint.h>

#include "cpu_isa.h"

enum { EL_FGEMM_NR = 16, EL_FGEMM_CHUNK = 64, EL_FGEMM_MAX_MR = 8 };

typedef struct el_fgemm_kernels {
  int mr; /* rows per micro tile */
  /* Rows r < rows of A (a[r] points to k floats; a[r] for rows <= r < mr must be readable)
   * times the channel blocks at w (block_bytes apart), n <= EL_FGEMM_CHUNK channels. */
  void (*gemm)(int k, const float* const* a, int rows, const float* w, size_t block_bytes, int n,
               const float* bias, float lo, float hi, float* out, ptrdiff_t out_stride);
  /* One row: out[j] = clamp(bias[j] + sum_i a[i] * W[j][i]) for j < n (n <= EL_FGEMM_CHUNK). */
  void (*gemv)(int k, const float* a, const float* w, size_t block_bytes, int n, const float* bias,
               float lo, float hi, float* out);
  /* Strided form of gemm, so a convolution reads its filter rows in place: row r of A is
   * `taps` runs of tap_len floats (k = taps * tap_len), run t at a[r] + t * step[r]. */
  void (*igemm)(int taps, int tap_len, const float* const* a, const ptrdiff_t* step, int rows,
                const float* w, size_t block_bytes, int n, const float* bias, float lo, float hi,
                float* out, ptrdiff_t out_stride);
  /* igemm for one block of n <= 16 channels over up to EL_FGEMM_NARROW_MR rows (a[r] and
   * step[r] given for all of them): with so few channels a tile of mr rows has too few
   * independent sums to keep the FMA units busy. NULL where the ISA has none. */
  void (*igemm_narrow)(int taps, int tap_len, const float* const* a, const ptrdiff_t* step,
                       int rows, const float* w, int n, const float* bias, float lo, float hi,
                       float* out, ptrdiff_t out_stride);
  /* igemm_narrow over `rows` consecutive rows of A (row r at a + r * k), any number of them, in
   * one call: with few k (a 1x1 convolution of 8 input channels) the set-up of each 12-row call
   * cost as much as its products. NULL where the ISA has none. */
  void (*gemm_narrow_rows)(int k, const float* a, int64_t rows, const float* w, int n,
                           const float* bias, float lo, float hi, float* out, ptrdiff_t out_stride);
} el_fgemm_kernels;

enum { EL_FGEMM_NARROW_MR = 12 };

const el_fgemm_kernels* el_fgemm_kernels_for(el_isa isa);

static inline size_t el_fgemm_block_bytes(int k) { return (size_t)k * EL_FGEMM_NR * sizeof(float); }
/* Packs w (n rows of k floats) into ceil(n / 16) blocks at `packed`. */
void el_fgemm_pack(const float* w, int n, int k, float* packed);

#endif /* EDGELITE_KERNELS_OPTIMIZED_FGEMM_H_ */
