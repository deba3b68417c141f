/* AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D over NHWC windows; padded taps are skipped (the
 * average divides by the number of taps inside the image). Float32 here; quantized types hook
 * in at the marked switch cases (README.md). */
#include "kernels/pooling.h"

#include <math.h>

#include "kernels/kernels.h"
#include "kernels/pooling_quant.h"

typedef enum pool_kind { POOL_AVG, POOL_MAX, POOL_L2 } pool_kind;

static const char* const kNames[] = {"AVERAGE_POOL_2D", "MAX_POOL_2D", "L2_POOL_2D"};

static void* pool_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(el_pool_data));
}

static TfLiteStatus pool_prepare(TfLiteContext* ctx, TfLiteNode* node, pool_kind kind) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 1, 1));
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  el_pool_data* d = (el_pool_data*)node->user_data;
  const TfLitePoolParams* params = (const TfLitePoolParams*)node->builtin_data;
  EL_ENSURE_MSG(ctx, params != NULL, "Pooling op has no options.");
  const TfLiteTensor* input;
  TfLiteTensor* output;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &input));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &output));
  EL_ENSURE_EQ(ctx, el_ndims(input), 4);
  EL_ENSURE_TYPES_EQ(ctx, output->type, input->type);
  EL_ENSURE(ctx, params->stride_width > 0 && params->stride_height > 0);
  EL_ENSURE(ctx, params->filter_width > 0 && params->filter_height > 0);

  int out_h = 0;
  int out_w = 0;
  const TfLitePaddingValues padding =
      el_compute_padding_hw(params->stride_height, params->stride_width, 1, 1, el_dim(input, 1), el_dim(input, 2),
                            params->filter_height, params->filter_width, params->padding, &out_h, &out_w);
  d->pad_h = padding.height;
  d->pad_w = padding.width;
  EL_ENSURE(ctx, out_h >= 0 && out_w >= 0);
  const int dims[4] = {el_dim(input, 0), out_h, out_w, el_dim(input, 3)};
  EL_ENSURE_OK(ctx, el_resize(ctx, output, 4, dims));
  switch (input->type) {
    case kTfLiteFloat32:
      return kTfLiteOk;
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteInt16:
      return el_pool_prepare_quant(ctx, node, d, kNames[kind]);
    default:
      return el_unsupported_type(ctx, kNames[kind], input->type);
  }
}

static void pool_f32(pool_kind kind, const TfLitePoolParams* params, const el_pool_data* d,
                     const TfLiteTensor* input, TfLiteTensor* output) {
  const int batches = el_dim(input, 0), in_h = el_dim(input, 1), in_w = el_dim(input, 2);
  const int depth = el_dim(input, 3);
  const int out_h = el_dim(output, 1), out_w = el_dim(output, 2);
  float lo, hi;
  el_activation_range_f32(params->activation, &lo, &hi);
  const float* in = input->data.f;
  float* out = output->data.f;
  for (int b = 0; b < batches; ++b) {
    for (int oy = 0; oy < out_h; ++oy) {
      const int iy0 = oy * params->stride_height - d->pad_h;
      const int fy0 = iy0 < 0 ? -iy0 : 0;
      const int fy1 = in_h - iy0 < params->filter_height ? in_h - iy0 : params->filter_height;
      for (int ox = 0; ox < out_w; ++ox) {
        const int ix0 = ox * params->stride_width - d->pad_w;
        const int fx0 = ix0 < 0 ? -ix0 : 0;
        const int fx1 = in_w - ix0 < params->filter_width ? in_w - ix0 : params->filter_width;
        float* o = out + (((int64_t)b * out_h + oy) * out_w + ox) * depth;
        for (int c = 0; c < depth; ++c) {
          float acc = kind == POOL_MAX ? -INFINITY : 0.0f;
          int count = 0;
          for (int fy = fy0; fy < fy1; ++fy) {
            for (int fx = fx0; fx < fx1; ++fx) {
              const float v = in[(((int64_t)b * in_h + iy0 + fy) * in_w + ix0 + fx) * depth + c];
              if (kind == POOL_MAX) acc = v > acc ? v : acc;
              else if (kind == POOL_AVG) acc += v;
              else acc += v * v;
              ++count;
            }
          }
          if (kind == POOL_AVG) acc = count ? acc / (float)count : 0.0f;
          if (kind == POOL_L2) acc = count ? sqrtf(acc / (float)count) : 0.0f;
          o[c] = el_clamp_f32(acc, lo, hi);
        }
      }
    }
  }
}

static TfLiteStatus pool_invoke(TfLiteContext* ctx, TfLiteNode* node, pool_kind kind) {
  const el_pool_data* d = (const el_pool_data*)node->user_data;
  const TfLiteTensor* input = el_optional_input(ctx, node, 0);
  TfLiteTensor* output = &ctx->tensors[node->outputs->data[0]];
  switch (input->type) {
    case kTfLiteFloat32:
      pool_f32(kind, (const TfLitePoolParams*)node->builtin_data, d, input, output);
      return kTfLiteOk;
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteInt16:
      return el_pool_invoke_quant(ctx, node, d, kind == POOL_AVG);
    default:
      return el_unsupported_type(ctx, kNames[kind], input->type);
  }
}

#define DEFINE_POOL(name, KIND, CODE) EL_FAMILY_REGISTRATION(name, pool, KIND, pool_init, el_kernel_free, CODE)

DEFINE_POOL(average_pool_2d, POOL_AVG, EL_OP_AVERAGE_POOL_2D);
DEFINE_POOL(max_pool_2d, POOL_MAX, EL_OP_MAX_POOL_2D);
DEFINE_POOL(l2_pool_2d, POOL_L2, EL_OP_L2_POOL_2D);
