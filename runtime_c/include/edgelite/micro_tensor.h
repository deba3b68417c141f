/* Part of edgelite/common.h, included there in place of the full TfLiteTensor when
 * EDGELITE_MICRO_TENSOR is defined. */
#ifndef EDGELITE_MICRO_TENSOR_H_
#define EDGELITE_MICRO_TENSOR_H_

/* The micro interpreter's tensor (edgelite/edgelite_micro.h), as TFLite Micro's
 * TF_LITE_STATIC_MEMORY build reduces it: only the fields kernels read, with the type and the
 * allocation type packed into one word. Every file of that build and of its caller sees this
 * layout (edgelite_micro.h defines EDGELITE_MICRO_TENSOR before including edgelite/common.h). */
typedef struct TfLiteTensor {
  TfLiteType type : 8;
  TfLiteAllocationType allocation_type : 8;
  TfLitePtrUnion data;
  TfLiteIntArray* dims;
  TfLiteQuantizationParams params;
  size_t bytes;
  TfLiteQuantization quantization;
} TfLiteTensor;
#define EDGELITE_MICRO_TENSOR_LAYOUT 1

#endif /* EDGELITE_MICRO_TENSOR_H_ */
