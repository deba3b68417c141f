/* TFLite C API: tensor accessors and copies, reading the TfLiteTensor directly as TFLite does. */
#include <string.h>

#include "capi_internal.h"

TfLiteType TfLiteTensorType(const TfLiteTensor* tensor) { return tensor->type; }

int32_t TfLiteTensorNumDims(const TfLiteTensor* tensor) {
  return tensor->dims ? tensor->dims->size : -1;
}

int32_t TfLiteTensorDim(const TfLiteTensor* tensor, int32_t dim_index) { return tensor->dims->data[dim_index]; }

size_t TfLiteTensorByteSize(const TfLiteTensor* tensor) { return tensor->bytes; }

void* TfLiteTensorData(const TfLiteTensor* tensor) { return tensor->data.raw; }

const char* TfLiteTensorName(const TfLiteTensor* tensor) { return tensor->name; }

TfLiteQuantizationParams TfLiteTensorQuantizationParams(const TfLiteTensor* tensor) { return tensor->params; }

TfLiteStatus TfLiteTensorCopyFromBuffer(TfLiteTensor* tensor, const void* input_data, size_t input_data_size) {
  if (tensor == NULL || tensor->bytes != input_data_size) return kTfLiteError;
  if (input_data_size == 0) return kTfLiteOk;
  /* Unallocated tensors and constants (read-only model bytes) cannot be written. */
  if (tensor->data.raw == NULL || input_data == NULL || tensor->allocation_type == kTfLiteMmapRo) return kTfLiteError;
  memcpy(tensor->data.raw, input_data, input_data_size);
  return kTfLiteOk;
}

TfLiteStatus TfLiteTensorCopyToBuffer(const TfLiteTensor* output_tensor, void* output_data, size_t output_data_size) {
  if (output_tensor == NULL || output_tensor->bytes != output_data_size) return kTfLiteError;
  if (output_data_size == 0) return kTfLiteOk;
  if (output_tensor->data.raw == NULL || output_data == NULL) return kTfLiteError;
  memcpy(output_data, output_tensor->data.raw, output_data_size);
  return kTfLiteOk;
}
