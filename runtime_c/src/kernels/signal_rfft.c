/* SignalRfft for int16 frames: the real FFT TFLM computes with KISS FFT in 16-bit fixed point
 * (its kiss_fftr over a half-length complex transform), reproduced operation by operation so
 * the bins carry the same bits: Q15 twiddles rounded from double cos/sin, every butterfly
 * input pre-divided by its radix with round-half-up Q15 products, int16 wrap-around on each
 * store, radix-4 stages first, then 2, then odd factors (3, 5, generic).
 *
 * Each row of the input (its last dimension, zero-padded to fft_length) gives fft_length / 2 + 1
 * complex bins, stored as (real, imaginary) int16 pairs. The complex transform is written
 * straight into the output row and the real-signal split is done there in place, so the op
 * needs no arena scratch (TFLM asks for fft_length samples of it). */
#include <math.h>
#include <string.h>

#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/signal_ops.h"

enum { kMaxFactors = 32, kTensorTypeInt16 = 7, kMaxFftLength = 1 << 20 };

typedef struct cpx {
  int16_t r, i;
} cpx;

typedef struct rfft_data {
  bool options_ok;
  int type;             /* the schema TensorType of option 'T' */
  int fft_length;
  int ncfft;            /* complex transform length, fft_length / 2 */
  int factors[2 * kMaxFactors];
  cpx* twiddles;        /* ncfft */
  cpx* super_twiddles;  /* ncfft / 2 */
  cpx* scratch;         /* the largest radix, for the generic butterfly */
  int input_length;     /* real samples per input row */
} rfft_data;

/* ---- fixed-point arithmetic (Q15, KISS FFT's FIXED_POINT=16 macros) --------------------------- */

static inline int16_t q15_round(int32_t x) { return (int16_t)((x + (1 << 14)) >> 15); }
static inline int16_t q15_mul(int16_t a, int16_t b) { return q15_round((int32_t)a * b); }

static inline cpx cmul(cpx a, cpx b) {
  cpx m;
  m.r = q15_round((int32_t)a.r * b.r - (int32_t)a.i * b.i);
  m.i = q15_round((int32_t)a.r * b.i + (int32_t)a.i * b.r);
  return m;
}

static inline void fixdiv(cpx* c, int div) {
  const int16_t k = (int16_t)(32767 / div);
  c->r = q15_mul(c->r, k);
  c->i = q15_mul(c->i, k);
}

static inline cpx cadd(cpx a, cpx b) {
  cpx s = {(int16_t)(a.r + b.r), (int16_t)(a.i + b.i)};
  return s;
}

static inline cpx csub(cpx a, cpx b) {
  cpx s = {(int16_t)(a.r - b.r), (int16_t)(a.i - b.i)};
  return s;
}

/* ---- butterflies ------------------------------------------------------------------------------ */

static void bfly2(cpx* out, int fstride, const rfft_data* d, int m) {
  const cpx* tw = d->twiddles;
  for (int k = 0; k < m; ++k) {
    cpx* a = &out[k];
    cpx* b = &out[k + m];
    fixdiv(a, 2);
    fixdiv(b, 2);
    const cpx t = cmul(*b, tw[(size_t)k * fstride]);
    *b = csub(*a, t);
    *a = cadd(*a, t);
  }
}

static void bfly4(cpx* out, int fstride, const rfft_data* d, int m) {
  const cpx* tw = d->twiddles;
  for (int k = 0; k < m; ++k) {
    cpx* f = &out[k];
    fixdiv(&f[0], 4);
    fixdiv(&f[m], 4);
    fixdiv(&f[2 * m], 4);
    fixdiv(&f[3 * m], 4);
    const cpx s0 = cmul(f[m], tw[(size_t)k * fstride]);
    const cpx s1 = cmul(f[2 * m], tw[(size_t)k * fstride * 2]);
    const cpx s2 = cmul(f[3 * m], tw[(size_t)k * fstride * 3]);
    const cpx s5 = csub(f[0], s1);
    f[0] = cadd(f[0], s1);
    const cpx s3 = cadd(s0, s2);
    const cpx s4 = csub(s0, s2);
    f[2 * m] = csub(f[0], s3);
    f[0] = cadd(f[0], s3);
    f[m].r = (int16_t)(s5.r + s4.i);
    f[m].i = (int16_t)(s5.i - s4.r);
    f[3 * m].r = (int16_t)(s5.r - s4.i);
    f[3 * m].i = (int16_t)(s5.i + s4.r);
  }
}

static void bfly3(cpx* out, int fstride, const rfft_data* d, int m) {
  const cpx* tw = d->twiddles;
  const int16_t epi3_i = tw[(size_t)fstride * m].i;
  for (int k = 0; k < m; ++k) {
    cpx* f = &out[k];
    fixdiv(&f[0], 3);
    fixdiv(&f[m], 3);
    fixdiv(&f[2 * m], 3);
    const cpx s1 = cmul(f[m], tw[(size_t)k * fstride]);
    const cpx s2 = cmul(f[2 * m], tw[(size_t)k * fstride * 2]);
    const cpx s3 = cadd(s1, s2);
    cpx s0 = csub(s1, s2);
    f[m].r = (int16_t)(f[0].r - (s3.r >> 1));
    f[m].i = (int16_t)(f[0].i - (s3.i >> 1));
    s0.r = q15_mul(s0.r, epi3_i);
    s0.i = q15_mul(s0.i, epi3_i);
    f[0] = cadd(f[0], s3);
    f[2 * m].r = (int16_t)(f[m].r + s0.i);
    f[2 * m].i = (int16_t)(f[m].i - s0.r);
    f[m].r = (int16_t)(f[m].r - s0.i);
    f[m].i = (int16_t)(f[m].i + s0.r);
  }
}

static void bfly5(cpx* out, int fstride, const rfft_data* d, int m) {
  const cpx* tw = d->twiddles;
  const cpx ya = tw[(size_t)fstride * m], yb = tw[(size_t)fstride * 2 * m];
  for (int u = 0; u < m; ++u) {
    cpx* f0 = &out[u];
    cpx* f1 = f0 + m;
    cpx* f2 = f0 + 2 * m;
    cpx* f3 = f0 + 3 * m;
    cpx* f4 = f0 + 4 * m;
    fixdiv(f0, 5);
    fixdiv(f1, 5);
    fixdiv(f2, 5);
    fixdiv(f3, 5);
    fixdiv(f4, 5);
    const cpx s0 = *f0;
    const cpx s1 = cmul(*f1, tw[(size_t)u * fstride]);
    const cpx s2 = cmul(*f2, tw[(size_t)2 * u * fstride]);
    const cpx s3 = cmul(*f3, tw[(size_t)3 * u * fstride]);
    const cpx s4 = cmul(*f4, tw[(size_t)4 * u * fstride]);
    const cpx s7 = cadd(s1, s4), s10 = csub(s1, s4), s8 = cadd(s2, s3), s9 = csub(s2, s3);
    f0->r = (int16_t)(f0->r + s7.r + s8.r);
    f0->i = (int16_t)(f0->i + s7.i + s8.i);
    cpx s5, s6, s11, s12;
    s5.r = (int16_t)(s0.r + q15_mul(s7.r, ya.r) + q15_mul(s8.r, yb.r));
    s5.i = (int16_t)(s0.i + q15_mul(s7.i, ya.r) + q15_mul(s8.i, yb.r));
    s6.r = (int16_t)(q15_mul(s10.i, ya.i) + q15_mul(s9.i, yb.i));
    s6.i = (int16_t)(-q15_mul(s10.r, ya.i) - q15_mul(s9.r, yb.i));
    *f1 = csub(s5, s6);
    *f4 = cadd(s5, s6);
    s11.r = (int16_t)(s0.r + q15_mul(s7.r, yb.r) + q15_mul(s8.r, ya.r));
    s11.i = (int16_t)(s0.i + q15_mul(s7.i, yb.r) + q15_mul(s8.i, ya.r));
    s12.r = (int16_t)(-q15_mul(s10.i, yb.i) + q15_mul(s9.i, ya.i));
    s12.i = (int16_t)(q15_mul(s10.r, yb.i) - q15_mul(s9.r, ya.i));
    *f2 = cadd(s11, s12);
    *f3 = csub(s11, s12);
  }
}

static void bfly_generic(cpx* out, int fstride, const rfft_data* d, int m, int p) {
  const cpx* tw = d->twiddles;
  cpx* scratch = d->scratch;
  const int n = d->ncfft;
  for (int u = 0; u < m; ++u) {
    for (int q = 0, k = u; q < p; ++q, k += m) {
      scratch[q] = out[k];
      fixdiv(&scratch[q], p);
    }
    for (int q1 = 0, k = u; q1 < p; ++q1, k += m) {
      int64_t twidx = 0;
      out[k] = scratch[0];
      for (int q = 1; q < p; ++q) {
        twidx += (int64_t)fstride * k;
        if (twidx >= n) twidx -= n;
        out[k] = cadd(out[k], cmul(scratch[q], tw[twidx]));
      }
    }
  }
}

/* The complex sample `j` of a row read as (real, imaginary) pairs, zero past its end. */
static inline cpx load_pair(const int16_t* row, int length, int64_t j) {
  const int64_t a = 2 * j, b = 2 * j + 1;
  cpx c = {a < length ? row[a] : 0, b < length ? row[b] : 0};
  return c;
}

/* KISS FFT's recursive decimation in time: p sub-transforms of length m, then one butterfly
 * stage. `in` indexes the complex input, stepping by `fstride`. */
static void fft_stage(cpx* out, const int16_t* row, int length, int64_t in, int fstride, const int* factors,
                      const rfft_data* d) {
  const int p = factors[0], m = factors[1];
  if (m == 1) {
    for (int q = 0; q < p; ++q, in += fstride) out[q] = load_pair(row, length, in);
  } else {
    for (int q = 0; q < p; ++q, in += fstride) fft_stage(out + (size_t)q * m, row, length, in, fstride * p, factors + 2, d);
  }
  switch (p) {
    case 2: bfly2(out, fstride, d, m); break;
    case 3: bfly3(out, fstride, d, m); break;
    case 4: bfly4(out, fstride, d, m); break;
    case 5: bfly5(out, fstride, d, m); break;
    default: bfly_generic(out, fstride, d, m, p); break;
  }
}

/* One row: the half-length complex transform into `bins`, then kiss_fftr's split into the
 * spectrum of the real signal, in place (pair k and ncfft - k read before either is written). */
static void rfft_row(const rfft_data* d, const int16_t* row, cpx* bins) {
  const int n = d->ncfft;
  fft_stage(bins, row, d->input_length, 0, 1, d->factors, d);
  cpx dc = bins[0];
  fixdiv(&dc, 2);
  bins[0].r = (int16_t)(dc.r + dc.i);
  bins[n].r = (int16_t)(dc.r - dc.i);
  bins[0].i = bins[n].i = 0;
  for (int k = 1; k <= n / 2; ++k) {
    cpx fpk = bins[k];
    cpx fpnk = {bins[n - k].r, (int16_t)-bins[n - k].i};
    fixdiv(&fpk, 2);
    fixdiv(&fpnk, 2);
    const cpx f1k = cadd(fpk, fpnk), f2k = csub(fpk, fpnk);
    const cpx tw = cmul(f2k, d->super_twiddles[k - 1]);
    bins[k].r = (int16_t)((f1k.r + tw.r) >> 1);
    bins[k].i = (int16_t)((f1k.i + tw.i) >> 1);
    bins[n - k].r = (int16_t)((f1k.r - tw.r) >> 1);
    bins[n - k].i = (int16_t)((tw.i - f1k.i) >> 1);
  }
}

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

static inline int16_t q15_of(double v) { return (int16_t)floor(0.5 + 32767.0 * v); }

static void* rfft_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  el_flex_map m;
  int64_t type = 0, length = 0;
  const bool ok = el_flex_root_map((const uint8_t*)buf, len, &m) && el_signal_int_option(&m, "T", 0, INT32_MAX, &type) &&
                  el_signal_int_option(&m, "fft_length", 2, kMaxFftLength, &length) && length % 2 == 0;
  const int ncfft = ok ? (int)length / 2 : 0;
  int factors[2 * kMaxFactors];
  const int largest = ok ? factorize(ncfft, factors) : 0;
  const size_t tables = (size_t)ncfft + (size_t)ncfft / 2 + (size_t)(largest > 5 ? largest : 0);
  rfft_data* d = el_kernel_alloc(sizeof(rfft_data) + tables * sizeof(cpx));
  if (d == NULL) return NULL;
  d->options_ok = ok;
  if (!ok) return d;
  d->type = (int)type;
  d->fft_length = (int)length;
  d->ncfft = ncfft;
  memcpy(d->factors, factors, sizeof factors);
  d->twiddles = (cpx*)(d + 1);
  d->super_twiddles = d->twiddles + ncfft;
  d->scratch = d->super_twiddles + ncfft / 2;
  const double pi = 3.14159265358979323846264338327;
  for (int i = 0; i < ncfft; ++i) {
    const double phase = -2 * pi * i / ncfft;
    d->twiddles[i].r = q15_of(cos(phase));
    d->twiddles[i].i = q15_of(sin(phase));
  }
  for (int i = 0; i < ncfft / 2; ++i) {
    const double phase = -pi * ((double)(i + 1) / ncfft + .5);
    d->super_twiddles[i].r = q15_of(cos(phase));
    d->super_twiddles[i].i = q15_of(sin(phase));
  }
  return d;
}

static TfLiteStatus rfft_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  rfft_data* d = (rfft_data*)node->user_data;
  EL_ENSURE_MSG(ctx, d->options_ok,
                "SignalRfft: its options must be a flexbuffer map with an integer type 'T' and an even 'fft_length' "
                "in [2, 1048576].");
  if (d->type != kTensorTypeInt16) {
    ctx->ReportError(ctx, "SignalRfft: type T=%d is not supported; edgelite computes the int16 (T=7) transform.",
                     d->type);
    return kTfLiteError;
  }
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &input));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &output));
  EL_ENSURE_TYPES_EQ(ctx, input->type, kTfLiteInt16);
  EL_ENSURE_TYPES_EQ(ctx, output->type, kTfLiteInt16);
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
  for (int64_t r = 0; r < rows; ++r) {
    rfft_row(d, input->data.i16 + r * d->input_length, (cpx*)(output->data.i16 + r * (d->fft_length + 2)));
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_signal_rfft =
    EL_REGISTRATION(rfft_init, el_kernel_free, rfft_prepare, rfft_invoke, EL_OP_CUSTOM);
