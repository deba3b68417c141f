#include "kernels/depthwise_conv_quant.h"

#include <stdbool.h>
#include <stddef.h>

#include "kernels/conv_geom.h"
#include "kernels/conv_requant.h"
#include "kernels/hybrid_quant.h"
#include "kernels/kernel_util.h"
#include "kernels/quant_util.h"

/* The integer paths keep only `rq`; the fields after it exist for the hybrid path alone and are
 * allocated only for it. The window and depth multiplier are el_conv_data's. */
typedef struct el_dwconv_q {
  el_conv_requant rq;
  float act_min_f;
  float act_max_f;
  el_hybrid_scratch scratch;
} el_dwconv_q;

/* DEPTHWISE_CONV_2D's prepare (depthwise_conv.c) has checked the shapes, the window and the bias
 * shape, and resized the output. */
TfLiteStatus el_dw_prepare_quant(TfLiteContext* context, TfLiteNode* node, el_conv_data* d) {
  const TfLiteDepthwiseConvParams* params = (const TfLiteDepthwiseConvParams*)node->builtin_data;
  const TfLiteTensor *input, *filter, *bias;
  TfLiteTensor* output;
  EL_ENSURE_OK(context, el_get_filter_operands(context, node, &input, &filter, &bias, &output));
  const TfLiteType type = input->type;
  const bool hybrid = type == kTfLiteFloat32;
  el_dwconv_q* q =
      (el_dwconv_q*)el_q_state(context, &d->quant, hybrid ? sizeof(el_dwconv_q) : el_conv_requant_bytes(type, false));
  EL_ENSURE(context, q != NULL);
  EL_ENSURE(context, params->stride_width <= 0xFFFF && params->stride_height <= 0xFFFF);
  EL_ENSURE_TYPES_EQ(context, output->type, type);
  if (type == kTfLiteInt16 || hybrid) {
    EL_ENSURE_TYPES_EQ(context, filter->type, kTfLiteInt8);
  } else {
    EL_ENSURE(context, type == kTfLiteUInt8 || type == kTfLiteInt8);
    EL_ENSURE_TYPES_EQ(context, filter->type, type);
  }
  if (type == kTfLiteInt16) {
    EL_ENSURE_EQ(context, input->params.zero_point, 0);
    EL_ENSURE_EQ(context, output->params.zero_point, 0);
  }
  const int out_ch = filter->dims->data[3];
  EL_ENSURE(context, input->dims->data[3] > 0);
  if (bias != NULL) {
    if (type == kTfLiteUInt8 || type == kTfLiteInt8) {
      EL_ENSURE_TYPES_EQ(context, bias->type, kTfLiteInt32);
      EL_ENSURE_EQ(context, bias->params.zero_point, 0);
    } else if (type == kTfLiteInt16) {
      EL_ENSURE_TYPES_EQ(context, bias->type, kTfLiteInt64);
      EL_ENSURE_EQ(context, bias->params.zero_point, 0);
    } else {
      EL_ENSURE_TYPES_EQ(context, bias->type, kTfLiteFloat32);
    }
  }
  if (hybrid) {
    /* Hybrid filters name their quantized dimension even with one scale. */
    const TfLiteAffineQuantization* aq = el_q_affine(filter);
    EL_ENSURE(context, aq != NULL && aq->scale != NULL);
    EL_ENSURE(context, aq->quantized_dimension >= 0 && aq->quantized_dimension < 4);
    EL_ENSURE_EQ(context, aq->scale->size, filter->dims->data[aq->quantized_dimension]);
    EL_ENSURE_OK(context, el_hybrid_scratch_request(context, el_num_elements(input), input->dims->data[0],
                                                    &q->scratch));
    el_activation_range_f32(params->activation, &q->act_min_f, &q->act_max_f);
    return kTfLiteOk;
  }
  return el_conv_requant_prepare(context, input, filter, bias, output, out_ch, params->activation, false, false,
                                 &q->rq);
}

typedef el_conv_geom geom;

static geom read_geom(const TfLiteDepthwiseConvParams* params, const el_conv_data* d,
                      const TfLiteTensor* input, const TfLiteTensor* filter,
                      const TfLiteTensor* output) {
  geom g = el_conv_geom_read(input, filter, output, params->stride_height, params->stride_width,
                             params->dilation_height_factor, params->dilation_width_factor, d->pad_h, d->pad_w);
  g.mult = d->depth_multiplier;
  return g;
}

/* Sum over the in-image taps of output channel oc = ic * mult + m (outside taps add 0). */
#define DW_ACCUMULATE(ACC_T, IN_T, FILT_T, in_data, filt_data, g, b, oy, ox, ic, oc, in_off,     \
                      filt_off, acc)                                                            \
  do {                                                                                          \
    const int y0_ = (oy) * (g).stride_h - (g).pad_h;                                            \
    const int x0_ = (ox) * (g).stride_w - (g).pad_w;                                            \
    for (int fy_ = 0; fy_ < (g).f_h; ++fy_) {                                                   \
      const int iy_ = y0_ + (g).dil_h * fy_;                                                    \
      if (iy_ < 0 || iy_ >= (g).in_h) continue;                                                \
      for (int fx_ = 0; fx_ < (g).f_w; ++fx_) {                                                 \
        const int ix_ = x0_ + (g).dil_w * fx_;                                                  \
        if (ix_ < 0 || ix_ >= (g).in_w) continue;                                              \
        const IN_T iv_ =                                                                        \
            (in_data)[(((int64_t)(b) * (g).in_h + iy_) * (g).in_w + ix_) * (g).in_ch + (ic)];   \
        const FILT_T fv_ = (filt_data)[((int64_t)fy_ * (g).f_w + fx_) * (g).out_ch + (oc)];     \
        (acc) = EL_Q_ADD_WRAP((acc), (ACC_T)((int32_t)fv_ + (filt_off)) *                     \
                                         (ACC_T)((int32_t)iv_ + (in_off)));                      \
      }                                                                                         \
    }                                                                                           \
  } while (0)

/* Iterates output elements in NHWC order with ic/m/oc named for the body. */
#define DW_FOR_EACH_OUTPUT(g, body)                                     \
  do {                                                                  \
    int64_t o = 0;                                                      \
    for (int b = 0; b < (g).batches; ++b)                               \
      for (int oy = 0; oy < (g).out_h; ++oy)                            \
        for (int ox = 0; ox < (g).out_w; ++ox)                          \
          for (int ic = 0; ic < (g).in_ch; ++ic)                        \
            for (int m = 0; m < (g).mult; ++m, ++o) {                   \
              const int oc = ic * (g).mult + m;                         \
              body                                                      \
            }                                                           \
  } while (0)

static void dw_int8(const geom* g, const el_dwconv_q* q, const TfLiteTensor* input,
                    const TfLiteTensor* filter, const TfLiteTensor* bias, TfLiteTensor* output) {
  const int8_t* in = input->data.int8;
  const int8_t* filt = filter->data.int8;
  const int32_t* bias_data = bias ? bias->data.i32 : NULL;
  int8_t* out = output->data.int8;
  const int32_t in_off = -input->params.zero_point;
  const int32_t out_off = output->params.zero_point;
  EL_FOR_EACH_OUTPUT_REQUANT(*g, input, filter, output, {
    const int ic = oc / g->mult;
    int32_t acc = 0;
    DW_ACCUMULATE(int32_t, int8_t, int8_t, in, filt, *g, b, oy, ox, ic, oc, in_off, 0, acc);
    if (bias_data) acc = el_q_add_wrap(acc, bias_data[oc]);
    acc = el_q_add_wrap(el_q_mbqm(acc, EL_RQ_MULTIPLIER, EL_RQ_SHIFT), out_off);
    out[o] = (int8_t)el_q_clamp(acc, q->rq.act_min, q->rq.act_max);
  });
}

static void dw_int16(const geom* g, const el_dwconv_q* q, const TfLiteTensor* input,
                     const TfLiteTensor* filter, const TfLiteTensor* bias, TfLiteTensor* output) {
  const int16_t* in = input->data.i16;
  const int8_t* filt = filter->data.int8;
  const int64_t* bias_data = bias ? bias->data.i64 : NULL;
  int16_t* out = output->data.i16;
  EL_FOR_EACH_OUTPUT_REQUANT(*g, input, filter, output, {
    const int ic = oc / g->mult;
    int64_t acc = 0;
    DW_ACCUMULATE(int64_t, int16_t, int8_t, in, filt, *g, b, oy, ox, ic, oc, 0, 0, acc);
    if (bias_data) acc = el_q_add_wrap64(acc, bias_data[oc]);
    const int32_t v = el_q_mbqm64(acc, EL_RQ_MULTIPLIER, EL_RQ_SHIFT);
    out[o] = (int16_t)el_q_clamp(v, q->rq.act_min, q->rq.act_max);
  });
}

static void dw_uint8(const geom* g, const el_dwconv_q* q, const TfLiteTensor* input,
                     const TfLiteTensor* filter, const TfLiteTensor* bias, TfLiteTensor* output) {
  const uint8_t* in = input->data.uint8;
  const uint8_t* filt = filter->data.uint8;
  const int32_t* bias_data = bias ? bias->data.i32 : NULL;
  uint8_t* out = output->data.uint8;
  const int32_t in_off = -input->params.zero_point;
  const int32_t filt_off = -filter->params.zero_point;
  const int32_t out_off = output->params.zero_point;
  const int32_t multiplier = q->rq.multipliers[0]; /* the legacy per-tensor one */
  const int shift = el_conv_requant_shifts(&q->rq)[0];
  DW_FOR_EACH_OUTPUT(*g, {
    int32_t acc = 0;
    DW_ACCUMULATE(int32_t, uint8_t, uint8_t, in, filt, *g, b, oy, ox, ic, oc, in_off, filt_off,
                  acc);
    if (bias_data) acc = el_q_add_wrap(acc, bias_data[oc]);
    acc = el_q_add_wrap(el_q_mbqm(acc, multiplier, shift), out_off);
    out[o] = (uint8_t)el_q_clamp(acc, q->rq.act_min, q->rq.act_max);
  });
}

/* Float activations, int8 weights: TFLite always quantizes each batch asymmetrically here. */
static TfLiteStatus dw_hybrid(TfLiteContext* context, const geom* g, const el_dwconv_q* q,
                              const TfLiteTensor* input, const TfLiteTensor* filter,
                              const TfLiteTensor* bias, TfLiteTensor* output) {
  int8_t* quantized = (int8_t*)context->GetScratchBuffer(context, q->scratch.quantized);
  float* scales = (float*)context->GetScratchBuffer(context, q->scratch.scales);
  int32_t* offsets = (int32_t*)context->GetScratchBuffer(context, q->scratch.offsets);
  EL_ENSURE(context, quantized != NULL && scales != NULL && offsets != NULL);
  const TfLiteAffineQuantization* aq = el_q_affine(filter);
  const float* channel_scales = aq->scale->data;
  const int per_channel_scales = aq->scale->size > 1;
  const int image = g->in_h * g->in_w * g->in_ch;
  for (int b = 0; b < g->batches; ++b) {
    el_hybrid_quantize_asymmetric(input->data.f + (int64_t)b * image, image,
                                  quantized + (int64_t)b * image, &scales[b], &offsets[b]);
  }
  const int8_t* filt = filter->data.int8;
  const float* bias_data = bias ? bias->data.f : NULL;
  float* out = output->data.f;
  DW_FOR_EACH_OUTPUT(*g, {
    int32_t acc = 0;
    DW_ACCUMULATE(int32_t, int8_t, int8_t, quantized, filt, *g, b, oy, ox, ic, oc, -offsets[b], 0,
                  acc);
    float v = (float)acc;
    v *= channel_scales[per_channel_scales ? oc : 0] * scales[b];
    if (bias_data) v += bias_data[oc];
    out[o] = el_clamp_f32(v, q->act_min_f, q->act_max_f);
  });
  return kTfLiteOk;
}

TfLiteStatus el_dw_invoke_quant(TfLiteContext* context, TfLiteNode* node, const el_conv_data* d) {
  const el_dwconv_q* q = (const el_dwconv_q*)d->quant;
  EL_ENSURE(context, q != NULL);
  const TfLiteDepthwiseConvParams* params = (const TfLiteDepthwiseConvParams*)node->builtin_data;
  const TfLiteTensor *input, *filter, *bias;
  TfLiteTensor* output;
  EL_ENSURE_OK(context, el_get_filter_operands(context, node, &input, &filter, &bias, &output));
  const geom g = read_geom(params, d, input, filter, output);
  switch (input->type) {
    case kTfLiteInt8:
      dw_int8(&g, q, input, filter, bias, output);
      return kTfLiteOk;
    case kTfLiteInt16:
      dw_int16(&g, q, input, filter, bias, output);
      return kTfLiteOk;
    case kTfLiteUInt8:
      dw_uint8(&g, q, input, filter, bias, output);
      return kTfLiteOk;
    case kTfLiteFloat32:
      return dw_hybrid(context, &g, q, input, filter, bias, output);
    default:
      return el_unsupported_type(context, "DEPTHWISE_CONV_2D", input->type);
  }
}
