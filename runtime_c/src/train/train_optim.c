/* Optimizer updates of one dense variable, in place, one pass over its elements. Each line is
 * TensorFlow's formula with its operations in the order the SDK's numpy rules (and TF's float
 * kernels) apply them, in float, so the two paths agree to the last bit where no library
 * function differs. */
#include <math.h>

#include "train/train_internal.h"

static bool bad(const el_train_kernels* k, int64_t n, const void* a, const void* b) {
  return k == NULL || n < 0 || a == NULL || b == NULL;
}

el_status el_train_apply_sgd(const el_train_kernels* k, int64_t n, float* var, float lr,
                             const float* grad) {
  if (bad(k, n, var, grad)) return EL_VALUE_ERROR;
  float* restrict v = var;
  const float* restrict g = grad;
  for (int64_t i = 0; i < n; ++i) v[i] -= g[i] * lr;
  return EL_OK;
}

el_status el_train_apply_momentum(const el_train_kernels* k, int64_t n, float* var, float* accum,
                                  float lr, const float* grad, float momentum, int32_t nesterov) {
  if (bad(k, n, var, grad) || accum == NULL) return EL_VALUE_ERROR;
  float* restrict v = var;
  float* restrict a = accum;
  const float* restrict g = grad;
  for (int64_t i = 0; i < n; ++i) {
    a[i] = a[i] * momentum + g[i];
    v[i] -= nesterov ? g[i] * lr + a[i] * momentum * lr : a[i] * lr;
  }
  return EL_OK;
}

el_status el_train_apply_adam(const el_train_kernels* k, int64_t n, float* var, float* m,
                              float* v, float beta1_power, float beta2_power, float lr,
                              float beta1, float beta2, float epsilon, const float* grad,
                              int32_t nesterov) {
  if (bad(k, n, var, grad) || m == NULL || v == NULL) return EL_VALUE_ERROR;
  float* restrict x = var;
  float* restrict mm = m;
  float* restrict vv = v;
  const float* restrict g = grad;
  const float alpha = lr * sqrtf(1.0f - beta2_power) / (1.0f - beta1_power);
  const float a1 = 1.0f - beta1, a2 = 1.0f - beta2;
  for (int64_t i = 0; i < n; ++i) {
    mm[i] += (g[i] - mm[i]) * a1;
    vv[i] += (g[i] * g[i] - vv[i]) * a2;
    const float step = nesterov ? (g[i] * a1 + beta1 * mm[i]) * alpha : mm[i] * alpha;
    x[i] -= step / (sqrtf(vv[i]) + epsilon);
  }
  return EL_OK;
}

el_status el_train_apply_rmsprop(const el_train_kernels* k, int64_t n, float* var, float* ms,
                                 float* mom, float lr, float rho, float momentum, float epsilon,
                                 const float* grad) {
  if (bad(k, n, var, grad) || ms == NULL || mom == NULL) return EL_VALUE_ERROR;
  float* restrict x = var;
  float* restrict s = ms;
  float* restrict mo = mom;
  const float* restrict g = grad;
  const float a = 1.0f - rho;
  for (int64_t i = 0; i < n; ++i) {
    s[i] += (g[i] * g[i] - s[i]) * a;
    mo[i] = mo[i] * momentum + (g[i] * lr) / sqrtf(s[i] + epsilon);
    x[i] -= mo[i];
  }
  return EL_OK;
}

el_status el_train_apply_centered_rmsprop(const el_train_kernels* k, int64_t n, float* var,
                                          float* mg, float* ms, float* mom, float lr, float rho,
                                          float momentum, float epsilon, const float* grad) {
  if (bad(k, n, var, grad) || mg == NULL || ms == NULL || mom == NULL) return EL_VALUE_ERROR;
  float* restrict x = var;
  float* restrict gm = mg;
  float* restrict s = ms;
  float* restrict mo = mom;
  const float* restrict g = grad;
  const float a = 1.0f - rho;
  for (int64_t i = 0; i < n; ++i) {
    s[i] += (g[i] * g[i] - s[i]) * a;
    gm[i] += (g[i] - gm[i]) * a;
    mo[i] = mo[i] * momentum + (g[i] * lr) / sqrtf((s[i] - gm[i] * gm[i]) + epsilon);
    x[i] -= mo[i];
  }
  return EL_OK;
}

el_status el_train_apply_adagrad(const el_train_kernels* k, int64_t n, float* var, float* accum,
                                 float lr, const float* grad, int32_t update_slots) {
  if (bad(k, n, var, grad) || accum == NULL) return EL_VALUE_ERROR;
  float* restrict x = var;
  float* restrict a = accum;
  const float* restrict g = grad;
  for (int64_t i = 0; i < n; ++i) {
    if (update_slots) a[i] += g[i] * g[i];
    x[i] -= g[i] * lr / sqrtf(a[i]);
  }
  return EL_OK;
}
