/* Optimized float32 RESIZE_BILINEAR with a constant output size: the source columns and weights
 * of every output column are found once, in prepare, instead of per output pixel, and the
 * channel loop runs on vectors (AVX2 where the CPU has it). Each output is the reference's
 * expression evaluated in the reference's order (no fused multiply-add: the build is ISO C,
 * which contracts nothing), so the bits are the reference ones. Other types, and sizes the graph
 * computes, run the reference kernel. */
#include <stddef.h>

#include "cpu_isa.h"
#include "kernels/coverage_ops.h"
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/optimized/opt_kernels.h"
#include "kernels/resize.h"

typedef void (*blend_fn)(const float* r0, const float* r1, const int* x0, const int* x1, const float* dxs,
                         int ow, int depth, float dy, float* o);

typedef struct opt_resize_state {
  el_resize_data ref; /* first: the reference kernel runs on the same user_data */
  int fast;
  int* x0; /* per output column: the two source columns and the weight of the second */
  int* x1;
  float* dx;
  int cols_cap;
  blend_fn blend;
} opt_resize_state;

/* One output row from source rows r0 (above) and r1 (below): the reference's per-channel
 * expression, written the same way. */
#define BLEND_ROW_BODY                                                                                   \
  for (int ox = 0; ox < ow; ++ox) {                                                                      \
    const float* p00 = r0 + (size_t)x0[ox] * depth;                                                      \
    const float* p01 = r0 + (size_t)x1[ox] * depth;                                                      \
    const float* p10 = r1 + (size_t)x0[ox] * depth;                                                      \
    const float* p11 = r1 + (size_t)x1[ox] * depth;                                                      \
    const float dx = dxs[ox];                                                                            \
    float* q = o + (size_t)ox * depth;                                                                   \
    for (int c = 0; c < depth; ++c) {                                                                    \
      q[c] = p00[c] * (1 - dy) * (1 - dx) + p10[c] * dy * (1 - dx) + p01[c] * (1 - dy) * dx + p11[c] * dy * dx; \
    }                                                                                                    \
  }

static void blend_c(const float* r0, const float* r1, const int* x0, const int* x1, const float* dxs, int ow,
                    int depth, float dy, float* o) {
  BLEND_ROW_BODY
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static void blend_avx2(const float* r0, const float* r1, const int* x0,
                                                       const int* x1, const float* dxs, int ow, int depth,
                                                       float dy, float* o) {
  BLEND_ROW_BODY
}
#endif

static void* opt_resize_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(opt_resize_state));
}

static TfLiteStatus opt_resize_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_ref_resize_bilinear.prepare(ctx, node));
  opt_resize_state* s = (opt_resize_state*)node->user_data;
  s->fast = 0;
  const TfLiteTensor* in = el_optional_input(ctx, node, 0);
  const TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  if (in->type != kTfLiteFloat32 || el_is_dynamic(out)) return kTfLiteOk;
  const TfLiteResizeBilinearParams* p = (const TfLiteResizeBilinearParams*)node->builtin_data;
  const bool half = p != NULL && p->half_pixel_centers;
  const int w = s->ref.out_w;
  if (s->cols_cap < w) {
    s->x0 = (int*)el_opt_persistent(ctx, (size_t)w * sizeof(int));
    s->x1 = (int*)el_opt_persistent(ctx, (size_t)w * sizeof(int));
    s->dx = (float*)el_opt_persistent(ctx, (size_t)w * sizeof(float));
    EL_ENSURE(ctx, s->x0 != NULL && s->x1 != NULL && s->dx != NULL);
    s->cols_cap = w;
  }
  for (int ox = 0; ox < w; ++ox) {
    float fx;
    el_resize_source(ox, s->ref.x_scale, half, el_dim(in, 2), &fx, &s->x0[ox], &s->x1[ox]);
    s->dx[ox] = fx - (float)s->x0[ox];
  }
  s->blend = blend_c;
#if defined(__x86_64__)
  if (el_isa_at_least(el_context_isa(ctx), EL_ISA_AVX2)) s->blend = blend_avx2;
#endif
  s->fast = 1;
  return kTfLiteOk;
}

static TfLiteStatus opt_resize_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const opt_resize_state* s = (const opt_resize_state*)node->user_data;
  if (!s->fast) return el_ref_resize_bilinear.invoke(ctx, node);
  const TfLiteTensor* in = &ctx->tensors[node->inputs->data[0]];
  float* y = ctx->tensors[node->outputs->data[0]].data.f;
  EL_ENSURE(ctx, in->data.f != NULL && y != NULL);
  const TfLiteResizeBilinearParams* p = (const TfLiteResizeBilinearParams*)node->builtin_data;
  const bool half = p != NULL && p->half_pixel_centers;
  const int batches = el_dim(in, 0), in_h = el_dim(in, 1), in_w = el_dim(in, 2), depth = el_dim(in, 3);
  const int oh = s->ref.out_h, ow = s->ref.out_w;
  const size_t row = (size_t)in_w * depth;
  for (int b = 0; b < batches; ++b) {
    const float* img = in->data.f + (size_t)b * in_h * row;
    for (int oy = 0; oy < oh; ++oy) {
      float fy;
      int y0, y1;
      el_resize_source(oy, s->ref.y_scale, half, in_h, &fy, &y0, &y1);
      const float dy = fy - (float)y0;
      const float* r0 = img + (size_t)y0 * row;
      const float* r1 = img + (size_t)y1 * row;
      s->blend(r0, r1, s->x0, s->x1, s->dx, ow, depth, dy, y + ((size_t)b * oh + oy) * (size_t)ow * depth);
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_opt_resize_bilinear = EL_REGISTRATION(
    opt_resize_init, el_kernel_free, opt_resize_prepare, opt_resize_invoke, EL_OP_RESIZE_BILINEAR);
