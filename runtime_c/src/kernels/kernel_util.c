#include "kernels/kernel_util.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernels.h"

int el_num_inputs(const TfLiteNode* node) { return node->inputs ? node->inputs->size : 0; }

int el_num_outputs(const TfLiteNode* node) { return node->outputs ? node->outputs->size : 0; }

const TfLiteTensor* el_optional_input(TfLiteContext* ctx, const TfLiteNode* node, int i) {
  if (i < 0 || i >= el_num_inputs(node)) return NULL;
  const int idx = node->inputs->data[i];
  if (idx < 0 || (size_t)idx >= ctx->tensors_size) return NULL;
  return &ctx->tensors[idx];
}

TfLiteStatus el_get_input(TfLiteContext* ctx, const TfLiteNode* node, int i,
                          const TfLiteTensor** out) {
  *out = el_optional_input(ctx, node, i);
  if (*out == NULL) {
    ctx->ReportError(ctx, "Input tensor %d is missing.", i);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus el_get_output(TfLiteContext* ctx, const TfLiteNode* node, int i, TfLiteTensor** out) {
  *out = NULL;
  if (i >= 0 && i < el_num_outputs(node)) {
    const int idx = node->outputs->data[i];
    if (idx >= 0 && (size_t)idx < ctx->tensors_size) *out = &ctx->tensors[idx];
  }
  if (*out == NULL) {
    ctx->ReportError(ctx, "Output tensor %d is missing.", i);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus el_check_io_count(TfLiteContext* ctx, const TfLiteNode* node, int inputs,
                               int outputs) {
  EL_ENSURE_EQ(ctx, el_num_inputs(node), inputs);
  EL_ENSURE_EQ(ctx, el_num_outputs(node), outputs);
  return kTfLiteOk;
}

TfLiteStatus el_prepare_elementwise_unary(TfLiteContext* ctx, const TfLiteNode* node, const TfLiteTensor** in) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 1, 1));
  TfLiteTensor* out;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, in));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &out));
  EL_ENSURE_TYPES_EQ(ctx, out->type, (*in)->type);
  return el_resize_like(ctx, out, *in);
}

TfLiteStatus el_get_filter_operands(TfLiteContext* ctx, const TfLiteNode* node, const TfLiteTensor** input,
                                    const TfLiteTensor** filter, const TfLiteTensor** bias, TfLiteTensor** output) {
  const int num_inputs = el_num_inputs(node);
  EL_ENSURE(ctx, num_inputs == 2 || num_inputs == 3);
  EL_ENSURE_EQ(ctx, el_num_outputs(node), 1);
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, input));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 1, filter));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, output));
  *bias = el_optional_input(ctx, node, 2);
  return kTfLiteOk;
}

TfLiteStatus el_check_user_data(TfLiteContext* ctx, const TfLiteNode* node) {
  if (node->user_data == NULL) {
    ctx->ReportError(ctx, "Kernel state could not be allocated.");
    return kTfLiteError;
  }
  return kTfLiteOk;
}

int64_t el_product(const int* dims, int n) {
  int64_t p = 1;
  for (int i = 0; i < n; ++i) p *= dims[i];
  return p;
}

int64_t el_num_elements(const TfLiteTensor* t) {
  if (t->dims == NULL) return 0;
  return el_product(t->dims->data, t->dims->size);
}

bool el_same_shape(const TfLiteTensor* a, const TfLiteTensor* b) {
  if (el_ndims(a) != el_ndims(b)) return false;
  for (int i = 0; i < el_ndims(a); ++i) {
    if (a->dims->data[i] != b->dims->data[i]) return false;
  }
  return true;
}

bool el_is_constant_or_persistent(const TfLiteTensor* t) {
  return (t->allocation_type == kTfLiteMmapRo || t->allocation_type == kTfLitePersistentRo) &&
         (t->data.raw != NULL || el_num_elements(t) == 0);
}

size_t el_type_size(TfLiteType type) {
  switch (type) {
    case kTfLiteFloat32:
    case kTfLiteInt32:
    case kTfLiteUInt32:
      return 4;
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteBool:
      return 1;
    case kTfLiteInt64:
    case kTfLiteUInt64:
    case kTfLiteFloat64:
    case kTfLiteComplex64:
      return 8;
    case kTfLiteInt16:
    case kTfLiteUInt16:
    case kTfLiteFloat16:
      return 2;
    case kTfLiteComplex128:
      return 16;
    default:
      return 0;
  }
}

TfLiteStatus el_resize(TfLiteContext* ctx, TfLiteTensor* t, int ndims, const int* dims) {
  TfLiteIntArray* shape = TfLiteIntArrayCreate(ndims);
  if (shape == NULL) {
    ctx->ReportError(ctx, "Out of memory while resizing a tensor.");
    return kTfLiteError;
  }
  for (int i = 0; i < ndims; ++i) shape->data[i] = dims[i];
  return ctx->ResizeTensor(ctx, t, shape);
}

TfLiteStatus el_resize_like(TfLiteContext* ctx, TfLiteTensor* out, const TfLiteTensor* like) {
  return el_resize(ctx, out, el_ndims(like), like->dims ? like->dims->data : NULL);
}

int64_t el_read_index(const TfLiteTensor* t, int64_t i) {
  return t->type == kTfLiteInt64 ? t->data.i64[i] : (int64_t)t->data.i32[i];
}

TfLiteStatus el_check_index_type(TfLiteContext* ctx, const TfLiteTensor* t, const char* what) {
  if (t->type != kTfLiteInt32 && t->type != kTfLiteInt64) {
    ctx->ReportError(ctx, "%s must be int32 or int64, got %s.", what, TfLiteTypeGetName(t->type));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

void el_set_dynamic(TfLiteTensor* t) {
  if (t->allocation_type == kTfLiteDynamic) return;
  /* Arena memory is not the tensor's own; the core allocates a dynamic tensor on resize. */
  if (t->allocation_type == kTfLiteArenaRw) t->data.raw = NULL;
  t->allocation_type = kTfLiteDynamic;
}

TfLiteStatus el_check_index_tensor(TfLiteContext* ctx, const TfLiteTensor* t, const char* what) {
  EL_ENSURE_OK(ctx, el_check_index_type(ctx, t, what));
  if (!el_is_constant_or_persistent(t)) {
    ctx->ReportError(ctx, "%s must be a constant tensor: its values decide the output shape.",
                     what);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

static void shape_string(const TfLiteTensor* t, char* buf, size_t cap) {
  size_t n = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < el_ndims(t) && n < cap; ++i) {
    n += (size_t)snprintf(buf + n, cap - n, i ? ",%d" : "%d", t->dims->data[i]);
  }
  if (n < cap) snprintf(buf + n, cap - n, "]");
}

TfLiteStatus el_bcast_prepare(TfLiteContext* ctx, const TfLiteTensor* a, const TfLiteTensor* b,
                              int max_rank, int* out_dims, int* out_ndims, el_bcast* plan) {
  const int ra = el_ndims(a), rb = el_ndims(b);
  const int rank = ra > rb ? ra : rb;
  if (rank > max_rank || rank > EL_MAX_DIMS) {
    ctx->ReportError(ctx, "Broadcasting supports at most %d dimensions, got %d.", max_rank, rank);
    return kTfLiteError;
  }
  int da[EL_MAX_DIMS], db[EL_MAX_DIMS];
  for (int i = 0; i < rank; ++i) {
    const int ia = i - (rank - ra), ib = i - (rank - rb);
    da[i] = ia >= 0 ? a->dims->data[ia] : 1;
    db[i] = ib >= 0 ? b->dims->data[ib] : 1;
    if (da[i] != db[i] && da[i] != 1 && db[i] != 1) {
      char sa[128], sb[128];
      shape_string(a, sa, sizeof sa);
      shape_string(b, sb, sizeof sb);
      ctx->ReportError(ctx, "Given shapes, %s and %s, are not broadcastable.", sa, sb);
      return kTfLiteError;
    }
    out_dims[i] = da[i] == 1 ? db[i] : da[i];
  }
  *out_ndims = rank;

  /* Collapse: drop unit output dims, merge neighbours whose broadcast pattern matches. */
  int n = 0;
  int cd[EL_MAX_DIMS];
  bool fa[EL_MAX_DIMS], fb[EL_MAX_DIMS];
  for (int i = 0; i < rank; ++i) {
    if (out_dims[i] == 1) continue;
    const bool full_a = da[i] != 1, full_b = db[i] != 1;
    if (n > 0 && fa[n - 1] == full_a && fb[n - 1] == full_b) {
      cd[n - 1] *= out_dims[i];
    } else {
      cd[n] = out_dims[i];
      fa[n] = full_a;
      fb[n] = full_b;
      ++n;
    }
  }
  if (n == 0) {
    cd[0] = 1;
    fa[0] = fb[0] = true;
    n = 1;
  }
  int64_t sa = 1, sb = 1;
  plan->count = 1;
  for (int i = n - 1; i >= 0; --i) {
    plan->dims[i] = cd[i];
    plan->a_strides[i] = fa[i] ? sa : 0;
    plan->b_strides[i] = fb[i] ? sb : 0;
    if (fa[i]) sa *= cd[i];
    if (fb[i]) sb *= cd[i];
    plan->count *= cd[i];
  }
  plan->ndims = n;
  return kTfLiteOk;
}

int el_compute_out_size(TfLitePadding padding, int image, int filter, int stride, int dilation) {
  if (stride == 0) return 0;
  const int64_t effective = ((int64_t)filter - 1) * dilation + 1;
  /* Kernels index with int: oy * stride - pad + dilation * fy stays in range when the image,
   * one stride and the effective filter add up within INT32_MAX. Hostile options (strides,
   * dilations or filter sizes near 2^31) get -1, an out size every caller refuses. */
  if (stride < 0 || effective < 0 || (int64_t)image + stride + effective > INT32_MAX) return -1;
  switch (padding) {
    case kTfLitePaddingSame:
      return (int)(((int64_t)image + stride - 1) / stride);
    case kTfLitePaddingValid:
      return (int)(((int64_t)image + stride - effective) / stride);
    default:
      return 0;
  }
}

int el_compute_padding_with_offset(int stride, int dilation, int in_size, int filter_size,
                                   int out_size, int* offset) {
  const int64_t effective = ((int64_t)filter_size - 1) * dilation + 1;
  int64_t total = ((int64_t)out_size - 1) * stride + effective - in_size;
  if (total < 0) total = 0;
  /* Only geometry el_compute_out_size refused gets here; its padding is never used. */
  if (total > INT32_MAX) total = INT32_MAX;
  *offset = (int)(total % 2);
  return (int)(total / 2);
}

TfLitePaddingValues el_compute_padding_hw(int stride_h, int stride_w, int dilation_h,
                                          int dilation_w, int in_h, int in_w, int filter_h,
                                          int filter_w, TfLitePadding padding, int* out_h,
                                          int* out_w) {
  TfLitePaddingValues pv;
  *out_w = el_compute_out_size(padding, in_w, filter_w, stride_w, dilation_w);
  *out_h = el_compute_out_size(padding, in_h, filter_h, stride_h, dilation_h);
  int offset = 0;
  pv.height = el_compute_padding_with_offset(stride_h, dilation_h, in_h, filter_h, *out_h, &offset);
  pv.height_offset = offset;
  pv.width = el_compute_padding_with_offset(stride_w, dilation_w, in_w, filter_w, *out_w, &offset);
  pv.width_offset = offset;
  return pv;
}

void el_activation_range_f32(TfLiteFusedActivation act, float* lo, float* hi) {
  switch (act) {
    case kTfLiteActRelu:
      *lo = 0.0f;
      *hi = INFINITY;
      break;
    case kTfLiteActRelu6:
      *lo = 0.0f;
      *hi = 6.0f;
      break;
    case kTfLiteActReluN1To1:
      *lo = -1.0f;
      *hi = 1.0f;
      break;
    default:
      *lo = -INFINITY;
      *hi = INFINITY;
      break;
  }
}

void el_activation_range_i32(TfLiteFusedActivation act, int32_t* lo, int32_t* hi) {
  switch (act) {
    case kTfLiteActRelu:
      *lo = 0;
      *hi = INT32_MAX;
      break;
    case kTfLiteActRelu6:
      *lo = 0;
      *hi = 6;
      break;
    case kTfLiteActReluN1To1:
      *lo = -1;
      *hi = 1;
      break;
    default:
      *lo = INT32_MIN;
      *hi = INT32_MAX;
      break;
  }
}

void el_activation_range_i64(TfLiteFusedActivation act, int64_t* lo, int64_t* hi) {
  int32_t l, h;
  el_activation_range_i32(act, &l, &h);
  *lo = l == INT32_MIN ? INT64_MIN : l;
  *hi = h == INT32_MAX ? INT64_MAX : h;
}

float el_f16_to_f32(uint16_t h) {
  const uint32_t sign = (uint32_t)(h >> 15) << 31;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0) {
    /* Zero or subnormal: exact in float32 as mant * 2^-24. */
    const float v = ldexpf((float)mant, -24);
    return sign ? -v : v;
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 112u) << 23) | (mant << 13);
  }
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

uint16_t el_f32_to_f16(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  const uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
  const uint32_t exp = (bits >> 23) & 0xffu;
  uint32_t mant = bits & 0x7fffffu;
  if (exp == 0xff) return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0u));
  const int e = (int)exp - 127 + 15;
  if (e >= 31) return (uint16_t)(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10) return sign;
    /* Subnormal half: shift the mantissa (with its implicit bit) and round to nearest even. */
    mant |= 0x800000u;
    const int shift = 14 - e;
    uint32_t half = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1u);
    const uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1u))) ++half;
    return (uint16_t)(sign | half);
  }
  uint32_t half = ((uint32_t)e << 10) | (mant >> 13);
  const uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1u))) ++half; /* may carry into the exponent */
  return (uint16_t)(sign | half);
}

TfLiteStatus el_unsupported_type(TfLiteContext* ctx, const char* op, TfLiteType type) {
  ctx->ReportError(ctx, "Type %s is not supported by %s.", TfLiteTypeGetName(type), op);
  return kTfLiteError;
}

void* el_kernel_alloc(size_t size) { return calloc(1, size); }

void el_kernel_free(TfLiteContext* context, void* buffer) {
  (void)context;
  free(buffer);
}
