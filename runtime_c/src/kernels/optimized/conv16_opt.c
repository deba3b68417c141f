#include "kernels/optimized/conv16_opt.h"

#include <string.h>

#include "kernels/kernel_util.h"
#include "kernels/optimized/opt_kernels.h"
#include "kernels/quant_util.h"

/* |int16 * int8| <= 2^22, so 2^8 products sum to at most 2^30 in int32. */
enum { kBlock = 256 };

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
  return el_conv_requant_prepare(ctx, input, filter, bias, output, g->out_c, activation, true, &c->rq);
}

/* The window of output pixel (b, oy, ox) as kdim values in filter order; 0 outside the image
 * (the input zero point is 0, so those taps add nothing, as the reference skips them). */
static void gather(const el_conv_geom* g, const int16_t* in, int b, int oy, int ox, int16_t* row) {
  const size_t run = (size_t)g->in_c;
  for (int fy = 0; fy < g->kh; ++fy) {
    const int iy = oy * g->sh - g->pad_h + fy * g->dh;
    for (int fx = 0; fx < g->kw; ++fx) {
      const int ix = ox * g->sw - g->pad_w + fx * g->dw;
      int16_t* dst = row + ((size_t)fy * (size_t)g->kw + (size_t)fx) * run;
      if (iy < 0 || iy >= g->in_h || ix < 0 || ix >= g->in_w) {
        memset(dst, 0, run * sizeof(int16_t));
      } else {
        memcpy(dst, in + (((size_t)b * (size_t)g->in_h + (size_t)iy) * (size_t)g->in_w + (size_t)ix) * run,
               run * sizeof(int16_t));
      }
    }
  }
}

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

void el_conv16_pixels(const el_conv_geom* g, const el_conv16* c, const int16_t* in, int64_t m0, int64_t m1,
                      int16_t* row, int16_t* out) {
  const int64_t per_batch = (int64_t)g->out_h * g->out_w;
  for (int64_t m = m0; m < m1; ++m) {
    const int b = (int)(m / per_batch);
    const int oy = (int)(m % per_batch / g->out_w), ox = (int)(m % g->out_w);
    gather(g, in, b, oy, ox, row);
    int16_t* o = out + m * g->out_c;
    for (int oc = 0; oc < g->out_c; ++oc) {
      const int64_t acc = el_q_add_wrap64(dot(row, c->weights + (size_t)oc * (size_t)g->kdim, g->kdim), c->bias[oc]);
      const int32_t v = (c->bias32 ? el_q_mbqm((int32_t)acc, c->rq.multipliers[oc], c->rq.shifts[oc])
                                   : el_q_mbqm64(acc, c->rq.multipliers[oc], c->rq.shifts[oc])) +
                        c->out_zp;
      o[oc] = (int16_t)el_q_clamp(v, c->rq.act_min, c->rq.act_max);
    }
  }
}
