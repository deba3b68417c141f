/* Fused batch norm forward / backward and the bias gradient over a [rows][channels] matrix.
 * Per-channel sums run in double over the rows in order (one order for any run), the
 * elementwise passes in float as TensorFlow's kernels do. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "train/train_internal.h"
#include "train/train_norm_passes.h"

static bool bad_sizes(int64_t rows, int32_t channels) { return rows < 0 || channels < 0; }

el_status el_train_bias_add_grad(const el_train_kernels* k, int64_t rows, int32_t channels,
                                 const float* dy, float* db) {
  if (k == NULL || dy == NULL || db == NULL || bad_sizes(rows, channels)) return EL_VALUE_ERROR;
  double* sum = malloc(((size_t)channels + 1) * sizeof(double));
  if (sum == NULL) return EL_NO_MEMORY;
  el_train_norm_passes(k).sums(rows, channels, dy, NULL, sum);
  for (int32_t c = 0; c < channels; ++c) db[c] = (float)sum[c];
  free(sum);
  return EL_OK;
}

el_status el_train_batch_norm(const el_train_kernels* k, int64_t rows, int32_t channels,
                              const float* x, const float* scale, const float* offset,
                              const float* mean, const float* variance, float epsilon,
                              int32_t training, float* y, float* batch_mean, float* batch_var) {
  if (k == NULL || x == NULL || scale == NULL || offset == NULL || y == NULL ||
      bad_sizes(rows, channels)) {
    return EL_VALUE_ERROR;
  }
  if (training ? (batch_mean == NULL || batch_var == NULL) : (mean == NULL || variance == NULL)) {
    return EL_VALUE_ERROR;
  }
  const size_t nc = (size_t)channels + 1;
  double* sum = malloc(nc * sizeof(double));
  float* mu = malloc(nc * sizeof(float));
  float* mul = malloc(nc * sizeof(float));
  if (sum == NULL || mu == NULL || mul == NULL) {
    free(sum);
    free(mu);
    free(mul);
    return EL_NO_MEMORY;
  }
  const el_norm_passes np = el_train_norm_passes(k);
  if (training) {
    np.sums(rows, channels, x, NULL, sum);
    for (int32_t c = 0; c < channels; ++c) mu[c] = (float)(sum[c] / (double)rows);
    /* The variance from the centred values (two passes): no cancellation for large means. */
    np.sums(rows, channels, x, mu, sum);
    for (int32_t c = 0; c < channels; ++c) {
      batch_mean[c] = mu[c];
      batch_var[c] = (float)(sum[c] / (double)rows);
      mul[c] = (float)(1.0 / sqrt((double)batch_var[c] + (double)epsilon)) * scale[c];
    }
  } else {
    for (int32_t c = 0; c < channels; ++c) {
      mu[c] = mean[c];
      mul[c] = (float)(1.0 / sqrt((double)variance[c] + (double)epsilon)) * scale[c];
    }
  }
  np.normalize(rows, channels, x, mu, mul, offset, y);
  free(sum);
  free(mu);
  free(mul);
  return EL_OK;
}

el_status el_train_batch_norm_grad(const el_train_kernels* k, int64_t rows, int32_t channels,
                                   const float* dy, const float* x, const float* scale,
                                   const float* mean, const float* variance, float epsilon,
                                   int32_t training, float* dx, float* dscale, float* doffset) {
  if (k == NULL || dy == NULL || x == NULL || scale == NULL || mean == NULL || variance == NULL ||
      dx == NULL || dscale == NULL || doffset == NULL || bad_sizes(rows, channels)) {
    return EL_VALUE_ERROR;
  }
  const size_t nc = (size_t)channels + 1;
  double* sdy = malloc(nc * sizeof(double));
  double* sdx = malloc(nc * sizeof(double));
  float* a = malloc(nc * sizeof(float));
  float* b = malloc(nc * sizeof(float));
  float* kk = malloc(nc * sizeof(float));
  if (sdy == NULL || sdx == NULL || a == NULL || b == NULL || kk == NULL) {
    free(sdy);
    free(sdx);
    free(a);
    free(b);
    free(kk);
    return EL_NO_MEMORY;
  }
  const el_norm_passes np = el_train_norm_passes(k);
  np.grad_sums(rows, channels, dy, x, mean, sdy, sdx);
  for (int32_t c = 0; c < channels; ++c) {
    const double inv = 1.0 / sqrt((double)variance[c] + (double)epsilon);
    doffset[c] = (float)sdy[c];
    dscale[c] = (float)(sdx[c] * inv);
    kk[c] = (float)((double)scale[c] * inv);
    /* Training: dx = k * (dy - doffset / n - (x - mean) * dscale * inv / n). */
    a[c] = training && rows > 0 ? (float)(sdx[c] * inv * inv / (double)rows) : 0.0f;
    b[c] = training && rows > 0 ? (float)(sdy[c] / (double)rows) : 0.0f;
  }
  np.grad_apply(rows, channels, dy, x, mean, a, b, kk, dx);
  free(sdy);
  free(sdx);
  free(a);
  free(b);
  free(kk);
  return EL_OK;
}
