/* Output requantization and hybrid scratch shared by the integer convolutions (conv_requant.h). */
#include "kernels/conv_requant.h"

#include "kernels/kernel_util.h"
#include "kernels/quant_util.h"

TfLiteStatus el_conv_check_filter_scales(TfLiteContext* context, const TfLiteTensor* filter, int max_dim) {
  const TfLiteAffineQuantization* aq = el_q_affine(filter);
  EL_ENSURE(context, aq != NULL && aq->scale != NULL && aq->scale->size >= 1);
  if (aq->scale->size > 1) {
    EL_ENSURE(context, aq->quantized_dimension >= 0 && aq->quantized_dimension < max_dim);
    EL_ENSURE_EQ(context, aq->scale->size, filter->dims->data[aq->quantized_dimension]);
  }
  return kTfLiteOk;
}

/* Quantizes `real` into channel c of r's block, refusing a shift int8 cannot hold. */
static TfLiteStatus store_channel(TfLiteContext* context, el_conv_requant* r, int c, double real) {
  int32_t multiplier = 0;
  int shift = 0;
  el_q_quantize_multiplier(real, &multiplier, &shift);
  EL_ENSURE(context, shift == (int8_t)shift);
  r->multipliers[c] = multiplier;
  ((int8_t*)(r->multipliers + r->capacity))[c] = (int8_t)shift;
  return kTfLiteOk;
}

/* el_conv_requant_channels, keeping the int8 and int16 channels only when `keep_channels`. */
static TfLiteStatus requant_channels(TfLiteContext* context, const TfLiteTensor* input, const TfLiteTensor* filter,
                                     const TfLiteTensor* bias, const TfLiteTensor* output, int out_ch,
                                     TfLiteFusedActivation activation, bool keep_channels, el_conv_requant* r) {
  const TfLiteAffineQuantization* aq = el_q_affine(filter);
  EL_ENSURE(context, aq != NULL && aq->scale != NULL);
  EL_ENSURE(context, aq->scale->size == 1 || aq->scale->size == out_ch);
  /* The uint8 kernels rescale every channel alike, with the legacy multiplier. */
  const int channels = input->type == kTfLiteUInt8 ? 1 : keep_channels ? out_ch : 0;
  if (channels > 0) {
    EL_ENSURE_OK(context, el_q_channel_buffer(context, channels, sizeof(int32_t) + sizeof(int8_t), &r->capacity,
                                              (void**)&r->multipliers));
  }
  if (input->type == kTfLiteUInt8) {
    double real = 0.0;
    EL_ENSURE_OK(context, el_q_legacy_conv_multiplier(context, input, filter, bias, output, &real));
    EL_ENSURE_OK(context, store_channel(context, r, 0, real));
  } else if (keep_channels) {
    for (int c = 0; c < out_ch; ++c) {
      EL_ENSURE_OK(context, store_channel(context, r, c, el_q_channel_real_multiplier(input, aq, c, output)));
    }
  }
  int32_t act_min = 0;
  int32_t act_max = 0;
  EL_ENSURE_OK(context, el_q_activation_range(activation, output->type, output->params.scale,
                                              output->params.zero_point, &act_min, &act_max));
  EL_ENSURE(context, act_min >= INT16_MIN && act_max <= INT16_MAX);
  r->act_min = (int16_t)act_min;
  r->act_max = (int16_t)act_max;
  return kTfLiteOk;
}

TfLiteStatus el_conv_requant_channels(TfLiteContext* context, const TfLiteTensor* input, const TfLiteTensor* filter,
                                      const TfLiteTensor* bias, const TfLiteTensor* output, int out_ch,
                                      TfLiteFusedActivation activation, el_conv_requant* r) {
  return requant_channels(context, input, filter, bias, output, out_ch, activation, true, r);
}

void el_requant_block_fill(const TfLiteTensor* input, const TfLiteTensor* filter, const TfLiteTensor* output,
                           int first, int n, el_requant_block* b) {
  const TfLiteAffineQuantization* aq = el_q_affine(filter);
  for (int k = 0; k < n; ++k) {
    int shift = 0;
    el_q_quantize_multiplier(el_q_channel_real_multiplier(input, aq, first + k, output), &b->multipliers[k], &shift);
    b->shifts[k] = (int8_t)shift; /* el_q_quantize_multiplier's shifts lie in [-31, 31] */
  }
}

TfLiteStatus el_conv_requant_prepare(TfLiteContext* context, const TfLiteTensor* input, const TfLiteTensor* filter,
                                     const TfLiteTensor* bias, const TfLiteTensor* output, int out_ch,
                                     TfLiteFusedActivation activation, bool uint8_per_channel, bool keep_channels,
                                     el_conv_requant* r) {
  const TfLiteAffineQuantization* aq = el_q_affine(filter);
  EL_ENSURE(context, aq != NULL && aq->scale != NULL);
  if (aq->scale->size > 1 && !uint8_per_channel) EL_ENSURE(context, input->type != kTfLiteUInt8);
  EL_ENSURE_OK(context, el_conv_check_filter_scales(context, filter, 4));
  EL_ENSURE_OK(context,
               requant_channels(context, input, filter, bias, output, out_ch, activation, keep_channels, r));
  if (input->type != kTfLiteInt16) return kTfLiteOk;
  if (keep_channels) return el_q_check_mbqm64_shifts(context, el_conv_requant_shifts(r), 0, out_ch);
  for (int first = 0; first < out_ch; first += EL_REQUANT_BLOCK) {
    const int n = out_ch - first < EL_REQUANT_BLOCK ? out_ch - first : EL_REQUANT_BLOCK;
    el_requant_block b;
    el_requant_block_fill(input, filter, output, first, n, &b);
    EL_ENSURE_OK(context, el_q_check_mbqm64_shifts(context, b.shifts, first, n));
  }
  return kTfLiteOk;
}

TfLiteStatus el_hybrid_scratch_request(TfLiteContext* context, int64_t elements, int batches, el_hybrid_scratch* s) {
  EL_ENSURE(context, elements < INT32_MAX && batches > 0);
  EL_ENSURE_OK(context, context->RequestScratchBufferInArena(context, (size_t)elements, &s->quantized));
  EL_ENSURE_OK(context,
               context->RequestScratchBufferInArena(context, (size_t)batches * sizeof(float), &s->scales));
  return context->RequestScratchBufferInArena(context, (size_t)batches * sizeof(int32_t), &s->offsets);
}
