/* TFLite C API: signature runners, each bound to the subgraph its signature names. */
#include <stdlib.h>
#include <string.h>

#include "capi_internal.h"

int32_t TfLiteInterpreterGetSignatureCount(const TfLiteInterpreter* interpreter) {
  return interpreter ? el_interpreter_num_signatures(interpreter->interp) : 0;
}

const char* TfLiteInterpreterGetSignatureKey(const TfLiteInterpreter* interpreter, int32_t signature_index) {
  el_signature_info sig;
  if (interpreter == NULL || el_signature_get(interpreter->interp, signature_index, &sig) != EL_OK) return NULL;
  return sig.key;
}

TfLiteSignatureRunner* TfLiteInterpreterGetSignatureRunner(const TfLiteInterpreter* interpreter,
                                                           const char* signature_key) {
  if (interpreter == NULL || signature_key == NULL) return NULL;
  int n = el_interpreter_num_signatures(interpreter->interp);
  for (int i = 0; i < n; ++i) {
    el_signature_info sig;
    if (el_signature_get(interpreter->interp, i, &sig) != EL_OK || strcmp(sig.key, signature_key) != 0) continue;
    TfLiteSignatureRunner* r = malloc(sizeof *r);
    if (r == NULL) return NULL;
    r->owner = (TfLiteInterpreter*)interpreter;
    r->sig = sig;
    return r;
  }
  return NULL;
}

void TfLiteSignatureRunnerDelete(TfLiteSignatureRunner* signature_runner) { free(signature_runner); }

size_t TfLiteSignatureRunnerGetInputCount(const TfLiteSignatureRunner* signature_runner) {
  return signature_runner ? (size_t)signature_runner->sig.num_inputs : 0;
}

size_t TfLiteSignatureRunnerGetOutputCount(const TfLiteSignatureRunner* signature_runner) {
  return signature_runner ? (size_t)signature_runner->sig.num_outputs : 0;
}

const char* TfLiteSignatureRunnerGetInputName(const TfLiteSignatureRunner* signature_runner, int32_t input_index) {
  if (signature_runner == NULL || input_index < 0 || input_index >= signature_runner->sig.num_inputs) return NULL;
  return signature_runner->sig.input_names[input_index];
}

const char* TfLiteSignatureRunnerGetOutputName(const TfLiteSignatureRunner* signature_runner,
                                               int32_t output_index) {
  if (signature_runner == NULL || output_index < 0 || output_index >= signature_runner->sig.num_outputs) {
    return NULL;
  }
  return signature_runner->sig.output_names[output_index];
}

/* The tensor index behind a signature input or output name; -1 when the name is not there. */
static int find_name(const char* const* names, const int32_t* tensors, int n, const char* name) {
  if (name == NULL) return -1;
  for (int i = 0; i < n; ++i) {
    if (strcmp(names[i], name) == 0) return tensors[i];
  }
  return -1;
}

static int input_index(const TfLiteSignatureRunner* r, const char* name) {
  return find_name(r->sig.input_names, r->sig.input_tensors, r->sig.num_inputs, name);
}

static int output_index(const TfLiteSignatureRunner* r, const char* name) {
  return find_name(r->sig.output_names, r->sig.output_tensors, r->sig.num_outputs, name);
}

TfLiteStatus TfLiteSignatureRunnerResizeInputTensor(TfLiteSignatureRunner* signature_runner,
                                                    const char* input_name, const int* input_dims,
                                                    int32_t input_dims_size) {
  if (signature_runner == NULL) return kTfLiteError;
  int index = input_index(signature_runner, input_name);
  if (index < 0) {
    el_capi_report(signature_runner->owner, "Input name %s was not found", input_name ? input_name : "(null)");
    return kTfLiteError;
  }
  TfLiteInterpreter* owner = signature_runner->owner;
  return el_capi_status(owner, el_interpreter_resize_input(owner->interp, signature_runner->sig.subgraph_index,
                                                           index, (const int32_t*)input_dims, input_dims_size, 0));
}

TfLiteStatus TfLiteSignatureRunnerAllocateTensors(TfLiteSignatureRunner* signature_runner) {
  if (signature_runner == NULL) return kTfLiteError;
  TfLiteInterpreter* owner = signature_runner->owner;
  return el_capi_status(owner, el_interpreter_allocate_tensors(owner->interp, signature_runner->sig.subgraph_index));
}

TfLiteStatus TfLiteSignatureRunnerInvoke(TfLiteSignatureRunner* signature_runner) {
  if (signature_runner == NULL) return kTfLiteError;
  TfLiteInterpreter* owner = signature_runner->owner;
  return el_capi_status(owner, el_interpreter_invoke(owner->interp, signature_runner->sig.subgraph_index));
}

TfLiteTensor* TfLiteSignatureRunnerGetInputTensor(TfLiteSignatureRunner* signature_runner, const char* input_name) {
  if (signature_runner == NULL) return NULL;
  int index = input_index(signature_runner, input_name);
  return index < 0 ? NULL : el_capi_tensor(signature_runner->owner, signature_runner->sig.subgraph_index, index);
}

const TfLiteTensor* TfLiteSignatureRunnerGetOutputTensor(const TfLiteSignatureRunner* signature_runner,
                                                         const char* output_name) {
  if (signature_runner == NULL) return NULL;
  int index = output_index(signature_runner, output_name);
  return index < 0 ? NULL : el_capi_tensor(signature_runner->owner, signature_runner->sig.subgraph_index, index);
}
