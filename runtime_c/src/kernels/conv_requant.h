/* The output requantization the integer convolutions share (conv_quant.c,
 * depthwise_conv_quant.c, transpose_conv.c), their filter-scale checks (also fully_connected_quant.c) and the arena
 * scratch of their hybrid paths: everything computed once in prepare. */
#ifndef EDGELITE_KERNELS_CONV_REQUANT_H_
#define EDGELITE_KERNELS_CONV_REQUANT_H_

#include <stdint.h>

#include "edgelite/builtin_op_data.h"
#include "edgelite/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per output channel multipliers and shifts (int8, int16), the single legacy multiplier of the
 * uint8 path, and the quantized activation range. Channel arrays live in persistent buffers. */
typedef struct el_conv_requant {
  int32_t* multipliers;
  int32_t* shifts;
  int multipliers_capacity;
  int shifts_capacity;
  int32_t legacy_multiplier;
  int legacy_shift;
  int32_t act_min;
  int32_t act_max;
} el_conv_requant;

/* The filter's scales: at least one, and when there are several, a quantized dimension below
 * `max_dim` whose size is their count. */
TfLiteStatus el_conv_check_filter_scales(TfLiteContext* context, const TfLiteTensor* filter, int max_dim);

/* Fills r for an integer (uint8, int8, int16) convolution-like op (also TRANSPOSE_CONV) with
 * out_ch output channels and one filter scale or one per channel: the channel multipliers,
 * the uint8 legacy multiplier and the activation range. */
TfLiteStatus el_conv_requant_channels(TfLiteContext* context, const TfLiteTensor* input, const TfLiteTensor* filter,
                                      const TfLiteTensor* bias, const TfLiteTensor* output, int out_ch,
                                      TfLiteFusedActivation activation, el_conv_requant* r);

/* el_conv_requant_channels with CONV_2D's and DEPTHWISE_CONV_2D's checks: filter scales along a
 * dimension of the filter, per channel not for uint8 when !uint8_per_channel, and int16 shifts
 * that mbqm64 takes. */
TfLiteStatus el_conv_requant_prepare(TfLiteContext* context, const TfLiteTensor* input, const TfLiteTensor* filter,
                                     const TfLiteTensor* bias, const TfLiteTensor* output, int out_ch,
                                     TfLiteFusedActivation activation, bool uint8_per_channel, el_conv_requant* r);

/* Arena scratch of a hybrid kernel: the input quantized to int8, and a scale and a zero point per
 * batch row. */
typedef struct el_hybrid_scratch {
  int quantized;
  int scales;
  int offsets;
} el_hybrid_scratch;

TfLiteStatus el_hybrid_scratch_request(TfLiteContext* context, int64_t elements, int batches, el_hybrid_scratch* s);

#ifdef __cplusplus
}
#endif
#endif /* EDGELITE_KERNELS_CONV_REQUANT_H_ */
