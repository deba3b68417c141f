/* Reductions: MEAN SUM REDUCE_MAX REDUCE_MIN REDUCE_PROD, with keep_dims. Float32 and plain
 * integers here (computed axes make the output dynamic); quantized types hook in at the marked
 * switch cases and need constant axes. */
#include <math.h>
#include <stdint.h>

#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/reduce_quant.h"

typedef enum reduce_kind { R_MEAN, R_SUM, R_MAX, R_MIN, R_PROD } reduce_kind;

static const char* const kNames[] = {"MEAN", "SUM", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_PROD"};

typedef struct reduce_data {
  int rank;                         /* collapsed input rank */
  int dims[EL_MAX_DIMS];            /* collapsed input extents */
  int64_t out_strides[EL_MAX_DIMS]; /* output stride of each input dim; 0 where reduced */
  int64_t reduce_count;             /* input elements folded into each output element */
  void* quant;                      /* state of a quantized path (README.md) */
} reduce_data;

static void* reduce_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(reduce_data));
}

static bool plain_type_supported(reduce_kind kind, TfLiteType t) {
  if (t == kTfLiteFloat32 || t == kTfLiteInt32 || t == kTfLiteInt64) return true;
  /* Max and min of raw values need no rescaling, whatever the quantization. */
  return (kind == R_MAX || kind == R_MIN) && (t == kTfLiteInt8 || t == kTfLiteUInt8 || t == kTfLiteInt16);
}

/* Reads the axes, sizes the output and fills the walk. */
static TfLiteStatus reduce_plan(TfLiteContext* ctx, TfLiteNode* node, reduce_data* d) {
  const TfLiteTensor* input = el_optional_input(ctx, node, 0);
  const TfLiteTensor* axes = el_optional_input(ctx, node, 1);
  TfLiteTensor* output = &ctx->tensors[node->outputs->data[0]];
  const bool keep_dims =
      node->builtin_data ? ((const TfLiteReducerParams*)node->builtin_data)->keep_dims : false;
  const int rank = el_ndims(input);
  bool reduced[EL_MAX_DIMS] = {false};
  const int64_t num_axes = el_num_elements(axes);
  for (int64_t i = 0; i < num_axes; ++i) {
    int64_t a = el_read_index(axes, i);
    if (a < -rank || a >= rank) {
      ctx->ReportError(ctx, "Invalid axis %d for a tensor of rank %d.", (int)a, rank);
      return kTfLiteError;
    }
    if (a < 0) a += rank;
    reduced[a] = true;
  }

  int out_dims[EL_MAX_DIMS], out_rank = 0;
  for (int i = 0; i < rank; ++i) {
    if (!reduced[i]) out_dims[out_rank++] = el_dim(input, i);
    else if (keep_dims) out_dims[out_rank++] = 1;
  }
  EL_ENSURE_OK(ctx, el_resize(ctx, output, out_rank, out_dims));

  /* Collapse neighbouring dims that are both kept or both reduced. */
  int n = 0;
  bool red[EL_MAX_DIMS];
  d->reduce_count = 1;
  for (int i = 0; i < rank; ++i) {
    const int extent = el_dim(input, i);
    if (reduced[i]) d->reduce_count *= extent;
    if (extent == 1) continue;
    if (n > 0 && red[n - 1] == reduced[i]) {
      d->dims[n - 1] *= extent;
    } else {
      d->dims[n] = extent;
      red[n] = reduced[i];
      ++n;
    }
  }
  if (n == 0) {
    d->dims[0] = 1;
    red[0] = false;
    n = 1;
  }
  d->rank = n;
  int64_t stride = 1;
  for (int i = n - 1; i >= 0; --i) {
    d->out_strides[i] = red[i] ? 0 : stride;
    if (!red[i]) stride *= d->dims[i];
  }
  return kTfLiteOk;
}

static TfLiteStatus reduce_prepare(TfLiteContext* ctx, TfLiteNode* node, reduce_kind kind) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 2, 1));
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  reduce_data* d = (reduce_data*)node->user_data;
  const TfLiteTensor *input, *axes;
  TfLiteTensor* output;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &input));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 1, &axes));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &output));
  EL_ENSURE_TYPES_EQ(ctx, output->type, input->type);
  EL_ENSURE_OK(ctx, el_check_index_type(ctx, axes, "The reduction axes"));
  EL_ENSURE(ctx, el_ndims(input) <= EL_MAX_DIMS);
  const bool plain = plain_type_supported(kind, input->type);
  if (plain && !el_is_constant_or_persistent(axes)) {
    el_set_dynamic(output);
    return kTfLiteOk;
  }
  EL_ENSURE_OK(ctx, el_check_index_tensor(ctx, axes, "The reduction axes"));
  EL_ENSURE_OK(ctx, reduce_plan(ctx, node, d));

  if (plain) return kTfLiteOk;
  switch (input->type) {
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteInt16:
      return el_reduce_prepare_quant(ctx, node, &d->quant, kNames[kind]);
    default:
      return el_unsupported_type(ctx, kNames[kind], input->type);
  }
}

/* Visits every input element in order with `oi` the output element it folds into. */
#define REDUCE_WALK(d, n_in, ...)                                       \
  do {                                                                  \
    int idx_[EL_MAX_DIMS] = {0};                                        \
    int64_t oi = 0;                                                     \
    for (int64_t ii = 0; ii < (n_in); ++ii) {                           \
      __VA_ARGS__;                                                      \
      for (int k_ = (d)->rank - 1; k_ >= 0; --k_) {                     \
        oi += (d)->out_strides[k_];                                     \
        if (++idx_[k_] < (d)->dims[k_]) break;                          \
        oi -= (d)->out_strides[k_] * (d)->dims[k_];                     \
        idx_[k_] = 0;                                                   \
      }                                                                 \
    }                                                                   \
  } while (0)

#define REDUCE_TYPED(T, UT, in, out, lowest, highest)                                       \
  do {                                                                                      \
    T init = 0;                                                                             \
    if (kind == R_MAX) init = (lowest);                                                     \
    else if (kind == R_MIN) init = (highest);                                               \
    else if (kind == R_PROD) init = 1;                                                      \
    for (int64_t i = 0; i < n_out; ++i) (out)[i] = init;                                    \
    switch (kind) {                                                                         \
      case R_MEAN:                                                                          \
      case R_SUM:                                                                           \
        REDUCE_WALK(d, n_in, (out)[oi] = (T)((UT)(out)[oi] + (UT)(in)[ii]));                \
        break;                                                                              \
      case R_PROD:                                                                          \
        REDUCE_WALK(d, n_in, (out)[oi] = (T)((UT)(out)[oi] * (UT)(in)[ii]));                \
        break;                                                                              \
      case R_MAX:                                                                           \
        REDUCE_WALK(d, n_in, if ((in)[ii] > (out)[oi]) (out)[oi] = (in)[ii]);               \
        break;                                                                              \
      case R_MIN:                                                                           \
        REDUCE_WALK(d, n_in, if ((in)[ii] < (out)[oi]) (out)[oi] = (in)[ii]);               \
        break;                                                                              \
    }                                                                                       \
  } while (0)

static TfLiteStatus reduce_invoke(TfLiteContext* ctx, TfLiteNode* node, reduce_kind kind) {
  reduce_data* d = (reduce_data*)node->user_data;
  const TfLiteTensor* input = el_optional_input(ctx, node, 0);
  TfLiteTensor* output = &ctx->tensors[node->outputs->data[0]];
  if (el_is_dynamic(output)) EL_ENSURE_OK(ctx, reduce_plan(ctx, node, d));
  const int64_t n_in = el_num_elements(input);
  const int64_t n_out = el_num_elements(output);
  if (!plain_type_supported(kind, input->type)) {
    switch (input->type) {
      case kTfLiteUInt8:
      case kTfLiteInt8:
      case kTfLiteInt16:
        return el_reduce_invoke_quant(ctx, node, d->quant);
      default:
        return el_unsupported_type(ctx, kNames[kind], input->type);
    }
  }
  switch (input->type) {
    case kTfLiteFloat32: {
      float* out = output->data.f;
      REDUCE_TYPED(float, float, input->data.f, out, -INFINITY, INFINITY);
      if (kind == R_MEAN) {
        for (int64_t i = 0; i < n_out; ++i) out[i] /= (float)d->reduce_count;
      }
      return kTfLiteOk;
    }
    case kTfLiteInt32: {
      int32_t* out = output->data.i32;
      REDUCE_TYPED(int32_t, uint32_t, input->data.i32, out, INT32_MIN, INT32_MAX);
      if (kind == R_MEAN && d->reduce_count > 0) {
        for (int64_t i = 0; i < n_out; ++i) out[i] = (int32_t)(out[i] / d->reduce_count);
      }
      return kTfLiteOk;
    }
    case kTfLiteInt64: {
      int64_t* out = output->data.i64;
      REDUCE_TYPED(int64_t, uint64_t, input->data.i64, out, INT64_MIN, INT64_MAX);
      if (kind == R_MEAN && d->reduce_count > 0) {
        for (int64_t i = 0; i < n_out; ++i) out[i] /= d->reduce_count;
      }
      return kTfLiteOk;
    }
    case kTfLiteInt8: {
      int8_t* out = output->data.int8;
      REDUCE_TYPED(int8_t, int8_t, input->data.int8, out, INT8_MIN, INT8_MAX);
      return kTfLiteOk;
    }
    case kTfLiteUInt8: {
      uint8_t* out = output->data.uint8;
      REDUCE_TYPED(uint8_t, uint8_t, input->data.uint8, out, 0, UINT8_MAX);
      return kTfLiteOk;
    }
    case kTfLiteInt16: {
      int16_t* out = output->data.i16;
      REDUCE_TYPED(int16_t, int16_t, input->data.i16, out, INT16_MIN, INT16_MAX);
      return kTfLiteOk;
    }
    default:
      return el_unsupported_type(ctx, kNames[kind], input->type);
  }
}

#define DEFINE_REDUCE(name, KIND, CODE) EL_FAMILY_REGISTRATION(name, reduce, KIND, reduce_init, el_kernel_free, CODE)

DEFINE_REDUCE(mean, R_MEAN, EL_OP_MEAN);
DEFINE_REDUCE(sum, R_SUM, EL_OP_SUM);
DEFINE_REDUCE(reduce_max, R_MAX, EL_OP_REDUCE_MAX);
DEFINE_REDUCE(reduce_min, R_MIN, EL_OP_REDUCE_MIN);
DEFINE_REDUCE(reduce_prod, R_PROD, EL_OP_REDUCE_PROD);
