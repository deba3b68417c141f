/* GATHER_ND and SCATTER_ND: indices whose last dimension K addresses the first K dimensions of
 * params (or of the scattered output); the remaining dimensions are copied as slices.
 * GATHER_ND copies slices of any fixed-size type (and strings, through string_util.c);
 * SCATTER_ND starts from zeros and adds every update, so repeated indices accumulate, as in
 * TFLite. Out-of-range indices fail at invoke. */
#include <string.h>

#include "kernels/cov_util.h"
#include "kernels/coverage_ops.h"
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/string_util.h"

typedef struct nd_data {
  int64_t n_slices; /* index tuples */
  int k;            /* index depth */
  int64_t slice;    /* elements per slice */
  int dims[EL_MAX_DIMS]; /* addressed dimensions */
  bool dynamic;
} nd_data;

static void* nd_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(nd_data));
}

/* Flat slice number of index tuple i, or -1 when out of range. */
static int64_t tuple_offset(const nd_data* d, const TfLiteTensor* indices, int64_t i) {
  int64_t off = 0;
  for (int j = 0; j < d->k; ++j) {
    const int64_t v = el_read_index(indices, i * d->k + j);
    if (v < 0 || v >= d->dims[j]) return -1;
    off = off * d->dims[j] + v;
  }
  return off;
}

static TfLiteStatus gather_nd_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 2, 1));
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  nd_data* d = (nd_data*)node->user_data;
  const TfLiteTensor *params, *indices;
  TfLiteTensor* out;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &params));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 1, &indices));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &out));
  EL_ENSURE_OK(ctx, el_check_index_type(ctx, indices, "GATHER_ND indices"));
  EL_ENSURE_TYPES_EQ(ctx, out->type, params->type);
  EL_ENSURE_MSG(ctx, el_cov_plain_type(params->type) || params->type == kTfLiteString,
                "GATHER_ND: unsupported params type.");
  const int pr = el_ndims(params), ir = el_ndims(indices);
  EL_ENSURE_MSG(ctx, pr >= 1, "Params must be at least a vector.");
  EL_ENSURE_MSG(ctx, ir >= 1, "Indices must be at least a vector.");
  d->k = el_dim(indices, ir - 1);
  EL_ENSURE_MSG(ctx, d->k <= pr, "Index innermost dimension length must be <= params rank.");
  EL_ENSURE(ctx, ir - 1 + pr - d->k <= EL_MAX_DIMS);
  for (int j = 0; j < d->k; ++j) d->dims[j] = el_dim(params, j);
  d->n_slices = el_product(indices->dims->data, ir - 1);
  d->slice = el_product(params->dims->data + d->k, pr - d->k);
  int dims[EL_MAX_DIMS], n = 0;
  for (int i = 0; i < ir - 1; ++i) dims[n++] = el_dim(indices, i);
  for (int i = d->k; i < pr; ++i) dims[n++] = el_dim(params, i);
  if (params->type == kTfLiteString) el_set_dynamic(out);
  return el_resize(ctx, out, n, dims);
}

static TfLiteStatus gather_nd_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const nd_data* d = (const nd_data*)node->user_data;
  const TfLiteTensor* params = &ctx->tensors[node->inputs->data[0]];
  const TfLiteTensor* indices = &ctx->tensors[node->inputs->data[1]];
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  if (params->type == kTfLiteString) {
    for (int64_t i = 0; i < d->n_slices; ++i) {
      if (tuple_offset(d, indices, i) < 0) {
        ctx->ReportError(ctx, "gather_nd index out of bounds");
        return kTfLiteError;
      }
    }
    return el_string_gather_slices(ctx, params, d->n_slices, d->slice, indices, d->k, d->dims, out);
  }
  /* One pass: slices whose sources follow each other are copied as one block. */
  const size_t bytes = (size_t)d->slice * el_type_size(params->type);
  int64_t run_start = 0, run_off = 0;
  for (int64_t i = 0; i <= d->n_slices; ++i) {
    const int64_t off = i < d->n_slices ? tuple_offset(d, indices, i) : 0;
    if (off < 0) {
      ctx->ReportError(ctx, "gather_nd index out of bounds");
      return kTfLiteError;
    }
    if (i == d->n_slices || i == 0 || off != run_off + (i - run_start)) {
      if (i > run_start && bytes > 0) {
        memcpy(out->data.raw + (size_t)run_start * bytes, params->data.raw + (size_t)run_off * bytes,
               (size_t)(i - run_start) * bytes);
      }
      run_start = i;
      run_off = off;
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_ref_gather_nd =
    EL_REGISTRATION(nd_init, el_kernel_free, gather_nd_prepare, gather_nd_invoke, EL_OP_GATHER_ND);

/* ---- SCATTER_ND ------------------------------------------------------------------------- */

static TfLiteStatus scatter_shape(TfLiteContext* ctx, nd_data* d, const TfLiteTensor* indices,
                                  const TfLiteTensor* updates, const TfLiteTensor* shape, TfLiteTensor* out) {
  int dims[EL_MAX_DIMS], n = 0;
  EL_ENSURE_OK(ctx, el_cov_read_ints(ctx, shape, EL_MAX_DIMS, dims, &n));
  for (int i = 0; i < n; ++i) EL_ENSURE_MSG(ctx, dims[i] >= 0, "SCATTER_ND: negative output dimension.");
  const int ir = el_ndims(indices), ur = el_ndims(updates);
  EL_ENSURE_MSG(ctx, d->k <= n, "SCATTER_ND: index depth exceeds the output rank.");
  EL_ENSURE_MSG(ctx, ur == ir - 1 + n - d->k, "The updates tensor has the wrong rank.");
  for (int i = 0; i < ir - 1; ++i) EL_ENSURE_MSG(ctx, el_dim(updates, i) == el_dim(indices, i), "Indices and updates disagree.");
  for (int i = d->k; i < n; ++i) {
    EL_ENSURE_MSG(ctx, el_dim(updates, ir - 1 + i - d->k) == dims[i], "Updates and output shape disagree.");
  }
  for (int j = 0; j < d->k; ++j) d->dims[j] = dims[j];
  d->slice = el_product(dims + d->k, n - d->k);
  return el_resize(ctx, out, n, dims);
}

static TfLiteStatus scatter_nd_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 3, 1));
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  nd_data* d = (nd_data*)node->user_data;
  const TfLiteTensor *indices, *updates, *shape;
  TfLiteTensor* out;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &indices));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 1, &updates));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 2, &shape));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &out));
  EL_ENSURE_OK(ctx, el_check_index_type(ctx, indices, "SCATTER_ND indices"));
  EL_ENSURE_OK(ctx, el_check_index_type(ctx, shape, "SCATTER_ND shape"));
  EL_ENSURE_TYPES_EQ(ctx, out->type, updates->type);
  const TfLiteType t = updates->type;
  EL_ENSURE_MSG(ctx, t == kTfLiteFloat32 || t == kTfLiteInt32 || t == kTfLiteInt64 || t == kTfLiteInt8 ||
                         t == kTfLiteUInt8 || t == kTfLiteBool,
                "SCATTER_ND: unsupported updates type.");
  const int ir = el_ndims(indices);
  EL_ENSURE(ctx, ir >= 1 && el_ndims(shape) == 1);
  d->k = el_dim(indices, ir - 1);
  EL_ENSURE(ctx, d->k >= 1 && d->k <= EL_MAX_DIMS);
  d->n_slices = el_product(indices->dims->data, ir - 1);
  d->dynamic = !el_is_constant_or_persistent(shape);
  if (d->dynamic) {
    el_set_dynamic(out);
    return kTfLiteOk;
  }
  return scatter_shape(ctx, d, indices, updates, shape, out);
}

static TfLiteStatus scatter_nd_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  nd_data* d = (nd_data*)node->user_data;
  const TfLiteTensor* indices = &ctx->tensors[node->inputs->data[0]];
  const TfLiteTensor* updates = &ctx->tensors[node->inputs->data[1]];
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  if (d->dynamic) {
    EL_ENSURE_OK(ctx, scatter_shape(ctx, d, indices, updates, &ctx->tensors[node->inputs->data[2]], out));
  }
  const int64_t total = el_num_elements(out);
  if (total > 0) memset(out->data.raw, 0, out->bytes);
  for (int64_t i = 0; i < d->n_slices; ++i) {
    const int64_t off = tuple_offset(d, indices, i);
    if (off < 0) {
      ctx->ReportError(ctx, "scatter_nd index out of bounds");
      return kTfLiteError;
    }
    for (int64_t e = 0; e < d->slice; ++e) {
      const int64_t o = off * d->slice + e, u = i * d->slice + e;
      switch (out->type) {
        case kTfLiteFloat32: out->data.f[o] += updates->data.f[u]; break;
        case kTfLiteInt32: out->data.i32[o] = el_cov_add32(out->data.i32[o], updates->data.i32[u]); break;
        case kTfLiteInt64: out->data.i64[o] = el_cov_add64(out->data.i64[o], updates->data.i64[u]); break;
        case kTfLiteInt8: out->data.int8[o] = (int8_t)(out->data.int8[o] + updates->data.int8[u]); break;
        case kTfLiteUInt8: out->data.uint8[o] = (uint8_t)(out->data.uint8[o] + updates->data.uint8[u]); break;
        default: out->data.b[o] = out->data.uint8[o] != 0 || updates->data.uint8[u] != 0; break;
      }
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_ref_scatter_nd =
    EL_REGISTRATION(nd_init, el_kernel_free, scatter_nd_prepare, scatter_nd_invoke, EL_OP_SCATTER_ND);
