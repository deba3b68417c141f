/* The TensorFlow Lite 2.16 C API (tensorflow/lite/c/c_api.h), implemented by libedgelite.
 *
 * Same names, argument types and status codes as TFLite's, so programs written against
 * libtensorflowlite_c build and link against libedgelite unchanged. The subset present is the
 * model / options / interpreter / signature-runner / tensor functions and user kernels through
 * TfLiteRegistrationExternal (accessors in c_api_opaque.h); a function absent here is not
 * provided (rather than provided and failing).
 *
 * Lifetimes, as in TFLite:
 *  - TfLiteModelCreate does not copy `model_data`: keep the buffer alive while the model or any
 *    interpreter built from it lives. An interpreter keeps its model alive, so the TfLiteModel
 *    may be deleted right after TfLiteInterpreterCreate.
 *  - Options are copied by TfLiteInterpreterCreate; delegates added to them must outlive the
 *    interpreter.
 *  - Tensor pointers stay valid until the next resize or AllocateTensors call.
 * Tensors have no memory until TfLiteInterpreterAllocateTensors succeeds; a resize requires a new
 * AllocateTensors before Invoke. */
#ifndef TENSORFLOW_LITE_C_C_API_H_
#define TENSORFLOW_LITE_C_C_API_H_

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/c_api_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TfLiteModel TfLiteModel;
typedef struct TfLiteInterpreterOptions TfLiteInterpreterOptions;
typedef struct TfLiteInterpreter TfLiteInterpreter;
typedef struct TfLiteSignatureRunner TfLiteSignatureRunner;

/* The TensorFlow Lite release whose C API this is, e.g. "2.16.1". */
const char* TfLiteVersion(void);
/* The .tflite schema version read (3). */
int TfLiteSchemaVersion(void);

/* A verified model, or NULL (the reason goes to stderr). */
TfLiteModel* TfLiteModelCreate(const void* model_data, size_t model_size);
TfLiteModel* TfLiteModelCreateFromFile(const char* model_path);
void TfLiteModelDelete(TfLiteModel* model);

/* NULL when out of memory. */
TfLiteInterpreterOptions* TfLiteInterpreterOptionsCreate(void);
void TfLiteInterpreterOptionsDelete(TfLiteInterpreterOptions* options);
/* -1 (the default) lets the interpreter choose; 0 and 1 mean one thread. Below -1 is reported at
 * TfLiteInterpreterCreate and the default used, as TFLite does. */
void TfLiteInterpreterOptionsSetNumThreads(TfLiteInterpreterOptions* options, int32_t num_threads);
/* Delegates are applied in the order added when the interpreter is created. */
void TfLiteInterpreterOptionsAddDelegate(TfLiteInterpreterOptions* options,
                                         TfLiteOpaqueDelegate* delegate);
/* Error messages go to `reporter` instead of stderr. */
void TfLiteInterpreterOptionsSetErrorReporter(
    TfLiteInterpreterOptions* options,
    void (*reporter)(void* user_data, const char* format, va_list args), void* user_data);

/* Kernels for ops the model uses: a custom op (builtin_code kTfLiteBuiltinCustom and a name) or a
 * replacement for a builtin one. The registration must outlive every interpreter created with
 * these options; when several serve the same op and version, the one added first is used. */
void TfLiteInterpreterOptionsAddRegistrationExternal(TfLiteInterpreterOptions* options,
                                                     TfLiteRegistrationExternal* registration);

/* An interpreter for `model`, or NULL when the model cannot run (unknown op, failing delegate,
 * no memory). `optional_options` may be NULL. */
TfLiteInterpreter* TfLiteInterpreterCreate(const TfLiteModel* model,
                                           const TfLiteInterpreterOptions* optional_options);
void TfLiteInterpreterDelete(TfLiteInterpreter* interpreter);

int32_t TfLiteInterpreterGetInputTensorCount(const TfLiteInterpreter* interpreter);
/* NULL for an index outside [0, count). */
TfLiteTensor* TfLiteInterpreterGetInputTensor(const TfLiteInterpreter* interpreter,
                                              int32_t input_index);
int32_t TfLiteInterpreterGetOutputTensorCount(const TfLiteInterpreter* interpreter);
const TfLiteTensor* TfLiteInterpreterGetOutputTensor(const TfLiteInterpreter* interpreter,
                                                     int32_t output_index);

/* Takes effect at the next TfLiteInterpreterAllocateTensors, which must precede Invoke. */
TfLiteStatus TfLiteInterpreterResizeInputTensor(TfLiteInterpreter* interpreter,
                                                int32_t input_index, const int* input_dims,
                                                int32_t input_dims_size);
TfLiteStatus TfLiteInterpreterAllocateTensors(TfLiteInterpreter* interpreter);
/* kTfLiteError when tensors are not allocated or a kernel fails. */
TfLiteStatus TfLiteInterpreterInvoke(TfLiteInterpreter* interpreter);

int32_t TfLiteInterpreterGetSignatureCount(const TfLiteInterpreter* interpreter);
/* NULL for an index outside [0, count). The string lives as long as the interpreter. */
const char* TfLiteInterpreterGetSignatureKey(const TfLiteInterpreter* interpreter,
                                             int32_t signature_index);
/* A new runner (free it with TfLiteSignatureRunnerDelete), or NULL for an unknown key. */
TfLiteSignatureRunner* TfLiteInterpreterGetSignatureRunner(const TfLiteInterpreter* interpreter,
                                                           const char* signature_key);
size_t TfLiteSignatureRunnerGetInputCount(const TfLiteSignatureRunner* signature_runner);
const char* TfLiteSignatureRunnerGetInputName(const TfLiteSignatureRunner* signature_runner,
                                              int32_t input_index);
TfLiteStatus TfLiteSignatureRunnerResizeInputTensor(TfLiteSignatureRunner* signature_runner,
                                                    const char* input_name, const int* input_dims,
                                                    int32_t input_dims_size);
TfLiteStatus TfLiteSignatureRunnerAllocateTensors(TfLiteSignatureRunner* signature_runner);
TfLiteTensor* TfLiteSignatureRunnerGetInputTensor(TfLiteSignatureRunner* signature_runner,
                                                  const char* input_name);
TfLiteStatus TfLiteSignatureRunnerInvoke(TfLiteSignatureRunner* signature_runner);
size_t TfLiteSignatureRunnerGetOutputCount(const TfLiteSignatureRunner* signature_runner);
const char* TfLiteSignatureRunnerGetOutputName(const TfLiteSignatureRunner* signature_runner,
                                               int32_t output_index);
const TfLiteTensor* TfLiteSignatureRunnerGetOutputTensor(
    const TfLiteSignatureRunner* signature_runner, const char* output_name);
void TfLiteSignatureRunnerDelete(TfLiteSignatureRunner* signature_runner);

TfLiteType TfLiteTensorType(const TfLiteTensor* tensor);
/* -1 when the tensor has no shape. */
int32_t TfLiteTensorNumDims(const TfLiteTensor* tensor);
int32_t TfLiteTensorDim(const TfLiteTensor* tensor, int32_t dim_index);
size_t TfLiteTensorByteSize(const TfLiteTensor* tensor);
/* NULL until the tensor is allocated. */
void* TfLiteTensorData(const TfLiteTensor* tensor);
const char* TfLiteTensorName(const TfLiteTensor* tensor);
TfLiteQuantizationParams TfLiteTensorQuantizationParams(const TfLiteTensor* tensor);
/* kTfLiteError unless the size equals TfLiteTensorByteSize and the tensor is allocated. */
TfLiteStatus TfLiteTensorCopyFromBuffer(TfLiteTensor* tensor, const void* input_data,
                                        size_t input_data_size);
TfLiteStatus TfLiteTensorCopyToBuffer(const TfLiteTensor* output_tensor, void* output_data,
                                      size_t output_data_size);

/* "FLOAT32", "INT8", ... ("Unknown type" outside the enum). */
const char* TfLiteTypeGetName(TfLiteType type);

/* Kernel registrations written against the opaque API (c_api_opaque.h). Create one, set its
 * callbacks, add it to the options; delete it after the last interpreter using it. A callback left
 * unset is skipped (init returns NULL, prepare succeeds); an op without invoke fails to run. */
TfLiteRegistrationExternal* TfLiteRegistrationExternalCreate(TfLiteBuiltinOperator builtin_code,
                                                             const char* custom_name, int version);
TfLiteBuiltinOperator TfLiteRegistrationExternalGetBuiltInCode(const TfLiteRegistrationExternal* registration);
/* NULL unless the registration is for a custom op. */
const char* TfLiteRegistrationExternalGetCustomName(const TfLiteRegistrationExternal* registration);
/* -1 for a NULL registration. */
int TfLiteRegistrationExternalGetVersion(const TfLiteRegistrationExternal* registration);
void TfLiteRegistrationExternalDelete(TfLiteRegistrationExternal* registration);
void TfLiteRegistrationExternalSetInit(TfLiteRegistrationExternal* registration,
                                       void* (*init)(TfLiteOpaqueContext* context, const char* buffer,
                                                     size_t length));
void TfLiteRegistrationExternalSetFree(TfLiteRegistrationExternal* registration,
                                       void (*free)(TfLiteOpaqueContext* context, void* data));
void TfLiteRegistrationExternalSetPrepare(TfLiteRegistrationExternal* registration,
                                          TfLiteStatus (*prepare)(TfLiteOpaqueContext* context,
                                                                  TfLiteOpaqueNode* node));
void TfLiteRegistrationExternalSetInvoke(TfLiteRegistrationExternal* registration,
                                         TfLiteStatus (*invoke)(TfLiteOpaqueContext* context,
                                                                TfLiteOpaqueNode* node));

#ifdef __cplusplus
}
#endif
#endif /* TENSORFLOW_LITE_C_C_API_H_ */
