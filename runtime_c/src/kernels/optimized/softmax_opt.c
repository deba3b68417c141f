/* Optimized SOFTMAX.
 *
 * float32: per row the maximum, exp((x - max) * beta) with a vector polynomial and its sum, then
 * the row times 1 / sum (plain C: expf, the reference arithmetic exactly).
 *
 * int8/uint8 inputs (int8, uint8 or int16 outputs): the reference's fixed-point algorithm with
 * its per-element exponential taken from a table. An 8-bit input differs from its row maximum
 * by d in [0, 255], so prepare evaluates the reference's exp(-d) (and its Q12.19 share of the
 * sum) once per d with the reference's own helpers; invoke sums table entries, takes the
 * reference reciprocal, and scales each table entry exactly as the reference scales its
 * exponential. Same bits. int16 inputs run the reference kernel.
 *
 * The reference SOFTMAX keeps its state private, so this registration holds it apart and hands
 * it to the reference prepare/invoke in node->user_data for the duration of the call. */
#include <math.h>

#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/optimized/ew_kernels.h"
#include "kernels/optimized/opt_kernels.h"
#include "kernels/quant_util.h"

enum { kScaledDiffIntegerBits = 5, kAccumulationIntegerBits = 12, kDiffs = 256 };

typedef enum softmax_path { PATH_REF, PATH_F32, PATH_Q8 } softmax_path;

typedef struct opt_softmax_state {
  void* ref_state;
  softmax_path path;
  const el_ew_kernels* k;
  int64_t rows;
  int depth;
  float beta;
  /* PATH_Q8 */
  int in_unsigned;
  int out_type; /* kTfLiteInt8, kTfLiteUInt8 or kTfLiteInt16 */
  int out_bits;
  int32_t out_min, out_max;
  uint8_t kept[kDiffs];    /* the difference -d is at least the reference's diff_min */
  int32_t exp_q31[kDiffs]; /* exp(-d scaled), Q0.31 */
  int32_t share[kDiffs];   /* exp_q31 rounded to Q12.19: its part of the row sum */
} opt_softmax_state;

static void* opt_softmax_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(opt_softmax_state));
}

/* Runs a reference callback with the reference state in node->user_data. */
static TfLiteStatus with_ref_state(TfLiteContext* ctx, TfLiteNode* node,
                                   TfLiteStatus (*fn)(TfLiteContext*, TfLiteNode*)) {
  opt_softmax_state* s = (opt_softmax_state*)node->user_data;
  node->user_data = s->ref_state;
  const TfLiteStatus st = fn(ctx, node);
  s->ref_state = node->user_data;
  node->user_data = s;
  return st;
}

/* The tables of the 8-bit path, from the reference's scaling of beta and the input scale. */
static TfLiteStatus prepare_q8(TfLiteContext* ctx, opt_softmax_state* s, const TfLiteTensor* in,
                               const TfLiteTensor* out) {
  int32_t mult = 0;
  int lshift = 0;
  if (el_q_preprocess_softmax_scaling((double)s->beta, (double)in->params.scale,
                                      kScaledDiffIntegerBits, &mult, &lshift) != kTfLiteOk) {
    return kTfLiteOk; /* the reference prepare has refused it already */
  }
  const int diff_min = -el_q_calculate_input_radius(kScaledDiffIntegerBits, lshift, 31);
  for (int d = 0; d < kDiffs; ++d) {
    s->kept[d] = -d >= diff_min;
    s->exp_q31[d] = 0;
    s->share[d] = 0;
    if (!s->kept[d]) continue;
    const int32_t scaled = el_q_mbqm_greater_than_one(-d, mult, lshift);
    s->exp_q31[d] = el_fp_exp_on_negative_values(scaled, kScaledDiffIntegerBits);
    s->share[d] = el_q_rdbpot(s->exp_q31[d], kAccumulationIntegerBits);
  }
  s->in_unsigned = in->type == kTfLiteUInt8;
  s->out_type = out->type;
  s->out_bits = out->type == kTfLiteInt16 ? 16 : 8;
  EL_ENSURE_OK(ctx, el_q_type_range(out->type, &s->out_min, &s->out_max));
  s->path = PATH_Q8;
  return kTfLiteOk;
}

static TfLiteStatus opt_softmax_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  EL_ENSURE_OK(ctx, with_ref_state(ctx, node, el_ref_softmax.prepare));
  opt_softmax_state* s = (opt_softmax_state*)node->user_data;
  s->path = PATH_REF;
  const TfLiteTensor* in = el_optional_input(ctx, node, 0);
  const TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  s->beta = node->builtin_data ? ((const TfLiteSoftmaxParams*)node->builtin_data)->beta : 1.0f;
  s->depth = el_dim(in, el_ndims(in) - 1);
  if (s->depth <= 0 || el_is_dynamic(out)) return kTfLiteOk;
  s->rows = el_num_elements(in) / s->depth;
  if (s->rows == 0) return kTfLiteOk; /* an empty input may have no buffer at all */
  s->k = el_ew_kernels_for(el_context_isa(ctx));
  if (in->type == kTfLiteFloat32) {
    /* A beta that is not a positive number leaves the exponential's range: reference. */
    if (s->beta > 0.0f && isfinite(s->beta)) s->path = PATH_F32;
    return kTfLiteOk;
  }
  if ((in->type == kTfLiteInt8 || in->type == kTfLiteUInt8) &&
      (out->type == in->type || out->type == kTfLiteInt16) && node->builtin_data != NULL) {
    return prepare_q8(ctx, s, in, out);
  }
  return kTfLiteOk;
}

static void softmax_f32(const opt_softmax_state* s, const float* in, float* out) {
  for (int64_t r = 0; r < s->rows; ++r) {
    const float* x = in + r * s->depth;
    float* y = out + r * s->depth;
    const float m = s->k->f32_max(x, s->depth);
    const float sum = s->k->f32_exp_sum(x, y, s->depth, m, s->beta);
    s->k->f32_scale(y, s->depth, 1.0f / sum);
  }
}

/* The reference's output for difference d of a row whose reciprocal is (scale, exponent). */
static inline int32_t q8_out(const opt_softmax_state* s, int d, int32_t scale, int exponent) {
  if (!s->kept[d]) return s->out_min;
  const int32_t unsat = el_q_rdbpot(el_q_srdhm(scale, s->exp_q31[d]), exponent);
  return el_q_clamp(unsat + s->out_min, s->out_min, s->out_max);
}

static void softmax_q8(const opt_softmax_state* s, const uint8_t* in, void* out) {
  const int depth = s->depth;
  /* Inputs mapped to unsigned order: d = max - x in either signedness. */
  const uint8_t flip = s->in_unsigned ? 0 : 0x80;
  int32_t row_table[kDiffs];
  for (int64_t r = 0; r < s->rows; ++r) {
    const uint8_t* x = in + r * depth;
    int mx = 0;
    for (int c = 0; c < depth; ++c) {
      const int v = x[c] ^ flip;
      mx = v > mx ? v : mx;
    }
    uint32_t sum = 0;
    for (int c = 0; c < depth; ++c) sum += (uint32_t)s->share[mx - (x[c] ^ flip)];
    int bits_over_unit = 0;
    const int32_t scale = el_fp_get_reciprocal((int32_t)sum, kAccumulationIntegerBits, &bits_over_unit);
    const int exponent = bits_over_unit + 31 - s->out_bits;
    /* Long rows look up each difference's output once. */
    const int tabulate = depth > kDiffs;
    if (tabulate) {
      for (int d = 0; d <= mx; ++d) row_table[d] = q8_out(s, d, scale, exponent);
    }
    if (s->out_type == kTfLiteInt16) {
      int16_t* y = (int16_t*)out + r * depth;
      for (int c = 0; c < depth; ++c) {
        const int d = mx - (x[c] ^ flip);
        y[c] = (int16_t)(tabulate ? row_table[d] : q8_out(s, d, scale, exponent));
      }
    } else {
      uint8_t* y = (uint8_t*)out + r * depth;
      for (int c = 0; c < depth; ++c) {
        const int d = mx - (x[c] ^ flip);
        y[c] = (uint8_t)(tabulate ? row_table[d] : q8_out(s, d, scale, exponent));
      }
    }
  }
}

static TfLiteStatus opt_softmax_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const opt_softmax_state* s = (const opt_softmax_state*)node->user_data;
  if (s->path == PATH_REF) return with_ref_state(ctx, node, el_ref_softmax.invoke);
  const void* in = ctx->tensors[node->inputs->data[0]].data.raw_const;
  void* out = ctx->tensors[node->outputs->data[0]].data.raw;
  EL_ENSURE(ctx, in != NULL && out != NULL);
  if (s->path == PATH_F32) {
    softmax_f32(s, (const float*)in, (float*)out);
  } else {
    softmax_q8(s, (const uint8_t*)in, out);
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_opt_softmax = EL_REGISTRATION(
    opt_softmax_init, el_kernel_free, opt_softmax_prepare, opt_softmax_invoke, EL_OP_SOFTMAX);
