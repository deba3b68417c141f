/* The optimizer updates of one dense variable, in place, one pass over its elements, for one
 * element type: included by train_optim.c (float) and train_optim_f64.c (double) with
 *   EL_T             the element type,
 *   EL_SQRT          its square root,
 *   EL_OPTIM_NAME(n) the name of update n (el_train_apply_n for float, ..._f64 for double).
 * Each line is TensorFlow's formula with its operations in the order the SDK's numpy rules (and
 * TF's kernels) apply them, in the element type, so the two paths agree to the last bit where no
 * library function differs. No include guard: each inclusion defines one type's updates. */

static bool bad(const el_train_kernels* k, int64_t n, const void* a, const void* b) {
  return k == NULL || n < 0 || a == NULL || b == NULL;
}

el_status EL_OPTIM_NAME(sgd)(const el_train_kernels* k, int64_t n, EL_T* var, EL_T lr,
                             const EL_T* grad) {
  if (bad(k, n, var, grad)) return EL_VALUE_ERROR;
  EL_T* restrict v = var;
  const EL_T* restrict g = grad;
  for (int64_t i = 0; i < n; ++i) v[i] -= g[i] * lr;
  return EL_OK;
}

el_status EL_OPTIM_NAME(momentum)(const el_train_kernels* k, int64_t n, EL_T* var, EL_T* accum,
                                  EL_T lr, const EL_T* grad, EL_T momentum, int32_t nesterov) {
  if (bad(k, n, var, grad) || accum == NULL) return EL_VALUE_ERROR;
  EL_T* restrict v = var;
  EL_T* restrict a = accum;
  const EL_T* restrict g = grad;
  for (int64_t i = 0; i < n; ++i) {
    a[i] = a[i] * momentum + g[i];
    v[i] -= nesterov ? g[i] * lr + a[i] * momentum * lr : a[i] * lr;
  }
  return EL_OK;
}

el_status EL_OPTIM_NAME(adam)(const el_train_kernels* k, int64_t n, EL_T* var, EL_T* m,
                              EL_T* v, EL_T beta1_power, EL_T beta2_power, EL_T lr,
                              EL_T beta1, EL_T beta2, EL_T epsilon, const EL_T* grad,
                              int32_t nesterov) {
  if (bad(k, n, var, grad) || m == NULL || v == NULL) return EL_VALUE_ERROR;
  EL_T* restrict x = var;
  EL_T* restrict mm = m;
  EL_T* restrict vv = v;
  const EL_T* restrict g = grad;
  const EL_T alpha = lr * EL_SQRT((EL_T)1.0 - beta2_power) / ((EL_T)1.0 - beta1_power);
  const EL_T a1 = (EL_T)1.0 - beta1, a2 = (EL_T)1.0 - beta2;
  for (int64_t i = 0; i < n; ++i) {
    mm[i] += (g[i] - mm[i]) * a1;
    vv[i] += (g[i] * g[i] - vv[i]) * a2;
    const EL_T step = nesterov ? (g[i] * a1 + beta1 * mm[i]) * alpha : mm[i] * alpha;
    x[i] -= step / (EL_SQRT(vv[i]) + epsilon);
  }
  return EL_OK;
}

el_status EL_OPTIM_NAME(rmsprop)(const el_train_kernels* k, int64_t n, EL_T* var, EL_T* ms,
                                 EL_T* mom, EL_T lr, EL_T rho, EL_T momentum, EL_T epsilon,
                                 const EL_T* grad) {
  if (bad(k, n, var, grad) || ms == NULL || mom == NULL) return EL_VALUE_ERROR;
  EL_T* restrict x = var;
  EL_T* restrict s = ms;
  EL_T* restrict mo = mom;
  const EL_T* restrict g = grad;
  const EL_T a = (EL_T)1.0 - rho;
  for (int64_t i = 0; i < n; ++i) {
    s[i] += (g[i] * g[i] - s[i]) * a;
    mo[i] = mo[i] * momentum + (g[i] * lr) / EL_SQRT(s[i] + epsilon);
    x[i] -= mo[i];
  }
  return EL_OK;
}

el_status EL_OPTIM_NAME(centered_rmsprop)(const el_train_kernels* k, int64_t n, EL_T* var,
                                          EL_T* mg, EL_T* ms, EL_T* mom, EL_T lr, EL_T rho,
                                          EL_T momentum, EL_T epsilon, const EL_T* grad) {
  if (bad(k, n, var, grad) || mg == NULL || ms == NULL || mom == NULL) return EL_VALUE_ERROR;
  EL_T* restrict x = var;
  EL_T* restrict gm = mg;
  EL_T* restrict s = ms;
  EL_T* restrict mo = mom;
  const EL_T* restrict g = grad;
  const EL_T a = (EL_T)1.0 - rho;
  for (int64_t i = 0; i < n; ++i) {
    s[i] += (g[i] * g[i] - s[i]) * a;
    gm[i] += (g[i] - gm[i]) * a;
    mo[i] = mo[i] * momentum + (g[i] * lr) / EL_SQRT((s[i] - gm[i] * gm[i]) + epsilon);
    x[i] -= mo[i];
  }
  return EL_OK;
}

el_status EL_OPTIM_NAME(adagrad)(const el_train_kernels* k, int64_t n, EL_T* var, EL_T* accum,
                                 EL_T lr, const EL_T* grad, int32_t update_slots) {
  if (bad(k, n, var, grad) || accum == NULL) return EL_VALUE_ERROR;
  EL_T* restrict x = var;
  EL_T* restrict a = accum;
  const EL_T* restrict g = grad;
  for (int64_t i = 0; i < n; ++i) {
    if (update_slots) a[i] += g[i] * g[i];
    x[i] -= g[i] * lr / EL_SQRT(a[i]);
  }
  return EL_OK;
}
