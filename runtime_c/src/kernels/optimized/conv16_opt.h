/* CONV_2D with int16 activations and int8 weights (TFLite's 16x8 quantization) on the optimized
 * tier. The reference arithmetic, reorganised: each output channel reads the pixel's input window
 * in place (one run per filter row where the dilation is 1; no scratch buffer), and the products
 * are summed in int32 over blocks too short to overflow (a loop compilers turn into
 * multiply-add-pairs) before the int64 sum the reference keeps. Integer sums are exact in any order, and the bias and
 * requantization are the reference's own, so the outputs are the same bits. */
#ifndef EDGELITE_KERNELS_OPTIMIZED_CONV16_OPT_H_
#define EDGELITE_KERNELS_OPTIMIZED_CONV16_OPT_H_

#include <stdint.h>

#include "edgelite/builtin_op_data.h"
#include "edgelite/common.h"
#include "kernels/conv_requant.h"
#include "kernels/optimized/conv_geom.h"

typedef struct el_conv16 {
  int16_t* weights; /* out_c rows of kdim values: the int8 filter (OHWI) widened */
  int64_t* bias;    /* per output channel; 0 without a bias tensor */
  int bias32;       /* an int32 bias selects the reference's 32-bit requantization */
  el_conv_requant rq;
  int32_t out_zp;
  size_t weights_cap, bias_cap;
} el_conv16;

/* Whether the optimized path takes this convolution: int16 input with zero point 0 (as TFLite's
 * 16x8 scheme has it), int8 filter, int16 output, bias absent, int32 or int64. */
int el_conv16_supported(const TfLiteTensor* input, const TfLiteTensor* filter, const TfLiteTensor* bias,
                        const TfLiteTensor* output);

/* Weights, biases and requantization into c (its buffers from persistent memory, reused when
 * large enough). */
TfLiteStatus el_conv16_prepare(TfLiteContext* ctx, const el_conv_geom* g, const TfLiteTensor* input,
                               const TfLiteTensor* filter, const TfLiteTensor* bias,
                               const TfLiteTensor* output, TfLiteFusedActivation activation, el_conv16* c);

/* Output pixels [m0, m1) (NHWC order) of input `in` into `out`. */
void el_conv16_pixels(const el_conv_geom* g, const el_conv16* c, const int16_t* in, int64_t m0, int64_t m1,
                      int16_t* out);

#endif /* EDGELITE_KERNELS_OPTIMIZED_CONV16_OPT_H_ */
