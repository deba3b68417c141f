/* TRANSPOSE_CONV: inputs (output_shape int32[4], OHWI weights, NHWC input, optional bias).
 * float32, int8 (per-channel), uint8 (per-tensor, legacy conventions) and int16x8 (int64 or
 * int32 bias), as LiteRT's reference kernel (tflite/kernels/transpose_conv.cc, kReference).
 *
 * The reference scatters every input element over the outputs it touches, accumulating into
 * a zeroed output-sized buffer. Here each output element gathers its contributions instead, in
 * the very order the scatter adds them (input row, then column, then channel, ascending), so
 * float sums round identically and integer sums are equal; no scratch buffer is needed, which
 * also keeps a dynamic output shape (output_shape computed by the graph) allocation-free.
 * The output is sized from output_shape at prepare when that tensor is constant, otherwise it
 * is dynamic and sized at invoke, and padding is derived from the output size, as LiteRT does. */
#include <stdbool.h>
#include <stdint.h>

#include "kernels/conv_geom.h"
#include "kernels/conv_requant.h"
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/quant_ops.h"
#include "kernels/quant_util.h"

enum { kOutputShape = 0, kWeights = 1, kInput = 2, kBias = 3 };

typedef struct tconv_data {
  el_conv_requant rq; /* per output channel (int8/int16), the legacy uint8 one, the clamp */
  float act_min_f;
  float act_max_f;
  bool int16_acc32; /* int16x8 with quantized_bias_type int32: int32 accumulators */
} tconv_data;

static void* tconv_init(TfLiteContext* context, const char* buffer, size_t length) {
  (void)context;
  (void)buffer;
  (void)length;
  return el_kernel_alloc(sizeof(tconv_data));
}

/* Resizes `output` to the values of the int32 output_shape operand. */
static TfLiteStatus resize_from_shape(TfLiteContext* context, const TfLiteTensor* shape,
                                      TfLiteTensor* output) {
  EL_ENSURE_MSG(context, shape->type == kTfLiteInt32, "TRANSPOSE_CONV output shape is not int32.");
  const int64_t n = el_num_elements(shape);
  EL_ENSURE_EQ(context, n, 4);
  int dims[4];
  for (int i = 0; i < 4; ++i) {
    dims[i] = shape->data.i32[i];
    EL_ENSURE(context, dims[i] >= 0);
  }
  return el_resize(context, output, 4, dims);
}

/* LiteRT accepts an output size only when the forward convolution of that size (same filter,
 * stride and padding) has the input's size. */
static TfLiteStatus check_output_size(TfLiteContext* context, const TfLiteTransposeConvParams* params,
                                      const TfLiteTensor* weights, const TfLiteTensor* input,
                                      const TfLiteTensor* output) {
  EL_ENSURE(context, params->stride_height > 0 && params->stride_width > 0);
  int computed_h = 0, computed_w = 0;
  el_compute_padding_hw(params->stride_height, params->stride_width, 1, 1, output->dims->data[1],
                        output->dims->data[2], weights->dims->data[1], weights->dims->data[2],
                        params->padding, &computed_h, &computed_w);
  EL_ENSURE_EQ(context, computed_h, input->dims->data[1]);
  EL_ENSURE_EQ(context, computed_w, input->dims->data[2]);
  return kTfLiteOk;
}

static TfLiteStatus tconv_prepare(TfLiteContext* context, TfLiteNode* node) {
  EL_ENSURE_OK(context, el_check_user_data(context, node));
  tconv_data* d = (tconv_data*)node->user_data;
  const TfLiteTransposeConvParams* params = (const TfLiteTransposeConvParams*)node->builtin_data;
  EL_ENSURE_MSG(context, params != NULL, "TRANSPOSE_CONV has no options.");
  const int num_inputs = el_num_inputs(node);
  EL_ENSURE(context, num_inputs == 3 || num_inputs == 4);
  EL_ENSURE_EQ(context, el_num_outputs(node), 1);
  const TfLiteTensor *shape, *weights, *input;
  TfLiteTensor* output;
  EL_ENSURE_OK(context, el_get_input(context, node, kOutputShape, &shape));
  EL_ENSURE_OK(context, el_get_input(context, node, kWeights, &weights));
  EL_ENSURE_OK(context, el_get_input(context, node, kInput, &input));
  EL_ENSURE_OK(context, el_get_output(context, node, 0, &output));
  const TfLiteTensor* bias = num_inputs == 4 ? el_optional_input(context, node, kBias) : NULL;

  EL_ENSURE_EQ(context, el_ndims(shape), 1);
  EL_ENSURE_EQ(context, el_ndims(input), 4);
  EL_ENSURE_EQ(context, el_ndims(weights), 4);
  const TfLiteType type = input->type;
  EL_ENSURE(context, type == kTfLiteFloat32 || type == kTfLiteUInt8 || type == kTfLiteInt8 ||
                         type == kTfLiteInt16);
  const int out_ch = weights->dims->data[0];
  if (bias != NULL) {
    if (type == kTfLiteUInt8 || type == kTfLiteInt8) {
      EL_ENSURE_TYPES_EQ(context, bias->type, kTfLiteInt32);
      if (type == kTfLiteInt8) EL_ENSURE_EQ(context, bias->params.zero_point, 0);
    } else if (type == kTfLiteInt16) {
      EL_ENSURE(context, bias->type == kTfLiteInt64 || bias->type == kTfLiteInt32);
      EL_ENSURE_EQ(context, bias->params.zero_point, 0);
    } else {
      EL_ENSURE_TYPES_EQ(context, bias->type, type);
    }
    EL_ENSURE_EQ(context, el_num_elements(bias), out_ch);
  }
  d->int16_acc32 = false;
  if (type == kTfLiteInt16) {
    EL_ENSURE_TYPES_EQ(context, weights->type, kTfLiteInt8);
    EL_ENSURE_EQ(context, input->params.zero_point, 0);
    EL_ENSURE_EQ(context, output->params.zero_point, 0);
    const TfLiteType qbt = params->quantized_bias_type;
    if (qbt != kTfLiteFloat32 && qbt != kTfLiteNoType) {
      EL_ENSURE(context, qbt == kTfLiteInt32 || qbt == kTfLiteInt64);
      EL_ENSURE(context, bias == NULL || bias->type == qbt);
      d->int16_acc32 = qbt == kTfLiteInt32;
    } else {
      /* Without quantized_bias_type LiteRT accumulates in int64 and reads the bias as int64. */
      EL_ENSURE_MSG(context, bias == NULL || bias->type == kTfLiteInt64,
                    "TRANSPOSE_CONV int16 with an int32 bias needs quantized_bias_type INT32.");
    }
  }
  EL_ENSURE_TYPES_EQ(context, output->type, type);
  EL_ENSURE_EQ(context, input->dims->data[3], weights->dims->data[3]);

  if (type == kTfLiteFloat32) {
    EL_ENSURE_MSG(context, weights->type == kTfLiteFloat32,
                  "TRANSPOSE_CONV with float input needs float weights (no hybrid kernel).");
    el_activation_range_f32(params->activation, &d->act_min_f, &d->act_max_f);
  } else {
    if (type == kTfLiteUInt8) {
      EL_ENSURE_TYPES_EQ(context, weights->type, kTfLiteUInt8);
    } else {
      EL_ENSURE_TYPES_EQ(context, weights->type, kTfLiteInt8);
    }
    EL_ENSURE(context, out_ch > 0);
    EL_ENSURE_OK(context, el_conv_requant_channels(context, input, weights, bias, output, out_ch,
                                                   params->activation, &d->rq));
  }

  if (!el_is_constant_or_persistent(shape)) {
    EL_ENSURE_MSG(context, shape->type == kTfLiteInt32, "TRANSPOSE_CONV output shape is not int32.");
    el_set_dynamic(output);
    return kTfLiteOk;
  }
  EL_ENSURE_OK(context, resize_from_shape(context, shape, output));
  return check_output_size(context, params, weights, input, output);
}

typedef el_conv_geom tgeom;

/* For output row `o`: the first contributing input row and how many there are (input rows
 * i with i*stride - pad + f == o for some filter tap 0 <= f < taps), walked in ascending i. */
static void contributing_range(int o, int pad, int stride, int taps, int in_size, int* first,
                               int* count) {
  /* i*stride <= o + pad  and  i*stride > o + pad - taps */
  const int hi_num = o + pad;
  const int lo_num = o + pad - taps + 1; /* i*stride >= lo_num */
  int lo = lo_num <= 0 ? 0 : (lo_num + stride - 1) / stride;
  int hi = hi_num < 0 ? -1 : hi_num / stride;
  if (hi > in_size - 1) hi = in_size - 1;
  *first = lo;
  *count = hi >= lo ? hi - lo + 1 : 0;
}

#define TCONV_GATHER(ACC_T, IN_T, W_T, in_data, w_data, g, b, oy, ox, oc, in_off, w_off, acc)    \
  do {                                                                                           \
    int y0_, ny_, x0_, nx_;                                                                      \
    contributing_range((oy), (g).pad_h, (g).stride_h, (g).f_h, (g).in_h, &y0_, &ny_);            \
    contributing_range((ox), (g).pad_w, (g).stride_w, (g).f_w, (g).in_w, &x0_, &nx_);            \
    for (int iy_ = y0_; iy_ < y0_ + ny_; ++iy_) {                                                \
      const int fy_ = (oy) + (g).pad_h - iy_ * (g).stride_h;                                     \
      for (int ix_ = x0_; ix_ < x0_ + nx_; ++ix_) {                                              \
        const int fx_ = (ox) + (g).pad_w - ix_ * (g).stride_w;                                   \
        const IN_T* ip_ =                                                                        \
            (in_data) + (((int64_t)(b) * (g).in_h + iy_) * (g).in_w + ix_) * (g).in_ch;          \
        const W_T* wp_ =                                                                         \
            (w_data) + (((int64_t)(oc) * (g).f_h + fy_) * (g).f_w + fx_) * (g).in_ch;            \
        for (int ic_ = 0; ic_ < (g).in_ch; ++ic_) {                                              \
          (acc) += (ACC_T)((ACC_T)ip_[ic_] + (in_off)) * (ACC_T)((ACC_T)wp_[ic_] + (w_off));     \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
  } while (0)

static void tconv_float(const tgeom* g, const tconv_data* d, const float* in, const float* w,
                        const float* bias, float* out) {
  int64_t o = 0;
  for (int b = 0; b < g->batches; ++b) {
    for (int oy = 0; oy < g->out_h; ++oy) {
      for (int ox = 0; ox < g->out_w; ++ox) {
        for (int oc = 0; oc < g->out_ch; ++oc) {
          float acc = 0.0f;
          TCONV_GATHER(float, float, float, in, w, *g, b, oy, ox, oc, 0.0f, 0.0f, acc);
          if (bias) acc += bias[oc];
          out[o++] = el_clamp_f32(acc, d->act_min_f, d->act_max_f);
        }
      }
    }
  }
}

static void tconv_int8(const tgeom* g, const tconv_data* d, const TfLiteTensor* input,
                       const TfLiteTensor* weights, const TfLiteTensor* bias, TfLiteTensor* output) {
  const int8_t* in = input->data.int8;
  const int8_t* w = weights->data.int8;
  const int32_t* bias_data = bias ? bias->data.i32 : NULL;
  int8_t* out = output->data.int8;
  const int8_t* shifts = el_conv_requant_shifts(&d->rq);
  const int64_t in_off = -(int64_t)input->params.zero_point;
  const int32_t out_off = output->params.zero_point;
  int64_t o = 0;
  for (int b = 0; b < g->batches; ++b) {
    for (int oy = 0; oy < g->out_h; ++oy) {
      for (int ox = 0; ox < g->out_w; ++ox) {
        for (int oc = 0; oc < g->out_ch; ++oc) {
          int64_t sum = 0;
          TCONV_GATHER(int64_t, int8_t, int8_t, in, w, *g, b, oy, ox, oc, in_off, 0, sum);
          /* int32 accumulation as the reference's scratch buffer holds it */
          uint32_t acc = (uint32_t)sum;
          if (bias_data) acc += (uint32_t)bias_data[oc];
          const int32_t scaled = el_q_mbqm((int32_t)acc, d->rq.multipliers[oc], shifts[oc]);
          const int32_t v = el_q_add_wrap(scaled, out_off);
          out[o++] = (int8_t)el_q_clamp(v, d->rq.act_min, d->rq.act_max);
        }
      }
    }
  }
}

static void tconv_int16(const tgeom* g, const tconv_data* d, const TfLiteTensor* input,
                        const TfLiteTensor* weights, const TfLiteTensor* bias, TfLiteTensor* output) {
  const int16_t* in = input->data.i16;
  const int8_t* w = weights->data.int8;
  int16_t* out = output->data.i16;
  const int8_t* shifts = el_conv_requant_shifts(&d->rq);
  int64_t o = 0;
  for (int b = 0; b < g->batches; ++b) {
    for (int oy = 0; oy < g->out_h; ++oy) {
      for (int ox = 0; ox < g->out_w; ++ox) {
        for (int oc = 0; oc < g->out_ch; ++oc) {
          int64_t sum = 0;
          TCONV_GATHER(int64_t, int16_t, int8_t, in, w, *g, b, oy, ox, oc, 0, 0, sum);
          int32_t v;
          if (d->int16_acc32) {
            uint32_t acc = (uint32_t)sum;
            if (bias) acc += (uint32_t)bias->data.i32[oc];
            v = el_q_mbqm((int32_t)acc, d->rq.multipliers[oc], shifts[oc]);
          } else {
            if (bias) sum += bias->data.i64[oc];
            v = el_q_mbqm64(sum, d->rq.multipliers[oc], shifts[oc]);
          }
          out[o++] = (int16_t)el_q_clamp(v, d->rq.act_min, d->rq.act_max);
        }
      }
    }
  }
}

static void tconv_uint8(const tgeom* g, const tconv_data* d, const TfLiteTensor* input,
                        const TfLiteTensor* weights, const TfLiteTensor* bias, TfLiteTensor* output) {
  const uint8_t* in = input->data.uint8;
  const uint8_t* w = weights->data.uint8;
  const int32_t* bias_data = bias ? bias->data.i32 : NULL;
  uint8_t* out = output->data.uint8;
  const int64_t in_off = -(int64_t)input->params.zero_point;
  const int64_t w_off = -(int64_t)weights->params.zero_point;
  const int32_t out_off = output->params.zero_point;
  const int32_t multiplier = d->rq.multipliers[0]; /* the legacy per-tensor one */
  const int shift = el_conv_requant_shifts(&d->rq)[0];
  int64_t o = 0;
  for (int b = 0; b < g->batches; ++b) {
    for (int oy = 0; oy < g->out_h; ++oy) {
      for (int ox = 0; ox < g->out_w; ++ox) {
        for (int oc = 0; oc < g->out_ch; ++oc) {
          int64_t sum = 0;
          TCONV_GATHER(int64_t, uint8_t, uint8_t, in, w, *g, b, oy, ox, oc, in_off, w_off, sum);
          uint32_t acc = (uint32_t)sum;
          if (bias_data) acc += (uint32_t)bias_data[oc];
          const int32_t v =
              el_q_mbqm((int32_t)acc, multiplier, shift) + out_off;
          out[o++] = (uint8_t)el_q_clamp(v, d->rq.act_min, d->rq.act_max);
        }
      }
    }
  }
}

static TfLiteStatus tconv_invoke(TfLiteContext* context, TfLiteNode* node) {
  const tconv_data* d = (const tconv_data*)node->user_data;
  const TfLiteTransposeConvParams* params = (const TfLiteTransposeConvParams*)node->builtin_data;
  const TfLiteTensor *shape, *weights, *input;
  TfLiteTensor* output;
  EL_ENSURE_OK(context, el_get_input(context, node, kOutputShape, &shape));
  EL_ENSURE_OK(context, el_get_input(context, node, kWeights, &weights));
  EL_ENSURE_OK(context, el_get_input(context, node, kInput, &input));
  EL_ENSURE_OK(context, el_get_output(context, node, 0, &output));
  const TfLiteTensor* bias =
      el_num_inputs(node) == 4 ? el_optional_input(context, node, kBias) : NULL;
  EL_ENSURE(context, params->stride_height > 0 && params->stride_width > 0);
  if (el_is_dynamic(output)) {
    EL_ENSURE_OK(context, resize_from_shape(context, shape, output));
    EL_ENSURE_OK(context, check_output_size(context, params, weights, input, output));
  }
  EL_ENSURE_EQ(context, el_ndims(output), 4);
  EL_ENSURE_EQ(context, input->dims->data[0], output->dims->data[0]);
  EL_ENSURE_EQ(context, weights->dims->data[0], output->dims->data[3]);

  /* The padding is that of the forward convolution from the output back to the input. */
  int unused_h = 0, unused_w = 0;
  const TfLitePaddingValues pad = el_compute_padding_hw(
      params->stride_height, params->stride_width, 1, 1, output->dims->data[1], output->dims->data[2],
      weights->dims->data[1], weights->dims->data[2], params->padding, &unused_h, &unused_w);
  const tgeom g = el_conv_geom_read(input, weights, output, params->stride_height, params->stride_width,
                                    1, 1, pad.height, pad.width);
  if (el_num_elements(output) == 0) return kTfLiteOk;

  switch (input->type) {
    case kTfLiteFloat32:
      tconv_float(&g, d, input->data.f, weights->data.f, bias ? bias->data.f : NULL, output->data.f);
      return kTfLiteOk;
    case kTfLiteInt8:
      tconv_int8(&g, d, input, weights, bias, output);
      return kTfLiteOk;
    case kTfLiteInt16:
      tconv_int16(&g, d, input, weights, bias, output);
      return kTfLiteOk;
    case kTfLiteUInt8:
      tconv_uint8(&g, d, input, weights, bias, output);
      return kTfLiteOk;
    default:
      return el_unsupported_type(context, "TRANSPOSE_CONV", input->type);
  }
}

const TfLiteRegistration el_ref_transpose_conv =
    EL_REGISTRATION(tconv_init, el_kernel_free, tconv_prepare, tconv_invoke, EL_OP_TRANSPOSE_CONV);
