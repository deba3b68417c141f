/* TensorFlow Lite's tensorflow/lite/c/c_api_opaque.h, the accessors libedgelite implements for
 * kernels registered through TfLiteRegistrationExternal (c_api.h): a node's inputs and outputs,
 * its data, and a tensor's type, shape, bytes and quantization. */
#ifndef TENSORFLOW_LITE_C_C_API_OPAQUE_H_
#define TENSORFLOW_LITE_C_C_API_OPAQUE_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_types.h"
#include "tensorflow/lite/c/common.h"

#ifdef __cplusplus
extern "C" {
#endif

TfLiteType TfLiteOpaqueTensorType(const TfLiteOpaqueTensor* opaque_tensor);
/* -1 when the tensor has no shape yet. */
int32_t TfLiteOpaqueTensorNumDims(const TfLiteOpaqueTensor* opaque_tensor);
int32_t TfLiteOpaqueTensorDim(const TfLiteOpaqueTensor* opaque_tensor, int32_t dim_index);
size_t TfLiteOpaqueTensorByteSize(const TfLiteOpaqueTensor* opaque_tensor);
void* TfLiteOpaqueTensorData(const TfLiteOpaqueTensor* opaque_tensor);
const char* TfLiteOpaqueTensorName(const TfLiteOpaqueTensor* opaque_tensor);
TfLiteQuantization TfLiteOpaqueTensorGetQuantization(const TfLiteOpaqueTensor* opaque_tensor);
TfLiteQuantizationParams TfLiteOpaqueTensorGetQuantizationParams(const TfLiteOpaqueTensor* opaque_tensor);
/* kTfLiteError unless input_data_size equals the tensor's byte size. */
TfLiteStatus TfLiteOpaqueTensorCopyFromBuffer(TfLiteOpaqueTensor* opaque_tensor, const void* input_data,
                                              size_t input_data_size);
TfLiteStatus TfLiteOpaqueTensorCopyToBuffer(const TfLiteOpaqueTensor* opaque_tensor, void* output_data,
                                            size_t output_data_size);

/* The node's index-th input or output tensor; NULL for an omitted optional input or an index out
 * of range. */
const TfLiteOpaqueTensor* TfLiteOpaqueNodeGetInput(const TfLiteOpaqueContext* opaque_context,
                                                   const TfLiteOpaqueNode* opaque_node, int index);
TfLiteOpaqueTensor* TfLiteOpaqueNodeGetOutput(TfLiteOpaqueContext* opaque_context,
                                              const TfLiteOpaqueNode* opaque_node, int index);
int TfLiteOpaqueNodeNumberOfInputs(const TfLiteOpaqueNode* opaque_node);
int TfLiteOpaqueNodeNumberOfOutputs(const TfLiteOpaqueNode* opaque_node);
/* What the registration's init returned for this node. */
void* TfLiteOpaqueNodeGetUserData(const TfLiteOpaqueNode* opaque_node);
/* The builtin op's parameters (a TfLite*Params struct), NULL for custom ops. */
void* TfLiteOpaqueNodeGetBuiltinData(const TfLiteOpaqueNode* opaque_node);
/* The custom op's options bytes from the model. */
TfLiteStatus TfLiteOpaqueNodeGetCustomInitialData(const TfLiteOpaqueNode* opaque_node, const void** init_data,
                                                  int* size);

/* Gives an output tensor a new shape (takes ownership of new_size), as TfLiteContext's ResizeTensor. */
TfLiteStatus TfLiteOpaqueContextResizeTensor(TfLiteOpaqueContext* opaque_context, TfLiteOpaqueTensor* tensor,
                                             TfLiteIntArray* new_size);
/* Reports an error through the interpreter's error reporter. */
void TfLiteOpaqueContextReportError(TfLiteOpaqueContext* opaque_context, const char* format, ...)
    __attribute__((format(printf, 2, 3)));

#ifdef __cplusplus
}
#endif
#endif /* TENSORFLOW_LITE_C_C_API_OPAQUE_H_ */
