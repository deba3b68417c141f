/* The object behind the C API's TfLiteRegistrationExternal: a kernel written against the opaque
 * API. The core calls it through a TfLiteRegistration whose own callbacks are unset and whose
 * registration_external points here (kernel_calls.c), as TFLite does. */
#ifndef EDGELITE_REGISTRATION_EXTERNAL_H_
#define EDGELITE_REGISTRATION_EXTERNAL_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/lite/c/c_api_types.h"

struct TfLiteRegistrationExternal {
  int32_t builtin_code;
  char* custom_name; /* owned; NULL for builtin ops */
  int version;
  void* (*init)(TfLiteOpaqueContext* context, const char* buffer, size_t length);
  void (*free)(TfLiteOpaqueContext* context, void* data);
  TfLiteStatus (*prepare)(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node);
  TfLiteStatus (*invoke)(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node);
};

#endif /* EDGELITE_REGISTRATION_EXTERNAL_H_ */
