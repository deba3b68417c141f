/* Optimized MEAN.
 *
 * int8/uint8 over the spatial axes of an NHWC tensor (the global average pool of classifier
 * heads): per batch, the channels summed over all pixels (in 16-bit lanes flushed to int32
 * every 256 pixels), then the reference requantization (input scale over output scale with
 * 1/count folded into the multiplier, as the reference kernel folds it).
 *
 * float32 over any one contiguous block of axes (after dropping extents of 1): the input is
 * [outer, reduced, inner] and every output row of `inner` values adds the reduced rows one
 * after the other, starting from 0, then divides by the count: the reference's additions in the
 * reference's order, so the same bits.
 *
 * Other reductions run the reference kernel.
 *
 * The reference MEAN keeps its state private, so this registration holds that state apart and
 * hands it to the reference prepare/invoke in node->user_data for the duration of the call. */
#include <string.h>

#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/optimized/ew_kernels.h"
#include "kernels/optimized/opt_kernels.h"
#include "kernels/optimized/requant.h"
#include "kernels/quant_util.h"

enum { kMaxChannels = 1 << 16 };

typedef struct opt_mean_state {
  void* ref_state;
  int fast;
  int is_float;
  const el_ew_kernels* k;
  int64_t outer, reduced, inner; /* float: the input as [outer, reduced, inner] */
  float count;                   /* float: input elements per output element */
  int is_unsigned;
  int batches, pixels, channels;
  int32_t mult, lshift, rshift;
  int32_t in_zp, out_zp, lo, hi;
  el_opt_scratch scratch; /* int32 sums of one batch */
} opt_mean_state;

static void* opt_mean_init(TfLiteContext* ctx, const char* buf, size_t len) {
  opt_mean_state* s = (opt_mean_state*)el_kernel_alloc(sizeof(opt_mean_state));
  if (s == NULL) return NULL;
  s->ref_state = el_ref_mean.init ? el_ref_mean.init(ctx, buf, len) : NULL;
  return s;
}

static void opt_mean_free(TfLiteContext* ctx, void* buffer) {
  opt_mean_state* s = (opt_mean_state*)buffer;
  if (s == NULL) return;
  if (el_ref_mean.free) el_ref_mean.free(ctx, s->ref_state);
  el_kernel_free(ctx, s);
}

/* Runs a reference callback with the reference state in node->user_data. */
static TfLiteStatus with_ref_state(TfLiteContext* ctx, TfLiteNode* node,
                                   TfLiteStatus (*fn)(TfLiteContext*, TfLiteNode*)) {
  opt_mean_state* s = (opt_mean_state*)node->user_data;
  node->user_data = s->ref_state;
  const TfLiteStatus st = fn(ctx, node);
  s->ref_state = node->user_data;
  node->user_data = s;
  return st;
}

/* True when the constant axes are exactly {1, 2} of a rank-4 input. */
static int spatial_axes(const TfLiteTensor* input, const TfLiteTensor* axes) {
  if (el_ndims(input) != 4 || !el_is_constant_or_persistent(axes)) return 0;
  int seen = 0;
  for (int64_t i = 0; i < el_num_elements(axes); ++i) {
    int64_t a = el_read_index(axes, i);
    if (a < 0) a += 4;
    if (a != 1 && a != 2) return 0;
    seen |= 1 << a;
  }
  return seen == 6;
}

/* The float plan: true when the reduced axes of extent > 1 are one contiguous block. */
static int float_plan(const TfLiteTensor* input, const TfLiteTensor* axes, opt_mean_state* s) {
  const int rank = el_ndims(input);
  if (!el_is_constant_or_persistent(axes) || rank > 8) return 0;
  int reduced[8] = {0};
  for (int64_t i = 0; i < el_num_elements(axes); ++i) {
    int64_t a = el_read_index(axes, i);
    if (a < 0) a += rank;
    if (a < 0 || a >= rank) return 0;
    reduced[a] = 1;
  }
  int64_t count = 1, sizes[3] = {1, 1, 1};
  int part = 0; /* 0: before the block, 1: inside, 2: after */
  for (int d = 0; d < rank; ++d) {
    const int64_t extent = input->dims->data[d];
    if (extent <= 0) return 0;
    if (reduced[d]) count *= extent;
    if (extent == 1) continue;
    if (reduced[d]) {
      if (part == 2) return 0;
      part = 1;
    } else if (part == 1) {
      part = 2;
    }
    sizes[part] *= extent;
  }
  s->outer = sizes[0];
  s->reduced = sizes[1];
  s->inner = sizes[2];
  s->count = (float)count;
  return 1;
}

static TfLiteStatus opt_mean_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  EL_ENSURE_OK(ctx, with_ref_state(ctx, node, el_ref_mean.prepare));
  opt_mean_state* s = (opt_mean_state*)node->user_data;
  s->fast = 0;
  const TfLiteTensor* input = el_optional_input(ctx, node, 0);
  const TfLiteTensor* axes = el_optional_input(ctx, node, 1);
  const TfLiteTensor* output = &ctx->tensors[node->outputs->data[0]];
  s->k = el_ew_kernels_for(el_context_isa(ctx));
  s->is_float = input->type == kTfLiteFloat32;
  if (s->is_float) {
    s->fast = output->type == kTfLiteFloat32 && !el_is_dynamic(output) && float_plan(input, axes, s);
    return kTfLiteOk;
  }
  if ((input->type != kTfLiteInt8 && input->type != kTfLiteUInt8) || output->type != input->type ||
      !spatial_axes(input, axes) || el_is_dynamic(output)) {
    return kTfLiteOk;
  }
  s->batches = input->dims->data[0];
  s->pixels = input->dims->data[1] * input->dims->data[2];
  s->channels = input->dims->data[3];
  if (s->batches <= 0 || s->pixels <= 0 || s->channels <= 0 || s->channels > kMaxChannels ||
      el_context_small_scratch(ctx)) {
    return kTfLiteOk;
  }
  /* The reference multiplier: in_scale / out_scale, then 1/count folded in. */
  const double real = (double)input->params.scale / (double)output->params.scale;
  int32_t mult = 0;
  int shift = 0;
  el_q_quantize_multiplier(real, &mult, &shift);
  const int64_t count = s->pixels;
  int fold = 63 - __builtin_clzll((unsigned long long)count);
  if (fold > 32) fold = 32;
  if (fold > 31 + shift) fold = 31 + shift;
  mult = (int32_t)(((int64_t)mult << fold) / count);
  shift -= fold;
  s->mult = mult;
  el_split_shift(shift, &s->lshift, &s->rshift);
  s->is_unsigned = input->type == kTfLiteUInt8;
  s->in_zp = input->params.zero_point;
  s->out_zp = output->params.zero_point;
  EL_ENSURE_OK(ctx, el_q_type_range(output->type, &s->lo, &s->hi));
  EL_ENSURE_OK(ctx, el_opt_request_scratch(ctx, (size_t)s->channels * sizeof(int32_t), 1,
                                           &s->scratch));
  s->fast = 1;
  return kTfLiteOk;
}

static TfLiteStatus mean_f32(TfLiteContext* ctx, TfLiteNode* node, const opt_mean_state* s) {
  const float* in = ctx->tensors[node->inputs->data[0]].data.f;
  float* out = ctx->tensors[node->outputs->data[0]].data.f;
  EL_ENSURE(ctx, in != NULL && out != NULL);
  const int64_t inner = s->inner;
  for (int64_t o = 0; o < s->outer; ++o) {
    float* y = out + o * inner;
    s->k->f32_column_sums(y, in + o * s->reduced * inner, s->reduced, inner);
    for (int64_t i = 0; i < inner; ++i) y[i] /= s->count;
  }
  return kTfLiteOk;
}

static TfLiteStatus opt_mean_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const opt_mean_state* s = (const opt_mean_state*)node->user_data;
  if (!s->fast) return with_ref_state(ctx, node, el_ref_mean.invoke);
  if (s->is_float) return mean_f32(ctx, node, s);
  const uint8_t* in = (const uint8_t*)ctx->tensors[node->inputs->data[0]].data.raw_const;
  int8_t* out = (int8_t*)ctx->tensors[node->outputs->data[0]].data.raw;
  int32_t* sums = (int32_t*)el_opt_scratch_slice(ctx, &s->scratch, 0);
  EL_ENSURE(ctx, in != NULL && out != NULL && sums != NULL);
  const int c = s->channels;
  const int32_t bias = el_wrap_fold(0, -s->in_zp, s->pixels);
  for (int b = 0; b < s->batches; ++b) {
    const uint8_t* x = in + (size_t)b * (size_t)s->pixels * (size_t)c;
    for (int k = 0; k < c; ++k) sums[k] = bias;
    s->k->q8_column_sums(sums, x, s->is_unsigned, s->pixels, c);
    s->k->requant_row(sums, out + (size_t)b * (size_t)c, c, s->mult, s->lshift, s->rshift,
                      s->out_zp, s->lo, s->hi);
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_opt_mean =
    EL_REGISTRATION(opt_mean_init, opt_mean_free, opt_mean_prepare, opt_mean_invoke, EL_OP_MEAN);
