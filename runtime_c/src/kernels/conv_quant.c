#include "kernels/conv_quant.h"

#include <stdbool.h>
#include <stddef.h>

#include "kernels/conv_geom.h"
#include "kernels/conv_requant.h"
#include "kernels/hybrid_quant.h"
#include "kernels/kernel_util.h"
#include "kernels/quant_util.h"

/* The integer paths keep only `rq`; the fields after it exist for the hybrid path alone and are
 * allocated only for it. The window is el_conv_data's. */
typedef struct el_conv_q {
  el_conv_requant rq;
  float act_min_f;
  float act_max_f;
  bool hybrid_per_channel;
  el_hybrid_scratch scratch; /* arena scratch buffers of the hybrid path */
} el_conv_q;

/* Filter zero points must all be 0 for the int8/int16 (symmetric weight) paths. */
static TfLiteStatus check_symmetric_filter(TfLiteContext* context, const TfLiteTensor* filter) {
  const TfLiteAffineQuantization* aq = el_q_affine(filter);
  EL_ENSURE(context, aq != NULL && aq->scale != NULL);
  if (aq->zero_point != NULL) {
    for (int i = 0; i < aq->zero_point->size; ++i) EL_ENSURE_EQ(context, aq->zero_point->data[i], 0);
  }
  return kTfLiteOk;
}

static TfLiteStatus prepare_hybrid(TfLiteContext* context, const TfLiteTensor* input,
                                   const TfLiteTensor* filter, int groups, el_conv_q* q) {
  EL_ENSURE_OK(context, el_conv_check_filter_scales(context, filter, 4));
  const TfLiteAffineQuantization* aq = el_q_affine(filter);
  q->hybrid_per_channel = groups != 1;
  for (int i = 1; i < aq->scale->size; ++i) {
    if (aq->scale->data[i] != aq->scale->data[0]) q->hybrid_per_channel = true;
  }
  return el_hybrid_scratch_request(context, el_num_elements(input), input->dims->data[0], &q->scratch);
}

/* CONV_2D's prepare (conv.c) has checked the shapes and the window, and resized the output. */
TfLiteStatus el_conv_prepare_quant(TfLiteContext* context, TfLiteNode* node, el_conv_data* d) {
  const TfLiteConvParams* params = (const TfLiteConvParams*)node->builtin_data;
  const TfLiteTensor *input, *filter, *bias;
  TfLiteTensor* output;
  EL_ENSURE_OK(context, el_get_filter_operands(context, node, &input, &filter, &bias, &output));
  const TfLiteType type = input->type;
  el_conv_q* q = (el_conv_q*)el_q_state(
      context, &d->quant, type == kTfLiteFloat32 ? sizeof(el_conv_q) : el_conv_requant_bytes(type, false));
  EL_ENSURE(context, q != NULL);
  const int out_ch = filter->dims->data[0];
  EL_ENSURE(context, out_ch > 0);
  EL_ENSURE_TYPES_EQ(context, output->type, type);
  if (type == kTfLiteFloat32) {
    EL_ENSURE_TYPES_EQ(context, filter->type, kTfLiteInt8);
  } else if (type == kTfLiteUInt8) {
    EL_ENSURE_TYPES_EQ(context, filter->type, kTfLiteUInt8);
  } else {
    EL_ENSURE(context, type == kTfLiteInt8 || type == kTfLiteInt16);
    EL_ENSURE_TYPES_EQ(context, filter->type, kTfLiteInt8);
    EL_ENSURE_OK(context, check_symmetric_filter(context, filter));
  }
  if (bias != NULL) {
    if (type == kTfLiteUInt8 || type == kTfLiteInt8) {
      EL_ENSURE_TYPES_EQ(context, bias->type, kTfLiteInt32);
      EL_ENSURE_EQ(context, bias->params.zero_point, 0);
    } else if (type == kTfLiteInt16) {
      EL_ENSURE(context, bias->type == kTfLiteInt32 || bias->type == kTfLiteInt64);
      EL_ENSURE_EQ(context, bias->params.zero_point, 0);
    } else {
      EL_ENSURE_TYPES_EQ(context, bias->type, kTfLiteFloat32);
    }
    EL_ENSURE_EQ(context, el_num_elements(bias), out_ch);
  }
  if (type == kTfLiteInt16) {
    EL_ENSURE_EQ(context, input->params.zero_point, 0);
    EL_ENSURE_EQ(context, output->params.zero_point, 0);
  }
  if (type == kTfLiteFloat32) {
    EL_ENSURE_OK(context, prepare_hybrid(context, input, filter, d->groups, q));
    el_activation_range_f32(params->activation, &q->act_min_f, &q->act_max_f);
    return kTfLiteOk;
  }
  return el_conv_requant_prepare(context, input, filter, bias, output, out_ch, params->activation, true, false,
                                 &q->rq);
}

typedef el_conv_geom geom;

static geom read_geom(const TfLiteConvParams* params, const el_conv_data* d, const TfLiteTensor* input,
                      const TfLiteTensor* filter, const TfLiteTensor* output) {
  geom g = el_conv_geom_read(input, filter, output, params->stride_height, params->stride_width,
                             params->dilation_height_factor, params->dilation_width_factor, d->pad_h, d->pad_w);
  g.per_group = g.out_ch / (g.in_ch / g.f_in_ch);
  return g;
}

/* The int32 sum of filter * (input + input_offset) + filter_offset terms over the taps of one
 * output element that fall inside the image (outside taps are the zero point: they add 0). */
#define CONV_ACCUMULATE(ACC_T, IN_T, FILT_T, in_data, filt_data, g, b, oy, ox, oc, in_off,      \
                        filt_off, acc)                                                           \
  do {                                                                                           \
    const int y0_ = (oy) * (g).stride_h - (g).pad_h;                                             \
    const int x0_ = (ox) * (g).stride_w - (g).pad_w;                                             \
    const int ch0_ = ((oc) / (g).per_group) * (g).f_in_ch;                                       \
    for (int fy_ = 0; fy_ < (g).f_h; ++fy_) {                                                    \
      const int iy_ = y0_ + (g).dil_h * fy_;                                                     \
      if (iy_ < 0 || iy_ >= (g).in_h) continue;                                                 \
      for (int fx_ = 0; fx_ < (g).f_w; ++fx_) {                                                  \
        const int ix_ = x0_ + (g).dil_w * fx_;                                                   \
        if (ix_ < 0 || ix_ >= (g).in_w) continue;                                               \
        const IN_T* ip_ = (in_data) + (((int64_t)(b) * (g).in_h + iy_) * (g).in_w + ix_) *      \
                                         (g).in_ch + ch0_;                                       \
        const FILT_T* fp_ = (filt_data) + (((int64_t)(oc) * (g).f_h + fy_) * (g).f_w + fx_) *    \
                                             (g).f_in_ch;                                        \
        for (int ic_ = 0; ic_ < (g).f_in_ch; ++ic_) {                                            \
          (acc) = EL_Q_ADD_WRAP((acc), (ACC_T)((int32_t)fp_[ic_] + (filt_off)) *              \
                                           (ACC_T)((int32_t)ip_[ic_] + (in_off)));               \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
  } while (0)

static void conv_int8(const geom* g, const el_conv_q* q, const TfLiteTensor* input,
                      const TfLiteTensor* filter, const TfLiteTensor* bias, TfLiteTensor* output) {
  const int8_t* in = input->data.int8;
  const int8_t* filt = filter->data.int8;
  const int32_t* bias_data = bias ? bias->data.i32 : NULL;
  int8_t* out = output->data.int8;
  const int32_t in_off = -input->params.zero_point;
  const int32_t out_off = output->params.zero_point;
  EL_FOR_EACH_OUTPUT_REQUANT(*g, input, filter, output, {
    int32_t acc = 0;
    CONV_ACCUMULATE(int32_t, int8_t, int8_t, in, filt, *g, b, oy, ox, oc, in_off, 0, acc);
    if (bias_data) acc = el_q_add_wrap(acc, bias_data[oc]);
    acc = el_q_add_wrap(el_q_mbqm(acc, EL_RQ_MULTIPLIER, EL_RQ_SHIFT), out_off);
    out[o] = (int8_t)el_q_clamp(acc, q->rq.act_min, q->rq.act_max);
  });
}

static void conv_int16(const geom* g, const el_conv_q* q, const TfLiteTensor* input,
                       const TfLiteTensor* filter, const TfLiteTensor* bias, TfLiteTensor* output) {
  const int16_t* in = input->data.i16;
  const int8_t* filt = filter->data.int8;
  int16_t* out = output->data.i16;
  const int32_t in_off = -input->params.zero_point;
  const int32_t out_off = output->params.zero_point;
  EL_FOR_EACH_OUTPUT_REQUANT(*g, input, filter, output, {
    int64_t acc = 0;
    CONV_ACCUMULATE(int64_t, int16_t, int8_t, in, filt, *g, b, oy, ox, oc, in_off, 0, acc);
    if (bias != NULL) {
      acc = el_q_add_wrap64(acc, bias->type == kTfLiteInt64 ? bias->data.i64[oc] : bias->data.i32[oc]);
    }
    /* With an int32 bias LiteRT runs its int32-accumulator 16x8 kernel (rescaled with the
     * 32-bit multiplier); with an int64 bias the int64 one (16-bit multiplier). */
    const int32_t v = (bias != NULL && bias->type == kTfLiteInt32
                           ? el_q_mbqm((int32_t)acc, EL_RQ_MULTIPLIER, EL_RQ_SHIFT)
                           : el_q_mbqm64(acc, EL_RQ_MULTIPLIER, EL_RQ_SHIFT)) +
                      out_off;
    out[o] = (int16_t)el_q_clamp(v, q->rq.act_min, q->rq.act_max);
  });
}

static void conv_uint8(const geom* g, const el_conv_q* q, const TfLiteTensor* input,
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
  int64_t o = 0;
  for (int b = 0; b < g->batches; ++b) {
    for (int oy = 0; oy < g->out_h; ++oy) {
      for (int ox = 0; ox < g->out_w; ++ox) {
        for (int oc = 0; oc < g->out_ch; ++oc) {
          int32_t acc = 0;
          CONV_ACCUMULATE(int32_t, uint8_t, uint8_t, in, filt, *g, b, oy, ox, oc, in_off, filt_off,
                          acc);
          if (bias_data) acc = el_q_add_wrap(acc, bias_data[oc]);
          acc = el_q_add_wrap(el_q_mbqm(acc, multiplier, shift), out_off);
          out[o++] = (uint8_t)el_q_clamp(acc, q->rq.act_min, q->rq.act_max);
        }
      }
    }
  }
}

/* Float activations, int8 weights: each batch is quantized on the fly, asymmetrically when
 * channels carry their own scales (or groups are used), symmetrically otherwise. */
static TfLiteStatus conv_hybrid(TfLiteContext* context, const geom* g, const el_conv_q* q,
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
    const float* src = input->data.f + (int64_t)b * image;
    if (q->hybrid_per_channel) {
      el_hybrid_quantize_asymmetric(src, image, quantized + (int64_t)b * image, &scales[b],
                                    &offsets[b]);
    } else {
      el_hybrid_quantize_symmetric(src, image, quantized + (int64_t)b * image, &scales[b]);
      scales[b] *= channel_scales[0];
      offsets[b] = 0;
    }
  }
  const int8_t* filt = filter->data.int8;
  const float* bias_data = bias ? bias->data.f : NULL;
  float* out = output->data.f;
  int64_t o = 0;
  for (int b = 0; b < g->batches; ++b) {
    const int32_t in_off = -offsets[b];
    for (int oy = 0; oy < g->out_h; ++oy) {
      for (int ox = 0; ox < g->out_w; ++ox) {
        for (int oc = 0; oc < g->out_ch; ++oc) {
          int32_t acc = 0;
          CONV_ACCUMULATE(int32_t, int8_t, int8_t, quantized, filt, *g, b, oy, ox, oc, in_off, 0,
                          acc);
          float v;
          if (q->hybrid_per_channel) {
            v = (float)acc * channel_scales[per_channel_scales ? oc : 0] * scales[b];
          } else {
            v = (float)acc * scales[b];
          }
          if (bias_data) v += bias_data[oc];
          out[o++] = el_clamp_f32(v, q->act_min_f, q->act_max_f);
        }
      }
    }
  }
  return kTfLiteOk;
}

TfLiteStatus el_conv_invoke_quant(TfLiteContext* context, TfLiteNode* node, const el_conv_data* d) {
  const el_conv_q* q = (const el_conv_q*)d->quant;
  EL_ENSURE(context, q != NULL);
  const TfLiteConvParams* params = (const TfLiteConvParams*)node->builtin_data;
  const TfLiteTensor *input, *filter, *bias;
  TfLiteTensor* output;
  EL_ENSURE_OK(context, el_get_filter_operands(context, node, &input, &filter, &bias, &output));
  const geom g = read_geom(params, d, input, filter, output);
  switch (input->type) {
    case kTfLiteInt8:
      conv_int8(&g, q, input, filter, bias, output);
      return kTfLiteOk;
    case kTfLiteInt16:
      conv_int16(&g, q, input, filter, bias, output);
      return kTfLiteOk;
    case kTfLiteUInt8:
      conv_uint8(&g, q, input, filter, bias, output);
      return kTfLiteOk;
    case kTfLiteFloat32:
      return conv_hybrid(context, &g, q, input, filter, bias, output);
    default:
      return el_unsupported_type(context, "CONV_2D", input->type);
  }
}
