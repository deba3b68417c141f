/* Broadcasting comparisons (EQUAL NOT_EQUAL LESS LESS_EQUAL GREATER GREATER_EQUAL) with a bool
 * output, and LOGICAL_AND / LOGICAL_OR. Quantized operands with the same scale and zero point
 * compare as raw integers; other quantized pairs hook in at the marked cases (README.md). */
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"

typedef enum cmp_op { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE, C_AND, C_OR } cmp_op;

static const char* const kNames[] = {"EQUAL",   "NOT_EQUAL",     "LESS",        "LESS_EQUAL",
                                     "GREATER", "GREATER_EQUAL", "LOGICAL_AND", "LOGICAL_OR"};

typedef struct cmp_data {
  el_bcast plan;
  void* quant; /* state of a rescaling quantized path (README.md) */
} cmp_data;

static void* cmp_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(cmp_data));
}

static bool raw_comparable(cmp_op op, const TfLiteTensor* a, const TfLiteTensor* b) {
  switch (a->type) {
    case kTfLiteFloat32:
    case kTfLiteInt32:
    case kTfLiteInt64:
      return op != C_AND && op != C_OR;
    case kTfLiteBool:
      return op == C_EQ || op == C_NE || op == C_AND || op == C_OR;
    case kTfLiteInt8:
    case kTfLiteUInt8:
    case kTfLiteInt16:
      return op != C_AND && op != C_OR && a->params.scale == b->params.scale &&
             a->params.zero_point == b->params.zero_point;
    default:
      return false;
  }
}

static TfLiteStatus cmp_prepare(TfLiteContext* ctx, TfLiteNode* node, cmp_op op) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 2, 1));
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  cmp_data* d = (cmp_data*)node->user_data;
  const TfLiteTensor *a, *b;
  TfLiteTensor* out;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &a));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 1, &b));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &out));
  EL_ENSURE_TYPES_EQ(ctx, a->type, b->type);
  EL_ENSURE_TYPES_EQ(ctx, out->type, kTfLiteBool);
  int dims[EL_MAX_DIMS], ndims;
  const int max_rank = el_same_shape(a, b) ? EL_MAX_DIMS : 6;
  EL_ENSURE_OK(ctx, el_bcast_prepare(ctx, a, b, max_rank, dims, &ndims, &d->plan));
  EL_ENSURE_OK(ctx, el_resize(ctx, out, ndims, dims));
  if (raw_comparable(op, a, b)) return kTfLiteOk;
  switch (a->type) {
    /* Quantized paths: case kTfLiteInt8: return el_compare_prepare_quant(ctx, node, d); */
    default:
      return el_unsupported_type(ctx, kNames[op], a->type);
  }
}

/* Element i of a typed operand; bool operands are read as bytes, any non-zero byte true (a
 * byte other than 0 or 1, which a caller can write through the C API, is no valid _Bool). */
#define RAW(p, i) ((p)[i])
#define BOOL_BYTE(p, i) ((p)[i] != 0)

#define COMPARE(T, a, b, o, AT)                                                        \
  do {                                                                                 \
    const T* x_ = (const T*)(a);                                                       \
    const T* y_ = (const T*)(b);                                                       \
    switch (op) {                                                                      \
      case C_EQ: EL_BCAST_FOR_EACH(p, o[el_oi] = AT(x_, el_ai) == AT(y_, el_bi)); break; \
      case C_NE: EL_BCAST_FOR_EACH(p, o[el_oi] = AT(x_, el_ai) != AT(y_, el_bi)); break; \
      case C_LT: EL_BCAST_FOR_EACH(p, o[el_oi] = AT(x_, el_ai) < AT(y_, el_bi)); break;  \
      case C_LE: EL_BCAST_FOR_EACH(p, o[el_oi] = AT(x_, el_ai) <= AT(y_, el_bi)); break; \
      case C_GT: EL_BCAST_FOR_EACH(p, o[el_oi] = AT(x_, el_ai) > AT(y_, el_bi)); break;  \
      case C_GE: EL_BCAST_FOR_EACH(p, o[el_oi] = AT(x_, el_ai) >= AT(y_, el_bi)); break; \
      case C_AND: EL_BCAST_FOR_EACH(p, o[el_oi] = AT(x_, el_ai) && AT(y_, el_bi)); break; \
      case C_OR: EL_BCAST_FOR_EACH(p, o[el_oi] = AT(x_, el_ai) || AT(y_, el_bi)); break; \
    }                                                                                  \
  } while (0)

static TfLiteStatus cmp_invoke(TfLiteContext* ctx, TfLiteNode* node, cmp_op op) {
  const cmp_data* d = (const cmp_data*)node->user_data;
  const TfLiteTensor* a = el_optional_input(ctx, node, 0);
  const TfLiteTensor* b = el_optional_input(ctx, node, 1);
  bool* o = ctx->tensors[node->outputs->data[0]].data.b;
  const el_bcast* p = &d->plan;
  if (!raw_comparable(op, a, b)) {
    switch (a->type) {
      /* Quantized paths: case kTfLiteInt8: return el_compare_invoke_quant(ctx, node, d); */
      default:
        return el_unsupported_type(ctx, kNames[op], a->type);
    }
  }
  switch (a->type) {
    case kTfLiteFloat32: COMPARE(float, a->data.f, b->data.f, o, RAW); break;
    case kTfLiteInt32: COMPARE(int32_t, a->data.i32, b->data.i32, o, RAW); break;
    case kTfLiteInt64: COMPARE(int64_t, a->data.i64, b->data.i64, o, RAW); break;
    case kTfLiteInt16: COMPARE(int16_t, a->data.i16, b->data.i16, o, RAW); break;
    case kTfLiteInt8: COMPARE(int8_t, a->data.int8, b->data.int8, o, RAW); break;
    case kTfLiteUInt8: COMPARE(uint8_t, a->data.uint8, b->data.uint8, o, RAW); break;
    case kTfLiteBool: COMPARE(uint8_t, a->data.uint8, b->data.uint8, o, BOOL_BYTE); break;
    default: return el_unsupported_type(ctx, kNames[op], a->type);
  }
  return kTfLiteOk;
}

#define DEFINE_CMP(name, OP, CODE) EL_FAMILY_REGISTRATION(name, cmp, OP, cmp_init, el_kernel_free, CODE)

DEFINE_CMP(equal, C_EQ, EL_OP_EQUAL);
DEFINE_CMP(not_equal, C_NE, EL_OP_NOT_EQUAL);
DEFINE_CMP(less, C_LT, EL_OP_LESS);
DEFINE_CMP(less_equal, C_LE, EL_OP_LESS_EQUAL);
DEFINE_CMP(greater, C_GT, EL_OP_GREATER);
DEFINE_CMP(greater_equal, C_GE, EL_OP_GREATER_EQUAL);
DEFINE_CMP(logical_and, C_AND, EL_OP_LOGICAL_AND);
DEFINE_CMP(logical_or, C_OR, EL_OP_LOGICAL_OR);
