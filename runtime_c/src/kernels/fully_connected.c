/* FULLY_CONNECTED: out[b, u] = sum_i in[b, i] * W[u, i] + bias[u], the input flattened to rows
 * of W's depth; keep_num_dims keeps the input's leading dimensions. Float32 here; quantized and
 * hybrid types hook in at the marked switch cases (README.md). */
#include "kernels/fully_connected.h"

#include "kernels/fully_connected_quant.h"
#include "kernels/kernels.h"

static void* fc_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(el_fc_data));
}

static TfLiteStatus fc_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  el_fc_data* d = (el_fc_data*)node->user_data;
  const TfLiteFullyConnectedParams* params = (const TfLiteFullyConnectedParams*)node->builtin_data;
  EL_ENSURE_MSG(ctx, params != NULL, "FULLY_CONNECTED has no options.");
  const int num_inputs = el_num_inputs(node);
  EL_ENSURE(ctx, num_inputs == 2 || num_inputs == 3);
  EL_ENSURE(ctx, el_num_outputs(node) >= 1);
  const TfLiteTensor *input, *filter;
  TfLiteTensor* output;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &input));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 1, &filter));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &output));
  const TfLiteTensor* bias = el_optional_input(ctx, node, 2);

  EL_ENSURE_EQ(ctx, el_ndims(filter), 2);
  EL_ENSURE(ctx, el_ndims(input) >= 1);
  d->units = el_dim(filter, 0);
  d->input_depth = el_dim(filter, 1);
  EL_ENSURE(ctx, d->input_depth > 0);
  const int64_t in_elems = el_num_elements(input);
  EL_ENSURE_EQ(ctx, in_elems % d->input_depth, 0);
  d->batches = (int)(in_elems / d->input_depth);
  if (bias != NULL) {
    EL_ENSURE_EQ(ctx, el_num_elements(bias), d->units);
  }

  if (params->keep_num_dims) {
    const int n = el_ndims(input);
    EL_ENSURE(ctx, n >= 1 && n <= EL_MAX_DIMS);
    EL_ENSURE_EQ(ctx, el_dim(input, n - 1), d->input_depth);
    int dims[EL_MAX_DIMS];
    for (int i = 0; i < n; ++i) dims[i] = el_dim(input, i);
    dims[n - 1] = d->units;
    EL_ENSURE_OK(ctx, el_resize(ctx, output, n, dims));
  } else {
    const int dims[2] = {d->batches, d->units};
    EL_ENSURE_OK(ctx, el_resize(ctx, output, 2, dims));
  }

  if (input->type == kTfLiteFloat32 && filter->type == kTfLiteFloat32) {
    EL_ENSURE_TYPES_EQ(ctx, output->type, kTfLiteFloat32);
    if (bias != NULL) EL_ENSURE_TYPES_EQ(ctx, bias->type, kTfLiteFloat32);
    EL_ENSURE_EQ(ctx, params->weights_format, kTfLiteFullyConnectedWeightsFormatDefault);
    return kTfLiteOk;
  }
  switch (input->type) {
    case kTfLiteFloat32: /* hybrid: int8 weights */
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteInt16:
      return el_fc_prepare_quant(ctx, node, d);
    default:
      return el_unsupported_type(ctx, "FULLY_CONNECTED", input->type);
  }
}

static void fc_f32(const TfLiteFullyConnectedParams* params, const el_fc_data* d, const float* in,
                   const float* w, const float* bias, float* out) {
  float lo, hi;
  el_activation_range_f32(params->activation, &lo, &hi);
  const int depth = d->input_depth;
  for (int b = 0; b < d->batches; ++b) {
    const float* x = in + (int64_t)b * depth;
    float* o = out + (int64_t)b * d->units;
    /* Four units at a time with independent accumulators, each summed in input order. */
    int u = 0;
    for (; u + 4 <= d->units; u += 4) {
      const float* w0 = w + (int64_t)u * depth;
      const float* w1 = w0 + depth;
      const float* w2 = w1 + depth;
      const float* w3 = w2 + depth;
      float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
      for (int i = 0; i < depth; ++i) {
        a0 += x[i] * w0[i];
        a1 += x[i] * w1[i];
        a2 += x[i] * w2[i];
        a3 += x[i] * w3[i];
      }
      const float acc[4] = {a0, a1, a2, a3};
      for (int k = 0; k < 4; ++k) o[u + k] = el_clamp_f32(bias ? acc[k] + bias[u + k] : acc[k], lo, hi);
    }
    for (; u < d->units; ++u) {
      const float* wr = w + (int64_t)u * depth;
      float acc = 0.0f;
      for (int i = 0; i < depth; ++i) acc += x[i] * wr[i];
      o[u] = el_clamp_f32(bias ? acc + bias[u] : acc, lo, hi);
    }
  }
}

static TfLiteStatus fc_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const el_fc_data* d = (const el_fc_data*)node->user_data;
  const TfLiteTensor* input = el_optional_input(ctx, node, 0);
  const TfLiteTensor* filter = el_optional_input(ctx, node, 1);
  const TfLiteTensor* bias = el_optional_input(ctx, node, 2);
  TfLiteTensor* output = &ctx->tensors[node->outputs->data[0]];
  if (input->type == kTfLiteFloat32 && filter->type == kTfLiteFloat32) {
    fc_f32((const TfLiteFullyConnectedParams*)node->builtin_data, d, input->data.f, filter->data.f,
           bias ? bias->data.f : NULL, output->data.f);
    return kTfLiteOk;
  }
  switch (input->type) {
    case kTfLiteFloat32: /* hybrid: int8 weights */
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteInt16:
      return el_fc_invoke_quant(ctx, node, d);
    default:
      return el_unsupported_type(ctx, "FULLY_CONNECTED", input->type);
  }
}

const TfLiteRegistration el_ref_fully_connected =
    EL_REGISTRATION(fc_init, el_kernel_free, fc_prepare, fc_invoke, EL_OP_FULLY_CONNECTED);
