/* The freestanding build's interpreter (edgelite/edgelite_micro.h): the model is read in place
 * with bounds-checked accessors (fb_reader.c), each value checked as it is read, so no file can
 * make it touch memory outside the model or the arena. Per tensor it keeps only the
 * TfLiteTensor the kernels index (context->tensors); per node the in-place index lists, the
 * kernel's data and its registration. Kernels run through the same TfLite interface as in the
 * hosted library, so their arithmetic is the same bit for bit. */
#include <string.h>

#include "error.h"
#include "interp.h"
#include "kernels/registry.h"
#include "micro/micro.h"
#include "op_names.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the micro interpreter reads the little-endian flatbuffer's vectors in place"
#endif

/* A node: its flatbuffer index lists (laid out as TfLiteIntArray), the kernel's data, its
 * registration, and either the parsed builtin options or, for a custom op (intermediates NULL),
 * the custom options' flatbuffer vector (its length word, then the bytes). */
typedef struct el_micro_node {
  const TfLiteIntArray* inputs;
  const TfLiteIntArray* outputs;
  const TfLiteIntArray* intermediates;
  void* user_data;
  const void* data;
  const TfLiteRegistration* reg;
} el_micro_node;

struct el_micro_interpreter {
  TfLiteContext ctx; /* tensors, tensors_size; impl_ is this interpreter */
  el_micro_arena arena;
  el_micro_node* nodes;
  int32_t num_nodes;
  const TfLiteIntArray* inputs;
  const TfLiteIntArray* outputs;
  int32_t* scratch_offsets; /* per kernel scratch buffer, its offset in the activation area */
  int32_t num_scratch;
  int32_t preparing; /* the node being prepared + 1 (kernels may request scratch), else 0 */
  size_t activations;
  size_t used;
  el_micro_report_fn report;
  void* report_user;
};

static const TfLiteIntArray kNoIndices = {0};

static void forward(const el_micro_interpreter* mi, const char* fmt, va_list ap) {
  if (mi->report != NULL) mi->report(mi->report_user, fmt, ap);
}

static void(say)(const el_micro_interpreter* mi, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  forward(mi, fmt, ap);
  va_end(ap);
}
#ifdef EDGELITE_STRIP_ERROR_TEXT
#define say(mi, ...) say(mi, "edgelite error at %s:%d\n", EL_ERR_WHERE)
#endif

/* The builtin options parser (builtin_options.c) hands its `sg` back to these two. */
void(el_report)(el_subgraph* sg, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  forward((const el_micro_interpreter*)(const void*)sg, fmt, ap);
  va_end(ap);
}

void* el_options_alloc(el_subgraph* sg, size_t bytes) {
  return el_micro_persist(&((el_micro_interpreter*)(void*)sg)->arena, bytes, el_micro_align_for(bytes));
}

/* --- the context the kernels see ---------------------------------------------------------- */

static void report_error(TfLiteContext* ctx, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  forward(ctx->impl_, fmt, ap);
  va_end(ap);
}

/* Shapes are static: a kernel may "resize" a tensor only to the shape the model gives it. */
static TfLiteStatus resize_tensor(TfLiteContext* ctx, TfLiteTensor* t, TfLiteIntArray* dims) {
  const int same = TfLiteIntArrayEqual(t->dims, dims);
  TfLiteIntArrayFree(dims);
  if (same) return kTfLiteOk;
  say(ctx->impl_, "Tensor %d would change shape; the micro interpreter keeps the model's shapes.",
      (int)(t - ctx->tensors));
  return kTfLiteError;
}

static void* persistent_buffer(TfLiteContext* ctx, size_t bytes) {
  el_micro_interpreter* mi = ctx->impl_;
  return el_micro_persist(&mi->arena, bytes, el_micro_align_for(bytes));
}

/* Requests are recorded in set-up scratch, one record after the other, and planned with the
 * tensors as buffers alive during their node's step. */
static TfLiteStatus request_scratch(TfLiteContext* ctx, size_t bytes, int* index) {
  el_micro_interpreter* mi = ctx->impl_;
  el_micro_buffer* rec = NULL;
  if (mi->preparing && bytes <= INT32_MAX) rec = el_micro_scratch(&mi->arena, sizeof *rec);
  if (rec == NULL || rec != (el_micro_buffer*)(void*)mi->arena.base + mi->num_scratch) {
    say(mi, "Cannot hold a scratch buffer of %u bytes.", (unsigned)bytes);
    return kTfLiteError;
  }
  rec->bytes = (int32_t)bytes;
  rec->first = rec->last = mi->preparing - 1;
  *index = mi->num_scratch++;
  return kTfLiteOk;
}

static void* scratch_buffer(TfLiteContext* ctx, int index) {
  el_micro_interpreter* mi = ctx->impl_;
  if (mi->scratch_offsets == NULL || index < 0 || index >= mi->num_scratch) return NULL;
  return mi->arena.base + mi->scratch_offsets[index];
}

/* --- reading the model -------------------------------------------------------------------- */

typedef struct reader {
  el_micro_interpreter* mi;
  el_fb fb;
  el_fb_vec opcodes, buffers, tensors;
} reader;

static const TfLiteIntArray* int_array(const reader* r, const el_fb_vec* v, int present) {
  return present ? (const TfLiteIntArray*)(const void*)(r->fb.base + v->pos - 4) : &kNoIndices;
}

/* An int32 vector field as an in-place TfLiteIntArray whose entries are tensor indices
 * (-1 allowed for optional inputs when `optional`); NULL when malformed. */
static const TfLiteIntArray* index_list(const reader* r, const el_fb_table* t, int id, int optional) {
  el_fb_vec v;
  int has = 0;
  if (el_fb_vec_field(t, id, 4, &v, &has) != 0) return NULL;
  const TfLiteIntArray* a = int_array(r, &v, has);
  for (int i = 0; i < a->size; ++i) {
    if (a->data[i] >= (int)r->tensors.len || a->data[i] < -optional) return NULL;
  }
  return a;
}

static int zero_point_fits(TfLiteType type, int64_t zp) {
  switch (type) {
    case kTfLiteInt8: return zp >= INT8_MIN && zp <= INT8_MAX;
    case kTfLiteUInt8: return zp >= 0 && zp <= UINT8_MAX;
    case kTfLiteInt16: return zp >= INT16_MIN && zp <= INT16_MAX;
    case kTfLiteUInt16: return zp >= 0 && zp <= UINT16_MAX;
    default: return zp >= INT32_MIN && zp <= INT32_MAX;
  }
}

/* The zero points as an int32 TfLiteIntArray without a copy where possible: an all-zero int64
 * vector read in place (its length word, then the first half of its zero bytes), else an earlier
 * tensor's array with these values. */
static TfLiteIntArray* shared_zero_points(const el_micro_interpreter* mi, int upto, const el_fb_vec* zps) {
  uint32_t nonzero = 0;
  while (nonzero < zps->len && el_fb_vec_i64(zps, nonzero) == 0) ++nonzero;
  if (nonzero == zps->len) return (TfLiteIntArray*)(uintptr_t)(el_fb_vec_data(zps) - 4);
  for (int j = 0; j < upto; ++j) {
    const TfLiteTensor* o = &mi->ctx.tensors[j];
    if (o->quantization.type != kTfLiteAffineQuantization) continue;
    TfLiteIntArray* zp = ((const TfLiteAffineQuantization*)o->quantization.params)->zero_point;
    if ((uint32_t)zp->size != zps->len) continue;
    uint32_t k = 0;
    while (k < zps->len && zp->data[k] == el_fb_vec_i64(zps, k)) ++k;
    if (k == zps->len) return zp;
  }
  return NULL;
}

/* TFLite's ParseQuantization: per-tensor or per-axis affine parameters, scales read in place. */
static TfLiteStatus read_quantization(reader* r, const el_fb_table* tt, int i, TfLiteTensor* t) {
  el_micro_interpreter* mi = r->mi;
  el_fb_table q;
  el_fb_vec scales, zps;
  int has = 0, has_scales = 0, has_zps = 0;
  int32_t qdim = 0;
  if (el_fb_table_field(tt, 4, &q, &has) != 0 ||
      (has && (el_fb_vec_field(&q, 2, 4, &scales, &has_scales) != 0 ||
               el_fb_vec_field(&q, 3, 8, &zps, &has_zps) != 0 || el_fb_i32(&q, 6, 0, &qdim) != 0))) {
    return kTfLiteError;
  }
  if (!has || !has_scales || scales.len == 0) return kTfLiteOk;
  const TfLiteIntArray* shape = t->dims;
  if (!has_zps || zps.len != scales.len) {
    say(mi, "Tensor %d: %u scales and %u zero points.", i, (unsigned)scales.len,
        has_zps ? (unsigned)zps.len : 0u);
    return kTfLiteError;
  }
  /* Old converters gave per-channel bias vectors the filter's quantized_dimension (e.g. 3). */
  if (shape->size == 1 && qdim >= 1 && scales.len > 1 && scales.len == (uint32_t)shape->data[0]) qdim = 0;
  if (qdim < 0 || (shape->size > 0 && qdim >= shape->size) ||
      (scales.len != 1 && shape->size > 0 && scales.len != (uint32_t)shape->data[qdim])) {
    say(mi, "Tensor %d: quantized_dimension %d does not fit its %u scales.", i, (int)qdim,
        (unsigned)scales.len);
    return kTfLiteError;
  }
  const float* s = (const float*)(const void*)el_fb_vec_data(&scales);
  for (uint32_t k = 0; k < scales.len; ++k) {
    if (!(s[k] >= 0.0f && s[k] <= 3.402823466e38f) || !zero_point_fits(t->type, el_fb_vec_i64(&zps, k))) {
      say(mi, "Tensor %d: scale or zero point %u out of range.", i, (unsigned)k);
      return kTfLiteError;
    }
  }
  TfLiteAffineQuantization* aq = el_micro_persist(&mi->arena, sizeof *aq, EL_MICRO_WORD);
  if (aq == NULL) return kTfLiteError;
  aq->scale = (TfLiteFloatArray*)(uintptr_t)int_array(r, &scales, 1);
  aq->zero_point = shared_zero_points(mi, i, &zps);
  if (aq->zero_point == NULL) {
    aq->zero_point = el_micro_persist(&mi->arena, sizeof(int) * (1 + (size_t)zps.len), EL_MICRO_WORD);
    if (aq->zero_point == NULL) return kTfLiteError;
    aq->zero_point->size = (int)zps.len;
    for (uint32_t k = 0; k < zps.len; ++k) aq->zero_point->data[k] = (int)el_fb_vec_i64(&zps, k);
  }
  aq->quantized_dimension = qdim;
  t->quantization.type = kTfLiteAffineQuantization;
  t->quantization.params = aq;
  if (scales.len == 1) {
    t->params.scale = s[0];
    t->params.zero_point = aq->zero_point->data[0];
  }
  return kTfLiteOk;
}

/* The bytes of buffer `index`: inline data, or the offset/size form past the flatbuffer. */
static int buffer_data(const reader* r, uint32_t index, const uint8_t** data, size_t* size) {
  *data = NULL;
  *size = 0;
  if (index == 0) return 0;
  el_fb_table b;
  el_fb_vec v;
  int has = 0;
  uint64_t off = 0, len = 0;
  if (index >= r->buffers.len || el_fb_vec_table(&r->buffers, index, &b) != 0 ||
      el_fb_vec_field(&b, 0, 1, &v, &has) != 0 || el_fb_u64(&b, 1, 0, &off) != 0 ||
      el_fb_u64(&b, 2, 0, &len) != 0) {
    return -1;
  }
  if (off > 1) {
    if (off > r->fb.size || len > r->fb.size - off) return -1;
    *data = r->fb.base + off;
    *size = (size_t)len;
  } else if (has && v.len > 0) {
    *data = el_fb_vec_data(&v);
    *size = v.len;
  }
  return 0;
}

static TfLiteStatus read_tensor(reader* r, int i) {
  el_micro_interpreter* mi = r->mi;
  TfLiteTensor* t = &mi->ctx.tensors[i];
  el_fb_table tt;
  el_fb_vec shape;
  int has_shape = 0;
  int8_t raw_type = 0;
  uint8_t variable = 0;
  uint32_t buffer = 0;
  if (el_fb_vec_table(&r->tensors, (uint32_t)i, &tt) != 0 || el_fb_vec_field(&tt, 0, 4, &shape, &has_shape) != 0 ||
      el_fb_i8(&tt, 1, 0, &raw_type) != 0 || el_fb_u32(&tt, 2, 0, &buffer) != 0 ||
      el_fb_u8(&tt, 5, 0, &variable) != 0) {
    return kTfLiteError;
  }
  const int type = el_convert_tensor_type(raw_type);
  size_t elem = 0;
  if (type < 0 || type == kTfLiteInt4 || TfLiteTypeSizeOf((TfLiteType)type, &elem) != kTfLiteOk || elem == 0 ||
      el_fb_has(&tt, 6)) {
    say(mi, "Tensor %d: type %d or sparsity is not supported by the micro interpreter.", i, (int)raw_type);
    return kTfLiteError;
  }
  t->type = (TfLiteType)type;
  t->dims = (TfLiteIntArray*)(uintptr_t)int_array(r, &shape, has_shape);
  uint64_t bytes = elem;
  for (int d = 0; d < t->dims->size; ++d) {
    if (t->dims->data[d] < 0) return kTfLiteError;
    bytes *= (uint64_t)t->dims->data[d];
    if (bytes > INT32_MAX) {
      say(mi, "Tensor %d is larger than 2 GB.", i);
      return kTfLiteError;
    }
  }
  t->bytes = (size_t)bytes;
  if (read_quantization(r, &tt, i, t) != kTfLiteOk) return kTfLiteError;

  const uint8_t* data = NULL;
  size_t size = 0;
  if (buffer_data(r, buffer, &data, &size) != 0) return kTfLiteError;
  if (data != NULL) {
    if (variable || size < t->bytes) {
      say(mi, "Constant tensor %d needs %u bytes but its buffer holds %u.", i, (unsigned)t->bytes,
          (unsigned)size);
      return kTfLiteError;
    }
    t->allocation_type = kTfLiteMmapRo;
    t->data.raw_const = (const char*)data;
    if (((uintptr_t)data & (elem - 1)) != 0) { /* kernels read through typed pointers */
      void* copy = el_micro_persist(&mi->arena, t->bytes, EL_MICRO_ALIGN);
      if (copy == NULL) return kTfLiteError;
      memcpy(copy, data, t->bytes);
      t->data.raw = copy;
    }
    return kTfLiteOk;
  }
  if (variable) { /* state across invokes, starting at the zero point as TFLite resets it */
    t->allocation_type = kTfLiteArenaRwPersistent;
    t->data.raw = el_micro_persist(&mi->arena, t->bytes, EL_MICRO_ALIGN);
    if (t->data.raw == NULL) return kTfLiteError;
    if (t->type == kTfLiteInt8) memset(t->data.raw, t->params.zero_point, t->bytes);
    return kTfLiteOk;
  }
  t->allocation_type = kTfLiteArenaRw;
  return kTfLiteOk;
}

static const TfLiteRegistration* resolve(reader* r, uint32_t opcode_index, int32_t* code) {
  el_fb_table oc;
  int8_t deprecated = 0;
  int32_t version = 1;
  const char* name = NULL;
  uint32_t name_len = 0;
  if (opcode_index >= r->opcodes.len || el_fb_vec_table(&r->opcodes, opcode_index, &oc) != 0 ||
      el_fb_i8(&oc, 0, 0, &deprecated) != 0 || el_fb_string_field(&oc, 1, &name, &name_len) != 0 ||
      el_fb_i32(&oc, 2, 1, &version) != 0 || el_fb_i32(&oc, 3, 0, code) != 0) {
    return NULL;
  }
  if (deprecated > *code) *code = deprecated;
  const TfLiteRegistration* reg = NULL;
  if (*code == EL_BUILTIN_CUSTOM) {
    if (name != NULL) reg = el_kernels_lookup_custom(name, version, EL_TIER_REFERENCE);
    if (reg == NULL) say(r->mi, "Didn't find custom op '%s' version '%d' in this build's op selection.",
                         name ? name : "", (int)version);
  } else {
    reg = el_kernels_lookup(*code, version, EL_TIER_REFERENCE);
    if (reg == NULL) say(r->mi, "Didn't find op for builtin opcode %d version '%d': not in this build's op "
                         "selection.", (int)*code, (int)version);
  }
  return reg;
}

static TfLiteNode node_view(const el_micro_node* n) {
  TfLiteNode node;
  memset(&node, 0, sizeof node);
  node.inputs = (TfLiteIntArray*)(uintptr_t)n->inputs;
  node.outputs = (TfLiteIntArray*)(uintptr_t)n->outputs;
  node.intermediates = (TfLiteIntArray*)(uintptr_t)(n->intermediates ? n->intermediates : &kNoIndices);
  node.temporaries = (TfLiteIntArray*)(uintptr_t)&kNoIndices;
  node.user_data = n->user_data;
  if (n->intermediates != NULL) {
    node.builtin_data = (void*)(uintptr_t)n->data;
  } else if (n->data != NULL) {
    node.custom_initial_data = (const uint8_t*)n->data + 4;
    node.custom_initial_data_size = (int)el_fb_load_u32(n->data);
  }
  return node;
}

static const char* op_name(const el_micro_node* n) {
  const char* s = el_builtin_name(n->reg->builtin_code);
  return s != NULL ? s : "custom";
}

/* Reads operator `i` into its node and runs the kernel's init. */
static TfLiteStatus read_node(reader* r, const el_fb_vec* ops, int i) {
  el_micro_interpreter* mi = r->mi;
  el_micro_node* n = &mi->nodes[i];
  el_fb_table ot;
  uint32_t opcode_index = 0;
  int32_t code = 0;
  el_operator_desc od;
  memset(&od, 0, sizeof od);
  if (el_fb_vec_table(ops, (uint32_t)i, &ot) != 0 || el_fb_u32(&ot, 0, 0, &opcode_index) != 0 ||
      el_fb_u8(&ot, 3, 0, &od.builtin_options_type) != 0 ||
      el_fb_table_field(&ot, 4, &od.builtin_options, &od.has_builtin_options) != 0) {
    return kTfLiteError;
  }
  n->inputs = index_list(r, &ot, 1, 1);
  n->outputs = index_list(r, &ot, 2, 0);
  n->intermediates = index_list(r, &ot, 8, 0);
  if (n->inputs == NULL || n->outputs == NULL || n->intermediates == NULL) return kTfLiteError;
  for (int k = 0; k < n->outputs->size; ++k) {
    if (mi->ctx.tensors[n->outputs->data[k]].allocation_type == kTfLiteMmapRo) {
      say(mi, "Operator %d writes the constant tensor %d.", i, n->outputs->data[k]);
      return kTfLiteError;
    }
  }
  n->reg = resolve(r, opcode_index, &code);
  if (n->reg == NULL || n->reg->invoke == NULL) return kTfLiteError;
  const char* init_data = NULL;
  size_t init_size = 0;
  if (code == EL_BUILTIN_CUSTOM) {
    el_fb_vec v;
    int has = 0;
    if (el_fb_vec_field(&ot, 5, 1, &v, &has) != 0 || v.len > INT32_MAX) return kTfLiteError;
    n->intermediates = NULL;
    n->data = has ? el_fb_vec_data(&v) - 4 : NULL;
    init_data = has ? (const char*)el_fb_vec_data(&v) : NULL;
    init_size = has ? v.len : 0;
  } else {
    void* options = NULL;
    if (el_parse_builtin_options((el_subgraph*)(void*)mi, code, &od, &options) != kTfLiteOk) return kTfLiteError;
    n->data = options;
    init_data = options;
  }
  if (n->reg->init != NULL) n->user_data = n->reg->init(&mi->ctx, init_data, init_size);
  return kTfLiteOk;
}

static TfLiteStatus read_model(reader* r) {
  el_micro_interpreter* mi = r->mi;
  el_fb_table root, sg;
  el_fb_vec subgraphs, ops;
  int has = 0, has_ops = 0, has_tensors = 0;
  uint32_t version = 0;
  if (r->fb.size < 8 || memcmp(r->fb.base + 4, "TFL3", 4) != 0 || el_fb_root(&r->fb, &root) != 0 ||
      el_fb_u32(&root, 0, 0, &version) != 0 || el_fb_vec_field(&root, 1, 4, &r->opcodes, &has) != 0 ||
      el_fb_vec_field(&root, 4, 4, &r->buffers, &has) != 0 || el_fb_vec_field(&root, 2, 4, &subgraphs, &has) != 0 ||
      subgraphs.len == 0 || el_fb_vec_table(&subgraphs, 0, &sg) != 0 ||
      el_fb_vec_field(&sg, 0, 4, &r->tensors, &has_tensors) != 0 ||
      el_fb_vec_field(&sg, 3, 4, &ops, &has_ops) != 0 || r->tensors.len > INT32_MAX / sizeof(TfLiteTensor) ||
      ops.len > INT32_MAX / sizeof(el_micro_node)) {
    say(mi, "The model is not a valid Flatbuffer buffer.");
    return kTfLiteError;
  }
  if (version != EL_SCHEMA_VERSION) {
    say(mi, "Model provided is schema version %u not equal to supported version %d.", (unsigned)version,
        EL_SCHEMA_VERSION);
    return kTfLiteError;
  }
  mi->inputs = index_list(r, &sg, 1, 0);
  mi->outputs = index_list(r, &sg, 2, 0);
  mi->ctx.tensors_size = r->tensors.len;
  mi->num_nodes = (int32_t)ops.len;
  mi->ctx.tensors = el_micro_persist(&mi->arena, sizeof(TfLiteTensor) * r->tensors.len, EL_MICRO_WORD);
  mi->nodes = el_micro_persist(&mi->arena, sizeof(el_micro_node) * ops.len, EL_MICRO_WORD);
  if (mi->inputs == NULL || mi->outputs == NULL || (r->tensors.len && mi->ctx.tensors == NULL) ||
      (ops.len && mi->nodes == NULL)) {
    say(mi, "The model's graph is malformed or does not fit the arena.");
    return kTfLiteError;
  }
  for (int i = 0; i < (int)r->tensors.len; ++i) {
    if (read_tensor(r, i) != kTfLiteOk) {
      say(mi, "Tensor %d is invalidly specified in schema, or the arena is too small.", i);
      return kTfLiteError;
    }
  }
  for (int k = 0; k < mi->inputs->size; ++k) {
    if (mi->ctx.tensors[mi->inputs->data[k]].allocation_type != kTfLiteArenaRw) {
      say(mi, "Graph input %d is not a plain activation tensor.", mi->inputs->data[k]);
      return kTfLiteError;
    }
  }
  for (int i = 0; i < mi->num_nodes; ++i) {
    if (read_node(r, &ops, i) != kTfLiteOk) {
      say(mi, "Operator %d is invalidly specified in schema, or the arena is too small.", i);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

/* --- preparing and planning --------------------------------------------------------------- */

static TfLiteStatus prepare_nodes(el_micro_interpreter* mi) {
  for (int i = 0; i < mi->num_nodes; ++i) {
    el_micro_node* n = &mi->nodes[i];
    if (n->reg->prepare == NULL) continue;
    TfLiteNode node = node_view(n);
    mi->preparing = i + 1;
    const TfLiteStatus st = n->reg->prepare(&mi->ctx, &node);
    mi->preparing = 0;
    n->user_data = node.user_data;
    if (st != kTfLiteOk) {
      say(mi, "Node number %d (%s) failed to prepare.", i, op_name(n));
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

static int is_planned(const TfLiteTensor* t) { return t->allocation_type == kTfLiteArenaRw; }

/* The first and last step that use tensor `t`: graph inputs from step 0, graph outputs past the
 * last step (so they outlive every other buffer). */
static void lifetime(const el_micro_interpreter* mi, int t, el_micro_buffer* b) {
  b->first = INT32_MAX;
  b->last = -1;
  for (int32_t s = 0; s < mi->num_nodes; ++s) {
    const el_micro_node* nd = &mi->nodes[s];
    const TfLiteIntArray* lists[3] = {nd->inputs, nd->outputs, nd->intermediates};
    for (int l = 0; l < 3; ++l) {
      for (int k = 0; k < lists[l]->size; ++k) {
        if (lists[l]->data[k] != t) continue;
        if (s < b->first) b->first = s;
        b->last = s;
      }
    }
  }
  for (int k = 0; k < mi->inputs->size; ++k) {
    if (mi->inputs->data[k] != t) continue;
    b->first = 0;
    if (b->last < 0) b->last = 0;
  }
  for (int k = 0; k < mi->outputs->size; ++k) {
    if (mi->outputs->data[k] == t) b->last = mi->num_nodes;
  }
  if (b->first > b->last) { /* used by no step: no memory */
    b->first = b->last = -2;
    b->bytes = 0;
  }
}

/* The activation tensors' lifetimes (after the scratch records already in set-up scratch), the
 * greedy plan, and the tensors' and scratch buffers' addresses. */
static TfLiteStatus plan(el_micro_interpreter* mi) {
  el_micro_arena* a = &mi->arena;
  int32_t nt = 0;
  for (size_t i = 0; i < mi->ctx.tensors_size; ++i) nt += is_planned(&mi->ctx.tensors[i]);
  const int32_t ns = mi->num_scratch, n = nt + ns;
  el_micro_buffer* all = (el_micro_buffer*)(void*)a->base;
  el_micro_buffer* tb = el_micro_scratch(a, sizeof(el_micro_buffer) * (size_t)nt);
  int32_t* order = el_micro_scratch(a, sizeof(int32_t) * (size_t)n);
  if (ns > 0) mi->scratch_offsets = el_micro_persist(a, sizeof(int32_t) * (size_t)ns, EL_MICRO_WORD);
  if ((nt > 0 && (tb == NULL || tb != all + ns)) || (n > 0 && order == NULL) ||
      (ns > 0 && mi->scratch_offsets == NULL)) {
    say(mi, "The arena is too small to plan the activations.");
    return kTfLiteError;
  }
  for (int i = 0, k = 0; i < (int)mi->ctx.tensors_size; ++i) {
    if (!is_planned(&mi->ctx.tensors[i])) continue;
    tb[k].bytes = (int32_t)mi->ctx.tensors[i].bytes;
    lifetime(mi, i, &tb[k++]);  /* may zero the bytes */
  }
  mi->activations = el_micro_plan(all, n, order);
  if (mi->activations > a->tail) {
    say(mi, "The arena is too small: the activations need %u bytes, %u are left.", (unsigned)mi->activations,
        (unsigned)a->tail);
    return kTfLiteError;
  }
  for (int i = 0, k = 0; i < (int)mi->ctx.tensors_size; ++i) {
    if (is_planned(&mi->ctx.tensors[i])) mi->ctx.tensors[i].data.raw = (char*)a->base + tb[k++].offset;
  }
  for (int32_t i = 0; i < ns; ++i) mi->scratch_offsets[i] = all[i].offset;
  return kTfLiteOk;
}

el_micro_interpreter* el_micro_interpreter_create(const void* model, size_t model_bytes, void* arena,
                                                  size_t arena_bytes, el_micro_report_fn report,
                                                  void* report_user) {
  el_micro_interpreter probe;
  memset(&probe, 0, sizeof probe);
  probe.report = report;
  probe.report_user = report_user;
  const uintptr_t at = ((uintptr_t)arena + EL_MICRO_ALIGN - 1) & ~(uintptr_t)(EL_MICRO_ALIGN - 1);
  const size_t lead = (size_t)(at - (uintptr_t)arena);
  if (arena == NULL || model == NULL || ((uintptr_t)model & 3u) != 0 || arena_bytes < lead) {
    say(&probe, "The model buffer must be 4-byte aligned and the arena given.");
    return NULL;
  }
  el_micro_arena_init(&probe.arena, (uint8_t*)at, (arena_bytes - lead) & ~(size_t)(EL_MICRO_ALIGN - 1));
  el_micro_interpreter* mi = el_micro_persist(&probe.arena, sizeof *mi, EL_MICRO_ALIGN);
  if (mi == NULL) {
    say(&probe, "The arena is too small.");
    return NULL;
  }
  *mi = probe;
  mi->ctx.impl_ = mi;
  mi->ctx.ReportError = report_error;
  mi->ctx.ResizeTensor = resize_tensor;
  mi->ctx.AllocatePersistentBuffer = persistent_buffer;
  mi->ctx.RequestScratchBufferInArena = request_scratch;
  mi->ctx.GetScratchBuffer = scratch_buffer;
  mi->ctx.recommended_num_threads = 1;
  el_micro_arena_bind(&mi->arena);
  reader r;
  memset(&r, 0, sizeof r);
  r.mi = mi;
  r.fb.base = model;
  r.fb.size = model_bytes;
  const TfLiteStatus st = read_model(&r) == kTfLiteOk && prepare_nodes(mi) == kTfLiteOk ? plan(mi) : kTfLiteError;
  mi->arena.frozen = 1;
  el_micro_arena_bind(NULL);
  if (st != kTfLiteOk) return NULL;
  const size_t head = mi->activations > mi->arena.head_peak ? mi->activations : mi->arena.head_peak;
  /* The buffer's usable size is a multiple of the alignment, so a smaller one would not do. */
  mi->used = lead + ((head + (mi->arena.cap - mi->arena.tail) + EL_MICRO_ALIGN - 1) & ~(size_t)(EL_MICRO_ALIGN - 1));
  el_micro_scratch_reset(&mi->arena);
  return mi;
}

TfLiteStatus el_micro_invoke(el_micro_interpreter* mi) {
  el_micro_arena_bind(&mi->arena);
  TfLiteStatus st = kTfLiteOk;
  for (int i = 0; i < mi->num_nodes && st == kTfLiteOk; ++i) {
    TfLiteNode node = node_view(&mi->nodes[i]);
    st = mi->nodes[i].reg->invoke(&mi->ctx, &node);
    if (st != kTfLiteOk) say(mi, "Node number %d (%s) failed to invoke.", i, op_name(&mi->nodes[i]));
  }
  el_micro_arena_bind(NULL);
  return st;
}

size_t el_micro_num_inputs(const el_micro_interpreter* mi) { return (size_t)mi->inputs->size; }
size_t el_micro_num_outputs(const el_micro_interpreter* mi) { return (size_t)mi->outputs->size; }

TfLiteTensor* el_micro_input(el_micro_interpreter* mi, size_t i) {
  return i < (size_t)mi->inputs->size ? &mi->ctx.tensors[mi->inputs->data[i]] : NULL;
}

const TfLiteTensor* el_micro_output(const el_micro_interpreter* mi, size_t i) {
  return i < (size_t)mi->outputs->size ? &mi->ctx.tensors[mi->outputs->data[i]] : NULL;
}

el_micro_stats el_micro_get_stats(const el_micro_interpreter* mi) {
  el_micro_stats s;
  s.arena_bytes = mi->arena.cap;
  s.used = mi->used;
  s.activations = mi->activations;
  s.persistent = mi->arena.cap - mi->arena.tail;
  s.init_scratch = mi->arena.head_peak;
  s.alloc_calls = mi->arena.calls;
  return s;
}
