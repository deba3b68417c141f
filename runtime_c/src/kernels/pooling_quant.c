#include "kernels/pooling_quant.h"

#include <stdbool.h>
#include <string.h>

#include "kernels/kernel_util.h"
#include "kernels/quant_util.h"

/* The activation range; the window is el_pool_data's. */
typedef struct el_pool_q {
  int32_t act_min;
  int32_t act_max;
} el_pool_q;

TfLiteStatus el_pool_prepare_quant(TfLiteContext* context, TfLiteNode* node, el_pool_data* d, const char* op_name) {
  el_pool_q* q = (el_pool_q*)el_q_state(context, &d->quant, sizeof(el_pool_q));
  EL_ENSURE(context, q != NULL);
  if (strcmp(op_name, "AVERAGE_POOL_2D") != 0 && strcmp(op_name, "MAX_POOL_2D") != 0) {
    context->ReportError(context, "%s has no quantized kernel.", op_name);
    return kTfLiteError;
  }
  const TfLitePoolParams* params = (const TfLitePoolParams*)node->builtin_data;
  TfLiteTensor* output;
  EL_ENSURE_OK(context, el_get_output(context, node, 0, &output));
  return el_q_activation_range(params->activation, output->type, output->params.scale, output->params.zero_point,
                               &q->act_min, &q->act_max);
}

/* Walks every output element; the body sees the clipped window [fy0, fy1) x [fx0, fx1), the
 * window origin (y0, x0), the batch b, channel c, and the output offset o. */
#define POOL_FOR_EACH(params, d, input, output, body)                                       \
  do {                                                                                      \
    const int batches_ = (input)->dims->data[0];                                            \
    const int in_h = (input)->dims->data[1];                                                \
    const int in_w = (input)->dims->data[2];                                                \
    const int depth = (input)->dims->data[3];                                               \
    const int out_h_ = (output)->dims->data[1];                                             \
    const int out_w_ = (output)->dims->data[2];                                             \
    int64_t o = 0;                                                                          \
    for (int b = 0; b < batches_; ++b)                                                      \
      for (int oy = 0; oy < out_h_; ++oy)                                                   \
        for (int ox = 0; ox < out_w_; ++ox) {                                               \
          const int y0 = oy * (params)->stride_height - (d)->pad_h;                         \
          const int x0 = ox * (params)->stride_width - (d)->pad_w;                          \
          const int fy0 = y0 < 0 ? -y0 : 0;                                                 \
          const int fx0 = x0 < 0 ? -x0 : 0;                                                 \
          const int fy1 = (params)->filter_height < in_h - y0 ? (params)->filter_height     \
                                                              : in_h - y0;                  \
          const int fx1 = (params)->filter_width < in_w - x0 ? (params)->filter_width       \
                                                             : in_w - x0;                   \
          for (int c = 0; c < depth; ++c, ++o) {                                            \
            body                                                                            \
          }                                                                                 \
        }                                                                                   \
  } while (0)

#define IN_INDEX(b, y, x, c) ((((int64_t)(b) * in_h + (y)) * in_w + (x)) * depth + (c))

#define AVG_POOL(T, field)                                                                 \
  do {                                                                                     \
    const T* in = input->data.field;                                                       \
    T* out = output->data.field;                                                           \
    POOL_FOR_EACH(params, d, input, output, {                                              \
      int64_t acc = 0;                                                                     \
      int count = 0;                                                                       \
      for (int fy = fy0; fy < fy1; ++fy)                                                   \
        for (int fx = fx0; fx < fx1; ++fx) {                                               \
          acc += in[IN_INDEX(b, y0 + fy, x0 + fx, c)];                                     \
          ++count;                                                                         \
        }                                                                                  \
      if (count == 0) {                                                                    \
        context->ReportError(context, "AVERAGE_POOL_2D window has no input element.");     \
        return kTfLiteError;                                                               \
      }                                                                                    \
      acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;               \
      if (acc < q->act_min) acc = q->act_min;                                              \
      if (acc > q->act_max) acc = q->act_max;                                              \
      out[o] = (T)acc;                                                                     \
    });                                                                                    \
  } while (0)

#define MAX_POOL(T, field, lowest)                                                         \
  do {                                                                                     \
    const T* in = input->data.field;                                                       \
    T* out = output->data.field;                                                           \
    POOL_FOR_EACH(params, d, input, output, {                                              \
      int32_t m = (lowest);                                                                \
      for (int fy = fy0; fy < fy1; ++fy)                                                   \
        for (int fx = fx0; fx < fx1; ++fx) {                                               \
          const int32_t v = in[IN_INDEX(b, y0 + fy, x0 + fx, c)];                          \
          if (v > m) m = v;                                                                \
        }                                                                                  \
      out[o] = (T)el_q_clamp(m, q->act_min, q->act_max);                                   \
    });                                                                                    \
  } while (0)

static TfLiteStatus avg_pool(TfLiteContext* context, TfLiteNode* node, const el_pool_data* d,
                             const el_pool_q* q) {
  const TfLitePoolParams* params = (const TfLitePoolParams*)node->builtin_data;
  const TfLiteTensor* input;
  TfLiteTensor* output;
  EL_ENSURE_OK(context, el_get_input(context, node, 0, &input));
  EL_ENSURE_OK(context, el_get_output(context, node, 0, &output));
  switch (input->type) {
    case kTfLiteUInt8:
      AVG_POOL(uint8_t, uint8);
      return kTfLiteOk;
    case kTfLiteInt8:
      AVG_POOL(int8_t, int8);
      return kTfLiteOk;
    case kTfLiteInt16:
      AVG_POOL(int16_t, i16);
      return kTfLiteOk;
    default:
      return el_unsupported_type(context, "AVERAGE_POOL_2D", input->type);
  }
}

static TfLiteStatus max_pool(TfLiteContext* context, TfLiteNode* node, const el_pool_data* d,
                             const el_pool_q* q) {
  const TfLitePoolParams* params = (const TfLitePoolParams*)node->builtin_data;
  const TfLiteTensor* input;
  TfLiteTensor* output;
  EL_ENSURE_OK(context, el_get_input(context, node, 0, &input));
  EL_ENSURE_OK(context, el_get_output(context, node, 0, &output));
  switch (input->type) {
    case kTfLiteUInt8:
      MAX_POOL(uint8_t, uint8, 0);
      return kTfLiteOk;
    case kTfLiteInt8:
      MAX_POOL(int8_t, int8, -128);
      return kTfLiteOk;
    case kTfLiteInt16:
      MAX_POOL(int16_t, i16, INT16_MIN);
      return kTfLiteOk;
    default:
      return el_unsupported_type(context, "MAX_POOL_2D", input->type);
  }
}

TfLiteStatus el_pool_invoke_quant(TfLiteContext* context, TfLiteNode* node, const el_pool_data* d, bool average) {
  const el_pool_q* q = (const el_pool_q*)d->quant;
  EL_ENSURE(context, q != NULL);
  return average ? avg_pool(context, node, d, q) : max_pool(context, node, d, q);
}
