/* Elementwise math: ABS NEG SQRT RSQRT EXP LOG SIN COS SQUARE FLOOR CEIL ROUND SIGN LOGICAL_NOT.
 * Quantized types hook in at the marked switch cases (README.md). */
#include <math.h>

#include "kernels/kernel_util.h"
#include "kernels/kernels.h"

typedef enum unary_op {
  U_ABS,
  U_NEG,
  U_SQRT,
  U_RSQRT,
  U_EXP,
  U_LOG,
  U_SIN,
  U_COS,
  U_SQUARE,
  U_FLOOR,
  U_CEIL,
  U_ROUND,
  U_SIGN,
  U_LOGICAL_NOT
} unary_op;

static const char* const kNames[] = {"ABS", "NEG",    "SQRT",  "RSQRT", "EXP",
                                     "LOG", "SIN",    "COS",   "SQUARE", "FLOOR",
                                     "CEIL", "ROUND", "SIGN", "LOGICAL_NOT"};

static bool plain_type_supported(unary_op op, TfLiteType t) {
  switch (op) {
    case U_ABS:
    case U_SIGN:
      return t == kTfLiteFloat32 || t == kTfLiteInt32;
    case U_NEG:
      return t == kTfLiteFloat32 || t == kTfLiteInt32 || t == kTfLiteInt64;
    case U_LOGICAL_NOT:
      return t == kTfLiteBool;
    default:
      return t == kTfLiteFloat32;
  }
}

static TfLiteStatus unary_prepare(TfLiteContext* ctx, TfLiteNode* node, unary_op op) {
  const TfLiteTensor* in;
  EL_ENSURE_OK(ctx, el_prepare_elementwise_unary(ctx, node, &in));
  if (plain_type_supported(op, in->type)) return kTfLiteOk;
  switch (in->type) {
    /* Quantized paths: case kTfLiteInt8: return el_<op>_prepare_quant(ctx, node); */
    default:
      return el_unsupported_type(ctx, kNames[op], in->type);
  }
}

static inline float sign_f32(float x) { return (float)((x > 0.0f) - (x < 0.0f)); }

static void invoke_f32(unary_op op, const float* x, float* y, int64_t n) {
  switch (op) {
    case U_ABS:
      for (int64_t i = 0; i < n; ++i) y[i] = fabsf(x[i]);
      break;
    case U_NEG:
      for (int64_t i = 0; i < n; ++i) y[i] = -x[i];
      break;
    case U_SQRT:
      for (int64_t i = 0; i < n; ++i) y[i] = sqrtf(x[i]);
      break;
    case U_RSQRT:
      for (int64_t i = 0; i < n; ++i) y[i] = 1.0f / sqrtf(x[i]);
      break;
    case U_EXP:
      for (int64_t i = 0; i < n; ++i) y[i] = expf(x[i]);
      break;
    case U_LOG:
      for (int64_t i = 0; i < n; ++i) y[i] = logf(x[i]);
      break;
    case U_SIN:
      for (int64_t i = 0; i < n; ++i) y[i] = sinf(x[i]);
      break;
    case U_COS:
      for (int64_t i = 0; i < n; ++i) y[i] = cosf(x[i]);
      break;
    case U_SQUARE:
      for (int64_t i = 0; i < n; ++i) y[i] = x[i] * x[i];
      break;
    case U_FLOOR:
      for (int64_t i = 0; i < n; ++i) y[i] = floorf(x[i]);
      break;
    case U_CEIL:
      for (int64_t i = 0; i < n; ++i) y[i] = ceilf(x[i]);
      break;
    case U_ROUND:
      /* Ties to even, as TFLite's RoundToNearest (the default rounding mode of rintf). */
      for (int64_t i = 0; i < n; ++i) y[i] = rintf(x[i]);
      break;
    case U_SIGN:
      for (int64_t i = 0; i < n; ++i) y[i] = sign_f32(x[i]);
      break;
    case U_LOGICAL_NOT:
      break;
  }
}

static TfLiteStatus unary_invoke(TfLiteContext* ctx, TfLiteNode* node, unary_op op) {
  const TfLiteTensor* in = el_optional_input(ctx, node, 0);
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  const int64_t n = el_num_elements(in);
  if (!plain_type_supported(op, in->type)) {
    switch (in->type) {
      /* Quantized paths: case kTfLiteInt8: return el_<op>_invoke_quant(ctx, node); */
      default:
        return el_unsupported_type(ctx, kNames[op], in->type);
    }
  }
  switch (in->type) {
    case kTfLiteFloat32:
      invoke_f32(op, in->data.f, out->data.f, n);
      return kTfLiteOk;
    case kTfLiteInt32: {
      const int32_t* x = in->data.i32;
      int32_t* y = out->data.i32;
      for (int64_t i = 0; i < n; ++i) {
        /* Negation wraps (INT32_MIN stays INT32_MIN) instead of overflowing. */
        const int32_t neg = (int32_t)(0u - (uint32_t)x[i]);
        if (op == U_ABS) y[i] = x[i] < 0 ? neg : x[i];
        else if (op == U_NEG) y[i] = neg;
        else y[i] = (x[i] > 0) - (x[i] < 0);
      }
      return kTfLiteOk;
    }
    case kTfLiteInt64:
      for (int64_t i = 0; i < n; ++i) out->data.i64[i] = (int64_t)(0u - (uint64_t)in->data.i64[i]);
      return kTfLiteOk;
    case kTfLiteBool:
      /* Read as bytes: only 0 and 1 are valid _Bool values, a caller may have written others. */
      for (int64_t i = 0; i < n; ++i) out->data.b[i] = in->data.uint8[i] == 0;
      return kTfLiteOk;
    default:
      return el_unsupported_type(ctx, kNames[op], in->type);
  }
}

#define DEFINE_UNARY(name, OP, CODE) EL_FAMILY_REGISTRATION(name, unary, OP, NULL, NULL, CODE)

DEFINE_UNARY(abs, U_ABS, EL_OP_ABS);
DEFINE_UNARY(neg, U_NEG, EL_OP_NEG);
DEFINE_UNARY(sqrt, U_SQRT, EL_OP_SQRT);
DEFINE_UNARY(rsqrt, U_RSQRT, EL_OP_RSQRT);
DEFINE_UNARY(exp, U_EXP, EL_OP_EXP);
DEFINE_UNARY(log, U_LOG, EL_OP_LOG);
DEFINE_UNARY(sin, U_SIN, EL_OP_SIN);
DEFINE_UNARY(cos, U_COS, EL_OP_COS);
DEFINE_UNARY(square, U_SQUARE, EL_OP_SQUARE);
DEFINE_UNARY(floor, U_FLOOR, EL_OP_FLOOR);
DEFINE_UNARY(ceil, U_CEIL, EL_OP_CEIL);
DEFINE_UNARY(round, U_ROUND, EL_OP_ROUND);
DEFINE_UNARY(sign, U_SIGN, EL_OP_SIGN);
DEFINE_UNARY(logical_not, U_LOGICAL_NOT, EL_OP_LOGICAL_NOT);
