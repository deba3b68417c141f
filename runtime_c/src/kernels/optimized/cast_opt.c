/* Optimized CAST between the integer types int8/uint8/int16/int32/int64 and float32 (both ways):
 * one loop per type pair with the element types fixed, instead of the reference's per-element
 * switch on both types. The conversions are the reference's (cast.c): integer narrowing keeps the
 * low bits, integers reach float32 by one rounding, float32 reaches an integer by the truncating
 * conversion of a 32-bit (64-bit for int64) result with out-of-range values giving INT_MIN's bits.
 * Other pairs (float16/64, bool, unsigned 16/32-bit) run the reference kernel. */
#include <stdint.h>

#include "kernels/coverage_ops.h"
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/optimized/opt_kernels.h"

/* The index of a type among the fast ones, -1 for the others. */
static int slot(TfLiteType t) {
  switch (t) {
    case kTfLiteInt8: return 0;
    case kTfLiteUInt8: return 1;
    case kTfLiteInt16: return 2;
    case kTfLiteInt32: return 3;
    case kTfLiteInt64: return 4;
    case kTfLiteFloat32: return 5;
    default: return -1;
  }
}

static int32_t f32_to_i32(float f) {
  const double v = f;
  return (v > -2147483649.0 && v < 2147483648.0) ? (int32_t)v : INT32_MIN;
}

static int64_t f32_to_i64(float f) {
  const double v = f;
  return (v >= -9223372036854775808.0 && v < 9223372036854775808.0) ? (int64_t)v : INT64_MIN;
}

/* Integer to integer, modulo 2^bits of the output. */
#define INT_LOOP(TI, TO, UO)                                                      \
  do {                                                                            \
    const TI* x = (const TI*)in;                                                  \
    TO* y = (TO*)out;                                                             \
    for (int64_t i = 0; i < n; ++i) y[i] = (TO)(UO)(uint64_t)(int64_t)x[i];       \
  } while (0)

#define INT_OUTS(TI)                                          \
  switch (to) {                                               \
    case 0: INT_LOOP(TI, int8_t, uint8_t); return;            \
    case 1: INT_LOOP(TI, uint8_t, uint8_t); return;           \
    case 2: INT_LOOP(TI, int16_t, uint16_t); return;          \
    case 3: INT_LOOP(TI, int32_t, uint32_t); return;          \
    case 4: INT_LOOP(TI, int64_t, uint64_t); return;          \
    default: {                                                \
      const TI* x = (const TI*)in;                            \
      float* y = (float*)out;                                 \
      for (int64_t i = 0; i < n; ++i) y[i] = (float)x[i];            \
      return;                                                 \
    }                                                         \
  }

/* float32 to an integer type: the truncating conversion, then the low bits. */
#define FLOAT_LOOP(TO, UO, CONVERT)                                                     \
  do {                                                                                  \
    const float* x = (const float*)in;                                                  \
    TO* y = (TO*)out;                                                                   \
    for (int64_t i = 0; i < n; ++i) y[i] = (TO)(UO)(uint64_t)(int64_t)CONVERT(x[i]);    \
  } while (0)

static void convert(int from, int to, const void* in, void* out, int64_t n) {
  switch (from) {
    case 0: INT_OUTS(int8_t)
    case 1: INT_OUTS(uint8_t)
    case 2: INT_OUTS(int16_t)
    case 3: INT_OUTS(int32_t)
    case 4: INT_OUTS(int64_t)
    default:
      switch (to) {
        case 0: FLOAT_LOOP(int8_t, uint8_t, f32_to_i32); return;
        case 1: FLOAT_LOOP(uint8_t, uint8_t, f32_to_i32); return;
        case 2: FLOAT_LOOP(int16_t, uint16_t, f32_to_i32); return;
        case 3: FLOAT_LOOP(int32_t, uint32_t, f32_to_i32); return;
        default: FLOAT_LOOP(int64_t, uint64_t, f32_to_i64); return;
      }
  }
}

static TfLiteStatus opt_cast_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return el_ref_cast.prepare(ctx, node);
}

static TfLiteStatus opt_cast_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = &ctx->tensors[node->inputs->data[0]];
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  const int from = slot(in->type), to = slot(out->type);
  /* float32 to float32 is a copy the reference does as well as any. */
  if (from < 0 || to < 0 || (from == 5 && to == 5)) return el_ref_cast.invoke(ctx, node);
  const int64_t n = el_num_elements(in);
  if (n == 0) return kTfLiteOk;
  EL_ENSURE(ctx, in->data.raw_const != NULL && out->data.raw != NULL);
  convert(from, to, in->data.raw_const, out->data.raw, n);
  return kTfLiteOk;
}

const TfLiteRegistration el_opt_cast =
    EL_REGISTRATION(NULL, NULL, opt_cast_prepare, opt_cast_invoke, EL_OP_CAST);
