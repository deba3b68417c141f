/* Activation functions: RELU RELU6 RELU_N1_TO_1 RELU_0_TO_1 LOGISTIC TANH LEAKY_RELU HARD_SWISH
 * ELU GELU, and PRELU (alpha broadcast against the input). Float32 here; quantized types hook in
 * at the marked switch cases (README.md). */
#include <math.h>

#include "kernels/activations_quant.h"
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"

typedef enum act_op {
  A_RELU,
  A_RELU6,
  A_RELU_N1_TO_1,
  A_RELU_0_TO_1,
  A_LOGISTIC,
  A_TANH,
  A_LEAKY_RELU,
  A_HARD_SWISH,
  A_ELU,
  A_GELU
} act_op;

static const char* const kNames[] = {"RELU",       "RELU6",      "RELU_N1_TO_1", "RELU_0_TO_1",
                                     "LOGISTIC",   "TANH",       "LEAKY_RELU",   "HARD_SWISH",
                                     "ELU",        "GELU"};

static TfLiteStatus act_prepare(TfLiteContext* ctx, TfLiteNode* node, act_op op) {
  const TfLiteTensor* in;
  EL_ENSURE_OK(ctx, el_prepare_elementwise_unary(ctx, node, &in));
  switch (in->type) {
    case kTfLiteFloat32:
      return kTfLiteOk;
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteInt16:
      return el_act_prepare_quant(ctx, node, kNames[op]);
    default:
      return el_unsupported_type(ctx, kNames[op], in->type);
  }
}

/* TFLite's reference logistic: saturate where float32 can no longer tell the result from its
 * limit, which also keeps expf from overflowing. */
static inline float logistic(float x) {
  const float upper = 16.619047164916992188f;
  const float lower = -9.0f;
  if (x > upper) return 1.0f;
  if (x < lower) return expf(x);
  return 1.0f / (1.0f + expf(-x));
}

static inline float gelu(float x, bool approximate) {
  if (approximate) {
    const float k = 0.7978845608028654f; /* sqrt(2/pi) */
    return 0.5f * x * (1.0f + tanhf(k * (x + 0.044715f * x * x * x)));
  }
  return 0.5f * x * (1.0f + erff(x * 0.7071067811865476f));
}

static void invoke_f32(act_op op, const void* params, const float* x, float* y, int64_t n) {
  switch (op) {
    case A_RELU:
      for (int64_t i = 0; i < n; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
      break;
    case A_RELU6:
      for (int64_t i = 0; i < n; ++i) y[i] = el_clamp_f32(x[i], 0.0f, 6.0f);
      break;
    case A_RELU_N1_TO_1:
      for (int64_t i = 0; i < n; ++i) y[i] = el_clamp_f32(x[i], -1.0f, 1.0f);
      break;
    case A_RELU_0_TO_1:
      for (int64_t i = 0; i < n; ++i) y[i] = el_clamp_f32(x[i], 0.0f, 1.0f);
      break;
    case A_LOGISTIC:
      for (int64_t i = 0; i < n; ++i) y[i] = logistic(x[i]);
      break;
    case A_TANH:
      for (int64_t i = 0; i < n; ++i) y[i] = tanhf(x[i]);
      break;
    case A_LEAKY_RELU: {
      const float alpha = params ? ((const TfLiteLeakyReluParams*)params)->alpha : 0.0f;
      for (int64_t i = 0; i < n; ++i) y[i] = x[i] > 0.0f ? x[i] : x[i] * alpha;
      break;
    }
    case A_HARD_SWISH:
      for (int64_t i = 0; i < n; ++i) y[i] = x[i] * el_clamp_f32(x[i] + 3.0f, 0.0f, 6.0f) / 6.0f;
      break;
    case A_ELU:
      for (int64_t i = 0; i < n; ++i) y[i] = x[i] < 0.0f ? expm1f(x[i]) : x[i];
      break;
    case A_GELU: {
      const bool approximate = params ? ((const TfLiteGeluParams*)params)->approximate : false;
      for (int64_t i = 0; i < n; ++i) y[i] = gelu(x[i], approximate);
      break;
    }
  }
}

static TfLiteStatus act_invoke(TfLiteContext* ctx, TfLiteNode* node, act_op op) {
  const TfLiteTensor* in = el_optional_input(ctx, node, 0);
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  switch (in->type) {
    case kTfLiteFloat32:
      invoke_f32(op, node->builtin_data, in->data.f, out->data.f, el_num_elements(in));
      return kTfLiteOk;
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteInt16:
      return el_act_invoke_quant(ctx, node);
    default:
      return el_unsupported_type(ctx, kNames[op], in->type);
  }
}

#define DEFINE_ACT(name, OP, CODE) EL_FAMILY_REGISTRATION(name, act, OP, NULL, NULL, CODE)

DEFINE_ACT(relu, A_RELU, EL_OP_RELU);
DEFINE_ACT(relu6, A_RELU6, EL_OP_RELU6);
DEFINE_ACT(relu_n1_to_1, A_RELU_N1_TO_1, EL_OP_RELU_N1_TO_1);
DEFINE_ACT(relu_0_to_1, A_RELU_0_TO_1, EL_OP_RELU_0_TO_1);
DEFINE_ACT(logistic, A_LOGISTIC, EL_OP_LOGISTIC);
DEFINE_ACT(tanh, A_TANH, EL_OP_TANH);
DEFINE_ACT(leaky_relu, A_LEAKY_RELU, EL_OP_LEAKY_RELU);
DEFINE_ACT(hard_swish, A_HARD_SWISH, EL_OP_HARD_SWISH);
DEFINE_ACT(elu, A_ELU, EL_OP_ELU);
DEFINE_ACT(gelu, A_GELU, EL_OP_GELU);

/* PRELU: out = x >= 0 ? x : x * alpha, with alpha broadcast against x. */
typedef struct prelu_data {
  el_bcast plan;
  void* quant;
} prelu_data;

static void* prelu_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(prelu_data));
}

static TfLiteStatus prelu_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 2, 1));
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  prelu_data* d = (prelu_data*)node->user_data;
  const TfLiteTensor *in, *alpha;
  TfLiteTensor* out;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &in));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 1, &alpha));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &out));
  EL_ENSURE_TYPES_EQ(ctx, alpha->type, in->type);
  EL_ENSURE_TYPES_EQ(ctx, out->type, in->type);
  int dims[EL_MAX_DIMS], ndims;
  EL_ENSURE_OK(ctx, el_bcast_prepare(ctx, in, alpha, 6, dims, &ndims, &d->plan));
  EL_ENSURE_OK(ctx, el_resize(ctx, out, ndims, dims));
  switch (in->type) {
    case kTfLiteFloat32:
      return kTfLiteOk;
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteInt16:
      return el_prelu_prepare_quant(ctx, node, &d->quant);
    default:
      return el_unsupported_type(ctx, "PRELU", in->type);
  }
}

static TfLiteStatus prelu_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const prelu_data* d = (const prelu_data*)node->user_data;
  const TfLiteTensor* in = el_optional_input(ctx, node, 0);
  const TfLiteTensor* alpha = el_optional_input(ctx, node, 1);
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  switch (in->type) {
    case kTfLiteFloat32: {
      const float* x = in->data.f;
      const float* a = alpha->data.f;
      float* y = out->data.f;
      EL_BCAST_FOR_EACH(&d->plan, const float v = x[el_ai]; y[el_oi] = v >= 0.0f ? v : v * a[el_bi]);
      return kTfLiteOk;
    }
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteInt16:
      return el_prelu_invoke_quant(ctx, node, d->quant);
    default:
      return el_unsupported_type(ctx, "PRELU", in->type);
  }
}

const TfLiteRegistration el_ref_prelu =
    EL_REGISTRATION(prelu_init, el_kernel_free, prelu_prepare, prelu_invoke, EL_OP_PRELU);
