/* TensorFlow Lite's tensorflow/lite/c/common.h include name, for programs built against
 * libedgelite: the ABI structs (TfLiteTensor, TfLiteDelegate, TfLiteRegistration, ...) are
 * edgelite's own declarations, laid out as in TFLite 2.16. */
#ifndef TENSORFLOW_LITE_C_COMMON_H_
#define TENSORFLOW_LITE_C_COMMON_H_

#include "edgelite/common.h"

#endif /* TENSORFLOW_LITE_C_COMMON_H_ */
