/* TFLite's string tensor layout: int32 count N, N + 1 int32 byte offsets from the start of the
 * buffer (the last is the total size), then the bytes of the strings back to back. Kernels read
 * strings through these helpers and write string outputs (always dynamic tensors) whole. */
#ifndef EDGELITE_KERNELS_STRING_UTIL_H_
#define EDGELITE_KERNELS_STRING_UTIL_H_

#include <stddef.h>
#include <stdint.h>

#include "edgelite/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Checks that a string tensor's buffer is well formed and holds `expected` strings. */
TfLiteStatus el_string_check(TfLiteContext* ctx, const TfLiteTensor* t, int64_t expected);
/* String i of a checked string tensor. */
void el_string_get(const TfLiteTensor* t, int64_t i, const char** data, int32_t* len);

/* String k of some source, for el_string_write. */
typedef void (*el_string_fn)(const void* state, int64_t k, const char** data, int32_t* len);

/* Writes `count` strings, get(state, k) for k in [0, count), into the (dynamic) output. */
TfLiteStatus el_string_write(TfLiteContext* ctx, int64_t count, el_string_fn get, const void* state,
                             TfLiteTensor* out);

/* Copies a string tensor's buffer into the (dynamic) output. */
TfLiteStatus el_string_copy(TfLiteContext* ctx, const TfLiteTensor* in, TfLiteTensor* out);

/* out takes n_slices slices of `slice` strings each from params: slice i starts at string
 * (flat index of tuple i of `indices`, k values each, over dims) * slice. Indices were checked. */
TfLiteStatus el_string_gather_slices(TfLiteContext* ctx, const TfLiteTensor* params, int64_t n_slices,
                                     int64_t slice, const TfLiteTensor* indices, int k, const int* dims,
                                     TfLiteTensor* out);

/* out takes, for each of `outer` blocks and each of the n_idx indices, `inner` strings of params
 * starting at (block * axis_size + index) * inner (GATHER along an axis). */
TfLiteStatus el_string_gather_axis(TfLiteContext* ctx, const TfLiteTensor* params, const TfLiteTensor* indices,
                                   int64_t outer, int64_t axis_size, int64_t inner, TfLiteTensor* out);

#ifdef __cplusplus
}
#endif
#endif /* EDGELITE_KERNELS_STRING_UTIL_H_ */
