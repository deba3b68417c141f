/* Shared pieces of the training kernels: the kernel set, window checks, and the matrix product
 * on the optimized float GEMM micro-kernels. */
#ifndef EDGELITE_TRAIN_TRAIN_INTERNAL_H_
#define EDGELITE_TRAIN_TRAIN_INTERNAL_H_

#include <stddef.h>
#include <stdint.h>

#include <pthread.h>

#include "cpu_isa.h"
#include "edgelite/train_kernels.h"
#include "kernels/optimized/fgemm.h"
#include "threadpool.h"

struct el_train_kernels {
  el_isa isa;
  const el_fgemm_kernels* fk;
  int threads;          /* the pool's threads counting the caller; 1 without a pool */
  el_threadpool* pool;  /* NULL for one thread */
  pthread_mutex_t* busy; /* held while a call uses the pool */
};

/* Runs fn(arg, task, thread) for every task in [0, tasks), on the pool when it is free and on
 * the caller alone (thread 0) when another call holds it. Every kernel splits its work so that
 * each output is computed by one task in a fixed order: the bits never depend on which thread
 * ran what. `thread` < k->threads indexes per-thread scratch. */
void el_train_parallel(const el_train_kernels* k, int tasks, el_task_fn fn, void* arg);

/* EL_VALUE_ERROR unless every size is positive and no padding or output size is negative (the
 * kernels bound-check every tap, so any such window is safe to run). */
el_status el_train_check_window(const el_train_window* g);

/* A 1x1 stride-1 window without padding: x is its own im2col matrix. */
static inline bool el_train_pointwise(const el_train_window* g) {
  return g->k_h == 1 && g->k_w == 1 && g->stride_h == 1 && g->stride_w == 1 && g->pad_top == 0 &&
         g->pad_left == 0 && g->out_h == g->in_h && g->out_w == g->in_w;
}
/* A strided 1x1 window that never reaches into padding reads only every stride-th pixel: on
 * those pixels it is a 1x1 stride-1 window over the output grid. */
static inline bool el_train_strided_pointwise(const el_train_window* g) {
  return g->k_h == 1 && g->k_w == 1 && g->pad_top == 0 && g->pad_left == 0 &&
         !el_train_pointwise(g) && g->out_h > 0 && g->out_w > 0 &&
         (g->out_h - 1) * g->stride_h < g->in_h && (g->out_w - 1) * g->stride_w < g->in_w;
}
/* The argument checks of a window kernel taking three arrays. */
static inline el_status el_train_check_call(const el_train_kernels* k, const el_train_window* g,
                                            const void* a, const void* b, const void* c) {
  if (k == NULL || a == NULL || b == NULL || c == NULL) return EL_VALUE_ERROR;
  return el_train_check_window(g);
}

static inline size_t el_train_pixels(const el_train_window* g) {
  return (size_t)g->batch * (size_t)g->out_h * (size_t)g->out_w;
}
static inline size_t el_train_in_size(const el_train_window* g) {
  return (size_t)g->batch * (size_t)g->in_h * (size_t)g->in_w * (size_t)g->in_c;
}

/* A zero bias as long as one GEMM call reads (EL_FGEMM_CHUNK channels, vectors of 16). */
extern const float el_train_zero_bias[EL_FGEMM_CHUNK + EL_FGEMM_NR];

/* Floats el_train_pack_rows writes for a k x n matrix. */
static inline size_t el_train_packed_floats(int k, int n) {
  return (size_t)((n + EL_FGEMM_NR - 1) / EL_FGEMM_NR) * (size_t)k * EL_FGEMM_NR;
}
/* Packs the k x n row-major matrix src (row stride ld) as the GEMM's weights, so that
 * el_train_matmul multiplies by it: blocks of 16 columns, each [k][16], padded with zeros. */
void el_train_pack_rows(const float* src, ptrdiff_t ld, int k, int n, float* packed);
/* out[i][j] = sum_t a[i][t] * B[t][j] for i < m, j < n, t < k, B packed by el_train_pack_rows
 * (or by el_fgemm_pack from B's transpose). Each output is summed in t order. */
void el_train_matmul(const el_fgemm_kernels* fk, int m, int n, int k, const float* a,
                     ptrdiff_t lda, const float* packed, float* out, ptrdiff_t ldo);

/* The narrow-channel product of train_narrow.c: up to EL_TRAIN_QUAD_N output channels, rows in
 * groups of EL_TRAIN_QUAD_MR, on AVX-512 only. */
enum { EL_TRAIN_QUAD_N = 16, EL_TRAIN_QUAD_MR = 6 };
/* True when the kernels run AVX-512, 0 < n <= 16 and every run of A is whole groups of 4 floats. */
bool el_train_quads_fit(const el_train_kernels* k, int n, int tap_len);
/* Floats el_train_pack_quads writes for k (a multiple of 4) rows: as many as el_train_pack_rows. */
static inline size_t el_train_quad_floats(int k) { return (size_t)k * EL_TRAIN_QUAD_N; }
/* Packs the k x n row-major matrix src (row stride ld, n <= 16, k a multiple of 4) for
 * el_train_igemm_quads. */
void el_train_pack_quads(const float* src, ptrdiff_t ld, int k, int n, float* packed);
/* out[r][j] = sum over k of A[r][k] * B[k][j] for r < rows (<= EL_TRAIN_QUAD_MR), j < n, with A
 * in igemm's strided form (taps runs of tap_len floats, run t of row r at a[r] + t * step[r]). */
void el_train_igemm_quads(int taps, int tap_len, const float* const* a, const ptrdiff_t* step,
                          int rows, const float* packed, int n, float* out, ptrdiff_t out_stride);

/* For unit strides the input gradient is a forward convolution of dy with the filter turned by
 * 180 degrees and its channel axes swapped, padded by (k - 1) * dilation - pad: that runs on the
 * forward pass's paths, without col2im. Fills that forward window f of g; false when the
 * geometry does not fit (then col2im). */
bool el_train_input_grad_as_forward(const el_train_window* g, el_train_window* f);

/* dst[c * plane + i] = src[i * step + c] for i < cols, c < channels: channels-last columns
 * (`step` floats apart) to channel planes (train_transpose.c). */
void el_train_to_planes(const el_train_kernels* k, const float* src, size_t step, int cols,
                        int channels, float* dst, size_t plane);

/* Copies the im2col row of output pixel `p` (window taps in (i, j) order, in_c floats each,
 * zeros where the tap falls into padding) to `col`. */
void el_train_im2col_row(const el_train_window* g, const float* x, size_t p, float* col);

#endif /* EDGELITE_TRAIN_TRAIN_INTERNAL_H_ */
