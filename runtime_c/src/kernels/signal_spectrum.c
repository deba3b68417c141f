/* The signal ops around the FFT: SignalWindow (int16 frame times an int16 window, shifted right
 * and saturated), SignalFftAutoScale (shifts a frame left as far as its largest magnitude
 * allows, reporting the shift) and SignalEnergy (squared magnitudes of int16 complex bins). */
#include <string.h>

#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/signal_ops.h"

/* ---- SignalWindow --------------------------------------------------------------------------- */

static void* window_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  return el_signal_init_one_option(buf, len, "shift", 0, 31);
}

static TfLiteStatus window_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  const el_signal_one_option* d = (const el_signal_one_option*)node->user_data;
  EL_ENSURE_MSG(ctx, d->options_ok, "SignalWindow: its options must be a flexbuffer map with an integer 'shift' in [0, 31].");
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 2, 1));
  const TfLiteTensor *input, *weights;
  TfLiteTensor* output;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &input));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 1, &weights));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &output));
  EL_ENSURE(ctx, el_ndims(input) >= 1);
  EL_ENSURE_EQ(ctx, el_ndims(weights), 1);
  EL_ENSURE_TYPES_EQ(ctx, input->type, kTfLiteInt16);
  EL_ENSURE_TYPES_EQ(ctx, weights->type, kTfLiteInt16);
  EL_ENSURE_TYPES_EQ(ctx, output->type, kTfLiteInt16);
  const int64_t n = el_dim(weights, 0);
  EL_ENSURE_MSG(ctx, n > 0 && el_num_elements(input) % n == 0,
                "SignalWindow: the input's size must be a multiple of the window's length.");
  return el_resize_like(ctx, output, input);
}

static TfLiteStatus window_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  (void)ctx;
  const el_signal_one_option* d = (const el_signal_one_option*)node->user_data;
  const TfLiteTensor* input = &ctx->tensors[node->inputs->data[0]];
  const TfLiteTensor* weights = &ctx->tensors[node->inputs->data[1]];
  TfLiteTensor* output = &ctx->tensors[node->outputs->data[0]];
  const int64_t total = el_num_elements(input), n = el_dim(weights, 0);
  const int16_t* x = input->data.i16;
  const int16_t* w = weights->data.i16;
  int16_t* y = output->data.i16;
  for (int64_t i = 0; i < total; ++i) {
    const int32_t v = ((int32_t)x[i] * w[i % n]) >> d->value;
    y[i] = (int16_t)(v < INT16_MIN ? INT16_MIN : v > INT16_MAX ? INT16_MAX : v);
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_signal_window =
    EL_REGISTRATION(window_init, el_kernel_free, window_prepare, window_invoke, EL_OP_CUSTOM);

/* ---- SignalFftAutoScale --------------------------------------------------------------------- */

static TfLiteStatus auto_scale_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 1, 2));
  const TfLiteTensor* input;
  TfLiteTensor *output, *scale;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &input));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &output));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 1, &scale));
  EL_ENSURE_EQ(ctx, el_ndims(input), 1);
  EL_ENSURE_TYPES_EQ(ctx, input->type, kTfLiteInt16);
  EL_ENSURE_TYPES_EQ(ctx, output->type, kTfLiteInt16);
  EL_ENSURE_TYPES_EQ(ctx, scale->type, kTfLiteInt32);
  EL_ENSURE_OK(ctx, el_resize_like(ctx, output, input));
  return el_resize(ctx, scale, 0, NULL);
}

static TfLiteStatus auto_scale_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* input = &ctx->tensors[node->inputs->data[0]];
  TfLiteTensor* output = &ctx->tensors[node->outputs->data[0]];
  TfLiteTensor* scale = &ctx->tensors[node->outputs->data[1]];
  const int n = el_dim(input, 0);
  const int16_t* x = input->data.i16;
  /* The largest magnitude kept in int16, as TFLM does: -(-32768) wraps back to -32768, whose
   * unsigned bit pattern then makes the shift 0. */
  int16_t max = 0;
  for (int i = 0; i < n; ++i) {
    if (x[i] > max) {
      max = x[i];
    } else if (-x[i] > max) {
      max = (int16_t)-x[i];
    }
  }
  int bits = 16 - (int)el_signal_msb32((uint32_t)(int32_t)max) - 1;
  if (bits < 0) bits = 0;
  int16_t* y = output->data.i16;
  for (int i = 0; i < n; ++i) y[i] = (int16_t)(x[i] * (1 << bits));
  scale->data.i32[0] = bits;
  return kTfLiteOk;
}

const TfLiteRegistration el_signal_fft_auto_scale =
    EL_REGISTRATION(NULL, NULL, auto_scale_prepare, auto_scale_invoke, EL_OP_CUSTOM);

/* ---- SignalEnergy --------------------------------------------------------------------------- */

typedef struct energy_data {
  bool options_ok;
  int start, end;
} energy_data;

static void* energy_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  energy_data* d = el_kernel_alloc(sizeof(energy_data));
  if (d == NULL) return NULL;
  el_flex_map m;
  int64_t start = 0, end = 0;
  d->options_ok = el_flex_root_map((const uint8_t*)buf, len, &m) &&
                  el_signal_int_option(&m, "start_index", 0, INT32_MAX, &start) &&
                  el_signal_int_option(&m, "end_index", 0, INT32_MAX, &end);
  d->start = (int)start;
  d->end = (int)end;
  return d;
}

static TfLiteStatus energy_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  const energy_data* d = (const energy_data*)node->user_data;
  EL_ENSURE_MSG(ctx, d->options_ok,
                "SignalEnergy: its options must be a flexbuffer map with integers 'start_index' and 'end_index' >= 0.");
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &input));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &output));
  EL_ENSURE_EQ(ctx, el_ndims(input), 1);
  EL_ENSURE_TYPES_EQ(ctx, input->type, kTfLiteInt16);
  EL_ENSURE_TYPES_EQ(ctx, output->type, kTfLiteUInt32);
  EL_ENSURE_MSG(ctx, el_dim(input, 0) % 2 == 0, "SignalEnergy: the input must hold (real, imaginary) pairs.");
  const int bins = el_dim(input, 0) / 2;
  EL_ENSURE_MSG(ctx, d->start <= d->end && d->end <= bins,
                "SignalEnergy: 'start_index' <= 'end_index' <= the number of complex input bins is required.");
  return el_resize(ctx, output, 1, &bins);
}

static TfLiteStatus energy_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const energy_data* d = (const energy_data*)node->user_data;
  const TfLiteTensor* input = &ctx->tensors[node->inputs->data[0]];
  TfLiteTensor* output = &ctx->tensors[node->outputs->data[0]];
  const int16_t* x = input->data.i16;
  uint32_t* y = output->data.u32;
  /* Bins outside [start, end) are not computed; they read as zero. */
  memset(y, 0, (size_t)el_dim(output, 0) * sizeof(uint32_t));
  for (int i = d->start; i < d->end; ++i) {
    const int32_t re = x[2 * i], im = x[2 * i + 1];
    y[i] = (uint32_t)(re * re) + (uint32_t)(im * im);
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_signal_energy =
    EL_REGISTRATION(energy_init, el_kernel_free, energy_prepare, energy_invoke, EL_OP_CUSTOM);
