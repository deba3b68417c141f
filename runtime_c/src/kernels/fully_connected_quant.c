#include "kernels/fully_connected_quant.h"

#include <math.h>
#include <stdbool.h>

#include "kernels/conv_requant.h"
#include "kernels/hybrid_quant.h"
#include "kernels/kernel_util.h"
#include "kernels/quant_util.h"

/* The integer paths' state; the fields from `scratch` on exist for the hybrid path alone and are
 * allocated only for it. The shapes are el_fc_data's. */
typedef struct el_fc_q {
  double* scales; /* in_scale * w_scale / out_scale: per output unit, or one for per-tensor weights */
  int scales_capacity;
  int32_t act_min;
  int32_t act_max;
  bool per_channel;
  el_hybrid_scratch scratch;
  int scratch_row_sums;
} el_fc_q;

static TfLiteStatus check_types(TfLiteContext* context, const TfLiteTensor* input,
                                const TfLiteTensor* filter, const TfLiteTensor* bias,
                                const TfLiteTensor* output, bool* hybrid) {
  *hybrid = input->type == kTfLiteFloat32;
  if (*hybrid) {
    EL_ENSURE_TYPES_EQ(context, filter->type, kTfLiteInt8);
    EL_ENSURE_TYPES_EQ(context, output->type, kTfLiteFloat32);
    EL_ENSURE(context, bias == NULL || bias->type == kTfLiteFloat32);
    return kTfLiteOk;
  }
  EL_ENSURE_TYPES_EQ(context, output->type, input->type);
  if (input->type == kTfLiteUInt8) {
    EL_ENSURE_TYPES_EQ(context, filter->type, kTfLiteUInt8);
  } else {
    EL_ENSURE(context, input->type == kTfLiteInt8 || input->type == kTfLiteInt16);
    EL_ENSURE_TYPES_EQ(context, filter->type, kTfLiteInt8);
  }
  EL_ENSURE(context, bias == NULL || bias->type == kTfLiteInt32 || bias->type == kTfLiteInt64);
  if (input->type != kTfLiteInt16) EL_ENSURE(context, bias == NULL || bias->type == kTfLiteInt32);
  return kTfLiteOk;
}

static TfLiteStatus prepare_requantization(TfLiteContext* context, const TfLiteTensor* input,
                                           const TfLiteTensor* filter, const TfLiteTensor* bias,
                                           const TfLiteTensor* output, int units, el_fc_q* q) {
  EL_ENSURE_OK(context, el_conv_check_filter_scales(context, filter, 2));
  const TfLiteAffineQuantization* aq = el_q_affine(filter);
  EL_ENSURE(context, input->quantization.type == kTfLiteAffineQuantization);
  q->per_channel = aq->scale->size > 1;
  if (q->per_channel) {
    EL_ENSURE(context, input->type == kTfLiteInt8 || input->type == kTfLiteInt16);
    EL_ENSURE_EQ(context, aq->scale->size, units);
  } else {
    /* The legacy check that the bias scale is the product of the input and weight scales. */
    double unused = 0.0;
    EL_ENSURE_OK(context, el_q_legacy_conv_multiplier(context, input, filter, bias, output, &unused));
  }
  const int n = q->per_channel ? units : 1;
  EL_ENSURE_OK(context, el_q_channel_buffer(context, n, sizeof(double), &q->scales_capacity, (void**)&q->scales));
  for (int c = 0; c < n; ++c) q->scales[c] = el_q_channel_real_multiplier(input, aq, c, output);
  return kTfLiteOk;
}

TfLiteStatus el_fc_prepare_quant(TfLiteContext* context, TfLiteNode* node, el_fc_data* d) {
  const TfLiteFullyConnectedParams* params = (const TfLiteFullyConnectedParams*)node->builtin_data;
  EL_ENSURE_MSG(context, params->weights_format == kTfLiteFullyConnectedWeightsFormatDefault,
                "FULLY_CONNECTED with shuffled weights is not supported.");
  const TfLiteTensor *input, *filter, *bias;
  TfLiteTensor* output;
  EL_ENSURE_OK(context, el_get_filter_operands(context, node, &input, &filter, &bias, &output));
  bool hybrid = false;
  EL_ENSURE_OK(context, check_types(context, input, filter, bias, output, &hybrid));
  el_fc_q* q = (el_fc_q*)el_q_state(context, &d->quant, hybrid ? sizeof(el_fc_q) : offsetof(el_fc_q, scratch));
  EL_ENSURE(context, q != NULL);
  if (!hybrid) {
    EL_ENSURE(context, params->activation == kTfLiteActNone || params->activation == kTfLiteActRelu ||
                           params->activation == kTfLiteActReluN1To1 ||
                           params->activation == kTfLiteActRelu6);
  }
  const int64_t input_size = el_num_elements(input);
  EL_ENSURE(context, input_size / d->input_depth < INT32_MAX);

  if (hybrid) {
    EL_ENSURE_OK(context, el_conv_check_filter_scales(context, filter, 2));
    q->per_channel = el_q_affine(filter)->scale->size > 1;
    /* One spare scale and zero point past the batch rows. */
    EL_ENSURE_OK(context, el_hybrid_scratch_request(context, input_size, d->batches + 1, &q->scratch));
    return context->RequestScratchBufferInArena(context, sizeof(int32_t) * (size_t)(d->units + 1),
                                                &q->scratch_row_sums);
  }
  EL_ENSURE_OK(context, prepare_requantization(context, input, filter, bias, output, d->units, q));
  EL_ENSURE_OK(context, el_q_activation_range(params->activation, output->type, output->params.scale,
                                              output->params.zero_point, &q->act_min, &q->act_max));
  if (input->type == kTfLiteInt16) {
    EL_ENSURE_EQ(context, input->params.zero_point, 0);
    EL_ENSURE_EQ(context, output->params.zero_point, 0);
  }
  return kTfLiteOk;
}

/* Requantization shared by all integer paths: round(acc * scale) half away from zero. The
 * clamp happens in double, so products beyond int32 (huge scale ratios) clamp too. */
static inline int32_t requantize(double acc, double scale, int32_t zp, int32_t lo, int32_t hi) {
  const double v = round(acc * scale) + (double)zp;
  if (v > (double)hi) return hi;
  return v >= (double)lo ? (int32_t)v : lo;
}

static void fc_int8(const el_fc_data* fc, const el_fc_q* q, const TfLiteTensor* input, const TfLiteTensor* filter,
                    const TfLiteTensor* bias, TfLiteTensor* output) {
  const int8_t* in = input->data.int8;
  const int8_t* w = filter->data.int8;
  const int32_t* bias_data = bias ? bias->data.i32 : NULL;
  const int32_t in_off = -input->params.zero_point;
  /* Per-channel weights are symmetric by spec; per-tensor ones keep their zero point. */
  const int32_t w_off = q->per_channel ? 0 : -filter->params.zero_point;
  const int32_t out_zp = output->params.zero_point;
  for (int b = 0; b < fc->batches; ++b) {
    for (int u = 0; u < fc->units; ++u) {
      int32_t acc = 0;
      const int8_t* row = w + (int64_t)u * fc->input_depth;
      const int8_t* x = in + (int64_t)b * fc->input_depth;
      for (int d = 0; d < fc->input_depth; ++d) {
        acc = el_q_add_wrap(acc, ((int32_t)row[d] + w_off) * ((int32_t)x[d] + in_off));
      }
      if (bias_data) acc = el_q_add_wrap(acc, bias_data[u]);
      output->data.int8[(int64_t)b * fc->units + u] =
          (int8_t)requantize((double)acc, q->scales[q->per_channel ? u : 0], out_zp, q->act_min, q->act_max);
    }
  }
}

static void fc_uint8(const el_fc_data* fc, const el_fc_q* q, const TfLiteTensor* input, const TfLiteTensor* filter,
                     const TfLiteTensor* bias, TfLiteTensor* output) {
  const uint8_t* in = input->data.uint8;
  const uint8_t* w = filter->data.uint8;
  const int32_t* bias_data = bias ? bias->data.i32 : NULL;
  const int32_t in_off = -input->params.zero_point;
  const int32_t w_off = -filter->params.zero_point;
  const int32_t out_zp = output->params.zero_point;
  for (int b = 0; b < fc->batches; ++b) {
    for (int u = 0; u < fc->units; ++u) {
      int32_t acc = 0;
      const uint8_t* row = w + (int64_t)u * fc->input_depth;
      const uint8_t* x = in + (int64_t)b * fc->input_depth;
      for (int d = 0; d < fc->input_depth; ++d) {
        acc = el_q_add_wrap(acc, ((int32_t)row[d] + w_off) * ((int32_t)x[d] + in_off));
      }
      if (bias_data) acc = el_q_add_wrap(acc, bias_data[u]);
      output->data.uint8[(int64_t)b * fc->units + u] =
          (uint8_t)requantize((double)acc, q->scales[q->per_channel ? u : 0], out_zp, q->act_min, q->act_max);
    }
  }
}

/* 16x8: the accumulator has the width of the bias (int32 or int64), as in TFLite. */
static void fc_int16(const el_fc_data* fc, const el_fc_q* q, const TfLiteTensor* input, const TfLiteTensor* filter,
                     const TfLiteTensor* bias, TfLiteTensor* output) {
  const int16_t* in = input->data.i16;
  const int8_t* w = filter->data.int8;
  const int32_t in_off = -input->params.zero_point;
  const int32_t w_off = q->per_channel ? 0 : -filter->params.zero_point;
  const int32_t out_zp = output->params.zero_point;
  const bool narrow = bias != NULL && bias->type == kTfLiteInt32;
  for (int b = 0; b < fc->batches; ++b) {
    for (int u = 0; u < fc->units; ++u) {
      const int8_t* row = w + (int64_t)u * fc->input_depth;
      const int16_t* x = in + (int64_t)b * fc->input_depth;
      double acc_d;
      if (narrow) {
        int32_t acc = 0;
        for (int d = 0; d < fc->input_depth; ++d) {
          acc = el_q_add_wrap(acc, ((int32_t)row[d] + w_off) * ((int32_t)x[d] + in_off));
        }
        acc = el_q_add_wrap(acc, bias->data.i32[u]);
        acc_d = (double)acc;
      } else {
        int64_t acc = 0;
        for (int d = 0; d < fc->input_depth; ++d) {
          acc += (int64_t)(((int32_t)row[d] + w_off) * ((int32_t)x[d] + in_off));
        }
        if (bias != NULL) acc = el_q_add_wrap64(acc, bias->data.i64[u]);
        acc_d = (double)acc;
      }
      output->data.i16[(int64_t)b * fc->units + u] =
          (int16_t)requantize(acc_d, q->scales[q->per_channel ? u : 0], out_zp, q->act_min, q->act_max);
    }
  }
}

static float apply_float_activation(TfLiteFusedActivation act, float v) {
  switch (act) {
    case kTfLiteActRelu:
      return v < 0.0f ? 0.0f : v;
    case kTfLiteActReluN1To1:
      return el_clamp_f32(v, -1.0f, 1.0f);
    case kTfLiteActRelu6:
      return el_clamp_f32(v, 0.0f, 6.0f);
    case kTfLiteActTanh:
      return tanhf(v);
    case kTfLiteActSigmoid:
      return 1.0f / (1.0f + expf(-v));
    default:
      return v;
  }
}

static TfLiteStatus fc_hybrid(TfLiteContext* context, const TfLiteFullyConnectedParams* params,
                              const el_fc_data* fc, const el_fc_q* q, const TfLiteTensor* input,
                              const TfLiteTensor* filter, const TfLiteTensor* bias,
                              TfLiteTensor* output) {
  float* out = output->data.f;
  const int64_t n_out = (int64_t)fc->batches * fc->units;
  for (int b = 0; b < fc->batches; ++b) {
    for (int u = 0; u < fc->units; ++u) out[(int64_t)b * fc->units + u] = bias ? bias->data.f[u] : 0.0f;
  }
  const int64_t n_in = (int64_t)fc->batches * fc->input_depth;
  bool all_zero = true;
  for (int64_t i = 0; i < n_in && all_zero; ++i) all_zero = input->data.f[i] == 0.0f;
  if (!all_zero) {
    int8_t* quantized = (int8_t*)context->GetScratchBuffer(context, q->scratch.quantized);
    float* scales = (float*)context->GetScratchBuffer(context, q->scratch.scales);
    int32_t* offsets = (int32_t*)context->GetScratchBuffer(context, q->scratch.offsets);
    int32_t* row_sums = (int32_t*)context->GetScratchBuffer(context, q->scratch_row_sums);
    EL_ENSURE(context, quantized != NULL && scales != NULL && offsets != NULL && row_sums != NULL);
    const int8_t* w = filter->data.int8;
    for (int b = 0; b < fc->batches; ++b) {
      const float* x = input->data.f + (int64_t)b * fc->input_depth;
      int8_t* qx = quantized + (int64_t)b * fc->input_depth;
      if (params->asymmetric_quantize_inputs) {
        el_hybrid_quantize_asymmetric(x, fc->input_depth, qx, &scales[b], &offsets[b]);
      } else {
        el_hybrid_quantize_symmetric(x, fc->input_depth, qx, &scales[b]);
        offsets[b] = 0;
      }
    }
    const TfLiteAffineQuantization* aq = el_q_affine(filter);
    if (!q->per_channel) {
      for (int b = 0; b < fc->batches; ++b) scales[b] *= filter->params.scale;
    }
    for (int u = 0; u < fc->units; ++u) {
      int32_t s = 0;
      for (int d = 0; d < fc->input_depth; ++d) s += w[(int64_t)u * fc->input_depth + d];
      row_sums[u] = s;
    }
    for (int b = 0; b < fc->batches; ++b) {
      const int8_t* qx = quantized + (int64_t)b * fc->input_depth;
      for (int u = 0; u < fc->units; ++u) {
        const int8_t* row = w + (int64_t)u * fc->input_depth;
        int32_t dot = 0;
        for (int d = 0; d < fc->input_depth; ++d) dot += (int32_t)row[d] * (int32_t)qx[d];
        dot -= row_sums[u] * offsets[b];
        float scale = scales[b];
        if (q->per_channel) scale *= aq->scale->data[u];
        out[(int64_t)b * fc->units + u] += (float)dot * scale;
      }
    }
  }
  for (int64_t i = 0; i < n_out; ++i) out[i] = apply_float_activation(params->activation, out[i]);
  return kTfLiteOk;
}

TfLiteStatus el_fc_invoke_quant(TfLiteContext* context, TfLiteNode* node, const el_fc_data* fc) {
  const el_fc_q* q = (const el_fc_q*)fc->quant;
  EL_ENSURE(context, q != NULL);
  const TfLiteFullyConnectedParams* params = (const TfLiteFullyConnectedParams*)node->builtin_data;
  const TfLiteTensor *input, *filter, *bias;
  TfLiteTensor* output;
  EL_ENSURE_OK(context, el_get_filter_operands(context, node, &input, &filter, &bias, &output));
  switch (input->type) {
    case kTfLiteInt8:
      fc_int8(fc, q, input, filter, bias, output);
      return kTfLiteOk;
    case kTfLiteUInt8:
      fc_uint8(fc, q, input, filter, bias, output);
      return kTfLiteOk;
    case kTfLiteInt16:
      fc_int16(fc, q, input, filter, bias, output);
      return kTfLiteOk;
    case kTfLiteFloat32:
      return fc_hybrid(context, params, fc, q, input, filter, bias, output);
    default:
      return el_unsupported_type(context, "FULLY_CONNECTED", input->type);
  }
}
