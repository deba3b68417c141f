/* Optimized QUANTIZE of per-tensor activations.
 *
 * float32 to int8/uint8: the reference's division, roundf and clamp in vector form
 * (quant_kernels.h), the same bits.
 * int8/uint8 to int8/uint8: an 8-bit input has 256 values, so prepare evaluates the reference's
 * requantization of each (its multiplier, rounding and clamp) into a table; invoke looks the
 * bytes up, or, when the table is the identity or flips the top bit (the usual uint8 <-> int8
 * change of zero point by 128 at one scale), copies or XORs whole words.
 * Anything else (int16/int32, per-axis outputs) runs the reference kernel.
 *
 * The reference QUANTIZE keeps its state private, so this registration holds it apart and hands
 * it to the reference prepare/invoke in node->user_data for the duration of the call. */
#include <string.h>

#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/optimized/opt_kernels.h"
#include "kernels/optimized/quant_kernels.h"
#include "kernels/quant_ops.h"
#include "kernels/quant_util.h"

typedef enum quantize_path { PATH_REF, PATH_F32, PATH_TABLE, PATH_XOR, PATH_COPY } quantize_path;

typedef struct opt_quantize_state {
  void* ref_state;
  quantize_path path;
  const el_quant_kernels* k;
  int64_t n;
  int is_unsigned;
  float scale, zp, lo, hi;
  uint8_t table[256]; /* PATH_TABLE: output byte of each input byte */
} opt_quantize_state;

static void* opt_quantize_init(TfLiteContext* ctx, const char* buf, size_t len) {
  opt_quantize_state* s = (opt_quantize_state*)el_kernel_alloc(sizeof(opt_quantize_state));
  if (s == NULL) return NULL;
  s->ref_state = el_ref_quantize.init(ctx, buf, len);
  if (s->ref_state == NULL) {
    el_kernel_free(ctx, s);
    return NULL;
  }
  return s;
}

static void opt_quantize_free(TfLiteContext* ctx, void* buffer) {
  opt_quantize_state* s = (opt_quantize_state*)buffer;
  if (s == NULL) return;
  el_ref_quantize.free(ctx, s->ref_state);
  el_kernel_free(ctx, s);
}

/* Runs a reference callback with the reference state in node->user_data. */
static TfLiteStatus with_ref_state(TfLiteContext* ctx, TfLiteNode* node,
                                   TfLiteStatus (*fn)(TfLiteContext*, TfLiteNode*)) {
  opt_quantize_state* s = (opt_quantize_state*)node->user_data;
  node->user_data = s->ref_state;
  const TfLiteStatus st = fn(ctx, node);
  s->ref_state = node->user_data;
  node->user_data = s;
  return st;
}

static int is_byte_type(TfLiteType t) { return t == kTfLiteInt8 || t == kTfLiteUInt8; }

/* The reference's requantization of every 8-bit input value, and the cheapest way to apply it. */
static void prepare_table(opt_quantize_state* s, const TfLiteTensor* in, const TfLiteTensor* out) {
  int32_t mult = 0;
  int shift = 0;
  el_q_quantize_multiplier((double)in->params.scale / (double)out->params.scale, &mult, &shift);
  int32_t lo = 0, hi = 0;
  (void)el_q_type_range(out->type, &lo, &hi);
  const int in_unsigned = in->type == kTfLiteUInt8;
  int identity = 1, flips = 1;
  for (int b = 0; b < 256; ++b) {
    const int32_t x = in_unsigned ? b : (int32_t)(int8_t)b;
    const int32_t d = el_q_sub_wrap(x, in->params.zero_point);
    const int32_t v = el_q_add_wrap(el_q_mbqm(d, mult, shift), out->params.zero_point);
    s->table[b] = (uint8_t)el_q_clamp(v, lo, hi);
    identity &= s->table[b] == b;
    flips &= s->table[b] == (b ^ 0x80);
  }
  s->path = identity ? PATH_COPY : (flips ? PATH_XOR : PATH_TABLE);
}

static TfLiteStatus opt_quantize_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  EL_ENSURE_OK(ctx, with_ref_state(ctx, node, el_ref_quantize.prepare));
  opt_quantize_state* s = (opt_quantize_state*)node->user_data;
  s->path = PATH_REF;
  const TfLiteTensor* in = el_optional_input(ctx, node, 0);
  const TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  if (in == NULL || el_is_dynamic(out) || !is_byte_type(out->type) || el_q_is_per_channel(out) ||
      el_q_is_per_channel(in)) {
    return kTfLiteOk;
  }
  s->n = el_num_elements(in);
  s->is_unsigned = out->type == kTfLiteUInt8;
  if (in->type == kTfLiteFloat32) {
    int32_t lo = 0, hi = 0;
    EL_ENSURE_OK(ctx, el_q_type_range(out->type, &lo, &hi));
    s->scale = out->params.scale;
    s->zp = (float)out->params.zero_point;
    s->lo = (float)lo;
    s->hi = (float)hi;
    s->k = el_quant_kernels_for(el_context_isa(ctx));
    s->path = PATH_F32;
  } else if (is_byte_type(in->type)) {
    prepare_table(s, in, out);
  }
  return kTfLiteOk;
}

static void apply_bytes(const opt_quantize_state* s, const uint8_t* in, uint8_t* out) {
  const int64_t n = s->n;
  if (s->path == PATH_COPY) {
    if (in != out) memmove(out, in, (size_t)n);
    return;
  }
  int64_t i = 0;
  if (s->path == PATH_XOR) {
    const uint64_t flip = 0x8080808080808080ull;
    for (; i + 8 <= n; i += 8) {
      uint64_t w;
      memcpy(&w, in + i, 8);
      w ^= flip;
      memcpy(out + i, &w, 8);
    }
    for (; i < n; ++i) out[i] = (uint8_t)(in[i] ^ 0x80);
    return;
  }
  for (; i < n; ++i) out[i] = s->table[in[i]];
}

static TfLiteStatus opt_quantize_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const opt_quantize_state* s = (const opt_quantize_state*)node->user_data;
  if (s->path == PATH_REF) return with_ref_state(ctx, node, el_ref_quantize.invoke);
  const void* in = ctx->tensors[node->inputs->data[0]].data.raw_const;
  void* out = ctx->tensors[node->outputs->data[0]].data.raw;
  if (s->n == 0) return kTfLiteOk;
  EL_ENSURE(ctx, in != NULL && out != NULL);
  if (s->path == PATH_F32) {
    s->k->f32_to_q8((const float*)in, out, s->n, s->is_unsigned, s->scale, s->zp, s->lo, s->hi);
  } else {
    apply_bytes(s, (const uint8_t*)in, (uint8_t*)out);
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_opt_quantize =
    EL_REGISTRATION(opt_quantize_init, opt_quantize_free, opt_quantize_prepare,
                    opt_quantize_invoke, EL_OP_QUANTIZE);
