/* TensorFlow Lite's tensorflow/lite/c/c_api_experimental.h, the part libedgelite implements:
 * kernels given as classic TfLiteRegistration structs, and resetting variable tensors. */
#ifndef TENSORFLOW_LITE_C_C_API_EXPERIMENTAL_H_
#define TENSORFLOW_LITE_C_C_API_EXPERIMENTAL_H_

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sets every variable tensor of the primary subgraph back to zero. */
TfLiteStatus TfLiteInterpreterResetVariableTensors(TfLiteInterpreter* interpreter);

/* Serves the builtin op `op` (versions min_version..max_version) with `registration` instead of
 * edgelite's kernel. The registration is copied (shallowly); what it points to must outlive the
 * interpreters. */
void TfLiteInterpreterOptionsAddBuiltinOp(TfLiteInterpreterOptions* options, TfLiteBuiltinOperator op,
                                          const TfLiteRegistration* registration, int32_t min_version,
                                          int32_t max_version);

/* Serves the custom op `name` (versions min_version..max_version) with `registration`; copied as
 * above, `name` too. */
void TfLiteInterpreterOptionsAddCustomOp(TfLiteInterpreterOptions* options, const char* name,
                                         const TfLiteRegistration* registration, int32_t min_version,
                                         int32_t max_version);

#ifdef __cplusplus
}
#endif
#endif /* TENSORFLOW_LITE_C_C_API_EXPERIMENTAL_H_ */
