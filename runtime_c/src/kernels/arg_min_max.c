/* ARG_MAX and ARG_MIN along one axis (given by a one-element int32/int64 tensor), returning the
 * first index of the extreme value as int32 or int64. Raw values are compared, so quantized
 * tensors need no rescaling. */
#include "kernels/arg_min_max.h"
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"


static void* arg_init(TfLiteContext* context, const char* buffer, size_t length) {
  (void)context;
  (void)buffer;
  (void)length;
  return el_kernel_alloc(sizeof(el_arg_data));
}

static TfLiteStatus arg_prepare(TfLiteContext* context, TfLiteNode* node) {
  EL_ENSURE_OK(context, el_check_io_count(context, node, 2, 1));
  EL_ENSURE_OK(context, el_check_user_data(context, node));
  el_arg_data* d = (el_arg_data*)node->user_data;
  const TfLiteTensor* input;
  const TfLiteTensor* axis;
  TfLiteTensor* output;
  EL_ENSURE_OK(context, el_get_input(context, node, 0, &input));
  EL_ENSURE_OK(context, el_get_input(context, node, 1, &axis));
  EL_ENSURE_OK(context, el_get_output(context, node, 0, &output));
  EL_ENSURE_EQ(context, el_num_elements(axis), 1);
  EL_ENSURE_OK(context, el_check_index_tensor(context, axis, "The axis"));
  EL_ENSURE(context, input->type == kTfLiteFloat32 || input->type == kTfLiteUInt8 ||
                         input->type == kTfLiteInt8 || input->type == kTfLiteInt16 ||
                         input->type == kTfLiteInt32 || input->type == kTfLiteBool);
  /* ARG_MAX and ARG_MIN options share one layout: {output_type}. */
  const TfLiteArgMaxParams* params = (const TfLiteArgMaxParams*)node->builtin_data;
  const TfLiteType out_type = params ? params->output_type : kTfLiteInt64;
  EL_ENSURE(context, out_type == kTfLiteInt32 || out_type == kTfLiteInt64);
  output->type = out_type;
  const int rank = el_ndims(input);
  EL_ENSURE(context, rank >= 1 && rank <= EL_MAX_DIMS);
  int64_t a = el_read_index(axis, 0);
  if (a < 0) a += rank;
  EL_ENSURE_MSG(context, a >= 0 && a < rank, "ARG_MAX/ARG_MIN axis is out of range.");
  int dims[EL_MAX_DIMS];
  int n = 0;
  d->outer = 1;
  d->inner = 1;
  for (int i = 0; i < rank; ++i) {
    if (i < a) d->outer *= input->dims->data[i];
    if (i > a) d->inner *= input->dims->data[i];
    if (i != a) dims[n++] = input->dims->data[i];
  }
  d->axis_size = input->dims->data[a];
  return el_resize(context, output, n, dims);
}

/* Element k of p; bool inputs are read as bytes, any non-zero byte true (a byte other than 0
 * or 1, which a caller can write, is no valid _Bool to load). */
#define AT_RAW(p, k) ((p)[k])
#define AT_BOOL(p, k) ((uint8_t)((p)[k] != 0))

#define ARG_LOOP(T, field, better, AT)                                                 \
  do {                                                                                 \
    const T* in = input->data.field;                                                   \
    for (int64_t o = 0; o < d->outer; ++o) {                                           \
      for (int64_t i = 0; i < d->inner; ++i) {                                         \
        const T* p = in + o * d->axis_size * d->inner + i;                             \
        T best = AT(p, 0);                                                             \
        int64_t best_index = 0;                                                        \
        for (int k = 1; k < d->axis_size; ++k) {                                       \
          const T v = AT(p, (int64_t)k * d->inner);                                    \
          if (better) {                                                                \
            best = v;                                                                  \
            best_index = k;                                                            \
          }                                                                            \
        }                                                                              \
        const int64_t out_index = o * d->inner + i;                                    \
        if (output->type == kTfLiteInt32) {                                            \
          output->data.i32[out_index] = (int32_t)best_index;                           \
        } else {                                                                       \
          output->data.i64[out_index] = best_index;                                    \
        }                                                                              \
      }                                                                                \
    }                                                                                  \
  } while (0)

#define ARG_DISPATCH(better)                          \
  switch (input->type) {                              \
    case kTfLiteFloat32:                              \
      ARG_LOOP(float, f, better, AT_RAW);             \
      break;                                          \
    case kTfLiteUInt8:                                \
      ARG_LOOP(uint8_t, uint8, better, AT_RAW);       \
      break;                                          \
    case kTfLiteInt8:                                 \
      ARG_LOOP(int8_t, int8, better, AT_RAW);         \
      break;                                          \
    case kTfLiteInt16:                                \
      ARG_LOOP(int16_t, i16, better, AT_RAW);         \
      break;                                          \
    case kTfLiteInt32:                                \
      ARG_LOOP(int32_t, i32, better, AT_RAW);         \
      break;                                          \
    case kTfLiteBool:                                 \
      ARG_LOOP(uint8_t, uint8, better, AT_BOOL);      \
      break;                                          \
    default:                                          \
      return el_unsupported_type(context, name, input->type); \
  }

static TfLiteStatus arg_invoke(TfLiteContext* context, TfLiteNode* node, bool is_max) {
  const el_arg_data* d = (const el_arg_data*)node->user_data;
  const TfLiteTensor* input;
  TfLiteTensor* output;
  EL_ENSURE_OK(context, el_get_input(context, node, 0, &input));
  EL_ENSURE_OK(context, el_get_output(context, node, 0, &output));
  const char* name = is_max ? "ARG_MAX" : "ARG_MIN";
  if (d->axis_size == 0) return kTfLiteOk;
  if (is_max) {
    ARG_DISPATCH(v > best);
  } else {
    ARG_DISPATCH(v < best);
  }
  return kTfLiteOk;
}

static TfLiteStatus arg_max_invoke(TfLiteContext* context, TfLiteNode* node) {
  return arg_invoke(context, node, true);
}

static TfLiteStatus arg_min_invoke(TfLiteContext* context, TfLiteNode* node) {
  return arg_invoke(context, node, false);
}

const TfLiteRegistration el_ref_arg_max =
    EL_REGISTRATION(arg_init, el_kernel_free, arg_prepare, arg_max_invoke, EL_OP_ARG_MAX);
const TfLiteRegistration el_ref_arg_min =
    EL_REGISTRATION(arg_init, el_kernel_free, arg_prepare, arg_min_invoke, EL_OP_ARG_MIN);
