/* float64 activation and bias gradients and softmax cross-entropy. */
#include <math.h>
#include <string.h>

#include "train/train_f64_internal.h"

int el_train_f64_api_version(void) { return EL_TRAIN_F64_API_VERSION; }

static bool bad(const el_train_kernels* k, int64_t n, const void* a, const void* b,
                const void* c) {
  return k == NULL || n < 0 || a == NULL || b == NULL || c == NULL;
}

/* Branch-free selects so that the loops vectorize; a NaN x passes nothing. */
el_status el_train_relu_grad_f64(const el_train_kernels* k, int64_t n, const double* dy,
                                 const double* x, double* dx) {
  if (bad(k, n, dy, x, dx)) return EL_VALUE_ERROR;
  for (int64_t i = 0; i < n; ++i) dx[i] = x[i] > 0.0 ? dy[i] : 0.0;
  return EL_OK;
}

el_status el_train_relu6_grad_f64(const el_train_kernels* k, int64_t n, const double* dy,
                                  const double* x, double* dx) {
  if (bad(k, n, dy, x, dx)) return EL_VALUE_ERROR;
  for (int64_t i = 0; i < n; ++i) dx[i] = (x[i] > 0.0) & (x[i] < 6.0) ? dy[i] : 0.0;
  return EL_OK;
}

el_status el_train_bias_add_grad_f64(const el_train_kernels* k, int64_t rows, int32_t channels,
                                     const double* dy, double* db) {
  if (bad(k, rows, dy, db, db) || channels < 0) return EL_VALUE_ERROR;
  memset(db, 0, (size_t)channels * sizeof(double));
  for (int64_t r = 0; r < rows; ++r) {
    const double* restrict row = dy + r * channels;
    for (int32_t c = 0; c < channels; ++c) db[c] += row[c];
  }
  return EL_OK;
}

/* back = logits - max(logits), then the log of the sum of its exponentials. */
static double shift_and_log_sum(int32_t classes, const double* logits, double* back) {
  double mx = logits[0];
  for (int32_t j = 1; j < classes; ++j) mx = logits[j] > mx ? logits[j] : mx;
  double total = 0.0;
  for (int32_t j = 0; j < classes; ++j) {
    back[j] = logits[j] - mx;
    total += exp(back[j]);
  }
  return log(total);
}

el_status el_train_softmax_xent_f64(const el_train_kernels* k, int64_t rows, int32_t classes,
                                    const double* logits, const double* labels, double* loss,
                                    double* backprop) {
  if (bad(k, rows, logits, labels, loss) || backprop == NULL || classes < 1) return EL_VALUE_ERROR;
  for (int64_t r = 0; r < rows; ++r) {
    double* back = backprop + r * classes;
    const double* y = labels + r * classes;
    const double lse = shift_and_log_sum(classes, logits + r * classes, back);
    double total = 0.0;
    for (int32_t j = 0; j < classes; ++j) {
      back[j] -= lse; /* log-probability */
      total -= y[j] * back[j];
      back[j] = exp(back[j]) - y[j];
    }
    loss[r] = total;
  }
  return EL_OK;
}

el_status el_train_sparse_softmax_xent_f64(const el_train_kernels* k, int64_t rows,
                                           int32_t classes, const double* logits,
                                           const int64_t* labels, double* loss,
                                           double* backprop) {
  if (bad(k, rows, logits, labels, loss) || backprop == NULL || classes < 1) return EL_VALUE_ERROR;
  for (int64_t r = 0; r < rows; ++r) {
    if (labels[r] < 0 || labels[r] >= classes) return EL_VALUE_ERROR;
  }
  for (int64_t r = 0; r < rows; ++r) {
    double* back = backprop + r * classes;
    const double lse = shift_and_log_sum(classes, logits + r * classes, back);
    loss[r] = lse - back[labels[r]];
    for (int32_t j = 0; j < classes; ++j) back[j] = exp(back[j] - lse);
    back[labels[r]] -= 1.0;
  }
  return EL_OK;
}
