/* Optimized DEQUANTIZE.
 *
 * A constant input (float16 or int8 weights stored compactly) is widened once, in prepare, into
 * persistent memory, and the output becomes a persistent read-only tensor, as TFLite does.
 * Invoke then has nothing to do, and the consumers see constant float weights they can pack in
 * their own prepare.
 * An int8/uint8 activation with one scale is widened in vector form (quant_kernels.h), the same
 * bits as the reference. Other inputs run the reference kernel. */
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/optimized/opt_kernels.h"
#include "kernels/optimized/quant_kernels.h"
#include "kernels/quant_util.h"

typedef enum dequant_path { PATH_REF, PATH_FOLDED, PATH_Q8 } dequant_path;

typedef struct opt_dequant_state {
  dequant_path path;
  const el_quant_kernels* k;
  int64_t n;
  int is_unsigned;
  float scale;
  int32_t zp;
} opt_dequant_state;

static void* opt_dequantize_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(opt_dequant_state));
}

static TfLiteStatus fold_constant(TfLiteContext* ctx, TfLiteNode* node, opt_dequant_state* s,
                                  TfLiteTensor* out) {
  /* Prepared again (after a resize elsewhere): the buffer from last time still fits. */
  const int reuse = out->allocation_type == kTfLitePersistentRo && out->data.raw != NULL;
  if (!reuse) {
    if (out->allocation_type != kTfLiteArenaRw) return kTfLiteOk;
    void* buffer = el_opt_persistent(ctx, out->bytes);
    EL_ENSURE(ctx, buffer != NULL);
    out->data.raw = (char*)buffer;
  }
  EL_ENSURE_OK(ctx, el_ref_dequantize.invoke(ctx, node));
  out->allocation_type = kTfLitePersistentRo;
  s->path = PATH_FOLDED;
  return kTfLiteOk;
}

static TfLiteStatus opt_dequantize_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  EL_ENSURE_OK(ctx, el_ref_dequantize.prepare(ctx, node));
  opt_dequant_state* s = (opt_dequant_state*)node->user_data;
  s->path = PATH_REF;
  const TfLiteTensor* in = el_optional_input(ctx, node, 0);
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  if (in == NULL || out->bytes == 0) return kTfLiteOk;
  if (el_is_constant_or_persistent(in) && in->data.raw_const != NULL) {
    return fold_constant(ctx, node, s, out);
  }
  /* |x - zp| < 2^17 keeps the float product equal to the reference's double one. */
  if ((in->type == kTfLiteInt8 || in->type == kTfLiteUInt8) && !el_q_is_per_channel(in) &&
      !el_is_dynamic(out) && in->params.zero_point > -(1 << 16) &&
      in->params.zero_point < (1 << 16)) {
    s->k = el_quant_kernels_for(el_context_isa(ctx));
    s->n = el_num_elements(in);
    s->is_unsigned = in->type == kTfLiteUInt8;
    s->scale = in->params.scale;
    s->zp = in->params.zero_point;
    s->path = PATH_Q8;
  }
  return kTfLiteOk;
}

static TfLiteStatus opt_dequantize_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const opt_dequant_state* s = (const opt_dequant_state*)node->user_data;
  if (s->path == PATH_FOLDED) return kTfLiteOk;
  if (s->path == PATH_REF) return el_ref_dequantize.invoke(ctx, node);
  const void* in = ctx->tensors[node->inputs->data[0]].data.raw_const;
  float* out = ctx->tensors[node->outputs->data[0]].data.f;
  EL_ENSURE(ctx, in != NULL && out != NULL);
  s->k->q8_to_f32(in, s->is_unsigned, out, s->n, s->scale, s->zp);
  return kTfLiteOk;
}

const TfLiteRegistration el_opt_dequantize =
    EL_REGISTRATION(opt_dequantize_init, el_kernel_free, opt_dequantize_prepare,
                    opt_dequantize_invoke, EL_OP_DEQUANTIZE);
