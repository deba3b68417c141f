/* TensorFlow Lite's tensorflow/lite/c/c_api_types.h include name: status codes, tensor types
 * and quantization parameters (from edgelite's ABI header), plus the delegate type the C API
 * takes. */
#ifndef TENSORFLOW_LITE_C_C_API_TYPES_H_
#define TENSORFLOW_LITE_C_C_API_TYPES_H_

#include "tensorflow/lite/c/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TFLite 2.16 builds without the stable delegate ABI pass TfLiteDelegate itself. */
typedef TfLiteDelegate TfLiteOpaqueDelegate;

/* What kernels registered through TfLiteRegistrationExternal see: the interpreter's context, a
 * node and its tensors, reached only through the accessors of c_api_opaque.h. */
typedef struct TfLiteOpaqueContext TfLiteOpaqueContext;
typedef struct TfLiteOpaqueNode TfLiteOpaqueNode;
typedef struct TfLiteOpaqueTensor TfLiteOpaqueTensor;
typedef struct TfLiteRegistrationExternal TfLiteRegistrationExternal;

#ifdef __cplusplus
}
#endif
#endif /* TENSORFLOW_LITE_C_C_API_TYPES_H_ */
