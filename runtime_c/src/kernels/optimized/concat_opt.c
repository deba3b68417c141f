/* Optimized CONCATENATION along any axis: the reference's block copies (`outer` times one block
 * per operand) from a plan made in prepare, a float32 fused activation applied to each block as
 * it lands instead of in a second pass, and uint8 operands whose quantization differs from the
 * output's rescaled through a 256-entry table per operand, built in prepare with the reference's
 * float expression for every byte value. Same bytes as the reference.
 *
 * The reference CONCATENATION keeps its state private, so this registration holds it apart and
 * hands it to the reference prepare/invoke in node->user_data for the duration of the call. */
#include <math.h>
#include <string.h>

#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/optimized/opt_kernels.h"
#include "kernels/quant_util.h"

enum { kMaxOperands = 64 };

typedef struct opt_concat_state {
  void* ref_state;
  int fast;
  int n_in;
  int64_t outer;
  int clamp; /* float32 with a fused activation */
  float lo, hi;
  int64_t block[kMaxOperands];   /* bytes per operand per outer step */
  uint8_t* table[kMaxOperands]; /* uint8 rescale of the operand, NULL: copy */
} opt_concat_state;

static void* opt_concat_init(TfLiteContext* ctx, const char* buf, size_t len) {
  opt_concat_state* s = (opt_concat_state*)el_kernel_alloc(sizeof(opt_concat_state));
  if (s == NULL) return NULL;
  s->ref_state = el_ref_concatenation.init ? el_ref_concatenation.init(ctx, buf, len) : NULL;
  return s;
}

static void opt_concat_free(TfLiteContext* ctx, void* buffer) {
  opt_concat_state* s = (opt_concat_state*)buffer;
  if (s == NULL) return;
  if (el_ref_concatenation.free) el_ref_concatenation.free(ctx, s->ref_state);
  el_kernel_free(ctx, s);
}

/* Runs a reference callback with the reference state in node->user_data. */
static TfLiteStatus with_ref_state(TfLiteContext* ctx, TfLiteNode* node,
                                   TfLiteStatus (*fn)(TfLiteContext*, TfLiteNode*)) {
  opt_concat_state* s = (opt_concat_state*)node->user_data;
  node->user_data = s->ref_state;
  const TfLiteStatus st = fn(ctx, node);
  s->ref_state = node->user_data;
  node->user_data = s;
  return st;
}

/* The reference's uint8 rescale of every byte value of `t` into the output's quantization. */
static uint8_t* rescale_table(TfLiteContext* ctx, const TfLiteTensor* t, const TfLiteTensor* out,
                              uint8_t* table) {
  /* A node prepared again keeps the table it had. */
  if (table == NULL) table = (uint8_t*)el_opt_persistent(ctx, 256);
  if (table == NULL) return NULL;
  const float inverse_output_scale = 1.0f / out->params.scale;
  const float scale = t->params.scale * inverse_output_scale;
  const float bias = (float)(-t->params.zero_point) * scale;
  for (int v = 0; v < 256; ++v) {
    const uint8_t src = (uint8_t)v;
    table[v] = (uint8_t)el_q_round_clamp((float)src * scale + bias, out->params.zero_point, 0, 255);
  }
  return table;
}

static TfLiteStatus opt_concat_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  EL_ENSURE_OK(ctx, with_ref_state(ctx, node, el_ref_concatenation.prepare));
  opt_concat_state* s = (opt_concat_state*)node->user_data;
  s->fast = 0;
  const TfLiteConcatenationParams* params = (const TfLiteConcatenationParams*)node->builtin_data;
  const TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  s->n_in = el_num_inputs(node);
  if (s->n_in > kMaxOperands || el_is_dynamic(out)) return kTfLiteOk;
  const int rank = el_ndims(out);
  const int axis = params->axis < 0 ? params->axis + rank : params->axis;
  s->outer = 1;
  for (int i = 0; i < axis; ++i) s->outer *= el_dim(out, i);
  int64_t inner = (int64_t)el_type_size(out->type);
  for (int i = axis + 1; i < rank; ++i) inner *= el_dim(out, i);
  for (int k = 0; k < s->n_in; ++k) {
    const TfLiteTensor* t = el_optional_input(ctx, node, k);
    s->block[k] = inner * el_dim(t, axis);
    uint8_t* had = s->table[k];
    s->table[k] = NULL;
    const int same = t->params.scale == out->params.scale &&
                     t->params.zero_point == out->params.zero_point;
    /* The reference prepare let differing quantization through for uint8 only. */
    if (out->type == kTfLiteUInt8 && !same) {
      s->table[k] = rescale_table(ctx, t, out, had);
      EL_ENSURE(ctx, s->table[k] != NULL);
    }
  }
  s->clamp = out->type == kTfLiteFloat32 && params->activation != kTfLiteActNone;
  if (s->clamp) el_activation_range_f32(params->activation, &s->lo, &s->hi);
  s->fast = 1;
  return kTfLiteOk;
}

static TfLiteStatus opt_concat_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const opt_concat_state* s = (const opt_concat_state*)node->user_data;
  if (!s->fast) return with_ref_state(ctx, node, el_ref_concatenation.invoke);
  const TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  if (out->bytes == 0) return kTfLiteOk; /* empty operands may have no buffer at all */
  const uint8_t* src[kMaxOperands];
  for (int k = 0; k < s->n_in; ++k) {
    src[k] = (const uint8_t*)ctx->tensors[node->inputs->data[k]].data.raw_const;
    EL_ENSURE(ctx, src[k] != NULL || s->block[k] == 0);
  }
  uint8_t* dst = (uint8_t*)out->data.raw;
  EL_ENSURE(ctx, dst != NULL);
  for (int64_t o = 0; o < s->outer; ++o) {
    for (int k = 0; k < s->n_in; ++k) {
      const int64_t block = s->block[k];
      if (block == 0) continue;
      const uint8_t* from = src[k] + o * block;
      if (s->table[k] != NULL) {
        for (int64_t j = 0; j < block; ++j) dst[j] = s->table[k][from[j]];
      } else if (s->clamp) {
        const float* f = (const float*)(const void*)from;
        float* y = (float*)(void*)dst;
        for (int64_t j = 0; j < block / (int64_t)sizeof(float); ++j) {
          y[j] = el_clamp_f32(f[j], s->lo, s->hi);
        }
      } else {
        memcpy(dst, from, (size_t)block);
      }
      dst += block;
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_opt_concatenation =
    EL_REGISTRATION(opt_concat_init, opt_concat_free, opt_concat_prepare, opt_concat_invoke,
                    EL_OP_CONCATENATION);
