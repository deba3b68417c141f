/* Shared pieces of the float64 training kernels: a blocked double matrix product on strided
 * operands or on a convolution's windows. */
#ifndef EDGELITE_TRAIN_TRAIN_F64_INTERNAL_H_
#define EDGELITE_TRAIN_TRAIN_F64_INTERNAL_H_

#include <stdbool.h>
#include <stddef.h>

#include "edgelite/train_kernels_f64.h"
#include "train/train_internal.h"

/* Columns of the double micro-kernel's register block, and the most rows it has at any ISA
 * level (4 plain, 6 on AVX2, 8 on AVX-512). */
enum { EL_DGEMM_NR = 8, EL_DGEMM_MAX_MR = 8 };

/* A strided matrix view: element (i, j) at data[i * rs + j * cs]; or, with `win` set, the
 * im2col matrix of window win over the NHWC input `data` from output pixel `first` on (row i the
 * taps of pixel first + i, zeros in the padding), read without being built. */
typedef struct el_dview {
  const double* data;
  ptrdiff_t rs, cs;
  const el_train_window* win;
  size_t first;
} el_dview;

/* Doubles el_dgemm_pack_b writes for a k x n matrix, and the scratch el_dgemm takes for depth k. */
static inline size_t el_dgemm_packed_b(int k, int n) {
  return (size_t)((n + EL_DGEMM_NR - 1) / EL_DGEMM_NR) * (size_t)k * EL_DGEMM_NR;
}
/* The packed block of A and, for a window view, a row of in_c (<= k) zeros. */
static inline size_t el_dgemm_scratch(int k) { return (size_t)k * (EL_DGEMM_MAX_MR + 1); }

/* Copies the im2col row of output pixel p of window g over x (taps in (i, j) order, in_c doubles
 * each, zeros in the padding) to dst. */
void el_dgemm_window_row(const el_train_window* g, const double* x, size_t p, double* dst);

/* Packs the k x n matrix b in panels of EL_DGEMM_NR columns, each [k][NR], zero-padded. */
void el_dgemm_pack_b(const el_train_kernels* kern, int k, int n, el_dview b, double* packed);
/* c[i][j] (+ c[i][j] when `add`) = sum over t < k of a(i, t) * b(t, j), b packed by
 * el_dgemm_pack_b; each output summed in t order (fused multiply-adds on AVX2 and up), so the
 * bits depend on the shapes and the ISA level only. `scratch` holds el_dgemm_scratch(k) doubles. */
void el_dgemm(const el_train_kernels* kern, int m, int n, int k, el_dview a, const double* packed,
              double* c, ptrdiff_t ldc, bool add, double* scratch);

#endif /* EDGELITE_TRAIN_TRAIN_F64_INTERNAL_H_ */
