/* SignalRfft: the real FFT TFLM computes with KISS FFT (its kiss_fftr over a half-length complex
 * transform) for int16 (Q15 fixed point), int32 (Q31) and float frames, reproduced operation by
 * operation (signal_rfft_kiss.h) so the bins carry the same bits: fixed-point twiddles rounded
 * from double cos/sin, every butterfly input pre-divided by its radix with round-half-up
 * products, integer wrap-around on each store, radix-4 stages first, then 2, then odd factors
 * (3, 5, generic).
 *
 * Each row of the input (its last dimension, zero-padded to fft_length) gives fft_length / 2 + 1
 * complex bins, stored as (real, imaginary) pairs. The complex transform is written straight
 * into the output row and the real-signal split is done there in place, so the op needs no
 * arena scratch (TFLM asks for fft_length samples of it). */
#include <math.h>
#include <string.h>

#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/signal_ops.h"

/* The schema's TensorType codes option 'T' holds. */
enum { kMaxFactors = 32, kTypeFloat32 = 0, kTypeInt32 = 2, kTypeInt16 = 7, kMaxFftLength = 1 << 20 };

/* ---- int16, Q15 (KISS FFT's FIXED_POINT=16) -------------------------------------------------- */

typedef struct cpx16 {
  int16_t r, i;
} cpx16;

static inline int16_t q15_round(int32_t x) { return (int16_t)((x + (1 << 14)) >> 15); }
static inline int16_t mul16(int16_t a, int16_t b) { return q15_round((int32_t)a * b); }
static inline cpx16 cmul16(cpx16 a, cpx16 b) {
  cpx16 m = {q15_round((int32_t)a.r * b.r - (int32_t)a.i * b.i), q15_round((int32_t)a.r * b.i + (int32_t)a.i * b.r)};
  return m;
}
static inline void fixdiv16(cpx16* c, int div) {
  const int16_t k = (int16_t)(32767 / div);
  c->r = mul16(c->r, k);
  c->i = mul16(c->i, k);
}

#define KF(name) name##_16
#define KF_S int16_t
#define KF_CPX cpx16
#define kf_mul mul16
#define kf_cmul cmul16
#define kf_fixdiv fixdiv16
#define kf_add(a, b) ((int16_t)((a) + (b)))
#define kf_sub(a, b) ((int16_t)((a) - (b)))
#define kf_neg(a) ((int16_t)-(a))
#define kf_half(a) ((int16_t)((a) >> 1))
#define kf_half_sum(a, b) ((int16_t)(((a) + (b)) >> 1))
#define kf_half_diff(a, b) ((int16_t)(((a) - (b)) >> 1))
#define kf_twiddle(v) ((int16_t)floor(0.5 + 32767.0 * (v)))
#include "kernels/signal_rfft_kiss.h"

/* ---- int32, Q31 (FIXED_POINT=32: 64-bit products, int32 sums that wrap) ----------------------- */

typedef struct cpx32 {
  int32_t r, i;
} cpx32;

static inline int32_t q31_round(int64_t x) { return (int32_t)((x + (INT64_C(1) << 30)) >> 31); }
static inline int32_t mul32(int32_t a, int32_t b) { return q31_round((int64_t)a * b); }
static inline cpx32 cmul32(cpx32 a, cpx32 b) {
  cpx32 m = {q31_round((int64_t)a.r * b.r - (int64_t)a.i * b.i), q31_round((int64_t)a.r * b.i + (int64_t)a.i * b.r)};
  return m;
}
static inline void fixdiv32(cpx32* c, int div) {
  const int32_t k = INT32_MAX / div;
  c->r = mul32(c->r, k);
  c->i = mul32(c->i, k);
}
static inline int32_t wrap_add32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static inline int32_t wrap_sub32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }

#define KF(name) name##_32
#define KF_S int32_t
#define KF_CPX cpx32
#define kf_mul mul32
#define kf_cmul cmul32
#define kf_fixdiv fixdiv32
#define kf_add wrap_add32
#define kf_sub wrap_sub32
#define kf_neg(a) wrap_sub32(0, (a))
#define kf_half(a) ((a) >> 1)
#define kf_half_sum(a, b) (wrap_add32((a), (b)) >> 1)
#define kf_half_diff(a, b) (wrap_sub32((a), (b)) >> 1)
#define kf_twiddle(v) ((int32_t)floor(0.5 + 2147483647.0 * (v)))
#include "kernels/signal_rfft_kiss.h"

/* ---- float ------------------------------------------------------------------------------------ */

typedef struct cpxf {
  float r, i;
} cpxf;

static inline cpxf cmulf(cpxf a, cpxf b) {
  cpxf m = {a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r};
  return m;
}

#define KF(name) name##_f
#define KF_S float
#define KF_CPX cpxf
#define kf_mul(a, b) ((a) * (b))
#define kf_cmul cmulf
#define kf_fixdiv(c, div) ((void)(c), (void)(div))
#define kf_add(a, b) ((a) + (b))
#define kf_sub(a, b) ((a) - (b))
#define kf_neg(a) (-(a))
#define kf_half(a) ((a) * 0.5f)
#define kf_half_sum(a, b) (((a) + (b)) * 0.5f)
#define kf_half_diff(a, b) (((a) - (b)) * 0.5f)
#define kf_twiddle(v) ((float)(v))
#include "kernels/signal_rfft_kiss.h"

typedef struct rfft_data {
  bool options_ok;
  int type;             /* the schema TensorType of option 'T' */
  TfLiteType tensor_type;
  size_t sample_bytes;
  int fft_length;
  int ncfft;            /* complex transform length, fft_length / 2 */
  int factors[2 * kMaxFactors];
  void* twiddles;       /* ncfft pairs */
  void* super_twiddles; /* ncfft / 2 pairs */
  void* scratch;        /* the largest radix, for the generic butterfly */
  int input_length;     /* real samples per input row */
} rfft_data;

/* ---- set-up ------------------------------------------------------------------------------------ */

/* KISS FFT's factorisation: fours first, then twos, then odd factors; (radix, remaining length)
 * pairs. Returns the largest radix. */
static int factorize(int n, int* factors) {
  int p = 4, largest = 1;
  const double floor_sqrt = floor(sqrt((double)n));
  do {
    while (n % p) {
      p = p == 4 ? 2 : p == 2 ? 3 : p + 2;
      if (p > floor_sqrt) p = n;
    }
    n /= p;
    *factors++ = p;
    *factors++ = n;
    if (p > largest) largest = p;
  } while (n > 1);
  return largest;
}

static void* rfft_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  el_flex_map m;
  int64_t type = 0, length = 0;
  const bool ok = el_flex_root_map((const uint8_t*)buf, len, &m) && el_signal_int_option(&m, "T", 0, INT32_MAX, &type) &&
                  el_signal_int_option(&m, "fft_length", 2, kMaxFftLength, &length) && length % 2 == 0;
  const int ncfft = ok ? (int)length / 2 : 0;
  int factors[2 * kMaxFactors];
  const int largest = ok ? factorize(ncfft, factors) : 0;
  /* Room for the widest sample type's pairs: the twiddles, the real split's, the generic radix. */
  const size_t pairs = (size_t)ncfft + (size_t)ncfft / 2 + (size_t)(largest > 5 ? largest : 0);
  rfft_data* d = el_kernel_alloc(sizeof(rfft_data) + pairs * sizeof(cpx32));
  if (d == NULL) return NULL;
  d->options_ok = ok;
  if (!ok) return d;
  d->type = (int)type;
  d->fft_length = (int)length;
  d->ncfft = ncfft;
  memcpy(d->factors, factors, sizeof factors);
  switch (d->type) {
    case kTypeInt16: d->tensor_type = kTfLiteInt16; d->sample_bytes = sizeof(int16_t); break;
    case kTypeInt32: d->tensor_type = kTfLiteInt32; d->sample_bytes = sizeof(int32_t); break;
    case kTypeFloat32: d->tensor_type = kTfLiteFloat32; d->sample_bytes = sizeof(float); break;
    default: return d; /* prepare reports the type */
  }
  const size_t pair = 2 * d->sample_bytes;
  d->twiddles = d + 1;
  d->super_twiddles = (char*)d->twiddles + (size_t)ncfft * pair;
  d->scratch = (char*)d->super_twiddles + (size_t)(ncfft / 2) * pair;
  switch (d->type) {
    case kTypeInt16: tables_16(ncfft, d->twiddles, d->super_twiddles); break;
    case kTypeInt32: tables_32(ncfft, d->twiddles, d->super_twiddles); break;
    default: tables_f(ncfft, d->twiddles, d->super_twiddles); break;
  }
  return d;
}

static TfLiteStatus rfft_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  rfft_data* d = (rfft_data*)node->user_data;
  EL_ENSURE_MSG(ctx, d->options_ok,
                "SignalRfft: its options must be a flexbuffer map with an integer type 'T' and an even 'fft_length' "
                "in [2, 1048576].");
  if (d->type != kTypeInt16 && d->type != kTypeInt32 && d->type != kTypeFloat32) {
    ctx->ReportError(ctx, "SignalRfft: type T=%d is not supported; it takes int16 (7), int32 (2) or float32 (0).",
                     d->type);
    return kTfLiteError;
  }
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &input));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &output));
  EL_ENSURE_TYPES_EQ(ctx, input->type, d->tensor_type);
  EL_ENSURE_TYPES_EQ(ctx, output->type, d->tensor_type);
  const int rank = el_ndims(input);
  EL_ENSURE(ctx, rank >= 1 && rank <= EL_MAX_DIMS);
  d->input_length = el_dim(input, rank - 1);
  EL_ENSURE_MSG(ctx, d->input_length <= d->fft_length, "SignalRfft: the input rows are longer than 'fft_length'.");
  int dims[EL_MAX_DIMS];
  memcpy(dims, input->dims->data, (size_t)rank * sizeof(int));
  dims[rank - 1] = d->fft_length + 2;
  return el_resize(ctx, output, rank, dims);
}

static TfLiteStatus rfft_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const rfft_data* d = (const rfft_data*)node->user_data;
  const TfLiteTensor* input = &ctx->tensors[node->inputs->data[0]];
  TfLiteTensor* output = &ctx->tensors[node->outputs->data[0]];
  const int64_t rows = d->input_length > 0 ? el_num_elements(input) / d->input_length
                                           : el_num_elements(output) / (d->fft_length + 2);
  const int n = d->ncfft, len = d->input_length, row_out = d->fft_length + 2;
  for (int64_t r = 0; r < rows; ++r) {
    switch (d->type) {
      case kTypeInt16:
        rfft_row_16(d->factors, d->twiddles, d->super_twiddles, d->scratch, n, input->data.i16 + r * len, len,
                    (cpx16*)(output->data.i16 + r * row_out));
        break;
      case kTypeInt32:
        rfft_row_32(d->factors, d->twiddles, d->super_twiddles, d->scratch, n, input->data.i32 + r * len, len,
                    (cpx32*)(output->data.i32 + r * row_out));
        break;
      default:
        rfft_row_f(d->factors, d->twiddles, d->super_twiddles, d->scratch, n, input->data.f + r * len, len,
                   (cpxf*)(output->data.f + r * row_out));
        break;
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_signal_rfft =
    EL_REGISTRATION(rfft_init, el_kernel_free, rfft_prepare, rfft_invoke, EL_OP_CUSTOM);
