/* The passes over a [rows][channels] matrix behind batch norm and the bias gradient, in two
 * bodies: plain loops (what the compiler vectorizes for the build's baseline) and AVX-512 ones
 * that run 16 channels per register with the same operations in the same order per element
 * (sums in double over the rows in order, elementwise steps in float, no fused multiply-add), so
 * both give the same bits. */
#ifndef EDGELITE_TRAIN_TRAIN_NORM_PASSES_H_
#define EDGELITE_TRAIN_TRAIN_NORM_PASSES_H_

#include "train/train_internal.h"

typedef struct el_norm_passes {
  /* sum[c] = sum over rows of x[r][c] (center NULL) or of (x[r][c] - center[c])^2, in double. */
  void (*sums)(int64_t rows, int32_t channels, const float* x, const float* center, double* sum);
  /* sdy[c] = sum of dy, sdx[c] = sum of dy * (x - mean), in double. */
  void (*grad_sums)(int64_t rows, int32_t channels, const float* dy, const float* x,
                    const float* mean, double* sdy, double* sdx);
  /* y = (x - mean) * mul + offset. */
  void (*normalize)(int64_t rows, int32_t channels, const float* x, const float* mean,
                    const float* mul, const float* offset, float* y);
  /* dx = (dy - b - (x - mean) * a) * kk. */
  void (*grad_apply)(int64_t rows, int32_t channels, const float* dy, const float* x,
                     const float* mean, const float* a, const float* b, const float* kk,
                     float* dx);
} el_norm_passes;

/* The bodies for the kernels' ISA level. */
el_norm_passes el_train_norm_passes(const el_train_kernels* k);

#endif /* EDGELITE_TRAIN_TRAIN_NORM_PASSES_H_ */
