/* Integer matrix products behind the optimized int8/uint8 CONV_2D and FULLY_CONNECTED.
 *
 * C[m][n] = sum_k A[m][k] * B[n][k] with int32 accumulation. Integer sums do not depend on
 * their order, so any blocking gives the reference kernels' accumulators exactly; what makes
 * the outputs bit-identical is that the requantization (el_requant_*) is the reference one.
 *
 * Two operand layouts, both in blocks of 16 output channels (weights packed once, in prepare):
 *  - QUAD: 4 consecutive k of one channel per 32-bit lane, int8 weights, A rows of bytes (as
 *    uint8 x ^ 0x80 for VNNI's unsigned-by-signed product, or int8 for NEON's SDOT). The input
 *    offset is folded into the bias.
 *  - PAIR16: 2 consecutive k of one channel per 32-bit lane, int16 weights (w + w_offset), A rows
 *    of int16 (x + x_offset), so padding taps are plain zeros and uint8 works too.
 * k is zero-padded to a multiple of 4 (QUAD) or 2 (PAIR16); padded weights are 0. */
#ifndef EDGELITE_KERNELS_OPTIMIZED_QGEMM_H_
#define EDGELITE_KERNELS_OPTIMIZED_QGEMM_H_

#include <stddef.h>
#include <stdint.h>

#include "cpu_isa.h"
#include "kernels/optimized/requant.h"

enum { EL_QGEMM_NR = 16, EL_QGEMM_MAX_NB = 4, EL_QGEMM_MAX_MR = 6 };

typedef enum el_qformat { EL_QFORMAT_QUAD = 0, EL_QFORMAT_PAIR16 = 1 } el_qformat;

typedef struct el_qgemm_kernels {
  el_qformat format;
  int mr;         /* rows of one micro tile */
  int igemm_mr;   /* rows of one igemm tile (and of the tap tables made for it) */
  int kstep;      /* k padding: 4 (QUAD) or 2 (PAIR16) */
  uint8_t a_xor;  /* QUAD: what A bytes are XORed with (0x80 for unsigned-by-signed products) */
  /* acc[r * 64 + j] for r < mr, j < 16 * nb (nb <= 4): the dot products of the mr rows of A
   * (row r at a + r * a_stride bytes, kp elements) with the nb packed channel blocks at b
   * (consecutive blocks b_block bytes apart). */
  void (*gemm)(int kp, const void* a, size_t a_stride, const void* b, size_t b_block, int nb,
               int32_t* acc);
  /* The same for a single row: acc[j] for j < 16 * nb (nb <= 4). */
  void (*gemv)(int kp, const void* a, const void* b, size_t b_block, int nb, int32_t* acc);
  /* QUAD: gemv of a row read in place, kdim int8 values as stored (not padded, not XORed: the
   * kernel XORs them with a_xor itself), so a batch of one needs no packed copy. NULL where the
   * ISA has none. */
  void (*gemv_raw)(int kdim, const int8_t* a, const void* b, size_t b_block, int nb,
                   int32_t* acc);
  /* out[r * out_stride + j] = clamp(MBQM(acc[r * 64 + j] + bias[j]) + zp) for r < rows, j < n
   * (n <= 64), parameters taken from channel 0 of `rq` onwards. */
  void (*requant)(const int32_t* acc, int rows, int n, const el_requant* rq, int channel0,
                  int8_t* out, ptrdiff_t out_stride);
  /* Indirect GEMM with the requantization fused (QUAD, NULL where the ISA has none): row r of A
   * is the concatenation over taps t of the cin int8 values (cin % 4 == 0) at
   * in + off[t * igemm_mr + r] when that offset is >= 0, else at aux + (-1 - that offset), read
   * in place (no im2col copy) and XORed with a_xor in the kernel, as the packs do. The weights
   * are packed without XOR; the bias holds the input offset's term less a_xor's (as `gemm`).
   * Writes out[r * out_stride + j] for r < rows (rows <= igemm_mr) and j < n, channels c0 + j
   * (c0 a multiple of 16); needs rq->blocks. */
  void (*igemm)(int taps, int cin, const int32_t* off, const int8_t* in, const int8_t* aux,
                const void* b, size_t b_block, const el_requant* rq, int c0, int rows, int8_t* out,
                ptrdiff_t out_stride, int n);
  /* FULLY_CONNECTED's rescale: out[j] = clamp(round((acc[j] + bias[j]) * scale[j]) + zp), the
   * product in double and rounded half away from zero, as the reference kernel does. fscale is
   * NULL or what el_qgemm_rescale_floats made of these scale, zp, lo and hi (it returned 1):
   * then the vector levels may decide most lanes in single precision, the same bits. */
  void (*rescale)(const int32_t* acc, const int32_t* bias, const double* scale,
                  const float* fscale, int n, int32_t zp, int32_t lo, int32_t hi, int8_t* out);
} el_qgemm_kernels;

/* The plain C rescale (also the tail of the vector ones); it does not read fscale. */
void el_qgemm_rescale_scalar(const int32_t* acc, const int32_t* bias, const double* scale,
                             const float* fscale, int n, int32_t zp, int32_t lo, int32_t hi,
                             int8_t* out);

/* fscale[j] = (float)scale[j] for j < n, and 1, when the single-precision rescale's error bound
 * holds for these parameters: lo, hi and zp within [-256, 256] (lo <= hi), every scale 0 or of
 * magnitude within [2^-100, 2^100]. Else 0 (fscale partly written): the rescale takes NULL. */
int el_qgemm_rescale_floats(const double* scale, int n, int32_t zp, int32_t lo, int32_t hi,
                            float* fscale);

/* The kernels for `isa` (levels without their own fall back to the next lower one). */
const el_qgemm_kernels* el_qgemm_kernels_for(el_isa isa);

/* The AMX-INT8 kernels (qgemm_amx.c; NULL off x86-64), to be taken only where the backend's
 * amx_int8 is set: igemm alone, for int8 1x1 convolutions whose rows lie in_c bytes apart (one
 * tap, rows <= igemm_mr = 32, cin % 4 == 0), A read as signed bytes (a_xor 0), k padded to 64. */
const el_qgemm_kernels* el_qgemm_amx_pointwise(void);

/* Bytes of one packed 16-channel block for reduction length kp. */
static inline size_t el_qgemm_block_bytes(el_qformat f, int kp) {
  return f == EL_QFORMAT_QUAD ? (size_t)kp * EL_QGEMM_NR : (size_t)kp * EL_QGEMM_NR * 2;
}
/* k rounded up to the format's step. */
static inline int el_qgemm_kp(const el_qgemm_kernels* k, int kdim) {
  return (kdim + k->kstep - 1) / k->kstep * k->kstep;
}

/* Packs w (n rows of kdim int8 or uint8 values; w_offset is added to each, PAIR16 only) into
 * ceil(n / 16) blocks at `packed` (padding zero), and writes each channel's weight sum (with the
 * offset) to sums[n] when sums is not NULL. */
void el_qgemm_pack(el_qformat f, const void* w, int is_unsigned, int32_t w_offset, int n, int kdim,
                   int kp, void* packed, int32_t* sums);

/* el_qgemm_pack of rows made of `groups` runs of `glen` weights, run g packed from k = g * gstride
 * on (gstride >= glen); the k between runs hold zero weights. */
void el_qgemm_pack_groups(el_qformat f, const void* w, int is_unsigned, int32_t w_offset, int n,
                          int groups, int glen, int gstride, int kp, void* packed, int32_t* sums);

#endif /* EDGELITE_KERNELS_OPTIMIZED_QGEMM_H_ */
