/* String tensors (string_util.h). Output buffers are sized in one pass over the selected
 * strings and written in a second, into the output's own heap memory. */
#include "kernels/string_util.h"

#include <string.h>

#include "kernels/kernel_util.h"
#include "subgraph_api.h"

static int32_t read_i32(const char* p) {
  int32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

static void write_i32(char* p, int32_t v) { memcpy(p, &v, sizeof v); }

TfLiteStatus el_string_check(TfLiteContext* ctx, const TfLiteTensor* t, int64_t expected) {
  const size_t bytes = t->bytes;
  if (t->data.raw == NULL || bytes < sizeof(int32_t)) {
    ctx->ReportError(ctx, "String tensor holds no data.");
    return kTfLiteError;
  }
  const int32_t n = read_i32(t->data.raw);
  if (n < 0 || (uint64_t)n + 2 > bytes / sizeof(int32_t) || n != expected) {
    ctx->ReportError(ctx, "String tensor holds %d strings where its shape says %lld.", (int)n, (long long)expected);
    return kTfLiteError;
  }
  int32_t prev = (int32_t)((n + 2) * sizeof(int32_t));
  for (int32_t i = 0; i <= n; ++i) {
    const int32_t off = read_i32(t->data.raw + (size_t)(i + 1) * sizeof(int32_t));
    if (off < prev || (size_t)off > bytes) {
      ctx->ReportError(ctx, "String tensor has malformed offsets.");
      return kTfLiteError;
    }
    prev = off;
  }
  return kTfLiteOk;
}

void el_string_get(const TfLiteTensor* t, int64_t i, const char** data, int32_t* len) {
  const int32_t start = read_i32(t->data.raw + (size_t)(i + 1) * sizeof(int32_t));
  const int32_t end = read_i32(t->data.raw + (size_t)(i + 2) * sizeof(int32_t));
  *data = t->data.raw + start;
  *len = end - start;
}

TfLiteStatus el_string_copy(TfLiteContext* ctx, const TfLiteTensor* in, TfLiteTensor* out) {
  EL_ENSURE_OK(ctx, el_string_check(ctx, in, el_num_elements(in)));
  EL_ENSURE_OK(ctx, el_ctx_tensor_realloc(ctx, out, in->bytes));
  memcpy(out->data.raw, in->data.raw, in->bytes);
  return kTfLiteOk;
}

TfLiteStatus el_string_write(TfLiteContext* ctx, int64_t count, el_string_fn get, const void* state,
                             TfLiteTensor* out) {
  size_t total = (size_t)(count + 2) * sizeof(int32_t);
  for (int64_t k = 0; k < count; ++k) {
    const char* s;
    int32_t len;
    get(state, k, &s, &len);
    total += (size_t)len;
  }
  if (total > INT32_MAX) {
    ctx->ReportError(ctx, "String output exceeds 2 GB.");
    return kTfLiteError;
  }
  EL_ENSURE_OK(ctx, el_ctx_tensor_realloc(ctx, out, total));
  char* base = out->data.raw;
  write_i32(base, (int32_t)count);
  int32_t off = (int32_t)((count + 2) * sizeof(int32_t));
  for (int64_t k = 0; k < count; ++k) {
    const char* s;
    int32_t len;
    get(state, k, &s, &len);
    write_i32(base + (size_t)(k + 1) * sizeof(int32_t), off);
    if (len > 0) memcpy(base + off, s, (size_t)len);
    off += len;
  }
  write_i32(base + (size_t)(count + 1) * sizeof(int32_t), off);
  return kTfLiteOk;
}

/* Strings of a checked tensor chosen by pick(k) -> source string index. */
typedef int64_t (*pick_fn)(const void* state, int64_t k);

typedef struct picked {
  const TfLiteTensor* params;
  pick_fn pick;
  const void* state;
} picked;

static void get_picked(const void* p, int64_t k, const char** data, int32_t* len) {
  const picked* s = p;
  el_string_get(s->params, s->pick(s->state, k), data, len);
}

static TfLiteStatus write_strings(TfLiteContext* ctx, const TfLiteTensor* params, int64_t count, pick_fn pick,
                                  const void* state, TfLiteTensor* out) {
  const picked p = {params, pick, state};
  return el_string_write(ctx, count, get_picked, &p, out);
}

typedef struct slices_state {
  const TfLiteTensor* indices;
  int64_t slice;
  int k;
  const int* dims;
} slices_state;

static int64_t pick_slice(const void* p, int64_t e) {
  const slices_state* s = p;
  const int64_t tuple = e / s->slice;
  int64_t off = 0;
  for (int j = 0; j < s->k; ++j) off = off * s->dims[j] + el_read_index(s->indices, tuple * s->k + j);
  return off * s->slice + e % s->slice;
}

TfLiteStatus el_string_gather_slices(TfLiteContext* ctx, const TfLiteTensor* params, int64_t n_slices,
                                     int64_t slice, const TfLiteTensor* indices, int k, const int* dims,
                                     TfLiteTensor* out) {
  EL_ENSURE_OK(ctx, el_string_check(ctx, params, el_num_elements(params)));
  const slices_state s = {indices, slice, k, dims};
  return write_strings(ctx, params, n_slices * slice, pick_slice, &s, out);
}

typedef struct axis_state {
  const TfLiteTensor* indices;
  int64_t n_idx, axis_size, inner;
} axis_state;

static int64_t pick_axis(const void* p, int64_t e) {
  const axis_state* s = p;
  const int64_t block = e / (s->n_idx * s->inner);
  const int64_t rest = e % (s->n_idx * s->inner);
  const int64_t index = el_read_index(s->indices, rest / s->inner);
  return (block * s->axis_size + index) * s->inner + rest % s->inner;
}

TfLiteStatus el_string_gather_axis(TfLiteContext* ctx, const TfLiteTensor* params, const TfLiteTensor* indices,
                                   int64_t outer, int64_t axis_size, int64_t inner, TfLiteTensor* out) {
  EL_ENSURE_OK(ctx, el_string_check(ctx, params, el_num_elements(params)));
  const axis_state s = {indices, el_num_elements(indices), axis_size, inner};
  return write_strings(ctx, params, outer * s.n_idx * inner, pick_axis, &s, out);
}
