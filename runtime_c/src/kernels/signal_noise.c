/* The noise stages of TFLM's audio front end: SignalFilterBankSpectralSubtraction (a per-channel
 * low-pass noise estimate kept across invokes, subtracted from the signal with a floor) and
 * SignalPCAN (per-channel energy normalisation: a gain looked up from the noise estimate, then
 * a soft "shrink" of the resulting SNR). Unsigned arithmetic wraps exactly as TFLM's does. */
#include <string.h>

#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/signal_ops.h"

/* ---- SignalFilterBankSpectralSubtraction ---------------------------------------------------- */

enum { kMaxChannels = 1 << 20 };

typedef struct subtraction_data {
  bool options_ok;
  bool clamping;
  int num_channels;
  uint32_t smoothing, one_minus_smoothing, alternate_smoothing, alternate_one_minus_smoothing;
  uint32_t min_signal_remaining;
  int smoothing_bits, subtraction_bits;
  uint32_t* noise; /* num_channels, the state; zeroed by every prepare and reset */
} subtraction_data;

void el_signal_spectral_subtraction_reset(void* user_data) {
  subtraction_data* d = (subtraction_data*)user_data;
  if (d != NULL && d->options_ok) memset(d->noise, 0, (size_t)d->num_channels * sizeof(uint32_t));
}

static bool read_coefficient(const el_flex_map* m, const char* key, uint32_t* out) {
  int64_t v = 0;
  if (!el_signal_int_option(m, key, INT32_MIN, UINT32_MAX, &v)) return false;
  *out = (uint32_t)v;
  return true;
}

static void* subtraction_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  el_flex_map m;
  int64_t channels = 0, clamping = 0, smoothing_bits = 0, subtraction_bits = 0;
  subtraction_data opts;
  memset(&opts, 0, sizeof opts);
  const bool ok = el_flex_root_map((const uint8_t*)buf, len, &m) &&
                  el_signal_int_option(&m, "num_channels", 1, kMaxChannels, &channels) &&
                  el_signal_int_option(&m, "clamping", 0, 1, &clamping) &&
                  el_signal_int_option(&m, "smoothing_bits", 0, 31, &smoothing_bits) &&
                  el_signal_int_option(&m, "spectral_subtraction_bits", 0, 63, &subtraction_bits) &&
                  read_coefficient(&m, "smoothing", &opts.smoothing) &&
                  read_coefficient(&m, "one_minus_smoothing", &opts.one_minus_smoothing) &&
                  read_coefficient(&m, "alternate_smoothing", &opts.alternate_smoothing) &&
                  read_coefficient(&m, "alternate_one_minus_smoothing", &opts.alternate_one_minus_smoothing) &&
                  read_coefficient(&m, "min_signal_remaining", &opts.min_signal_remaining);
  subtraction_data* d = el_kernel_alloc(sizeof(subtraction_data) + (ok ? (size_t)channels * sizeof(uint32_t) : 0));
  if (d == NULL) return NULL;
  *d = opts;
  d->options_ok = ok;
  d->clamping = clamping != 0;
  d->num_channels = (int)channels;
  d->smoothing_bits = (int)smoothing_bits;
  d->subtraction_bits = (int)subtraction_bits;
  d->noise = (uint32_t*)(d + 1);
  return d;
}

static TfLiteStatus subtraction_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  subtraction_data* d = (subtraction_data*)node->user_data;
  EL_ENSURE_MSG(ctx, d->options_ok,
                "SignalFilterBankSpectralSubtraction: its options must be a flexbuffer map with integers "
                "'num_channels' >= 1, 'smoothing', 'one_minus_smoothing', 'alternate_smoothing', "
                "'alternate_one_minus_smoothing', 'min_signal_remaining', 'smoothing_bits' in [0, 31], "
                "'spectral_subtraction_bits' in [0, 63] and a bool 'clamping'.");
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 1, 2));
  const TfLiteTensor* input;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &input));
  EL_ENSURE_EQ(ctx, el_ndims(input), 1);
  EL_ENSURE_TYPES_EQ(ctx, input->type, kTfLiteUInt32);
  EL_ENSURE_MSG(ctx, el_dim(input, 0) == d->num_channels,
                "SignalFilterBankSpectralSubtraction: the input must have 'num_channels' elements.");
  for (int i = 0; i < 2; ++i) {
    TfLiteTensor* out;
    EL_ENSURE_OK(ctx, el_get_output(ctx, node, i, &out));
    EL_ENSURE_TYPES_EQ(ctx, out->type, kTfLiteUInt32);
    EL_ENSURE_OK(ctx, el_resize_like(ctx, out, input));
  }
  el_signal_spectral_subtraction_reset(d);
  return kTfLiteOk;
}

static TfLiteStatus subtraction_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  subtraction_data* d = (subtraction_data*)node->user_data;
  const uint32_t* in = ctx->tensors[node->inputs->data[0]].data.u32;
  uint32_t* out = ctx->tensors[node->outputs->data[0]].data.u32;
  uint32_t* noise_out = ctx->tensors[node->outputs->data[1]].data.u32;
  const int sb = d->smoothing_bits, ssb = d->subtraction_bits;
  for (int i = 0; i < d->num_channels; ++i) {
    /* Odd channels use the alternate filter coefficients. */
    const uint32_t smoothing = (i & 1) ? d->alternate_smoothing : d->smoothing;
    const uint32_t keep = (i & 1) ? d->alternate_one_minus_smoothing : d->one_minus_smoothing;
    const uint32_t signal = in[i] << sb;
    d->noise[i] = (uint32_t)(((uint64_t)signal * smoothing + (uint64_t)d->noise[i] * keep) >> ssb);
    uint32_t estimate = d->noise[i];
    if (estimate > signal) {
      estimate = signal;
      if (d->clamping) d->noise[i] = estimate;
    }
    const uint32_t floor = (uint32_t)(((uint64_t)in[i] * d->min_signal_remaining) >> ssb);
    const uint32_t subtracted = (signal - estimate) >> sb;
    out[i] = subtracted > floor ? subtracted : floor;
  }
  memcpy(noise_out, d->noise, (size_t)d->num_channels * sizeof(uint32_t));
  return kTfLiteOk;
}

const TfLiteRegistration el_signal_filter_bank_spectral_subtraction =
    EL_REGISTRATION(subtraction_init, el_kernel_free, subtraction_prepare, subtraction_invoke, EL_OP_CUSTOM);

/* ---- SignalPCAN ----------------------------------------------------------------------------- */

/* SNR fractional bits, output fractional bits, and the gain table's length: 3 + 4 per octave
 * of a uint32 noise estimate (TFLM's WideDynamicFunction reads lut[4 * 32 - 6 + 2]). */
enum { kSnrBits = 12, kOutputBits = 6, kGainLutLength = 125 };

static void* pcan_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  return el_signal_init_one_option(buf, len, "snr_shift", 0, 63);
}

static TfLiteStatus pcan_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  const el_signal_one_option* d = (const el_signal_one_option*)node->user_data;
  EL_ENSURE_MSG(ctx, d->options_ok, "SignalPCAN: its options must be a flexbuffer map with an integer 'snr_shift' in [0, 63].");
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 3, 1));
  const TfLiteTensor *input, *noise, *lut;
  TfLiteTensor* output;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &input));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 1, &noise));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 2, &lut));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &output));
  EL_ENSURE_EQ(ctx, el_ndims(input), 1);
  EL_ENSURE_EQ(ctx, el_ndims(noise), 1);
  EL_ENSURE_EQ(ctx, el_ndims(lut), 1);
  EL_ENSURE_TYPES_EQ(ctx, input->type, kTfLiteUInt32);
  EL_ENSURE_TYPES_EQ(ctx, noise->type, kTfLiteUInt32);
  EL_ENSURE_TYPES_EQ(ctx, lut->type, kTfLiteInt16);
  EL_ENSURE_TYPES_EQ(ctx, output->type, kTfLiteUInt32);
  EL_ENSURE(ctx, el_dim(input, 0) > 0);
  EL_ENSURE_EQ(ctx, el_dim(noise, 0), el_dim(input, 0));
  EL_ENSURE_MSG(ctx, el_dim(lut, 0) >= kGainLutLength, "SignalPCAN: the gain table needs at least 125 entries.");
  return el_resize_like(ctx, output, input);
}

/* The gain for noise level x: a quadratic in the top 10 bits below x's leading one, with
 * coefficients for that octave (TFLM's WideDynamicFunction). */
static int16_t pcan_gain(uint32_t x, const int16_t* lut) {
  if (x <= 2) return lut[x];
  const int32_t octave = (int32_t)el_signal_msb32(x);
  const int16_t* c = lut + 4 * octave - 6;
  const int16_t frac = (int16_t)((octave < 11 ? x << (11 - octave) : x >> (octave - 11)) & 0x3FF);
  uint32_t r = (uint32_t)(((int32_t)c[2] * frac) >> 5);
  r += (uint32_t)c[1] << 5;
  r *= (uint32_t)(int32_t)frac;
  int32_t result = ((int32_t)(r + (1u << 14))) >> 15;
  result += c[0];
  return (int16_t)result;
}

/* x^2 / 4 below 2, x - 1 above, from kSnrBits to kOutputBits fractional bits. */
static uint32_t pcan_shrink(uint32_t x) {
  if (x < (2u << kSnrBits)) return (x * x) >> (2 + 2 * kSnrBits - kOutputBits);
  return (x >> (kSnrBits - kOutputBits)) - (1u << kOutputBits);
}

static TfLiteStatus pcan_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const el_signal_one_option* d = (const el_signal_one_option*)node->user_data;
  const TfLiteTensor* input = &ctx->tensors[node->inputs->data[0]];
  const uint32_t* noise = ctx->tensors[node->inputs->data[1]].data.u32;
  const int16_t* lut = ctx->tensors[node->inputs->data[2]].data.i16;
  uint32_t* out = ctx->tensors[node->outputs->data[0]].data.u32;
  const int n = el_dim(input, 0);
  for (int i = 0; i < n; ++i) {
    const uint32_t gain = (uint32_t)(int32_t)pcan_gain(noise[i], lut);
    const uint32_t snr = (uint32_t)(((uint64_t)input->data.u32[i] * gain) >> d->value);
    out[i] = pcan_shrink(snr);
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_signal_pcan = EL_REGISTRATION(pcan_init, el_kernel_free, pcan_prepare, pcan_invoke, EL_OP_CUSTOM);
