/* The mel filter bank stages of TFLM's audio front end: SignalFilterBank (triangular channels
 * accumulated in uint64), SignalFilterBankSquareRoot (integer square roots, shifted back by the
 * FFT's auto-scale bits) and SignalFilterBankLog (TFLM's fixed-point natural log, scaled and
 * saturated to int16). Unsigned arithmetic wraps exactly as TFLM's does. */
#include <math.h>
#include <string.h>

#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/signal_ops.h"

/* ---- SignalFilterBank ----------------------------------------------------------------------- */

enum { FB_SPECTRUM = 0, FB_WEIGHTS, FB_UNWEIGHTS, FB_FREQ_STARTS, FB_WEIGHT_STARTS, FB_WIDTHS, FB_INPUTS };

static void* filter_bank_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  return el_signal_init_one_option(buf, len, "num_channels", 1, INT32_MAX - 1);
}

static TfLiteStatus filter_bank_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  const el_signal_one_option* d = (const el_signal_one_option*)node->user_data;
  EL_ENSURE_MSG(ctx, d->options_ok, "SignalFilterBank: its options must be a flexbuffer map with an integer 'num_channels' >= 1.");
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, FB_INPUTS, 1));
  for (int i = 0; i < FB_INPUTS; ++i) {
    const TfLiteTensor* t;
    EL_ENSURE_OK(ctx, el_get_input(ctx, node, i, &t));
    EL_ENSURE_EQ(ctx, el_ndims(t), 1);
    EL_ENSURE_TYPES_EQ(ctx, t->type, i == FB_SPECTRUM ? kTfLiteUInt32 : kTfLiteInt16);
    if (i >= FB_FREQ_STARTS) {
      EL_ENSURE_MSG(ctx, el_dim(t, 0) > d->value,
                    "SignalFilterBank: the channel start and width tensors need num_channels + 1 entries.");
    }
  }
  TfLiteTensor* output;
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &output));
  EL_ENSURE_TYPES_EQ(ctx, output->type, kTfLiteUInt64);
  return el_resize(ctx, output, 1, &d->value);
}

static TfLiteStatus filter_bank_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const el_signal_one_option* d = (const el_signal_one_option*)node->user_data;
  const TfLiteTensor* in[FB_INPUTS];
  for (int i = 0; i < FB_INPUTS; ++i) in[i] = &ctx->tensors[node->inputs->data[i]];
  const uint32_t* spectrum = in[FB_SPECTRUM]->data.u32;
  const int16_t* weights = in[FB_WEIGHTS]->data.i16;
  const int16_t* unweights = in[FB_UNWEIGHTS]->data.i16;
  const int16_t* freq_starts = in[FB_FREQ_STARTS]->data.i16;
  const int16_t* weight_starts = in[FB_WEIGHT_STARTS]->data.i16;
  const int16_t* widths = in[FB_WIDTHS]->data.i16;
  const int n_spectrum = el_dim(in[FB_SPECTRUM], 0);
  const int n_weights = el_dim(in[FB_WEIGHTS], 0) < el_dim(in[FB_UNWEIGHTS], 0) ? el_dim(in[FB_WEIGHTS], 0)
                                                                                : el_dim(in[FB_UNWEIGHTS], 0);
  uint64_t* out = ctx->tensors[node->outputs->data[0]].data.u64;
  /* Channel c's energy is its bins times the weights plus the previous window's bins times
   * their unweights (1 - weight); window 0 only feeds channel 0's second half. */
  uint64_t weighted = 0, unweighted = 0;
  for (int c = 0; c <= d->value; ++c) {
    const int f0 = freq_starts[c], w0 = weight_starts[c], width = widths[c];
    if (width > 0 && (f0 < 0 || w0 < 0 || f0 + width > n_spectrum || w0 + width > n_weights)) {
      ctx->ReportError(ctx, "SignalFilterBank: channel %d reads bins [%d, %d) and weights [%d, %d) outside the "
                       "spectrum (%d) or weights (%d).", c, f0, f0 + width, w0, w0 + width, n_spectrum, n_weights);
      return kTfLiteError;
    }
    for (int j = 0; j < width; ++j) {
      const uint64_t e = spectrum[f0 + j];
      weighted += (uint64_t)(int64_t)weights[w0 + j] * e;
      unweighted += (uint64_t)(int64_t)unweights[w0 + j] * e;
    }
    if (c > 0) out[c - 1] = weighted;
    weighted = unweighted;
    unweighted = 0;
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_signal_filter_bank =
    EL_REGISTRATION(filter_bank_init, el_kernel_free, filter_bank_prepare, filter_bank_invoke, EL_OP_CUSTOM);

/* ---- SignalFilterBankSquareRoot ------------------------------------------------------------- */

/* TFLM's bit-by-bit integer square root rounded to nearest over a `width`-bit word (its Sqrt32
 * and Sqrt64), at most `max_root`. */
static uint64_t isqrt_word(uint64_t num, int width, uint64_t max_root) {
  if (num == 0) return 0;
  uint64_t res = 0;
  const int top = (int)((uint32_t)width - el_signal_msb64(num)) | 1;
  uint64_t bit = UINT64_C(1) << (width - 1 - top);
  for (int it = (width - 1 - top) / 2 + 1; it > 0; --it) {
    if (num >= res + bit) {
      num -= res + bit;
      res = (res >> 1) + bit;
    } else {
      res >>= 1;
    }
    bit >>= 2;
  }
  if (num > res && res != max_root) ++res;
  return res;
}

/* TFLM's Sqrt64: the 32-bit routine (a 16-bit root) while the high word is clear. */
static uint32_t isqrt64(uint64_t num) {
  if ((num >> 32) == 0) return (uint16_t)isqrt_word(num, 32, 0xFFFF);
  return (uint32_t)isqrt_word(num, 64, 0xFFFFFFFFu);
}

static TfLiteStatus square_root_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 2, 1));
  const TfLiteTensor *input, *scale;
  TfLiteTensor* output;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &input));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 1, &scale));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &output));
  EL_ENSURE_EQ(ctx, el_ndims(input), 1);
  EL_ENSURE_EQ(ctx, el_ndims(scale), 0);
  EL_ENSURE_TYPES_EQ(ctx, input->type, kTfLiteUInt64);
  EL_ENSURE_TYPES_EQ(ctx, scale->type, kTfLiteInt32);
  EL_ENSURE_TYPES_EQ(ctx, output->type, kTfLiteUInt32);
  return el_resize_like(ctx, output, input);
}

static TfLiteStatus square_root_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* input = &ctx->tensors[node->inputs->data[0]];
  const int32_t shift = ctx->tensors[node->inputs->data[1]].data.i32[0];
  if (shift < 0 || shift > 31) {
    ctx->ReportError(ctx, "SignalFilterBankSquareRoot: scale bits %d outside [0, 31].", (int)shift);
    return kTfLiteError;
  }
  uint32_t* out = ctx->tensors[node->outputs->data[0]].data.u32;
  const int n = el_dim(input, 0);
  for (int i = 0; i < n; ++i) out[i] = isqrt64(input->data.u64[i]) >> shift;
  return kTfLiteOk;
}

const TfLiteRegistration el_signal_filter_bank_square_root =
    EL_REGISTRATION(NULL, NULL, square_root_prepare, square_root_invoke, EL_OP_CUSTOM);

/* ---- SignalFilterBankLog -------------------------------------------------------------------- */

enum { kLogSegments = 128, kLogScaleBits = 16, kLogCoeff = 45426 /* ln(2) in Q16 */ };

typedef struct log_data {
  bool options_ok;
  uint32_t correction_bits;
  uint32_t output_scale;
  /* Piecewise-linear correction from x to log2(1 + x) on [0, 1) in Q16, at 128 segments. */
  int32_t lut[kLogSegments + 1];
} log_data;

static void* log_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  log_data* d = el_kernel_alloc(sizeof(log_data));
  if (d == NULL) return NULL;
  el_flex_map m;
  int64_t bits = 0, scale = 0;
  d->options_ok = el_flex_root_map((const uint8_t*)buf, len, &m) &&
                  el_signal_int_option(&m, "input_correction_bits", 0, 31, &bits) &&
                  el_signal_int_option(&m, "output_scale", INT32_MIN, INT32_MAX, &scale);
  d->correction_bits = (uint32_t)bits;
  d->output_scale = (uint32_t)(int32_t)scale;
  for (int k = 0; k <= kLogSegments; ++k) {
    const double x = (double)k / kLogSegments;
    d->lut[k] = (int32_t)floor(0.5 + 65536.0 * (log2(1.0 + x) - x));
  }
  return d;
}

/* TFLM's Log32: log2 as integer part plus a table-corrected fraction, times ln 2, then times
 * the output scale, each step in Q16 rounded half up. x > 1. */
static uint32_t fixed_log(const log_data* d, uint32_t x) {
  const uint32_t integer = el_signal_msb32(x) - 1;
  int32_t frac = (int32_t)((int64_t)x - ((int64_t)1 << integer));
  if (integer < kLogScaleBits) {
    frac <<= kLogScaleBits - integer;
  } else {
    frac >>= integer - kLogScaleBits;
  }
  const uint32_t seg = (uint32_t)frac >> (kLogScaleBits - 7);
  const int32_t c0 = d->lut[seg], c1 = d->lut[seg + 1];
  const int32_t seg_base = (int32_t)(seg << (kLogScaleBits - 7));
  const int32_t rel = ((c1 - c0) * (frac - seg_base)) >> kLogScaleBits;
  const uint32_t fraction = (uint32_t)(frac + c0 + rel);
  const uint32_t log2 = (integer << kLogScaleBits) + fraction;
  const uint32_t half = 1u << (kLogScaleBits - 1);
  const uint32_t loge = (uint32_t)(((uint64_t)kLogCoeff * log2 + half) >> kLogScaleBits);
  return (d->output_scale * loge + half) >> kLogScaleBits;
}

static TfLiteStatus log_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  const log_data* d = (const log_data*)node->user_data;
  EL_ENSURE_MSG(ctx, d->options_ok,
                "SignalFilterBankLog: its options must be a flexbuffer map with integers 'input_correction_bits' "
                "in [0, 31] and 'output_scale'.");
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &input));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &output));
  EL_ENSURE_EQ(ctx, el_ndims(input), 1);
  EL_ENSURE_TYPES_EQ(ctx, input->type, kTfLiteUInt32);
  EL_ENSURE_TYPES_EQ(ctx, output->type, kTfLiteInt16);
  return el_resize_like(ctx, output, input);
}

static TfLiteStatus log_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const log_data* d = (const log_data*)node->user_data;
  const TfLiteTensor* input = &ctx->tensors[node->inputs->data[0]];
  int16_t* out = ctx->tensors[node->outputs->data[0]].data.i16;
  const int n = el_dim(input, 0);
  for (int i = 0; i < n; ++i) {
    const uint32_t scaled = input->data.u32[i] << d->correction_bits;
    if (scaled > 1) {
      const uint32_t v = fixed_log(d, scaled);
      out[i] = (int16_t)(v < (uint32_t)INT16_MAX ? v : (uint32_t)INT16_MAX);
    } else {
      out[i] = 0;
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_signal_filter_bank_log =
    EL_REGISTRATION(log_init, el_kernel_free, log_prepare, log_invoke, EL_OP_CUSTOM);
