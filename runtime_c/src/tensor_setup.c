/* Model tensor → TfLiteTensor, with TFLite's builder checks and messages (ParseTensors,
 * ParseQuantization, ParseSparsity). */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"

TfLiteStatus el_element_count(const int* dims, int ndims, size_t* count) {
  size_t product = 1;
  bool empty = false;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] < 0) return kTfLiteError;
    if (dims[i] == 0) {
      empty = true;
      continue;
    }
    if (product > (size_t)INT32_MAX / (size_t)dims[i]) return kTfLiteError;
    product *= (size_t)dims[i];
  }
  *count = empty ? 0 : product;
  return kTfLiteOk;
}

TfLiteStatus el_bytes_required(TfLiteType type, const int* dims, int ndims, size_t* bytes) {
  size_t elem;
  if (TfLiteTypeSizeOf(type, &elem) != kTfLiteOk) return kTfLiteError;
  size_t count = 0;
  if (el_element_count(dims, ndims, &count) != kTfLiteOk) return kTfLiteError;
  if (type == kTfLiteInt4) {
    *bytes = count / 2 + (count & 1);
    return kTfLiteOk;
  }
  if (elem != 0 && count > SIZE_MAX / elem) return kTfLiteError;
  *bytes = count * elem;
  return kTfLiteOk;
}

static TfLiteIntArray* int_array_from(const int* v, int32_t n) {
  TfLiteIntArray* a = TfLiteIntArrayCreate(n);
  if (a != NULL && n > 0) memcpy(a->data, v, sizeof(int) * (size_t)n);
  return a;
}

/* Integer kernels form (q - zero_point) and multipliers from scale ratios in 32-bit arithmetic
 * that is only defined for zero points the storage type can hold and finite, non-negative
 * scales; a file that breaks this is rejected here instead of overflowing in every kernel. */
static TfLiteStatus check_quant_values(el_subgraph* sg, const el_quant_desc* q, TfLiteType type) {
  int64_t lo = INT32_MIN, hi = INT32_MAX;
  if (type == kTfLiteInt4) {
    lo = -8;
    hi = 7;
  } else if (type == kTfLiteInt8) {
    lo = INT8_MIN;
    hi = INT8_MAX;
  } else if (type == kTfLiteUInt8) {
    lo = 0;
    hi = UINT8_MAX;
  } else if (type == kTfLiteInt16) {
    lo = INT16_MIN;
    hi = INT16_MAX;
  } else if (type == kTfLiteUInt16) {
    lo = 0;
    hi = UINT16_MAX;
  }
  for (int32_t i = 0; i < q->num_scales; ++i) {
    const float s = q->scales[i];
    if (!(s >= 0.0f && s <= FLT_MAX)) {
      el_report(sg, "Quantization scale %g is not a finite non-negative number.", (double)s);
      return kTfLiteError;
    }
    const int64_t zp = q->zero_points[i];
    if (zp < lo || zp > hi) {
      el_report(sg, "Zero point %lld is outside the range of %s.", (long long)zp,
                TfLiteTypeGetName(type));
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

#ifdef EDGELITE_FREESTANDING
/* Firmware RAM is the budget: the scales stay in the flatbuffer (its vector is laid out as a
 * TfLiteFloatArray), the parameters live in the interpreter's pool, and tensors whose zero points
 * are equal (per-channel int8 weights: all zero) share one array. They go with the interpreter,
 * so el_release_tensor leaves them alone. */
static const TfLiteIntArray* shared_zero_points(const el_subgraph* sg, const el_quant_desc* q) {
  for (int32_t j = 0; j < sg->num_model_tensors; ++j) {
    const TfLiteTensor* o = &sg->ctx.tensors[j];
    if (o->quantization.type != kTfLiteAffineQuantization || o->quantization.params == NULL) continue;
    const TfLiteIntArray* zp = ((const TfLiteAffineQuantization*)o->quantization.params)->zero_point;
    if (zp->size != q->num_scales) continue;
    int32_t k = 0;
    while (k < q->num_scales && zp->data[k] == q->zero_points[k]) ++k;
    if (k == q->num_scales) return zp;
  }
  return NULL;
}

static TfLiteAffineQuantization* affine_in_pool(el_subgraph* sg, const el_quant_desc* q) {
  el_pool* pool = &sg->interp->pool;
  TfLiteAffineQuantization* aq = el_pool_alloc(pool, 1, sizeof *aq);
  if (aq == NULL) return NULL;
  if (q->scales_in_place) {
    aq->scale = (TfLiteFloatArray*)(void*)((int*)(void*)(uintptr_t)q->scales - 1);
  } else {
    aq->scale = el_pool_alloc(pool, 1, sizeof(TfLiteFloatArray) + sizeof(float) * (size_t)q->num_scales);
    if (aq->scale == NULL) return NULL;
    aq->scale->size = q->num_scales;
    memcpy(aq->scale->data, q->scales, sizeof(float) * (size_t)q->num_scales);
  }
  aq->zero_point = (TfLiteIntArray*)(uintptr_t)shared_zero_points(sg, q);
  if (aq->zero_point == NULL) {
    aq->zero_point = el_pool_alloc(pool, 1, sizeof(TfLiteIntArray) + sizeof(int) * (size_t)q->num_scales);
    if (aq->zero_point == NULL) return NULL;
    aq->zero_point->size = q->num_scales;
    for (int32_t i = 0; i < q->num_scales; ++i) aq->zero_point->data[i] = (int)q->zero_points[i];
  }
  return aq;
}
#endif

/* TFLite's ParseQuantization: per-tensor or per-axis affine parameters. */
static TfLiteStatus setup_quantization(el_subgraph* sg, const el_tensor_desc* d, TfLiteTensor* t) {
  const el_quant_desc* q = &d->quant;
  t->quantization.type = kTfLiteNoQuantization;
  t->quantization.params = NULL;
  if (!q->present || q->num_scales == 0) return kTfLiteOk;
  if (q->num_zero_points < 0) {
    el_report(sg, "Quantization parameters has non-null scale but null zero_point.");
    return kTfLiteError;
  }
  if (q->num_scales != q->num_zero_points) {
    el_report(sg,
              "QuantizationParam has %d zero_point values and %d scale values. Must have same "
              "number.",
              (int)q->num_zero_points, (int)q->num_scales);
    return kTfLiteError;
  }
  int32_t rank = d->shape.n;
  int32_t qdim = q->quantized_dimension;
  /* Old converters gave per-channel bias vectors the filter's quantized_dimension (e.g. 3);
   * TFLite Micro runs such models, so a rank-1 tensor with one scale per element takes axis 0. */
  if (rank == 1 && qdim >= rank && q->num_scales > 1 && q->num_scales == d->shape.v[0]) qdim = 0;
  if (qdim < 0 || (rank > 0 && qdim >= rank)) {
    el_report(sg, "quantized_dimension must be in range [0, %d). Was %d.", (int)rank,
              (int)q->quantized_dimension);
    return kTfLiteError;
  }
  if (q->num_scales != 1 && rank > 0 && q->num_scales != d->shape.v[qdim]) {
    el_report(sg,
              "num_scales must be 1 for per-layer quantization, or %d for per-axis quantization, "
              "but got %d.",
              d->shape.v[qdim], (int)q->num_scales);
    return kTfLiteError;
  }
  if (check_quant_values(sg, q, t->type) != kTfLiteOk) return kTfLiteError;
#ifdef EDGELITE_FREESTANDING
  TfLiteAffineQuantization* aq = affine_in_pool(sg, q);
  if (aq == NULL) return kTfLiteError;
#else
  TfLiteAffineQuantization* aq = calloc(1, sizeof *aq);
  if (aq == NULL) return kTfLiteError;
  aq->scale = TfLiteFloatArrayCreate(q->num_scales);
  aq->zero_point = TfLiteIntArrayCreate(q->num_scales);
  if (aq->scale == NULL || aq->zero_point == NULL) {
    TfLiteFloatArrayFree(aq->scale);
    TfLiteIntArrayFree(aq->zero_point);
    free(aq);
    return kTfLiteError;
  }
  for (int32_t i = 0; i < q->num_scales; ++i) {
    aq->scale->data[i] = q->scales[i];
    aq->zero_point->data[i] = (int)q->zero_points[i];
  }
#endif
  aq->quantized_dimension = qdim;
  t->quantization.type = kTfLiteAffineQuantization;
  t->quantization.params = aq;
  if (q->num_scales == 1) {
    t->params.scale = q->scales[0];
    t->params.zero_point = (int32_t)q->zero_points[0];
  }
  return kTfLiteOk;
}

static TfLiteStatus setup_sparsity(el_subgraph* sg, const el_sparsity_desc* s, TfLiteTensor* t) {
  if (!s->has_traversal_order || !s->has_dim_metadata) {
    el_report(sg, "Invalid sparsity parameter.");
    return kTfLiteError;
  }
  TfLiteSparsity* sp = calloc(1, sizeof *sp);
  if (sp == NULL) return kTfLiteError;
  t->sparsity = sp;
  sp->traversal_order = int_array_from(s->traversal_order.v, s->traversal_order.n);
  if (s->has_block_map) sp->block_map = int_array_from(s->block_map.v, s->block_map.n);
  sp->dim_metadata = calloc(s->num_dim_metadata ? (size_t)s->num_dim_metadata : 1,
                            sizeof(TfLiteDimensionMetadata));
  if (sp->traversal_order == NULL || sp->dim_metadata == NULL ||
      (s->has_block_map && sp->block_map == NULL)) {
    return kTfLiteError;
  }
  sp->dim_metadata_size = s->num_dim_metadata;
  for (int32_t i = 0; i < s->num_dim_metadata; ++i) {
    const el_dim_meta_desc* src = &s->dim_metadata[i];
    TfLiteDimensionMetadata* dst = &sp->dim_metadata[i];
    if (src->format != kTfLiteDimDense && src->format != kTfLiteDimSparseCSR) {
      el_report(sg, "The %dth dimension has unknown type: %d.", (int)i, (int)src->format);
      return kTfLiteError;
    }
    dst->format = (TfLiteDimensionType)src->format;
    if (dst->format == kTfLiteDimDense) {
      dst->dense_size = src->dense_size;
      continue;
    }
    if (src->segments_type < 1 || src->segments_type > 3 || src->indices_type < 1 ||
        src->indices_type > 3) {
      el_report(sg, "The %dth sparse dimension has invalid parameters.", (int)i);
      return kTfLiteError;
    }
    dst->array_segments = int_array_from(src->segments.v, src->segments.n);
    dst->array_indices = int_array_from(src->indices.v, src->indices.n);
    if (dst->array_segments == NULL || dst->array_indices == NULL) return kTfLiteError;
  }
  return kTfLiteOk;
}

/* Kernels read constants through typed pointers, so data that the file left misaligned for
 * its element type is copied once to aligned memory. */
static TfLiteStatus place_constant(el_subgraph* sg, int i, const uint8_t* data, size_t size) {
  TfLiteTensor* t = &sg->ctx.tensors[i];
  size_t elem = 1;
  if (TfLiteTypeSizeOf(t->type, &elem) != kTfLiteOk || elem > 8) elem = 8;
  if (((uintptr_t)data % elem) == 0) {
    t->data.raw_const = (const char*)data;
    return kTfLiteOk;
  }
  void* copy = NULL;
  if (posix_memalign(&copy, 16, size ? size : 1) != 0) return kTfLiteError;
  memcpy(copy, data, size);
  sg->extra[i].owned = copy;
  sg->extra[i].owned_cap = size;
  t->data.raw = copy;
  return kTfLiteOk;
}

TfLiteStatus el_setup_model_tensor(el_subgraph* sg, int i) {
  const el_model* m = sg->interp->model;
  const el_tensor_desc* d = &sg->desc->tensors[i];
  TfLiteTensor* t = &sg->ctx.tensors[i];
  el_tensor_extra* x = &sg->extra[i];
  x->desc = d;
  x->arena_offset = -1;
  t->name = d->name;
  t->buffer_handle = kTfLiteNullBufferHandle;
  int type = el_convert_tensor_type(d->schema_type);
  if (type < 0) {
    el_report(sg, "Unsupported data type %d in tensor\n", d->schema_type);
    return kTfLiteError;
  }
  t->type = (TfLiteType)type;
#ifdef EDGELITE_FREESTANDING
  /* The shape vector read in place is a TfLiteIntArray already (el_resize_tensor keeps it). */
  if (d->shape.n > 0 && el_model_holds(m, d->shape.v)) {
    t->dims = (TfLiteIntArray*)(uintptr_t)(d->shape.v - 1);
  } else {
    t->dims = int_array_from(d->shape.v, d->shape.n);
  }
#else
  t->dims = int_array_from(d->shape.v, d->shape.n);
#endif
  if (t->dims == NULL) return kTfLiteError;
  if (d->has_shape_signature && d->shape_signature.n > 0) {
#ifdef EDGELITE_FREESTANDING
    if (el_model_holds(m, d->shape_signature.v)) {
      t->dims_signature = (const TfLiteIntArray*)(uintptr_t)(d->shape_signature.v - 1);
    } else {
      t->dims_signature = int_array_from(d->shape_signature.v, d->shape_signature.n);
    }
#else
    t->dims_signature = int_array_from(d->shape_signature.v, d->shape_signature.n);
#endif
    if (t->dims_signature == NULL) return kTfLiteError;
  }

  const uint8_t* data = NULL;
  size_t size = 0;
  if (d->buffer != 0) {
    if (d->buffer >= (uint32_t)m->num_buffers) {
      el_report(sg, "Tensor %d specifies out of range buffer %u (only %d buffers).\n", (int)i,
                (unsigned)d->buffer, (int)m->num_buffers);
      return kTfLiteError;
    }
    const el_buffer_desc* b = &m->buffers[d->buffer];
    if (b->out_of_range) {
      el_report(sg, "Constant buffer %u specified an out of range offset.\n", (unsigned)d->buffer);
      return kTfLiteError;
    }
    data = b->data;
    size = b->size;
  }

  TfLiteStatus status = kTfLiteOk;
  if (setup_quantization(sg, d, t) != kTfLiteOk) {
    el_report(sg, "Tensor %d has invalid quantization parameters.", i);
    status = kTfLiteError;
  }

  int sized = t->type != kTfLiteString && t->type != kTfLiteResource && t->type != kTfLiteVariant;
  size_t required = 0;
  if ((sized ? el_bytes_required(t->type, t->dims->data, t->dims->size, &required)
             : el_element_count(t->dims->data, t->dims->size, &required)) != kTfLiteOk) {
    el_report(sg, "BytesRequired number of elements overflowed.\n");
    el_report(sg, "Tensor %d is invalidly specified in schema.\n", i);
    return kTfLiteError;
  }

  if (data != NULL) {
    if (d->is_variable || d->external_buffer != 0) {
      el_report(sg,
                "Tensor %d is a variable tensor with buffer or external buffer. It's not "
                "supported now.\n",
                i);
      status = kTfLiteError;
    }
    if (d->sparsity != NULL && setup_sparsity(sg, d->sparsity, t) != kTfLiteOk) {
      el_report(sg, "Tensor %d has invalid sparsity parameters.", i);
      status = kTfLiteError;
    }
    if (sized && t->sparsity == NULL && required > size) {
      el_report(sg, "Constant tensor %d needs %zu bytes but its buffer holds %zu.", i, required,
                size);
      el_report(sg, "Tensor %d is invalidly specified in schema.\n", i);
      return kTfLiteError;
    }
    if (status != kTfLiteOk) return status;
    x->is_constant = 1;
    t->allocation_type = kTfLiteMmapRo;
    t->allocation = m;
    t->bytes = size;
    return place_constant(sg, i, data, size);
  }

  t->is_variable = d->is_variable != 0;
  if (!sized) {
    t->allocation_type = kTfLiteDynamic;
    t->bytes = 0;
  } else {
    t->allocation_type = t->is_variable ? kTfLiteArenaRwPersistent : kTfLiteArenaRw;
    t->bytes = required;
  }
  return status;
}

void el_release_tensor(el_subgraph* sg, int i) {
  TfLiteTensor* t = &sg->ctx.tensors[i];
  el_tensor_extra* x = &sg->extra[i];
  if (!el_model_holds(sg->interp->model, t->dims)) TfLiteIntArrayFree(t->dims);
  if (!el_model_holds(sg->interp->model, t->dims_signature)) {
    TfLiteIntArrayFree((TfLiteIntArray*)(uintptr_t)t->dims_signature);
  }
#ifdef EDGELITE_FREESTANDING
  if (x->desc != NULL) t->quantization.type = kTfLiteNoQuantization; /* pool memory (affine_in_pool) */
#endif
  TfLiteQuantizationFree(&t->quantization);
  TfLiteSparsityFree(t->sparsity);
  TfLiteIntArrayFree(x->pending_dims);
  free(x->owned);
  t->dims = NULL;
  t->dims_signature = NULL;
  t->sparsity = NULL;
  x->pending_dims = NULL;
  x->owned = NULL;
  x->owned_cap = 0;
}
