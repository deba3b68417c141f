/* Calls into a node's kernel: its TfLiteRegistration callbacks, or, where one is unset, the
 * matching callback of the TfLiteRegistrationExternal it carries (TFLite's rule), with the
 * context, node and tensors passed as their opaque types. */
#include "interp.h"
#include "registration_external.h"

static const struct TfLiteRegistrationExternal* external(const TfLiteRegistration* r) {
  return r->registration_external;
}

void* el_kernel_call_init(const TfLiteRegistration* r, TfLiteContext* ctx, const char* data, size_t size) {
  if (r->init != NULL) return r->init(ctx, data, size);
  const struct TfLiteRegistrationExternal* x = external(r);
  return x != NULL && x->init != NULL ? x->init((TfLiteOpaqueContext*)ctx, data, size) : NULL;
}

TfLiteStatus el_kernel_call_prepare(const TfLiteRegistration* r, TfLiteContext* ctx, TfLiteNode* node) {
  if (r->prepare != NULL) return r->prepare(ctx, node);
  const struct TfLiteRegistrationExternal* x = external(r);
  if (x != NULL && x->prepare != NULL) return x->prepare((TfLiteOpaqueContext*)ctx, (TfLiteOpaqueNode*)node);
  return kTfLiteOk;
}

int el_kernel_has_invoke(const TfLiteRegistration* r) {
  const struct TfLiteRegistrationExternal* x = external(r);
  return r->invoke != NULL || (x != NULL && x->invoke != NULL);
}

TfLiteStatus el_kernel_call_invoke(const TfLiteRegistration* r, TfLiteContext* ctx, TfLiteNode* node) {
  if (r->invoke != NULL) return r->invoke(ctx, node);
  const struct TfLiteRegistrationExternal* x = external(r);
  if (x != NULL && x->invoke != NULL) return x->invoke((TfLiteOpaqueContext*)ctx, (TfLiteOpaqueNode*)node);
  return kTfLiteError;
}

void el_kernel_call_free(const TfLiteRegistration* r, TfLiteContext* ctx, void* data) {
  if (r->free != NULL) {
    r->free(ctx, data);
    return;
  }
  const struct TfLiteRegistrationExternal* x = external(r);
  if (x != NULL && x->free != NULL) x->free((TfLiteOpaqueContext*)ctx, data);
}
