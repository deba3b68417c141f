/* DEPTHWISE_CONV_2D: NHWC input, 1HW(C*M) filter, optional bias; stride, dilation, SAME/VALID
 * padding; the depth multiplier M comes from the shapes (the option is redundant, as in TFLite).
 * Float32 here; quantized and hybrid types hook in at the marked switch cases (README.md). */
#include "kernels/conv.h"
#include "kernels/depthwise_conv_quant.h"
#include "kernels/kernels.h"

static TfLiteStatus dw_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  el_conv_data* d = (el_conv_data*)node->user_data;
  const TfLiteDepthwiseConvParams* params = (const TfLiteDepthwiseConvParams*)node->builtin_data;
  EL_ENSURE_MSG(ctx, params != NULL, "DEPTHWISE_CONV_2D has no options.");
  const TfLiteTensor *input, *filter, *bias;
  TfLiteTensor* output;
  EL_ENSURE_OK(ctx, el_get_filter_operands(ctx, node, &input, &filter, &bias, &output));

  EL_ENSURE_EQ(ctx, el_ndims(input), 4);
  EL_ENSURE_EQ(ctx, el_ndims(filter), 4);
  EL_ENSURE_EQ(ctx, el_dim(filter, 0), 1);
  EL_ENSURE(ctx, params->stride_width > 0 && params->stride_height > 0);
  EL_ENSURE(ctx, params->dilation_width_factor > 0 && params->dilation_height_factor > 0);
  const int in_c = el_dim(input, 3), out_c = el_dim(filter, 3);
  EL_ENSURE(ctx, in_c != 0);
  EL_ENSURE_EQ(ctx, out_c % in_c, 0);
  d->depth_multiplier = out_c / in_c;
  if (bias != NULL) {
    EL_ENSURE_EQ(ctx, el_ndims(bias), 1);
    EL_ENSURE_EQ(ctx, el_dim(bias, 0), out_c);
  }

  const el_conv_window w = {params->stride_height, params->stride_width,
                            params->dilation_height_factor, params->dilation_width_factor,
                            params->padding};
  return el_conv_prepare_output(ctx, node, d, &w, input, filter, bias, output, out_c,
                                "DEPTHWISE_CONV_2D", el_dw_prepare_quant);
}

static void dw_f32(const TfLiteDepthwiseConvParams* params, const el_conv_data* d,
                   const TfLiteTensor* input, const TfLiteTensor* filter, const float* bias,
                   TfLiteTensor* output) {
  const int batches = el_dim(input, 0), in_h = el_dim(input, 1), in_w = el_dim(input, 2);
  const int in_c = el_dim(input, 3);
  const int f_h = el_dim(filter, 1), f_w = el_dim(filter, 2), out_c = el_dim(filter, 3);
  const int m = d->depth_multiplier;
  const int out_h = el_dim(output, 1), out_w = el_dim(output, 2);
  const int sh = params->stride_height, sw = params->stride_width;
  const int dh = params->dilation_height_factor, dw = params->dilation_width_factor;
  float lo, hi;
  el_activation_range_f32(params->activation, &lo, &hi);
  const float* in = input->data.f;
  const float* w = filter->data.f;
  float* out = output->data.f;

  for (int b = 0; b < batches; ++b) {
    for (int oy = 0; oy < out_h; ++oy) {
      const int iy0 = oy * sh - d->pad_h;
      for (int ox = 0; ox < out_w; ++ox) {
        const int ix0 = ox * sw - d->pad_w;
        /* Accumulate straight into the output pixel: every tap adds to all its channels. */
        float* o = out + (((int64_t)b * out_h + oy) * out_w + ox) * out_c;
        for (int oc = 0; oc < out_c; ++oc) o[oc] = 0.0f;
        for (int fy = 0; fy < f_h; ++fy) {
          const int iy = iy0 + fy * dh;
          if (iy < 0 || iy >= in_h) continue;
          for (int fx = 0; fx < f_w; ++fx) {
            const int ix = ix0 + fx * dw;
            if (ix < 0 || ix >= in_w) continue;
            const float* xp = in + (((int64_t)b * in_h + iy) * in_w + ix) * in_c;
            const float* wp = w + ((int64_t)fy * f_w + fx) * out_c;
            if (m == 1) {
              for (int c = 0; c < in_c; ++c) o[c] += xp[c] * wp[c];
            } else {
              for (int c = 0; c < in_c; ++c) {
                for (int k = 0; k < m; ++k) o[c * m + k] += xp[c] * wp[c * m + k];
              }
            }
          }
        }
        for (int oc = 0; oc < out_c; ++oc) {
          o[oc] = el_clamp_f32(bias ? o[oc] + bias[oc] : o[oc], lo, hi);
        }
      }
    }
  }
}

static TfLiteStatus dw_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const el_conv_data* d = (const el_conv_data*)node->user_data;
  const TfLiteTensor* input = el_optional_input(ctx, node, 0);
  const TfLiteTensor* filter = el_optional_input(ctx, node, 1);
  const TfLiteTensor* bias = el_optional_input(ctx, node, 2);
  TfLiteTensor* output = &ctx->tensors[node->outputs->data[0]];
  if (input->type == kTfLiteFloat32 && filter->type == kTfLiteFloat32) {
    dw_f32((const TfLiteDepthwiseConvParams*)node->builtin_data, d, input, filter,
           bias ? bias->data.f : NULL, output);
    return kTfLiteOk;
  }
  switch (input->type) {
    case kTfLiteFloat32: /* hybrid: int8 weights */
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteInt16:
      return el_dw_invoke_quant(ctx, node, d);
    default:
      return el_unsupported_type(ctx, "DEPTHWISE_CONV_2D", input->type);
  }
}

const TfLiteRegistration el_ref_depthwise_conv_2d = EL_REGISTRATION(
    el_conv_init, el_kernel_free, dw_prepare, dw_invoke, EL_OP_DEPTHWISE_CONV_2D);
