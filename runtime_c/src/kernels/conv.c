/* CONV_2D: NHWC input, OHWI filter, optional bias; stride, dilation, SAME/VALID padding and
 * grouped convolution (filter input depth dividing the input depth). Float32 here; quantized
 * and hybrid types hook in at the marked switch cases (README.md). */
#include "kernels/conv.h"

#include "kernels/conv_quant.h"

#include "kernels/kernels.h"

void* el_conv_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(el_conv_data));
}

static TfLiteStatus conv_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  el_conv_data* d = (el_conv_data*)node->user_data;
  const TfLiteConvParams* params = (const TfLiteConvParams*)node->builtin_data;
  EL_ENSURE_MSG(ctx, params != NULL, "CONV_2D has no options.");
  const TfLiteTensor *input, *filter, *bias;
  TfLiteTensor* output;
  EL_ENSURE_OK(ctx, el_get_filter_operands(ctx, node, &input, &filter, &bias, &output));

  EL_ENSURE_EQ(ctx, el_ndims(input), 4);
  EL_ENSURE_EQ(ctx, el_ndims(filter), 4);
  EL_ENSURE(ctx, params->stride_width > 0 && params->stride_height > 0);
  EL_ENSURE(ctx, params->dilation_width_factor > 0 && params->dilation_height_factor > 0);
  const int in_c = el_dim(input, 3), filter_in_c = el_dim(filter, 3), out_c = el_dim(filter, 0);
  EL_ENSURE(ctx, filter_in_c > 0);
  EL_ENSURE_EQ(ctx, in_c % filter_in_c, 0);
  d->groups = in_c / filter_in_c;
  EL_ENSURE(ctx, d->groups > 0);
  EL_ENSURE_EQ(ctx, out_c % d->groups, 0);
  if (bias != NULL) {
    EL_ENSURE_EQ(ctx, el_num_elements(bias), out_c);
  }

  const el_conv_window w = {params->stride_height, params->stride_width,
                            params->dilation_height_factor, params->dilation_width_factor,
                            params->padding};
  return el_conv_prepare_output(ctx, node, d, &w, input, filter, bias, output, out_c, "CONV_2D",
                                el_conv_prepare_quant);
}

TfLiteStatus el_conv_prepare_output(TfLiteContext* ctx, TfLiteNode* node, el_conv_data* d,
                                    const el_conv_window* w, const TfLiteTensor* input,
                                    const TfLiteTensor* filter, const TfLiteTensor* bias,
                                    TfLiteTensor* output, int out_c, const char* op_name,
                                    el_conv_quant_prepare_fn prepare_quant) {
  int out_h = 0;
  int out_w = 0;
  const TfLitePaddingValues padding =
      el_compute_padding_hw(w->stride_h, w->stride_w, w->dilation_h, w->dilation_w, el_dim(input, 1),
                            el_dim(input, 2), el_dim(filter, 1), el_dim(filter, 2), w->padding, &out_h, &out_w);
  d->pad_h = padding.height;
  d->pad_w = padding.width;
  EL_ENSURE(ctx, out_h >= 0 && out_w >= 0);
  const int out_dims[4] = {el_dim(input, 0), out_h, out_w, out_c};
  EL_ENSURE_OK(ctx, el_resize(ctx, output, 4, out_dims));

  if (input->type == kTfLiteFloat32 && filter->type == kTfLiteFloat32) {
    EL_ENSURE_TYPES_EQ(ctx, output->type, kTfLiteFloat32);
    if (bias != NULL) EL_ENSURE_TYPES_EQ(ctx, bias->type, kTfLiteFloat32);
    return kTfLiteOk;
  }
  switch (input->type) {
    case kTfLiteFloat32: /* hybrid: int8 weights */
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteInt16:
      return prepare_quant(ctx, node, d);
    default:
      return el_unsupported_type(ctx, op_name, input->type);
  }
}

static void conv_f32(const TfLiteConvParams* params, const el_conv_data* d,
                     const TfLiteTensor* input, const TfLiteTensor* filter, const float* bias,
                     TfLiteTensor* output) {
  const int batches = el_dim(input, 0), in_h = el_dim(input, 1), in_w = el_dim(input, 2);
  const int in_c = el_dim(input, 3);
  const int out_c = el_dim(filter, 0), f_h = el_dim(filter, 1), f_w = el_dim(filter, 2);
  const int f_c = el_dim(filter, 3);
  const int out_h = el_dim(output, 1), out_w = el_dim(output, 2);
  const int per_group = out_c / d->groups;
  const int64_t filter_stride = (int64_t)f_h * f_w * f_c; /* floats per output channel */
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
        float* o = out + (((int64_t)b * out_h + oy) * out_w + ox) * out_c;
        /* Four output channels of a group at a time: independent accumulators, each summed in
         * the same order as a one-channel loop, so the blocking changes no result. */
        for (int oc = 0; oc < out_c;) {
          const int group = oc / per_group;
          const int ic0 = group * f_c;
          const int n = oc + 4 <= (group + 1) * per_group ? 4 : 1;
          float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
          for (int fy = 0; fy < f_h; ++fy) {
            const int iy = iy0 + fy * dh;
            if (iy < 0 || iy >= in_h) continue;
            for (int fx = 0; fx < f_w; ++fx) {
              const int ix = ix0 + fx * dw;
              if (ix < 0 || ix >= in_w) continue;
              const float* xp = in + (((int64_t)b * in_h + iy) * in_w + ix) * in_c + ic0;
              const float* w0 = w + (((int64_t)oc * f_h + fy) * f_w + fx) * f_c;
              if (n == 4) {
                const float* w1 = w0 + filter_stride;
                const float* w2 = w1 + filter_stride;
                const float* w3 = w2 + filter_stride;
                for (int ic = 0; ic < f_c; ++ic) {
                  const float x = xp[ic];
                  acc[0] += x * w0[ic];
                  acc[1] += x * w1[ic];
                  acc[2] += x * w2[ic];
                  acc[3] += x * w3[ic];
                }
              } else {
                for (int ic = 0; ic < f_c; ++ic) acc[0] += xp[ic] * w0[ic];
              }
            }
          }
          for (int k = 0; k < n; ++k) {
            o[oc + k] = el_clamp_f32(bias ? acc[k] + bias[oc + k] : acc[k], lo, hi);
          }
          oc += n;
        }
      }
    }
  }
}

static TfLiteStatus conv_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const el_conv_data* d = (const el_conv_data*)node->user_data;
  const TfLiteTensor* input = el_optional_input(ctx, node, 0);
  const TfLiteTensor* filter = el_optional_input(ctx, node, 1);
  const TfLiteTensor* bias = el_optional_input(ctx, node, 2);
  TfLiteTensor* output = &ctx->tensors[node->outputs->data[0]];
  if (input->type == kTfLiteFloat32 && filter->type == kTfLiteFloat32) {
    conv_f32((const TfLiteConvParams*)node->builtin_data, d, input, filter,
             bias ? bias->data.f : NULL, output);
    return kTfLiteOk;
  }
  switch (input->type) {
    case kTfLiteFloat32: /* hybrid: int8 weights */
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteInt16:
      return el_conv_invoke_quant(ctx, node, d);
    default:
      return el_unsupported_type(ctx, "CONV_2D", input->type);
  }
}

const TfLiteRegistration el_ref_conv_2d =
    EL_REGISTRATION(el_conv_init, el_kernel_free, conv_prepare, conv_invoke, EL_OP_CONV_2D);
