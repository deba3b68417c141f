/* edgelite training kernels in float64: the ops TensorFlow's CPU kernels also run in double
 * (convolutions, depthwise convolutions, pooling, bias and activation gradients, softmax
 * cross-entropy, optimizer updates; fused batch norm has no float64 kernel there, nor here).
 *
 * Same conventions as train_kernels.h, whose kernel set and window these take: a cffi cdef, dense
 * row-major arrays owned by the caller, and every output summed in one order set by the shapes
 * alone, so the bits never depend on the thread count. */
#ifndef EDGELITE_TRAIN_KERNELS_F64_H_
#define EDGELITE_TRAIN_KERNELS_F64_H_

#include <stddef.h>
#include <stdint.h>

#include "edgelite/train_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a declaration below changes; the SDK leaves float64 on numpy otherwise. */
enum { EL_TRAIN_F64_API_VERSION = 1 };

int el_train_f64_api_version(void);

el_status el_train_conv2d_f64(const el_train_kernels* k, const el_train_window* g,
                              const double* x, const double* w, double* y);
el_status el_train_conv2d_backprop_input_f64(const el_train_kernels* k, const el_train_window* g,
                                             const double* w, const double* dy, double* dx);
el_status el_train_conv2d_backprop_filter_f64(const el_train_kernels* k,
                                              const el_train_window* g, const double* x,
                                              const double* dy, double* dw);

el_status el_train_depthwise_conv2d_f64(const el_train_kernels* k, const el_train_window* g,
                                        const double* x, const double* w, double* y);
el_status el_train_depthwise_backprop_input_f64(const el_train_kernels* k,
                                                const el_train_window* g, const double* w,
                                                const double* dy, double* dx);
el_status el_train_depthwise_backprop_filter_f64(const el_train_kernels* k,
                                                 const el_train_window* g, const double* x,
                                                 const double* dy, double* dw);

el_status el_train_max_pool_f64(const el_train_kernels* k, const el_train_window* g,
                                const double* x, double* y);
el_status el_train_max_pool_grad_f64(const el_train_kernels* k, const el_train_window* g,
                                     const double* x, const double* dy, double* dx);
el_status el_train_avg_pool_f64(const el_train_kernels* k, const el_train_window* g,
                                const double* x, double* y);
el_status el_train_avg_pool_grad_f64(const el_train_kernels* k, const el_train_window* g,
                                     const double* dy, double* dx);

el_status el_train_bias_add_grad_f64(const el_train_kernels* k, int64_t rows, int32_t channels,
                                     const double* dy, double* db);
el_status el_train_relu_grad_f64(const el_train_kernels* k, int64_t n, const double* dy,
                                 const double* x, double* dx);
el_status el_train_relu6_grad_f64(const el_train_kernels* k, int64_t n, const double* dy,
                                  const double* x, double* dx);

el_status el_train_softmax_xent_f64(const el_train_kernels* k, int64_t rows, int32_t classes,
                                    const double* logits, const double* labels, double* loss,
                                    double* backprop);
el_status el_train_sparse_softmax_xent_f64(const el_train_kernels* k, int64_t rows,
                                           int32_t classes, const double* logits,
                                           const int64_t* labels, double* loss,
                                           double* backprop);

el_status el_train_apply_sgd_f64(const el_train_kernels* k, int64_t n, double* var, double lr,
                                 const double* grad);
el_status el_train_apply_momentum_f64(const el_train_kernels* k, int64_t n, double* var,
                                      double* accum, double lr, const double* grad,
                                      double momentum, int32_t nesterov);
el_status el_train_apply_adam_f64(const el_train_kernels* k, int64_t n, double* var, double* m,
                                  double* v, double beta1_power, double beta2_power, double lr,
                                  double beta1, double beta2, double epsilon, const double* grad,
                                  int32_t nesterov);
el_status el_train_apply_rmsprop_f64(const el_train_kernels* k, int64_t n, double* var,
                                     double* ms, double* mom, double lr, double rho,
                                     double momentum, double epsilon, const double* grad);
el_status el_train_apply_centered_rmsprop_f64(const el_train_kernels* k, int64_t n, double* var,
                                              double* mg, double* ms, double* mom, double lr,
                                              double rho, double momentum, double epsilon,
                                              const double* grad);
el_status el_train_apply_adagrad_f64(const el_train_kernels* k, int64_t n, double* var,
                                     double* accum, double lr, const double* grad,
                                     int32_t update_slots);

#ifdef __cplusplus
}
#endif

#endif /* EDGELITE_TRAIN_KERNELS_F64_H_ */
