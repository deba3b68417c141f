/* Depthwise kernels (depth multiplier 1) over a run of output pixels: pixel i of the run reads
 * tap t at x[t] + i * step (taps outside the image point into a row of input zero points, or
 * of zeros for float, so they add nothing) and writes its channels at out + i * out_step. The
 * weights are widened and laid out [tap][channel] (`stride` channels per tap). */
#ifndef EDGELITE_KERNELS_OPTIMIZED_DW_KERNELS_H_
#define EDGELITE_KERNELS_OPTIMIZED_DW_KERNELS_H_

#include <stddef.h>
#include <stdint.h>

#include "cpu_isa.h"
#include "kernels/optimized/requant.h"

typedef struct el_dw_kernels {
  /* out[c] = requant(bias[c] + sum_t x_t[c] * w[t * stride + c]); x int8, or uint8 when
   * is_unsigned (the input offset is folded into the bias). step and out_step in bytes. */
  void (*q8)(int taps, const void* const* x, ptrdiff_t step, int count, int is_unsigned,
             int channels, const int32_t* w, int stride, const el_requant* rq, int8_t* out,
             ptrdiff_t out_step);
  /* out[c] = clamp(bias[c] + sum_t x_t[c] * w[t * stride + c]); step and out_step in floats. */
  void (*f32)(int taps, const float* const* x, ptrdiff_t step, int count, int channels,
              const float* w, int stride, const float* bias, float lo, float hi, float* out,
              ptrdiff_t out_step);
  /* Nonzero: q8 wants each weight w (it fits 16 bits) stored as its low 16 bits, zero-extended.
   * A byte sign-extended to 32 bits times the pair (w, 0) in VPMADDWD is then x * w: one
   * multiply-add per lane pair, where VPMULLD costs two on some cores and half the rate on
   * others. */
  int weights_low16;
} el_dw_kernels;

const el_dw_kernels* el_dw_kernels_for(el_isa isa);

#endif /* EDGELITE_KERNELS_OPTIMIZED_DW_KERNELS_H_ */
