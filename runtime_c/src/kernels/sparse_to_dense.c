/* SPARSE_TO_DENSE: an output of shape `output_shape` (at most 4-d) filled with the default value,
 * then value i (or the one scalar value) written at index i, later indices overwriting earlier
 * ones. Indices are a scalar or vector (positions in a 1-d output) or a matrix of one row per
 * value. An index outside the output, which TFLite writes through unchecked, is an error here.
 * A non-constant output_shape makes the output dynamic. */
#include <string.h>

#include "kernels/cov_util.h"
#include "kernels/coverage_ops.h"
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"

enum { INDICES = 0, SHAPE = 1, VALUES = 2, DEFAULT = 3, MAX_RANK = 4 };

static TfLiteStatus resize_output(TfLiteContext* ctx, const TfLiteTensor* shape, TfLiteTensor* out) {
  int dims[MAX_RANK];
  const int rank = (int)el_num_elements(shape);
  for (int i = 0; i < rank; ++i) {
    const int64_t v = el_read_index(shape, i);
    EL_ENSURE_MSG(ctx, v >= 0 && v <= INT32_MAX, "SPARSE_TO_DENSE: output dimension out of range.");
    dims[i] = (int)v;
  }
  return el_resize(ctx, out, rank, dims);
}

static TfLiteStatus std_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 4, 1));
  const TfLiteTensor *indices, *shape, *values, *def;
  TfLiteTensor* out;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, INDICES, &indices));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, SHAPE, &shape));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, VALUES, &values));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, DEFAULT, &def));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &out));
  EL_ENSURE(ctx, el_ndims(indices) < 3);
  EL_ENSURE_EQ(ctx, el_ndims(shape), 1);
  EL_ENSURE(ctx, el_ndims(values) < 2);
  EL_ENSURE_EQ(ctx, el_num_elements(def), 1);
  EL_ENSURE(ctx, indices->type == kTfLiteInt32 || indices->type == kTfLiteInt64);
  EL_ENSURE(ctx, shape->type == kTfLiteInt32 || shape->type == kTfLiteInt64);
  const TfLiteType t = values->type;
  EL_ENSURE(ctx, t == kTfLiteInt32 || t == kTfLiteInt64 || t == kTfLiteInt8 || t == kTfLiteUInt8 || t == kTfLiteFloat32);
  EL_ENSURE_TYPES_EQ(ctx, values->type, def->type);
  EL_ENSURE_TYPES_EQ(ctx, out->type, values->type);
  /* A value vector holds one value per index; a scalar value serves every index. */
  const int64_t count = el_ndims(indices) == 0 ? 1 : el_dim(indices, 0);
  if (el_ndims(values) == 1) EL_ENSURE_EQ(ctx, count, el_num_elements(values));
  if (el_ndims(indices) < 2) {
    EL_ENSURE_EQ(ctx, el_num_elements(shape), 1);
  } else {
    EL_ENSURE_EQ(ctx, el_dim(indices, 1), el_num_elements(shape));
  }
  EL_ENSURE_MSG(ctx, el_num_elements(shape) <= MAX_RANK, "SPARSE_TO_DENSE: the output has more than 4 dimensions.");
  if (!el_is_constant_or_persistent(shape)) {
    el_set_dynamic(out);
    return kTfLiteOk;
  }
  return resize_output(ctx, shape, out);
}

static TfLiteStatus std_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* indices = &ctx->tensors[node->inputs->data[INDICES]];
  const TfLiteTensor* values = &ctx->tensors[node->inputs->data[VALUES]];
  const TfLiteTensor* def = &ctx->tensors[node->inputs->data[DEFAULT]];
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  if (el_is_dynamic(out)) EL_ENSURE_OK(ctx, resize_output(ctx, &ctx->tensors[node->inputs->data[SHAPE]], out));
  const size_t elem = el_type_size(values->type);
  const int64_t total = el_num_elements(out);
  for (int64_t i = 0; i < total; ++i) memcpy(out->data.raw + (size_t)i * elem, def->data.raw, elem);
  const int rank = el_ndims(out);
  const bool matrix = el_ndims(indices) == 2;
  const int width = matrix ? el_dim(indices, 1) : 1;
  const int64_t count = el_ndims(indices) == 0 ? 1 : el_dim(indices, 0);
  EL_ENSURE_MSG(ctx, matrix ? width == rank : rank == 1, "SPARSE_TO_DENSE: index width does not match the output rank.");
  const bool scalar = el_ndims(values) == 0;
  for (int64_t i = 0; i < count; ++i) {
    int64_t offset = 0;
    for (int j = 0; j < width; ++j) {
      const int64_t v = el_read_index(indices, i * width + j);
      EL_ENSURE_MSG(ctx, v >= 0 && v < el_dim(out, j), "SPARSE_TO_DENSE: index out of range of the output.");
      offset = offset * el_dim(out, j) + v;
    }
    memcpy(out->data.raw + (size_t)offset * elem, values->data.raw + (size_t)(scalar ? 0 : i) * elem, elem);
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_ref_sparse_to_dense = EL_REGISTRATION(NULL, NULL, std_prepare, std_invoke,
                                                                  EL_OP_SPARSE_TO_DENSE);
