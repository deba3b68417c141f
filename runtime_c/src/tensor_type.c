/* TFLite's TensorType (schema.fbs) as TfLiteType: shared by the interpreter's tensor setup, the
 * builtin options parser and the micro interpreter. */
#include "interp.h"

int el_convert_tensor_type(int8_t schema_type) {
  static const int kMap[] = {
      kTfLiteFloat32, kTfLiteFloat16, kTfLiteInt32,     kTfLiteUInt8,    kTfLiteInt64,
      kTfLiteString,  kTfLiteBool,    kTfLiteInt16,     kTfLiteComplex64, kTfLiteInt8,
      kTfLiteFloat64, kTfLiteComplex128, kTfLiteUInt64, kTfLiteResource, kTfLiteVariant,
      kTfLiteUInt32,  kTfLiteUInt16,  kTfLiteInt4};
  if (schema_type < 0 || (size_t)schema_type >= sizeof kMap / sizeof kMap[0]) return -1;
  return kMap[(int)schema_type];
}
