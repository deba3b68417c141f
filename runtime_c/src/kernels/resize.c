/* RESIZE_BILINEAR (float32; quantized types hook in) and RESIZE_NEAREST_NEIGHBOR (any fixed-size
 * element type) on NHWC tensors, with align_corners and half_pixel_centers. The source
 * coordinates follow TFLite's reference kernels; prepare fixes the output size and scales (invoke
 * does, when the size is computed by the graph and the output therefore dynamic). */
#include <math.h>

#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/resize.h"
#include "kernels/resize_quant.h"


static void* resize_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(el_resize_data));
}

static float axis_scale(int in, int out, bool align_corners) {
  if (align_corners && out > 1) return (float)(in - 1) / (float)(out - 1);
  return (float)in / (float)out;
}

/* Reads the output size, fixes the scales and sizes the output. */
static TfLiteStatus resize_plan(TfLiteContext* ctx, TfLiteNode* node, el_resize_data* d) {
  const TfLiteTensor* in = el_optional_input(ctx, node, 0);
  const TfLiteTensor* size = el_optional_input(ctx, node, 1);
  const TfLiteResizeBilinearParams* p = (const TfLiteResizeBilinearParams*)node->builtin_data;
  const bool align = p ? p->align_corners : false;
  d->out_h = size->data.i32[0];
  d->out_w = size->data.i32[1];
  EL_ENSURE_MSG(ctx, d->out_h > 0 && d->out_w > 0, "Resize: the output size must be positive.");
  /* Every output pixel samples the input: an empty image has nothing to read. */
  EL_ENSURE_MSG(ctx, el_dim(in, 1) > 0 && el_dim(in, 2) > 0,
                "Resize: the input height and width must be positive.");
  d->y_scale = axis_scale(el_dim(in, 1), d->out_h, align);
  d->x_scale = axis_scale(el_dim(in, 2), d->out_w, align);
  const int dims[4] = {el_dim(in, 0), d->out_h, d->out_w, el_dim(in, 3)};
  return el_resize(ctx, &ctx->tensors[node->outputs->data[0]], 4, dims);
}

static TfLiteStatus resize_prepare(TfLiteContext* ctx, TfLiteNode* node, bool bilinear) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 2, 1));
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  el_resize_data* d = (el_resize_data*)node->user_data;
  const TfLiteTensor *in, *size;
  TfLiteTensor* out;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &in));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 1, &size));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &out));
  EL_ENSURE_EQ(ctx, el_ndims(in), 4);
  EL_ENSURE_EQ(ctx, el_ndims(size), 1);
  EL_ENSURE_TYPES_EQ(ctx, size->type, kTfLiteInt32);
  EL_ENSURE_EQ(ctx, el_dim(size, 0), 2);
  EL_ENSURE_TYPES_EQ(ctx, out->type, in->type);
  /* Both option structs are {align_corners, half_pixel_centers}. */
  const TfLiteResizeBilinearParams* p = (const TfLiteResizeBilinearParams*)node->builtin_data;
  EL_ENSURE_MSG(ctx, p == NULL || !(p->align_corners && p->half_pixel_centers),
                "If half_pixel_centers is True, align_corners must be False.");
  const bool plain = !bilinear || in->type == kTfLiteFloat32;
  if (!bilinear) {
    EL_ENSURE_MSG(ctx, el_type_size(in->type) > 0, "RESIZE_NEAREST_NEIGHBOR: unsupported type.");
  }
  if (plain && !el_is_constant_or_persistent(size)) {
    el_set_dynamic(out);
    return kTfLiteOk;
  }
  EL_ENSURE_OK(ctx, el_check_index_tensor(ctx, size, "The resize size"));
  EL_ENSURE_OK(ctx, resize_plan(ctx, node, d));
  if (plain) return kTfLiteOk;
  switch (in->type) {
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteInt16:
      return el_resize_bilinear_prepare_quant(ctx, node);
    default:
      return el_unsupported_type(ctx, "RESIZE_BILINEAR", in->type);
  }
}

void el_resize_source(int v, float scale, bool half, int in_size, float* pos, int* lo, int* hi) {
  *pos = half ? ((float)v + 0.5f) * scale - 0.5f : (float)v * scale;
  const int f = (int)floorf(*pos);
  const int c = (int)ceilf(*pos);
  *lo = f > 0 ? f : 0;
  *hi = c < in_size - 1 ? c : in_size - 1;
}

static TfLiteStatus bilinear_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  el_resize_data* d = (el_resize_data*)node->user_data;
  const TfLiteTensor* in = el_optional_input(ctx, node, 0);
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  if (el_is_dynamic(out) && in->type == kTfLiteFloat32) EL_ENSURE_OK(ctx, resize_plan(ctx, node, d));
  if (in->type != kTfLiteFloat32) {
    switch (in->type) {
      case kTfLiteUInt8:
      case kTfLiteInt8:
      case kTfLiteInt16:
        return el_resize_bilinear_invoke_quant(ctx, node);
      default:
        return el_unsupported_type(ctx, "RESIZE_BILINEAR", in->type);
    }
  }
  const bool half = ((const TfLiteResizeBilinearParams*)node->builtin_data) != NULL &&
                    ((const TfLiteResizeBilinearParams*)node->builtin_data)->half_pixel_centers;
  const int batches = el_dim(in, 0), in_h = el_dim(in, 1), in_w = el_dim(in, 2);
  const int depth = el_dim(in, 3);
  const float* x = in->data.f;
  float* y = out->data.f;
  for (int b = 0; b < batches; ++b) {
    for (int oy = 0; oy < d->out_h; ++oy) {
      float fy;
      int y0, y1;
      el_resize_source(oy, d->y_scale, half, in_h, &fy, &y0, &y1);
      const float dy = fy - (float)y0;
      for (int ox = 0; ox < d->out_w; ++ox) {
        float fx;
        int x0, x1;
        el_resize_source(ox, d->x_scale, half, in_w, &fx, &x0, &x1);
        const float dx = fx - (float)x0;
        const float* p00 = x + (((int64_t)b * in_h + y0) * in_w + x0) * depth;
        const float* p10 = x + (((int64_t)b * in_h + y1) * in_w + x0) * depth;
        const float* p01 = x + (((int64_t)b * in_h + y0) * in_w + x1) * depth;
        const float* p11 = x + (((int64_t)b * in_h + y1) * in_w + x1) * depth;
        float* o = y + (((int64_t)b * d->out_h + oy) * d->out_w + ox) * depth;
        for (int c = 0; c < depth; ++c) {
          o[c] = p00[c] * (1 - dy) * (1 - dx) + p10[c] * dy * (1 - dx) + p01[c] * (1 - dy) * dx +
                 p11[c] * dy * dx;
        }
      }
    }
  }
  return kTfLiteOk;
}

/* TFLite's nearest source index: rounds with align_corners, floors otherwise. */
static int nearest(int v, int in_size, float scale, bool align, bool half) {
  const float pos = ((float)v + (half ? 0.5f : 0.0f)) * scale;
  int i = align ? (int)roundf(pos) : (int)floorf(pos);
  if (i > in_size - 1) i = in_size - 1;
  if (half && i < 0) i = 0;
  return i;
}

#define NEAREST_COPY(T)                                                                     \
  do {                                                                                      \
    const T* src = (const T*)in->data.raw;                                                  \
    T* dst = (T*)out->data.raw;                                                             \
    for (int b = 0; b < batches; ++b) {                                                     \
      for (int oy = 0; oy < d->out_h; ++oy) {                                               \
        const int iy = nearest(oy, in_h, d->y_scale, align, half);                          \
        for (int ox = 0; ox < d->out_w; ++ox) {                                             \
          const int ix = nearest(ox, in_w, d->x_scale, align, half);                        \
          const T* s = src + (((int64_t)b * in_h + iy) * in_w + ix) * depth;                \
          for (int c = 0; c < depth; ++c) *dst++ = s[c];                                    \
        }                                                                                   \
      }                                                                                     \
    }                                                                                       \
  } while (0)

static TfLiteStatus nearest_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  el_resize_data* d = (el_resize_data*)node->user_data;
  const TfLiteTensor* in = el_optional_input(ctx, node, 0);
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  if (el_is_dynamic(out)) EL_ENSURE_OK(ctx, resize_plan(ctx, node, d));
  const TfLiteResizeNearestNeighborParams* p =
      (const TfLiteResizeNearestNeighborParams*)node->builtin_data;
  const bool align = p ? p->align_corners : false;
  const bool half = p ? p->half_pixel_centers : false;
  const int batches = el_dim(in, 0), in_h = el_dim(in, 1), in_w = el_dim(in, 2);
  const int depth = el_dim(in, 3);
  switch (el_type_size(in->type)) {
    case 1:
      NEAREST_COPY(uint8_t);
      return kTfLiteOk;
    case 2:
      NEAREST_COPY(uint16_t);
      return kTfLiteOk;
    case 4:
      NEAREST_COPY(uint32_t);
      return kTfLiteOk;
    case 8:
      NEAREST_COPY(uint64_t);
      return kTfLiteOk;
    default:
      return el_unsupported_type(ctx, "RESIZE_NEAREST_NEIGHBOR", in->type);
  }
}

static TfLiteStatus bilinear_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return resize_prepare(ctx, node, true);
}

static TfLiteStatus nearest_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return resize_prepare(ctx, node, false);
}

const TfLiteRegistration el_ref_resize_bilinear = EL_REGISTRATION(
    resize_init, el_kernel_free, bilinear_prepare, bilinear_invoke, EL_OP_RESIZE_BILINEAR);
const TfLiteRegistration el_ref_resize_nearest_neighbor = EL_REGISTRATION(
    resize_init, el_kernel_free, nearest_prepare, nearest_invoke, EL_OP_RESIZE_NEAREST_NEIGHBOR);
