/* Helpers shared by every kernel: tensor access, shape arithmetic, broadcasting, padding and
 * activation ranges (the same rules as TFLite's kernel_util.h and padding.h). */
#ifndef EDGELITE_KERNELS_KERNEL_UTIL_H_
#define EDGELITE_KERNELS_KERNEL_UTIL_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "edgelite/builtin_op_data.h"
#include "edgelite/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Highest tensor rank the shape-manipulating kernels accept. */
#define EL_MAX_DIMS 8

/* Error texts name the kernel file without the build machine's directories. */
#ifdef __FILE_NAME__
#define EL_FILE __FILE_NAME__
#else
#define EL_FILE __FILE__
#endif

#define EL_ENSURE(ctx, cond)                                                                  \
  do {                                                                                        \
    if (!(cond)) {                                                                            \
      (ctx)->ReportError((ctx), "%s:%d %s was not true.", EL_FILE, __LINE__, #cond);         \
      return kTfLiteError;                                                                    \
    }                                                                                         \
  } while (0)

#define EL_ENSURE_MSG(ctx, cond, msg)                \
  do {                                               \
    if (!(cond)) {                                   \
      (ctx)->ReportError((ctx), "%s", (msg));        \
      return kTfLiteError;                           \
    }                                                \
  } while (0)

#define EL_ENSURE_EQ(ctx, a, b)                                                                 \
  do {                                                                                          \
    if ((a) != (b)) {                                                                           \
      (ctx)->ReportError((ctx), "%s:%d %s != %s (%d != %d)", EL_FILE, __LINE__, #a, #b,        \
                         (int)(a), (int)(b));                                                   \
      return kTfLiteError;                                                                      \
    }                                                                                           \
  } while (0)

#define EL_ENSURE_TYPES_EQ(ctx, a, b)                                                          \
  do {                                                                                         \
    if ((a) != (b)) {                                                                          \
      (ctx)->ReportError((ctx), "%s:%d %s != %s (%s != %s)", EL_FILE, __LINE__, #a, #b,       \
                         TfLiteTypeGetName(a), TfLiteTypeGetName(b));                          \
      return kTfLiteError;                                                                     \
    }                                                                                          \
  } while (0)

#ifdef EDGELITE_STRIP_ERROR_TEXT
/* A build without message texts (error.h) names only the failing check's file and line. */
#undef EL_ENSURE
#undef EL_ENSURE_MSG
#undef EL_ENSURE_EQ
#undef EL_ENSURE_TYPES_EQ
#define EL_ENSURE_STRIPPED_(ctx, failed)                                    \
  do {                                                                      \
    if (failed) {                                                           \
      (ctx)->ReportError((ctx), "edgelite error at %s:%d", EL_FILE, __LINE__); \
      return kTfLiteError;                                                  \
    }                                                                       \
  } while (0)
#define EL_ENSURE(ctx, cond) EL_ENSURE_STRIPPED_(ctx, !(cond))
#define EL_ENSURE_MSG(ctx, cond, msg) EL_ENSURE_STRIPPED_(ctx, !(cond))
#define EL_ENSURE_EQ(ctx, a, b) EL_ENSURE_STRIPPED_(ctx, (a) != (b))
#define EL_ENSURE_TYPES_EQ(ctx, a, b) EL_ENSURE_STRIPPED_(ctx, (a) != (b))
#endif

#define EL_ENSURE_OK(ctx, expr)            \
  do {                                     \
    const TfLiteStatus el_s_ = (expr);     \
    (void)(ctx);                           \
    if (el_s_ != kTfLiteOk) return el_s_;  \
  } while (0)

/* --- tensor access --------------------------------------------------------------------- */

int el_num_inputs(const TfLiteNode* node);
int el_num_outputs(const TfLiteNode* node);
/* The i-th input, or NULL when the node has fewer inputs or the slot is -1 (absent optional). */
const TfLiteTensor* el_optional_input(TfLiteContext* ctx, const TfLiteNode* node, int i);
/* The i-th input/output; reports an error when missing. */
TfLiteStatus el_get_input(TfLiteContext* ctx, const TfLiteNode* node, int i,
                          const TfLiteTensor** out);
TfLiteStatus el_get_output(TfLiteContext* ctx, const TfLiteNode* node, int i, TfLiteTensor** out);
/* Reports an error unless the node has exactly these many inputs / outputs. */
TfLiteStatus el_check_io_count(TfLiteContext* ctx, const TfLiteNode* node, int inputs, int outputs);

/* An elementwise one-input op: one input, one output of the input's type resized to its shape. */
TfLiteStatus el_prepare_elementwise_unary(TfLiteContext* ctx, const TfLiteNode* node, const TfLiteTensor** in);

/* The operands of a filter op (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED): input, filter and an
 * optional bias (NULL when absent) in, one output. */
TfLiteStatus el_get_filter_operands(TfLiteContext* ctx, const TfLiteNode* node, const TfLiteTensor** input,
                                    const TfLiteTensor** filter, const TfLiteTensor** bias, TfLiteTensor** output);
/* Reports an error when prepare found no per-node data (init failed to allocate). */
TfLiteStatus el_check_user_data(TfLiteContext* ctx, const TfLiteNode* node);

static inline int el_ndims(const TfLiteTensor* t) { return t->dims ? t->dims->size : 0; }
static inline int el_dim(const TfLiteTensor* t, int i) { return t->dims->data[i]; }
int64_t el_num_elements(const TfLiteTensor* t);
int64_t el_product(const int* dims, int n);
/* a * b into *out for shape and size arithmetic on values a model or an operand supplies;
 * false when the product does not fit int64, so prepare can refuse the node instead of
 * overflowing. (Dims of a tensor need no check: the core keeps every tensor within INT32_MAX
 * elements.) */
static inline bool el_checked_mul(int64_t a, int64_t b, int64_t* out) {
  return !__builtin_mul_overflow(a, b, out);
}
bool el_same_shape(const TfLiteTensor* a, const TfLiteTensor* b);

/* Data the kernel may read at prepare time: model constants, or outputs other kernels
 * computed during their own prepare (TFLite's kTfLitePersistentRo shape propagation). */
bool el_is_constant_or_persistent(const TfLiteTensor* t);

/* Bytes per element; 0 for types without a fixed size. */
size_t el_type_size(TfLiteType type);

/* Resizes `t` to `dims` through the core (ownership of the new array passes to it). */
TfLiteStatus el_resize(TfLiteContext* ctx, TfLiteTensor* t, int ndims, const int* dims);
/* Resizes `out` to the shape of `like`. */
TfLiteStatus el_resize_like(TfLiteContext* ctx, TfLiteTensor* out, const TfLiteTensor* like);

/* Reads element i of an int32 or int64 tensor as int64 (shape/axis/index operands). */
int64_t el_read_index(const TfLiteTensor* t, int64_t i);
/* Checks that `t` holds int32 or int64 data. */
TfLiteStatus el_check_index_type(TfLiteContext* ctx, const TfLiteTensor* t, const char* what);
/* As el_check_index_type, and the data must be readable at prepare time. */
TfLiteStatus el_check_index_tensor(TfLiteContext* ctx, const TfLiteTensor* t, const char* what);

/* Marks an output whose shape depends on operand values known only at invoke (TFLite's
 * SetTensorToDynamic). The core then leaves it out of the arena and prepares the nodes after
 * it during invoke; the kernel sizes it from its invoke with el_resize. */
void el_set_dynamic(TfLiteTensor* t);
static inline bool el_is_dynamic(const TfLiteTensor* t) { return t->allocation_type == kTfLiteDynamic; }

/* --- broadcasting ---------------------------------------------------------------------- */

/* A numpy-style broadcast of two operands, with runs of dimensions that broadcast the same
 * way collapsed, so invoke walks at most a few nested loops. */
typedef struct el_bcast {
  int ndims;                        /* collapsed rank, >= 1 */
  int dims[EL_MAX_DIMS];            /* collapsed output extents */
  int64_t a_strides[EL_MAX_DIMS];   /* element strides into a; 0 where a broadcasts */
  int64_t b_strides[EL_MAX_DIMS];
  int64_t count;                    /* output elements */
} el_bcast;

/* Computes the broadcast output shape of a and b (rank <= max_rank) into out_dims/out_ndims and
 * the collapsed iteration plan. Reports TFLite's message when the shapes do not broadcast. */
TfLiteStatus el_bcast_prepare(TfLiteContext* ctx, const TfLiteTensor* a, const TfLiteTensor* b,
                              int max_rank, int* out_dims, int* out_ndims, el_bcast* plan);

/* Walks a plan: the body (the variadic argument, so it may contain commas) sees `el_ai`,
 * `el_bi` (input element offsets) and `el_oi` (output offset) as int64_t. The innermost
 * dimension is a plain counted loop. */
#define EL_BCAST_FOR_EACH(plan, ...)                                                   \
  do {                                                                                  \
    const el_bcast* el_p_ = (plan);                                                     \
    const int el_n_ = el_p_->ndims;                                                     \
    const int el_inner_ = el_p_->dims[el_n_ - 1];                                       \
    const int64_t el_as_ = el_p_->a_strides[el_n_ - 1];                                 \
    const int64_t el_bs_ = el_p_->b_strides[el_n_ - 1];                                 \
    int el_idx_[EL_MAX_DIMS] = {0};                                                     \
    int64_t el_abase_ = 0, el_bbase_ = 0, el_oi = 0;                                    \
    if (el_p_->count > 0) {                                                             \
      for (;;) {                                                                        \
        int64_t el_ai = el_abase_, el_bi = el_bbase_;                                   \
        for (int el_k_ = 0; el_k_ < el_inner_; ++el_k_) {                               \
          __VA_ARGS__;                                                                  \
          el_ai += el_as_;                                                              \
          el_bi += el_bs_;                                                              \
          ++el_oi;                                                                      \
        }                                                                               \
        int el_d_ = el_n_ - 2;                                                          \
        while (el_d_ >= 0) {                                                            \
          el_abase_ += el_p_->a_strides[el_d_];                                         \
          el_bbase_ += el_p_->b_strides[el_d_];                                         \
          if (++el_idx_[el_d_] < el_p_->dims[el_d_]) break;                             \
          el_abase_ -= el_p_->a_strides[el_d_] * el_p_->dims[el_d_];                    \
          el_bbase_ -= el_p_->b_strides[el_d_] * el_p_->dims[el_d_];                    \
          el_idx_[el_d_] = 0;                                                           \
          --el_d_;                                                                      \
        }                                                                               \
        if (el_d_ < 0) break;                                                           \
      }                                                                                 \
    }                                                                                   \
  } while (0)

/* --- convolution geometry (TFLite padding.h) -------------------------------------------- */

int el_compute_out_size(TfLitePadding padding, int image, int filter, int stride, int dilation);
/* Padding before the first element for SAME/VALID, with the odd remainder in *offset. */
int el_compute_padding_with_offset(int stride, int dilation, int in_size, int filter_size,
                                   int out_size, int* offset);
TfLitePaddingValues el_compute_padding_hw(int stride_h, int stride_w, int dilation_h,
                                          int dilation_w, int in_h, int in_w, int filter_h,
                                          int filter_w, TfLitePadding padding, int* out_h,
                                          int* out_w);

/* --- activations ------------------------------------------------------------------------ */

/* Clamp range of a fused activation for float outputs (TFLite's CalculateActivationRange:
 * only RELU, RELU6 and RELU_N1_TO_1 clamp; the others leave the range open). */
void el_activation_range_f32(TfLiteFusedActivation act, float* lo, float* hi);
void el_activation_range_i32(TfLiteFusedActivation act, int32_t* lo, int32_t* hi);
void el_activation_range_i64(TfLiteFusedActivation act, int64_t* lo, int64_t* hi);

static inline float el_clamp_f32(float v, float lo, float hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

/* --- float16 ----------------------------------------------------------------------------- */

float el_f16_to_f32(uint16_t h);
uint16_t el_f32_to_f16(float f);

/* --- errors ------------------------------------------------------------------------------ */

TfLiteStatus el_unsupported_type(TfLiteContext* ctx, const char* op, TfLiteType type);

#ifdef __cplusplus
}
#endif
#endif /* EDGELITE_KERNELS_KERNEL_UTIL_H_ */
