/* TFLite C API: the opaque accessors kernels registered through TfLiteRegistrationExternal use.
 * The opaque types are the interpreter's own TfLiteContext, TfLiteNode and TfLiteTensor. */
#include <stdarg.h>
#include <stdio.h>

#include "capi_internal.h"
#include "tensorflow/lite/c/c_api_opaque.h"

static const TfLiteTensor* tensor_of(const TfLiteOpaqueTensor* t) { return (const TfLiteTensor*)t; }
static const TfLiteNode* node_of(const TfLiteOpaqueNode* n) { return (const TfLiteNode*)n; }

TfLiteType TfLiteOpaqueTensorType(const TfLiteOpaqueTensor* opaque_tensor) {
  return TfLiteTensorType(tensor_of(opaque_tensor));
}

int32_t TfLiteOpaqueTensorNumDims(const TfLiteOpaqueTensor* opaque_tensor) {
  return TfLiteTensorNumDims(tensor_of(opaque_tensor));
}

int32_t TfLiteOpaqueTensorDim(const TfLiteOpaqueTensor* opaque_tensor, int32_t dim_index) {
  return TfLiteTensorDim(tensor_of(opaque_tensor), dim_index);
}

size_t TfLiteOpaqueTensorByteSize(const TfLiteOpaqueTensor* opaque_tensor) {
  return TfLiteTensorByteSize(tensor_of(opaque_tensor));
}

void* TfLiteOpaqueTensorData(const TfLiteOpaqueTensor* opaque_tensor) {
  return opaque_tensor != NULL ? TfLiteTensorData(tensor_of(opaque_tensor)) : NULL;
}

const char* TfLiteOpaqueTensorName(const TfLiteOpaqueTensor* opaque_tensor) {
  return TfLiteTensorName(tensor_of(opaque_tensor));
}

TfLiteQuantization TfLiteOpaqueTensorGetQuantization(const TfLiteOpaqueTensor* opaque_tensor) {
  return tensor_of(opaque_tensor)->quantization;
}

TfLiteQuantizationParams TfLiteOpaqueTensorGetQuantizationParams(const TfLiteOpaqueTensor* opaque_tensor) {
  return tensor_of(opaque_tensor)->params;
}

TfLiteStatus TfLiteOpaqueTensorCopyFromBuffer(TfLiteOpaqueTensor* opaque_tensor, const void* input_data,
                                              size_t input_data_size) {
  return TfLiteTensorCopyFromBuffer((TfLiteTensor*)opaque_tensor, input_data, input_data_size);
}

TfLiteStatus TfLiteOpaqueTensorCopyToBuffer(const TfLiteOpaqueTensor* opaque_tensor, void* output_data,
                                            size_t output_data_size) {
  return TfLiteTensorCopyToBuffer(tensor_of(opaque_tensor), output_data, output_data_size);
}

/* Tensor `k` of a node's index list, or NULL (omitted optional input, index out of range). */
static TfLiteTensor* listed(const TfLiteOpaqueContext* opaque_context, const TfLiteIntArray* list, int k) {
  const TfLiteContext* ctx = (const TfLiteContext*)opaque_context;
  if (ctx == NULL || list == NULL || k < 0 || k >= list->size) return NULL;
  const int t = list->data[k];
  if (t < 0 || (size_t)t >= ctx->tensors_size) return NULL;
  return &ctx->tensors[t];
}

const TfLiteOpaqueTensor* TfLiteOpaqueNodeGetInput(const TfLiteOpaqueContext* opaque_context,
                                                   const TfLiteOpaqueNode* opaque_node, int index) {
  return (const TfLiteOpaqueTensor*)listed(opaque_context, node_of(opaque_node)->inputs, index);
}

TfLiteOpaqueTensor* TfLiteOpaqueNodeGetOutput(TfLiteOpaqueContext* opaque_context,
                                              const TfLiteOpaqueNode* opaque_node, int index) {
  return (TfLiteOpaqueTensor*)listed(opaque_context, node_of(opaque_node)->outputs, index);
}

int TfLiteOpaqueNodeNumberOfInputs(const TfLiteOpaqueNode* opaque_node) {
  return node_of(opaque_node)->inputs->size;
}

int TfLiteOpaqueNodeNumberOfOutputs(const TfLiteOpaqueNode* opaque_node) {
  return node_of(opaque_node)->outputs->size;
}

void* TfLiteOpaqueNodeGetUserData(const TfLiteOpaqueNode* opaque_node) { return node_of(opaque_node)->user_data; }

void* TfLiteOpaqueNodeGetBuiltinData(const TfLiteOpaqueNode* opaque_node) {
  return node_of(opaque_node)->builtin_data;
}

TfLiteStatus TfLiteOpaqueNodeGetCustomInitialData(const TfLiteOpaqueNode* opaque_node, const void** init_data,
                                                  int* size) {
  if (opaque_node == NULL || init_data == NULL || size == NULL) return kTfLiteError;
  *init_data = node_of(opaque_node)->custom_initial_data;
  *size = node_of(opaque_node)->custom_initial_data_size;
  return kTfLiteOk;
}

TfLiteStatus TfLiteOpaqueContextResizeTensor(TfLiteOpaqueContext* opaque_context, TfLiteOpaqueTensor* tensor,
                                             TfLiteIntArray* new_size) {
  TfLiteContext* ctx = (TfLiteContext*)opaque_context;
  return ctx->ResizeTensor(ctx, (TfLiteTensor*)tensor, new_size);
}

void TfLiteOpaqueContextReportError(TfLiteOpaqueContext* opaque_context, const char* format, ...) {
  TfLiteContext* ctx = (TfLiteContext*)opaque_context;
  char message[1024];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  ctx->ReportError(ctx, "%s", message);
}
