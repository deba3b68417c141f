#include "kernels/optimized/conv16_opt.h"

#include <string.h>

#include "kernels/kernel_util.h"
#include "kernels/optimized/opt_kernels.h"
#include "kernels/quant_util.h"

/* |int16 * int8| <= 2^22, so 2^8 products sum to at most 2^30 in int32. Windows of short runs
 * (at most kShortRun values per filter row) and at most kStackRow values are gathered into a
 * row on the stack, where one long dot per channel beats many short ones. */
enum { kBlock = 256, kShortRun = 64, kStackRow = 512 };

int el_conv16_supported(const TfLiteTensor* input, const TfLiteTensor* filter, const TfLiteTensor* bias,
                        const TfLiteTensor* output) {
  return input->type == kTfLiteInt16 && filter->type == kTfLiteInt8 && output->type == kTfLiteInt16 &&
         input->params.zero_point == 0 &&
         (bias == NULL || bias->type == kTfLiteInt32 || bias->type == kTfLiteInt64);
}

TfLiteStatus el_conv16_prepare(TfLiteContext* ctx, const el_conv_geom* g, const TfLiteTensor* input,
                               const TfLiteTensor* filter, const TfLiteTensor* bias,
                               const TfLiteTensor* output, TfLiteFusedActivation activation, el_conv16* c) {
  const size_t weights = (size_t)g->out_c * (size_t)g->kdim;
  if (c->weights_cap < weights) {
    c->weights = (int16_t*)el_opt_persistent(ctx, weights * sizeof(int16_t));
    EL_ENSURE(ctx, c->weights != NULL);
    c->weights_cap = weights;
  }
  if (c->bias_cap < (size_t)g->out_c) {
    c->bias = (int64_t*)el_opt_persistent(ctx, (size_t)g->out_c * sizeof(int64_t));
    EL_ENSURE(ctx, c->bias != NULL);
    c->bias_cap = (size_t)g->out_c;
  }
  for (size_t i = 0; i < weights; ++i) c->weights[i] = filter->data.int8[i];
  for (int oc = 0; oc < g->out_c; ++oc) {
    c->bias[oc] = bias == NULL ? 0 : bias->type == kTfLiteInt64 ? bias->data.i64[oc] : bias->data.i32[oc];
  }
  c->bias32 = bias != NULL && bias->type == kTfLiteInt32;
  c->out_zp = output->params.zero_point;
  return el_conv_requant_prepare(ctx, input, filter, bias, output, g->out_c, activation, true, true, &c->rq);
}

/* The sum over one run of n products, in int32 blocks of kBlock (short enough not to overflow)
 * added into the int64 total. */
static int64_t dot(const int16_t* a, const int16_t* w, int n) {
  int64_t total = 0;
  for (int k0 = 0; k0 < n; k0 += kBlock) {
    const int k1 = n - k0 < kBlock ? n : k0 + kBlock;
    int32_t sum = 0;
    for (int k = k0; k < k1; ++k) sum += (int32_t)a[k] * (int32_t)w[k];
    total += sum;
  }
  return total;
}

/* The taps of output pixel (b, oy, ox) inside the image: filter rows [fy0, fy1) and columns
 * [fx0, fx1) (rows and columns move monotonically with the filter index). */
typedef struct window {
  const int16_t* base; /* input row iy(fy0), column x0 */
  int x0, fy0, fy1, fx0, fx1;
} window;

static window window_at(const el_conv_geom* g, const int16_t* in, int b, int oy, int ox) {
  window w;
  w.x0 = ox * g->sw - g->pad_w;
  const int y0 = oy * g->sh - g->pad_h;
  w.fx0 = 0, w.fx1 = g->kw, w.fy0 = 0, w.fy1 = g->kh;
  while (w.fx0 < w.fx1 && w.x0 + w.fx0 * g->dw < 0) ++w.fx0;
  while (w.fx1 > w.fx0 && w.x0 + (w.fx1 - 1) * g->dw >= g->in_w) --w.fx1;
  while (w.fy0 < w.fy1 && y0 + w.fy0 * g->dh < 0) ++w.fy0;
  while (w.fy1 > w.fy0 && y0 + (w.fy1 - 1) * g->dh >= g->in_h) --w.fy1;
  w.base = in + ((size_t)b * (size_t)g->in_h + (size_t)(y0 + w.fy0 * g->dh)) * (size_t)g->in_w * (size_t)g->in_c;
  return w;
}

/* The window times one channel's weights, read in place: per filter row, the taps inside the
 * image are one run of the input (dilation 1) or one run each; taps outside add nothing (the
 * input zero point is 0, and the reference skips them). */
static int64_t window_dot(const el_conv_geom* g, const window* win, const int16_t* w) {
  const int c = g->in_c;
  const size_t row_step = (size_t)g->dh * (size_t)g->in_w * (size_t)c;
  int64_t total = 0;
  for (int fy = win->fy0; fy < win->fy1; ++fy) {
    const int16_t* src = win->base + (size_t)(fy - win->fy0) * row_step;
    const int16_t* wr = w + (size_t)fy * (size_t)g->kw * (size_t)c;
    if (g->dw == 1) {
      total += dot(src + (size_t)(win->x0 + win->fx0) * (size_t)c, wr + (size_t)win->fx0 * (size_t)c,
                   (win->fx1 - win->fx0) * c);
    } else {
      for (int fx = win->fx0; fx < win->fx1; ++fx) {
        total += dot(src + (size_t)(win->x0 + fx * g->dw) * (size_t)c, wr + (size_t)fx * (size_t)c, c);
      }
    }
  }
  return total;
}

/* The window as kdim values in filter order, 0 outside the image. */
static void gather(const el_conv_geom* g, const window* win, int16_t* row) {
  const int c = g->in_c;
  const size_t row_step = (size_t)g->dh * (size_t)g->in_w * (size_t)c;
  memset(row, 0, (size_t)g->kdim * sizeof(int16_t));
  for (int fy = win->fy0; fy < win->fy1; ++fy) {
    const int16_t* src = win->base + (size_t)(fy - win->fy0) * row_step;
    for (int fx = win->fx0; fx < win->fx1; ++fx) {
      memcpy(row + ((size_t)fy * (size_t)g->kw + (size_t)fx) * (size_t)c,
             src + (size_t)(win->x0 + fx * g->dw) * (size_t)c, (size_t)c * sizeof(int16_t));
    }
  }
}

void el_conv16_pixels(const el_conv_geom* g, const el_conv16* c, const int16_t* in, int64_t m0, int64_t m1,
                      int16_t* out) {
  const int64_t per_batch = (int64_t)g->out_h * g->out_w;
  const int stacked = g->kdim <= kStackRow && (g->dw != 1 || g->kw * g->in_c <= kShortRun);
  int16_t row[kStackRow];
  const int8_t* shifts = el_conv_requant_shifts(&c->rq);
  for (int64_t m = m0; m < m1; ++m) {
    const int b = (int)(m / per_batch);
    const int oy = (int)(m % per_batch / g->out_w), ox = (int)(m % g->out_w);
    const window win = window_at(g, in, b, oy, ox);
    if (stacked) gather(g, &win, row);
    int16_t* o = out + m * g->out_c;
    for (int oc = 0; oc < g->out_c; ++oc) {
      const int16_t* w = c->weights + (size_t)oc * (size_t)g->kdim;
      const int64_t sum = stacked ? dot(row, w, g->kdim) : window_dot(g, &win, w);
      const int64_t acc = el_q_add_wrap64(sum, c->bias[oc]);
      const int32_t v = (c->bias32 ? el_q_mbqm((int32_t)acc, c->rq.multipliers[oc], shifts[oc])
                                   : el_q_mbqm64(acc, c->rq.multipliers[oc], shifts[oc])) +
                        c->out_zp;
      o[oc] = (int16_t)el_q_clamp(v, c->rq.act_min, c->rq.act_max);
    }
  }
}
