/* The TfLite C helper functions that kernels and external delegates expect from their host.
 * Memory comes from malloc so arrays built by a delegate's own copy of these helpers can be
 * freed here and the other way round. */
#include "edgelite/common.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int TfLiteIntArrayGetSizeInBytes(int size) {
  if (size < 0 || (size_t)size > (INT32_MAX - sizeof(TfLiteIntArray)) / sizeof(int)) return 0;
  return (int)(sizeof(TfLiteIntArray) + sizeof(int) * (size_t)size);
}

TfLiteIntArray* TfLiteIntArrayCreate(int size) {
  int bytes = TfLiteIntArrayGetSizeInBytes(size);
  if (bytes <= 0) return NULL;
  TfLiteIntArray* a = malloc((size_t)bytes);
  if (a != NULL) a->size = size;
  return a;
}

TfLiteIntArray* TfLiteIntArrayCopy(const TfLiteIntArray* src) {
  if (src == NULL) return NULL;
  TfLiteIntArray* a = TfLiteIntArrayCreate(src->size);
  if (a != NULL && src->size > 0) memcpy(a->data, src->data, sizeof(int) * (size_t)src->size);
  return a;
}

int TfLiteIntArrayEqual(const TfLiteIntArray* a, const TfLiteIntArray* b) {
  if (a == b) return 1;
  if (a == NULL || b == NULL) return 0;
  return TfLiteIntArrayEqualsArray(a, b->size, b->data);
}

int TfLiteIntArrayEqualsArray(const TfLiteIntArray* a, int b_size, const int b_data[]) {
  if (a == NULL) return b_size == 0;
  if (a->size != b_size) return 0;
  for (int i = 0; i < b_size; ++i) {
    if (a->data[i] != b_data[i]) return 0;
  }
  return 1;
}

void TfLiteIntArrayFree(TfLiteIntArray* a) { free(a); }

int TfLiteFloatArrayGetSizeInBytes(int size) {
  if (size < 0 || (size_t)size > (INT32_MAX - sizeof(TfLiteFloatArray)) / sizeof(float)) return 0;
  return (int)(sizeof(TfLiteFloatArray) + sizeof(float) * (size_t)size);
}

TfLiteFloatArray* TfLiteFloatArrayCreate(int size) {
  int bytes = TfLiteFloatArrayGetSizeInBytes(size);
  if (bytes <= 0) return NULL;
  TfLiteFloatArray* a = malloc((size_t)bytes);
  if (a != NULL) a->size = size;
  return a;
}

void TfLiteFloatArrayFree(TfLiteFloatArray* a) { free(a); }

const char* TfLiteTypeGetName(TfLiteType type) {
  switch (type) {
    case kTfLiteNoType: return "NOTYPE";
    case kTfLiteFloat32: return "FLOAT32";
    case kTfLiteInt32: return "INT32";
    case kTfLiteUInt8: return "UINT8";
    case kTfLiteInt64: return "INT64";
    case kTfLiteString: return "STRING";
    case kTfLiteBool: return "BOOL";
    case kTfLiteInt16: return "INT16";
    case kTfLiteComplex64: return "COMPLEX64";
    case kTfLiteInt8: return "INT8";
    case kTfLiteFloat16: return "FLOAT16";
    case kTfLiteFloat64: return "FLOAT64";
    case kTfLiteComplex128: return "COMPLEX128";
    case kTfLiteUInt64: return "UINT64";
    case kTfLiteResource: return "RESOURCE";
    case kTfLiteVariant: return "VARIANT";
    case kTfLiteUInt32: return "UINT32";
    case kTfLiteUInt16: return "UINT16";
    case kTfLiteInt4: return "INT4";
  }
  return "Unknown type";
}

TfLiteDelegate TfLiteDelegateCreate(void) {
  TfLiteDelegate d;
  memset(&d, 0, sizeof d);
  d.flags = kTfLiteDelegateFlagsNone;
  return d;
}

void TfLiteQuantizationFree(TfLiteQuantization* quantization) {
  if (quantization == NULL) return;
  if (quantization->type == kTfLiteAffineQuantization && quantization->params != NULL) {
    TfLiteAffineQuantization* q = quantization->params;
    TfLiteFloatArrayFree(q->scale);
    TfLiteIntArrayFree(q->zero_point);
    free(q);
  }
  quantization->params = NULL;
  quantization->type = kTfLiteNoQuantization;
}

void TfLiteSparsityFree(TfLiteSparsity* sparsity) {
  if (sparsity == NULL) return;
  TfLiteIntArrayFree(sparsity->traversal_order);
  TfLiteIntArrayFree(sparsity->block_map);
  if (sparsity->dim_metadata != NULL) {
    for (int i = 0; i < sparsity->dim_metadata_size; ++i) {
      TfLiteIntArrayFree(sparsity->dim_metadata[i].array_segments);
      TfLiteIntArrayFree(sparsity->dim_metadata[i].array_indices);
    }
    free(sparsity->dim_metadata);
  }
  free(sparsity);
}

TfLiteStatus TfLiteTypeSizeOf(TfLiteType type, size_t* size) {
  switch (type) {
    case kTfLiteFloat32: *size = sizeof(float); return kTfLiteOk;
    case kTfLiteInt32: *size = sizeof(int32_t); return kTfLiteOk;
    case kTfLiteUInt32: *size = sizeof(uint32_t); return kTfLiteOk;
    case kTfLiteUInt8: *size = sizeof(uint8_t); return kTfLiteOk;
    case kTfLiteInt8: *size = sizeof(int8_t); return kTfLiteOk;
    case kTfLiteInt64: *size = sizeof(int64_t); return kTfLiteOk;
    case kTfLiteUInt64: *size = sizeof(uint64_t); return kTfLiteOk;
    case kTfLiteBool: *size = sizeof(bool); return kTfLiteOk;
    case kTfLiteInt16: *size = sizeof(int16_t); return kTfLiteOk;
    case kTfLiteUInt16: *size = sizeof(uint16_t); return kTfLiteOk;
    case kTfLiteComplex64: *size = sizeof(TfLiteComplex64); return kTfLiteOk;
    case kTfLiteComplex128: *size = sizeof(TfLiteComplex128); return kTfLiteOk;
    case kTfLiteFloat16: *size = sizeof(TfLiteFloat16); return kTfLiteOk;
    case kTfLiteFloat64: *size = sizeof(double); return kTfLiteOk;
    case kTfLiteInt4: *size = sizeof(int8_t); return kTfLiteOk;
    default: break;
  }
  *size = 0;
  return kTfLiteError;
}

void* TfLiteKernelInitFailed(void) { return (void*)(intptr_t)-1; }
