/* edgelite training kernels: float32 forward and backward passes of the SDK's hot ops (NHWC
 * convolutions, depthwise convolutions, pooling, fused batch norm, bias and activation
 * gradients, softmax cross-entropy) and fused optimizer updates, on the inference kernels'
 * GEMM.
 *
 * Like edgelite.h this header is a cffi cdef: plain C types only, no macros in declarations.
 * Every kernel is deterministic: each output is summed in one fixed order that depends on the
 * shapes only. Arrays are dense and row-major; the caller owns every buffer. */
#ifndef EDGELITE_TRAIN_KERNELS_H_
#define EDGELITE_TRAIN_KERNELS_H_

#include <stddef.h>
#include <stdint.h>

#include "edgelite/edgelite.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a declaration below changes; the SDK refuses a library of another version. */
enum { EL_TRAIN_API_VERSION = 2 };

/* The instruction-set level the kernels run at (immutable, shareable between threads). */
typedef struct el_train_kernels el_train_kernels;

/* A 2-D sliding window over an NHWC input: input [batch, in_h, in_w, in_c], output
 * [batch, out_h, out_w, out_c]. Filters are [k_h, k_w, in_c, out_c] for convolutions and
 * [k_h, k_w, in_c, multiplier] for depthwise ones (out_c = in_c * multiplier). Padding is the
 * number of rows / columns before the input; those after follow from the output size. */
typedef struct el_train_window {
  int32_t batch, in_h, in_w, in_c;
  int32_t k_h, k_w, out_c;
  int32_t stride_h, stride_w, dil_h, dil_w;
  int32_t pad_top, pad_left;
  int32_t out_h, out_w;
} el_train_window;

int el_train_api_version(void);
/* `isa` is an ISA name ("scalar", "avx2", ...) or "auto"/NULL for the best this CPU runs; the
 * kernels split their work over `num_threads` threads (the caller included) with results that
 * do not depend on the count. Calls from several threads at once are safe: a call that finds
 * the threads busy runs on its caller alone. */
el_status el_train_kernels_create(const char* isa, int32_t num_threads, el_train_kernels** out);
void el_train_kernels_destroy(el_train_kernels* kernels);
const char* el_train_kernels_isa(const el_train_kernels* kernels);
int32_t el_train_kernels_threads(const el_train_kernels* kernels);

/* Convolution (cross-correlation) and its gradients with respect to input and filter. */
el_status el_train_conv2d(const el_train_kernels* k, const el_train_window* g, const float* x,
                          const float* w, float* y);
el_status el_train_conv2d_backprop_input(const el_train_kernels* k, const el_train_window* g,
                                         const float* w, const float* dy, float* dx);
el_status el_train_conv2d_backprop_filter(const el_train_kernels* k, const el_train_window* g,
                                          const float* x, const float* dy, float* dw);

/* Matrix products of `batch` pairs: out[i] (m x n) = op(a[i]) . op(b[i]), where op(a) is m x depth
 * (a stored depth x m when transpose_a) and op(b) is depth x n (b stored n x depth when
 * transpose_b); matrix i of a starts a_stride floats after matrix i - 1 (0: one matrix for every
 * pair), likewise for b. out holds the batch's m x n results one after another. */
el_status el_train_mat_mul(const el_train_kernels* k, int32_t batch, int32_t m, int32_t n,
                           int32_t depth, const float* a, int64_t a_stride, int32_t transpose_a,
                           const float* b, int64_t b_stride, int32_t transpose_b, float* out);

/* Depthwise convolution: output channel c * multiplier + m sees input channel c. */
el_status el_train_depthwise_conv2d(const el_train_kernels* k, const el_train_window* g,
                                    const float* x, const float* w, float* y);
el_status el_train_depthwise_backprop_input(const el_train_kernels* k, const el_train_window* g,
                                            const float* w, const float* dy, float* dx);
el_status el_train_depthwise_backprop_filter(const el_train_kernels* k, const el_train_window* g,
                                             const float* x, const float* dy, float* dw);

/* Pooling (dilations must be 1, out_c == in_c). Padding never wins a max; averages divide by
 * the number of real input elements of the window. The max gradient goes to the first
 * maximum of each window in scan order. */
el_status el_train_max_pool(const el_train_kernels* k, const el_train_window* g, const float* x,
                            float* y);
el_status el_train_max_pool_grad(const el_train_kernels* k, const el_train_window* g,
                                 const float* x, const float* dy, float* dx);
el_status el_train_avg_pool(const el_train_kernels* k, const el_train_window* g, const float* x,
                            float* y);
el_status el_train_avg_pool_grad(const el_train_kernels* k, const el_train_window* g,
                                 const float* dy, float* dx);

/* Fused batch norm over `rows` x `channels` (channels last). Training normalizes with the batch
 * statistics and returns them (the variance biased, divided by rows); inference uses `mean` and
 * `variance` and leaves batch_mean / batch_var untouched (they may be NULL). */
el_status el_train_batch_norm(const el_train_kernels* k, int64_t rows, int32_t channels,
                              const float* x, const float* scale, const float* offset,
                              const float* mean, const float* variance, float epsilon,
                              int32_t training, float* y, float* batch_mean, float* batch_var);
/* Its gradient from the statistics the forward pass normalized with. */
el_status el_train_batch_norm_grad(const el_train_kernels* k, int64_t rows, int32_t channels,
                                   const float* dy, const float* x, const float* scale,
                                   const float* mean, const float* variance, float epsilon,
                                   int32_t training, float* dx, float* dscale, float* doffset);
/* Sum over rows per channel. */
el_status el_train_bias_add_grad(const el_train_kernels* k, int64_t rows, int32_t channels,
                                 const float* dy, float* db);

/* dx = dy where 0 < x (relu) / 0 < x < 6 (relu6), else 0. */
el_status el_train_relu_grad(const el_train_kernels* k, int64_t n, const float* dy,
                             const float* x, float* dx);
el_status el_train_relu6_grad(const el_train_kernels* k, int64_t n, const float* dy,
                              const float* x, float* dx);

/* Softmax cross-entropy over `classes` per row: loss[r] and backprop = softmax - labels. The
 * sparse form takes one class index per row (EL_VALUE_ERROR if one is out of range). */
el_status el_train_softmax_xent(const el_train_kernels* k, int64_t rows, int32_t classes,
                                const float* logits, const float* labels, float* loss,
                                float* backprop);
el_status el_train_sparse_softmax_xent(const el_train_kernels* k, int64_t rows,
                                       int32_t classes, const float* logits,
                                       const int64_t* labels, float* loss, float* backprop);

/* Optimizer updates of one variable of n elements, in place, TF's formulas. */
el_status el_train_apply_sgd(const el_train_kernels* k, int64_t n, float* var, float lr,
                             const float* grad);
el_status el_train_apply_momentum(const el_train_kernels* k, int64_t n, float* var, float* accum,
                                  float lr, const float* grad, float momentum, int32_t nesterov);
el_status el_train_apply_adam(const el_train_kernels* k, int64_t n, float* var, float* m,
                              float* v, float beta1_power, float beta2_power, float lr,
                              float beta1, float beta2, float epsilon, const float* grad,
                              int32_t nesterov);
el_status el_train_apply_rmsprop(const el_train_kernels* k, int64_t n, float* var, float* ms,
                                 float* mom, float lr, float rho, float momentum, float epsilon,
                                 const float* grad);
el_status el_train_apply_centered_rmsprop(const el_train_kernels* k, int64_t n, float* var,
                                          float* mg, float* ms, float* mom, float lr, float rho,
                                          float momentum, float epsilon, const float* grad);
el_status el_train_apply_adagrad(const el_train_kernels* k, int64_t n, float* var, float* accum,
                                 float lr, const float* grad, int32_t update_slots);

#ifdef __cplusplus
}
#endif

#endif /* EDGELITE_TRAIN_KERNELS_H_ */
