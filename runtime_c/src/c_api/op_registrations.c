/* User kernels in the C API: the list options and interpreters keep, TfLiteRegistrationExternal
 * and the experimental AddBuiltinOp/AddCustomOp, all ending in el_custom_op entries for the core. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "capi_internal.h"
#include "registration_external.h"
#include "tensorflow/lite/c/c_api_experimental.h"

/* TFLite registers every version of a range one by one; a range this long is a caller's mistake. */
enum { EL_CAPI_MAX_VERSIONS = 1024 };

static char* copy_name(const char* name) {
  if (name == NULL) return NULL;
  size_t n = strlen(name) + 1;
  char* p = malloc(n);
  if (p != NULL) memcpy(p, name, n);
  return p;
}

static int grow(el_capi_ops* ops, int more) {
  if (ops->n + more <= ops->cap) return 1;
  int cap = ops->cap ? ops->cap : 4;
  while (cap < ops->n + more) cap *= 2;
  el_capi_op* grown = realloc(ops->v, sizeof *grown * (size_t)cap);
  if (grown == NULL) return 0;
  ops->v = grown;
  ops->cap = cap;
  return 1;
}

void el_capi_add_op(TfLiteInterpreterOptions* options, const char* name, int32_t code,
                    const TfLiteRegistration* reg, int min_version, int max_version) {
  if (options == NULL || reg == NULL || min_version > max_version) return;
  if (max_version - min_version >= EL_CAPI_MAX_VERSIONS) max_version = min_version + EL_CAPI_MAX_VERSIONS - 1;
  const int count = max_version - min_version + 1;
  if (!grow(&options->ops, count)) {
    options->out_of_memory = 1;
    return;
  }
  for (int v = min_version; v <= max_version; ++v) {
    el_capi_op* op = &options->ops.v[options->ops.n];
    op->name = copy_name(name);
    if (name != NULL && op->name == NULL) {
      options->out_of_memory = 1;
      return;
    }
    op->builtin_code = code;
    op->version = v;
    op->reg = *reg;
    options->ops.n += 1;
  }
}

int el_capi_ops_copy(el_capi_ops* dst, const el_capi_ops* src) {
  memset(dst, 0, sizeof *dst);
  if (src->n == 0) return 1;
  if (!grow(dst, src->n)) return 0;
  for (int i = 0; i < src->n; ++i) {
    dst->v[i] = src->v[i];
    dst->v[i].name = copy_name(src->v[i].name);
    dst->n = i + 1;
    if (src->v[i].name != NULL && dst->v[i].name == NULL) {
      dst->v[i].name = NULL;
      return 0;
    }
  }
  return 1;
}

void el_capi_ops_free(el_capi_ops* ops) {
  for (int i = 0; i < ops->n; ++i) free(ops->v[i].name);
  free(ops->v);
  memset(ops, 0, sizeof *ops);
}

void TfLiteInterpreterOptionsAddBuiltinOp(TfLiteInterpreterOptions* options, TfLiteBuiltinOperator op,
                                          const TfLiteRegistration* registration, int32_t min_version,
                                          int32_t max_version) {
  el_capi_add_op(options, NULL, (int32_t)op, registration, min_version, max_version);
}

void TfLiteInterpreterOptionsAddCustomOp(TfLiteInterpreterOptions* options, const char* name,
                                         const TfLiteRegistration* registration, int32_t min_version,
                                         int32_t max_version) {
  if (name == NULL) return;
  el_capi_add_op(options, name, kTfLiteBuiltinCustom, registration, min_version, max_version);
}

TfLiteRegistrationExternal* TfLiteRegistrationExternalCreate(TfLiteBuiltinOperator builtin_code,
                                                             const char* custom_name, int version) {
  TfLiteRegistrationExternal* r = calloc(1, sizeof *r);
  if (r == NULL) return NULL;
  r->builtin_code = (int32_t)builtin_code;
  r->version = version;
  if (custom_name != NULL) {
    r->custom_name = copy_name(custom_name);
    if (r->custom_name == NULL) {
      free(r);
      return NULL;
    }
  }
  return r;
}

TfLiteBuiltinOperator TfLiteRegistrationExternalGetBuiltInCode(const TfLiteRegistrationExternal* registration) {
  return (TfLiteBuiltinOperator)registration->builtin_code;
}

const char* TfLiteRegistrationExternalGetCustomName(const TfLiteRegistrationExternal* registration) {
  return registration->custom_name;
}

int TfLiteRegistrationExternalGetVersion(const TfLiteRegistrationExternal* registration) {
  return registration != NULL ? registration->version : -1;
}

void TfLiteRegistrationExternalDelete(TfLiteRegistrationExternal* registration) {
  if (registration == NULL) return;
  free(registration->custom_name);
  free(registration);
}

void TfLiteRegistrationExternalSetInit(TfLiteRegistrationExternal* registration,
                                       void* (*init)(TfLiteOpaqueContext* context, const char* buffer,
                                                     size_t length)) {
  registration->init = init;
}

void TfLiteRegistrationExternalSetFree(TfLiteRegistrationExternal* registration,
                                       void (*free_fn)(TfLiteOpaqueContext* context, void* data)) {
  registration->free = free_fn;
}

void TfLiteRegistrationExternalSetPrepare(TfLiteRegistrationExternal* registration,
                                          TfLiteStatus (*prepare)(TfLiteOpaqueContext* context,
                                                                  TfLiteOpaqueNode* node)) {
  registration->prepare = prepare;
}

void TfLiteRegistrationExternalSetInvoke(TfLiteRegistrationExternal* registration,
                                         TfLiteStatus (*invoke)(TfLiteOpaqueContext* context,
                                                                TfLiteOpaqueNode* node)) {
  registration->invoke = invoke;
}

void TfLiteInterpreterOptionsAddRegistrationExternal(TfLiteInterpreterOptions* options,
                                                     TfLiteRegistrationExternal* registration) {
  if (options == NULL || registration == NULL) return;
  /* The core sees a registration with no callbacks of its own, pointing at the external one. */
  TfLiteRegistration reg;
  memset(&reg, 0, sizeof reg);
  reg.builtin_code = registration->builtin_code;
  reg.custom_name = registration->custom_name;
  reg.version = registration->version;
  reg.registration_external = registration;
  const int custom = registration->builtin_code == kTfLiteBuiltinCustom;
  if (custom && registration->custom_name == NULL) return;
  el_capi_add_op(options, custom ? registration->custom_name : NULL, registration->builtin_code, &reg,
                 registration->version, registration->version);
}

TfLiteStatus TfLiteInterpreterResetVariableTensors(TfLiteInterpreter* interpreter) {
  if (interpreter == NULL) return kTfLiteError;
  return el_capi_status(interpreter, el_interpreter_reset_variables(interpreter->interp));
}
