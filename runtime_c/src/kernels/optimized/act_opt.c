/* Optimized LOGISTIC and TANH: float32 tensors run the ISA level's body of ew_kernels.h (a
 * polynomial exponential on vectors instead of libm's expf / tanhf per element: LSTMs built
 * from these ops spent a third of their time there); other types, and the reference prepare
 * with all its checks, stay the reference kernel's. */
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/optimized/ew_kernels.h"
#include "kernels/optimized/opt_kernels.h"

static TfLiteStatus act_invoke(TfLiteContext* ctx, TfLiteNode* node, const TfLiteRegistration* ref,
                               int tanh) {
  const TfLiteTensor* in = el_optional_input(ctx, node, 0);
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  if (in == NULL || in->type != kTfLiteFloat32 || out->type != kTfLiteFloat32) {
    return ref->invoke(ctx, node);
  }
  const int64_t n = el_num_elements(in);
  if (n == 0) return kTfLiteOk;
  EL_ENSURE(ctx, in->data.f != NULL && out->data.f != NULL);
  const el_ew_kernels* k = el_ew_kernels_for(el_context_isa(ctx));
  (tanh ? k->f32_tanh : k->f32_logistic)(in->data.f, out->data.f, n);
  return kTfLiteOk;
}

static TfLiteStatus opt_logistic_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return el_ref_logistic.prepare(ctx, node);
}
static TfLiteStatus opt_logistic_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return act_invoke(ctx, node, &el_ref_logistic, 0);
}
static TfLiteStatus opt_tanh_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return el_ref_tanh.prepare(ctx, node);
}
static TfLiteStatus opt_tanh_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return act_invoke(ctx, node, &el_ref_tanh, 1);
}

const TfLiteRegistration el_opt_logistic =
    EL_REGISTRATION(NULL, NULL, opt_logistic_prepare, opt_logistic_invoke, EL_OP_LOGISTIC);
const TfLiteRegistration el_opt_tanh =
    EL_REGISTRATION(NULL, NULL, opt_tanh_prepare, opt_tanh_invoke, EL_OP_TANH);
