/* Activation gradients and softmax cross-entropy. */
#include <math.h>

#include "train/train_internal.h"

/* Branch-free selects so that the loops vectorize; a NaN x passes nothing, as in numpy. */
static void relu_mask(int64_t n, const float* restrict dy, const float* restrict x,
                      float* restrict dx) {
  for (int64_t i = 0; i < n; ++i) {
    const float d = dy[i], v = x[i];
    dx[i] = v > 0.0f ? d : 0.0f;
  }
}

static void relu6_mask(int64_t n, const float* restrict dy, const float* restrict x,
                       float* restrict dx) {
  for (int64_t i = 0; i < n; ++i) {
    const float d = dy[i], v = x[i];
    dx[i] = (v > 0.0f) & (v < 6.0f) ? d : 0.0f;
  }
}

el_status el_train_relu_grad(const el_train_kernels* k, int64_t n, const float* dy,
                             const float* x, float* dx) {
  if (k == NULL || dy == NULL || x == NULL || dx == NULL || n < 0) return EL_VALUE_ERROR;
  relu_mask(n, dy, x, dx);
  return EL_OK;
}

el_status el_train_relu6_grad(const el_train_kernels* k, int64_t n, const float* dy,
                              const float* x, float* dx) {
  if (k == NULL || dy == NULL || x == NULL || dx == NULL || n < 0) return EL_VALUE_ERROR;
  relu6_mask(n, dy, x, dx);
  return EL_OK;
}

/* log(sum(exp(row - max))) and max of one row. */
static double log_sum_exp(const float* row, int32_t classes, float* max_out) {
  float mx = row[0];
  for (int32_t j = 1; j < classes; ++j) mx = row[j] > mx ? row[j] : mx;
  double s = 0.0;
  for (int32_t j = 0; j < classes; ++j) s += exp((double)(row[j] - mx));
  *max_out = mx;
  return log(s);
}

el_status el_train_softmax_xent(const el_train_kernels* k, int64_t rows, int32_t classes,
                                const float* logits, const float* labels, float* loss,
                                float* backprop) {
  if (k == NULL || logits == NULL || labels == NULL || loss == NULL || backprop == NULL ||
      rows < 0 || classes < 1) {
    return EL_VALUE_ERROR;
  }
  for (int64_t r = 0; r < rows; ++r) {
    const float* lr = logits + r * classes;
    const float* yr = labels + r * classes;
    float* br = backprop + r * classes;
    float mx;
    const double lse = log_sum_exp(lr, classes, &mx);
    double total = 0.0;
    for (int32_t j = 0; j < classes; ++j) {
      const double logp = (double)(lr[j] - mx) - lse;
      total -= (double)yr[j] * logp;
      br[j] = (float)(exp(logp) - (double)yr[j]);
    }
    loss[r] = (float)total;
  }
  return EL_OK;
}

el_status el_train_sparse_softmax_xent(const el_train_kernels* k, int64_t rows,
                                       int32_t classes, const float* logits,
                                       const int64_t* labels, float* loss, float* backprop) {
  if (k == NULL || logits == NULL || labels == NULL || loss == NULL || backprop == NULL ||
      rows < 0 || classes < 1) {
    return EL_VALUE_ERROR;
  }
  for (int64_t r = 0; r < rows; ++r) {
    if (labels[r] < 0 || labels[r] >= classes) return EL_VALUE_ERROR;
  }
  for (int64_t r = 0; r < rows; ++r) {
    const float* lr = logits + r * classes;
    float* br = backprop + r * classes;
    float mx;
    const double lse = log_sum_exp(lr, classes, &mx);
    for (int32_t j = 0; j < classes; ++j) br[j] = (float)exp((double)(lr[j] - mx) - lse);
    br[labels[r]] -= 1.0f;
    loss[r] = (float)(lse - (double)(lr[labels[r]] - mx));
  }
  return EL_OK;
}
