/* The output requantization the integer convolutions share (conv_quant.c,
 * depthwise_conv_quant.c, transpose_conv.c), their filter-scale checks (also fully_connected_quant.c) and the arena
 * scratch of their hybrid paths: everything computed once in prepare. */
#ifndef EDGELITE_KERNELS_CONV_REQUANT_H_
#define EDGELITE_KERNELS_CONV_REQUANT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "edgelite/builtin_op_data.h"
#include "edgelite/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per output channel requantization (int8, int16) or the single legacy one of the uint8 path, and
 * the quantized activation range. The channels live in one persistent block: `capacity` int32
 * multipliers, then as many int8 shifts (el_q_quantize_multiplier's shifts lie in [-31, 31];
 * each is range-checked as it is stored), 5 bytes a channel where TFLite keeps 8. */
typedef struct el_conv_requant {
  int16_t act_min; /* the output types' ranges (int8, uint8, int16) fit int16 */
  int16_t act_max;
  int capacity; /* from here on only when channels are kept (el_conv_requant_bytes) */
  int32_t* multipliers;
} el_conv_requant;

/* The bytes of an el_conv_requant el_conv_requant_prepare fills for an input of `type`: the
 * activation range alone when it keeps no channel (int8 and int16 without keep_channels). */
static inline size_t el_conv_requant_bytes(TfLiteType type, bool keep_channels) {
  return type == kTfLiteUInt8 || keep_channels ? sizeof(el_conv_requant) : offsetof(el_conv_requant, capacity);
}

/* The shift of channel 0's multiplier; channel c's is at [c]. */
static inline const int8_t* el_conv_requant_shifts(const el_conv_requant* r) {
  return (const int8_t*)(r->multipliers + r->capacity);
}

/* The filter's scales: at least one, and when there are several, a quantized dimension below
 * `max_dim` whose size is their count. */
TfLiteStatus el_conv_check_filter_scales(TfLiteContext* context, const TfLiteTensor* filter, int max_dim);

/* Fills r for an integer (uint8, int8, int16) convolution-like op (also TRANSPOSE_CONV) with
 * out_ch output channels and one filter scale or one per channel: the channel multipliers (int8,
 * int16) or, for uint8, the legacy multiplier as channel 0, and the activation range. */
TfLiteStatus el_conv_requant_channels(TfLiteContext* context, const TfLiteTensor* input, const TfLiteTensor* filter,
                                      const TfLiteTensor* bias, const TfLiteTensor* output, int out_ch,
                                      TfLiteFusedActivation activation, el_conv_requant* r);

/* el_conv_requant_channels with CONV_2D's and DEPTHWISE_CONV_2D's checks: filter scales along a
 * dimension of the filter, per channel not for uint8 when !uint8_per_channel, and int16 shifts
 * that mbqm64 takes. Without `keep_channels` the int8 and int16 channels are checked but not
 * kept: the kernel takes them from el_requant_block when it runs. */
TfLiteStatus el_conv_requant_prepare(TfLiteContext* context, const TfLiteTensor* input, const TfLiteTensor* filter,
                                     const TfLiteTensor* bias, const TfLiteTensor* output, int out_ch,
                                     TfLiteFusedActivation activation, bool uint8_per_channel, bool keep_channels,
                                     el_conv_requant* r);

/* The requantization of up to EL_REQUANT_BLOCK consecutive output channels, computed from the
 * scales the model carries when a kernel runs instead of being kept for every channel. */
enum { EL_REQUANT_BLOCK = 16 };
typedef struct el_requant_block {
  int32_t multipliers[EL_REQUANT_BLOCK];
  int8_t shifts[EL_REQUANT_BLOCK];
} el_requant_block;

/* Channels [first, first + n) of input scale * filter scale / output scale, as
 * el_conv_requant_channels stores them (n <= EL_REQUANT_BLOCK; the filter's scales checked). */
void el_requant_block_fill(const TfLiteTensor* input, const TfLiteTensor* filter, const TfLiteTensor* output,
                           int first, int n, el_requant_block* b);

/* Runs `body` for every element of the NHWC output of a convolution-like op with geometry g
 * (el_conv_geom), a block of output channels at a time: the body sees b, oy, ox, the output
 * channel oc and the output offset o, and reads the channel's multiplier and shift as
 * EL_RQ_MULTIPLIER and EL_RQ_SHIFT (after its sums, so they hold no register during them). */
#define EL_FOR_EACH_OUTPUT_REQUANT(g, input, filter, output, body)                                          \
  do {                                                                                                      \
    for (int oc0_ = 0; oc0_ < (g).out_ch; oc0_ += EL_REQUANT_BLOCK) {                                       \
      const int n_ = (g).out_ch - oc0_ < EL_REQUANT_BLOCK ? (g).out_ch - oc0_ : EL_REQUANT_BLOCK;          \
      el_requant_block rq_;                                                                                 \
      el_requant_block_fill((input), (filter), (output), oc0_, n_, &rq_);                                   \
      for (int b = 0; b < (g).batches; ++b)                                                                 \
        for (int oy = 0; oy < (g).out_h; ++oy)                                                              \
          for (int ox = 0; ox < (g).out_w; ++ox)                                                            \
            for (int k_ = 0; k_ < n_; ++k_) {                                                               \
              const int oc = oc0_ + k_;                                                                     \
              const int64_t o = (((int64_t)b * (g).out_h + oy) * (g).out_w + ox) * (g).out_ch + oc;        \
              body                                                                                          \
            }                                                                                               \
    }                                                                                                       \
  } while (0)
#define EL_RQ_MULTIPLIER (rq_.multipliers[k_])
#define EL_RQ_SHIFT (rq_.shifts[k_])

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
