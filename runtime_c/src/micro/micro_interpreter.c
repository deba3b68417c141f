/* The freestanding build's interpreter (edgelite/edgelite_micro.h): the model is read in place
 * with bounds-checked accessors (fb_reader.c), each value checked as it is read, so no file can
 * make it touch memory outside the model or the arena. Per tensor it keeps only where its data
 * is when that is not in the model; the TfLiteTensors a kernel sees (context->tensors) are read
 * from the model again for each kernel call into a window of the node's tensors. Per node it
 * keeps the in-place index lists, the kernel's data and its registration. Kernels run through
 * the same TfLite interface as in the hosted library, so their arithmetic is the same bit for
 * bit. */
#include <string.h>

#include "error.h"
#include "interp.h"
#include "kernels/registry.h"
#include "kernels/signal_ops.h"
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

/* Zero points that cannot be read in place (several, not all zero: int8 per-channel zero points
 * are zero, so this is rare), converted once. */
typedef struct el_micro_zp_list {
  const struct el_micro_zp_list* next;
  int32_t tensor;
  int values[]; /* a TfLiteIntArray: the count, then the zero points */
} el_micro_zp_list;

/* The tensors of one kernel call: the node's tensors renumbered 0..k-1 (context->tensors), their
 * quantization, each slot's tensor index in the model, and the node's three index lists in the
 * new numbering (TfLiteIntArrays one after the other). */
typedef struct el_micro_window {
  TfLiteTensor* tensors;
  TfLiteAffineQuantization* quant;
  int32_t* global;
  int* lists;
} el_micro_window;
#define EL_MICRO_WINDOW_BYTES(n) \
  ((n) * (sizeof(TfLiteTensor) + sizeof(TfLiteAffineQuantization) + sizeof(int32_t) + sizeof(int)) + 3 * sizeof(int))

/* Nodes with at most this many index list entries get their window on the stack; the window of a
 * node with more (LSTM-style ops) is one persistent block sized for the widest such node. */
enum { EL_MICRO_STACK_SLOTS = 8 };

/* A graph input or output: the TfLiteTensors the caller reads and writes, kept for the run. */
typedef struct el_micro_io {
  TfLiteTensor tensor;
  TfLiteAffineQuantization quant;
} el_micro_io;

struct el_micro_interpreter {
  el_fb fb;               /* the model, read in place */
  size_t tensors_pos;     /* its first subgraph's tensor tables (a flatbuffer vector) */
  uint32_t num_tensors;
  el_micro_tensor* tensors;
  el_micro_node* nodes;
  int32_t num_nodes;
  const TfLiteIntArray* inputs;
  const TfLiteIntArray* outputs;
  el_micro_io* io;        /* the graph inputs, then the graph outputs */
  const el_micro_zp_list* zero_points;
  void* wide;             /* the window block of nodes too wide for the stack, if any */
  int32_t wide_slots;
  int32_t num_scratch;
  void** scratch;         /* per kernel scratch buffer, its place in the activation area */
  el_micro_report_fn report;
  void* report_user;
  long alloc_calls;
  size_t arena_bytes, used, activations, persistent, init_scratch;
};

/* One kernel call: its context (impl_ is this call), the interpreter, the window's tensor
 * indices, and for a prepare its node + 1 (kernels may then request scratch), else 0. */
typedef struct el_micro_call {
  TfLiteContext ctx;
  el_micro_interpreter* mi;
  const int32_t* global;
  int32_t preparing;
} el_micro_call;

static const TfLiteIntArray kNoIndices = {0};
static const char kTooSmall[] = "The arena is too small.";

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

/* Zeroed persistent memory while the interpreter is set up; NULL after (or when full). */
static void* persist(size_t bytes) {
  el_micro_arena* a = el_micro_arena_setup();
  return a != NULL ? el_micro_persist(a, bytes, el_micro_align_for(bytes)) : NULL;
}

/* The builtin options parser (builtin_options.c) hands its `sg` back to these two. */
void(el_report)(el_subgraph* sg, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  forward((const el_micro_interpreter*)(const void*)sg, fmt, ap);
  va_end(ap);
}

void* el_options_alloc(el_subgraph* sg, size_t bytes) {
  (void)sg;
  return persist(bytes);
}

/* --- the context the kernels see ---------------------------------------------------------- */

static void report_error(TfLiteContext* ctx, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  forward(((el_micro_call*)ctx->impl_)->mi, fmt, ap);
  va_end(ap);
}

/* Shapes are static: a kernel may "resize" a tensor only to the shape the model gives it. */
static TfLiteStatus resize_tensor(TfLiteContext* ctx, TfLiteTensor* t, TfLiteIntArray* dims) {
  const el_micro_call* c = ctx->impl_;
  const int same = TfLiteIntArrayEqual(t->dims, dims);
  TfLiteIntArrayFree(dims);
  if (same) return kTfLiteOk;
  const size_t slot = (size_t)(t - ctx->tensors);
  say(c->mi, "Tensor %d would change shape; the micro interpreter keeps the model's shapes.",
      slot < ctx->tensors_size ? (int)c->global[slot] : -1);
  return kTfLiteError;
}

static void* persistent_buffer(TfLiteContext* ctx, size_t bytes) {
  (void)ctx;
  return persist(bytes);
}

/* Requests are recorded in set-up scratch, one record after the other, and planned with the
 * tensors as buffers alive during their node's step. */
static TfLiteStatus request_scratch(TfLiteContext* ctx, size_t bytes, int* index) {
  const el_micro_call* c = ctx->impl_;
  el_micro_interpreter* mi = c->mi;
  el_micro_arena* a = el_micro_arena_setup();
  el_micro_buffer* rec = NULL;
  if (c->preparing && a != NULL && bytes <= INT32_MAX) rec = el_micro_scratch(a, sizeof *rec);
  if (rec == NULL || rec != (el_micro_buffer*)(void*)a->base + mi->num_scratch) {
    say(mi, "Cannot hold a scratch buffer of %u bytes.", (unsigned)bytes);
    return kTfLiteError;
  }
  rec->bytes = (int32_t)bytes;
  rec->first = rec->last = c->preparing - 1;
  *index = mi->num_scratch++;
  return kTfLiteOk;
}

static void* scratch_buffer(TfLiteContext* ctx, int index) {
  const el_micro_interpreter* mi = ((el_micro_call*)ctx->impl_)->mi;
  if (mi->scratch == NULL || index < 0 || index >= mi->num_scratch) return NULL;
  return mi->scratch[index];
}

static void call_start(el_micro_call* c, el_micro_interpreter* mi) {
  static const TfLiteContext kContext = {
      .ReportError = report_error,
      .ResizeTensor = resize_tensor,
      .AllocatePersistentBuffer = persistent_buffer,
      .RequestScratchBufferInArena = request_scratch,
      .GetScratchBuffer = scratch_buffer,
  };
  memset(c, 0, sizeof *c);
  c->ctx = kContext;
  c->ctx.impl_ = c;
  c->mi = mi;
}

/* --- reading the model -------------------------------------------------------------------- */

static const TfLiteIntArray* int_array(const el_fb* fb, const el_fb_vec* v, int present) {
  return present ? (const TfLiteIntArray*)(const void*)(fb->base + v->pos - 4) : &kNoIndices;
}

/* An int32 vector field as an in-place TfLiteIntArray whose entries are tensor indices
 * (-1 allowed for optional inputs when `optional`); NULL when malformed. */
static const TfLiteIntArray* index_list(const el_micro_interpreter* mi, const el_fb_table* t, int id, int optional) {
  el_fb_vec v;
  int has = 0;
  if (el_fb_vec_field(t, id, 4, &v, &has) != 0) return NULL;
  const TfLiteIntArray* a = int_array(&mi->fb, &v, has);
  for (int i = 0; i < a->size; ++i) {
    if (a->data[i] >= (int)mi->num_tensors || a->data[i] < -optional) return NULL;
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

/* TFLite's ParseQuantization checks: per-tensor or per-axis affine parameters. The scales are
 * read in place, the zero points too when there is one or all are zero (an int64 vector's
 * length word, then its first words: the value, or zeros); other zero points are converted into
 * the interpreter's list while it is set up and found there afterwards. */
static TfLiteStatus read_quantization(el_micro_interpreter* mi, const el_fb_table* tt, int32_t i, TfLiteTensor* t,
                                      TfLiteAffineQuantization* aq) {
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
    say(mi, "Tensor %d: %u scales and %u zero points.", (int)i, (unsigned)scales.len,
        has_zps ? (unsigned)zps.len : 0u);
    return kTfLiteError;
  }
  /* Old converters gave per-channel bias vectors the filter's quantized_dimension (e.g. 3). */
  if (shape->size == 1 && qdim >= 1 && scales.len > 1 && scales.len == (uint32_t)shape->data[0]) qdim = 0;
  if (qdim < 0 || (shape->size > 0 && qdim >= shape->size) ||
      (scales.len != 1 && shape->size > 0 && scales.len != (uint32_t)shape->data[qdim])) {
    say(mi, "Tensor %d: quantized_dimension %d does not fit its %u scales.", (int)i, (int)qdim,
        (unsigned)scales.len);
    return kTfLiteError;
  }
  const float* s = (const float*)(const void*)el_fb_vec_data(&scales);
  uint32_t nonzero = 0;
  for (uint32_t k = 0; k < scales.len; ++k) {
    const int64_t zp = el_fb_vec_i64(&zps, k);
    if (!(s[k] >= 0.0f && s[k] <= 3.402823466e38f) || !zero_point_fits(t->type, zp)) {
      say(mi, "Tensor %d: scale or zero point %u out of range.", (int)i, (unsigned)k);
      return kTfLiteError;
    }
    nonzero += zp != 0;
  }
  aq->scale = (TfLiteFloatArray*)(uintptr_t)int_array(&mi->fb, &scales, 1);
  aq->zero_point = (TfLiteIntArray*)(uintptr_t)int_array(&mi->fb, &zps, 1);
  aq->quantized_dimension = qdim;
  if (nonzero > 0 && zps.len > 1) {
    const el_micro_zp_list* z = mi->zero_points;
    while (z != NULL && z->tensor != i) z = z->next;
    if (z == NULL) {
      el_micro_zp_list* made = persist(sizeof *made + sizeof(int) * (1 + (size_t)zps.len));
      if (made == NULL) return kTfLiteError;
      made->next = mi->zero_points;
      made->tensor = i;
      made->values[0] = (int)zps.len;
      for (uint32_t k = 0; k < zps.len; ++k) made->values[1 + k] = (int)el_fb_vec_i64(&zps, k);
      mi->zero_points = z = made;
    }
    aq->zero_point = (TfLiteIntArray*)(uintptr_t)z->values;
  }
  t->quantization.type = kTfLiteAffineQuantization;
  t->quantization.params = aq;
  if (scales.len == 1) {
    t->params.scale = s[0];
    t->params.zero_point = aq->zero_point->data[0];
  }
  return kTfLiteOk;
}

/* The bytes of buffer `index`: inline data, or the offset/size form past the flatbuffer. */
static int buffer_data(const el_fb* fb, uint32_t index, const uint8_t** data, size_t* size) {
  el_fb_table root, b;
  el_fb_vec buffers, v;
  int has = 0;
  uint64_t off = 0, len = 0;
  *data = NULL;
  *size = 0;
  if (index == 0) return 0;
  if (el_fb_root(fb, &root) != 0 || el_fb_vec_field(&root, 4, 4, &buffers, &has) != 0 || index >= buffers.len ||
      el_fb_vec_table(&buffers, index, &b) != 0 || el_fb_vec_field(&b, 0, 1, &v, &has) != 0 ||
      el_fb_u64(&b, 1, 0, &off) != 0 || el_fb_u64(&b, 2, 0, &len) != 0) {
    return -1;
  }
  if (off > 1) {
    if (off > fb->size || len > fb->size - off) return -1;
    *data = fb->base + off;
    *size = (size_t)len;
  } else if (has && v.len > 0) {
    *data = el_fb_vec_data(&v);
    *size = v.len;
  }
  return 0;
}

/* Tensor `i` as a kernel sees it, read from the model and checked as TFLite checks it: type,
 * shape (in place), bytes, quantization and, for a constant, its data in place (or the aligned
 * copy the interpreter keeps); an activation's or variable's data is where the interpreter put
 * it (NULL before the plan). `*variable` tells a variable tensor. The set-up and every kernel
 * call read tensors this way, so both see the same tensor. */
static TfLiteStatus describe(el_micro_interpreter* mi, int32_t i, TfLiteTensor* t, TfLiteAffineQuantization* aq,
                             uint8_t* variable) {
  const el_fb_vec tensors = {&mi->fb, mi->tensors_pos, mi->num_tensors};
  el_fb_table tt;
  el_fb_vec shape;
  int has_shape = 0;
  int8_t raw_type = 0;
  uint32_t buffer = 0;
  memset(t, 0, sizeof *t);
  memset(aq, 0, sizeof *aq);
  if (el_fb_vec_table(&tensors, (uint32_t)i, &tt) != 0 || el_fb_vec_field(&tt, 0, 4, &shape, &has_shape) != 0 ||
      el_fb_i8(&tt, 1, 0, &raw_type) != 0 || el_fb_u32(&tt, 2, 0, &buffer) != 0 ||
      el_fb_u8(&tt, 5, 0, variable) != 0) {
    return kTfLiteError;
  }
  const int type = el_convert_tensor_type(raw_type);
  size_t elem = 0;
  if (type < 0 || type == kTfLiteInt4 || TfLiteTypeSizeOf((TfLiteType)type, &elem) != kTfLiteOk || elem == 0 ||
      el_fb_has(&tt, 6)) {
    say(mi, "Tensor %d: type %d or sparsity is not supported by the micro interpreter.", (int)i, (int)raw_type);
    return kTfLiteError;
  }
  t->type = (TfLiteType)type;
  t->dims = (TfLiteIntArray*)(uintptr_t)int_array(&mi->fb, &shape, has_shape);
  uint64_t bytes = elem;
  for (int d = 0; d < t->dims->size; ++d) {
    if (t->dims->data[d] < 0) return kTfLiteError;
    bytes *= (uint64_t)t->dims->data[d];
    if (bytes > INT32_MAX) {
      say(mi, "Tensor %d is larger than 2 GB.", (int)i);
      return kTfLiteError;
    }
  }
  t->bytes = (size_t)bytes;
  if (read_quantization(mi, &tt, i, t, aq) != kTfLiteOk) return kTfLiteError;
  const uint8_t* data = NULL;
  size_t size = 0;
  if (buffer_data(&mi->fb, buffer, &data, &size) != 0) return kTfLiteError;
  t->allocation_type = *variable ? kTfLiteArenaRwPersistent : kTfLiteArenaRw;
  if (data != NULL) {
    if (*variable || size < t->bytes) {
      say(mi, "Constant tensor %d needs %u bytes but its buffer holds %u.", (int)i, (unsigned)t->bytes,
          (unsigned)size);
      return kTfLiteError;
    }
    t->allocation_type = kTfLiteMmapRo;
    t->data.raw_const = (const char*)data;
  }
  if (mi->tensors[i].data != NULL) t->data.data = mi->tensors[i].data;
  return kTfLiteOk;
}

/* Reads every tensor once: the checks, and where a tensor's data is not in the model, its
 * persistent place (variables; constants the model does not align for their type). */
static TfLiteStatus read_tensors(el_micro_interpreter* mi) {
  for (int32_t i = 0; i < (int32_t)mi->num_tensors; ++i) {
    TfLiteTensor t;
    TfLiteAffineQuantization aq;
    uint8_t variable = 0;
    size_t elem = 0;
    if (describe(mi, i, &t, &aq, &variable) != kTfLiteOk) {
      say(mi, "Tensor %d is invalidly specified in schema, or the arena is too small.", (int)i);
      return kTfLiteError;
    }
    (void)TfLiteTypeSizeOf(t.type, &elem);
    const int misaligned = t.allocation_type == kTfLiteMmapRo && ((uintptr_t)t.data.raw_const & (elem - 1)) != 0;
    if (!variable && !misaligned) continue;
    void* place = persist(t.bytes ? t.bytes : 1); /* kernels read through typed pointers */
    if (place == NULL) {
      say(mi, kTooSmall);
      return kTfLiteError;
    }
    if (misaligned) memcpy(place, t.data.raw_const, t.bytes);
    /* State across invokes starts at the zero point, as TFLite resets it. */
    if (variable && t.type == kTfLiteInt8) memset(place, t.params.zero_point, t.bytes);
    mi->tensors[i].data = place;
  }
  return kTfLiteOk;
}

static const TfLiteRegistration* resolve(el_micro_interpreter* mi, const el_fb_vec* opcodes, uint32_t opcode_index,
                                         int32_t* code) {
  el_fb_table oc;
  int8_t deprecated = 0;
  int32_t version = 1;
  const char* name = NULL;
  uint32_t name_len = 0;
  if (opcode_index >= opcodes->len || el_fb_vec_table(opcodes, opcode_index, &oc) != 0 ||
      el_fb_i8(&oc, 0, 0, &deprecated) != 0 || el_fb_string_field(&oc, 1, &name, &name_len) != 0 ||
      el_fb_i32(&oc, 2, 1, &version) != 0 || el_fb_i32(&oc, 3, 0, code) != 0) {
    return NULL;
  }
  if (deprecated > *code) *code = deprecated;
  const TfLiteRegistration* reg = NULL;
  if (*code == EL_BUILTIN_CUSTOM) {
    if (name != NULL) reg = el_kernels_lookup_custom(name, version, EL_TIER_REFERENCE);
    if (reg == NULL) say(mi, "Didn't find custom op '%s' version '%d' in this build's op selection.",
                         name ? name : "", (int)version);
  } else {
    reg = el_kernels_lookup(*code, version, EL_TIER_REFERENCE);
    if (reg == NULL) say(mi, "Didn't find op for builtin opcode %d version '%d': not in this build's op "
                         "selection.", (int)*code, (int)version);
  }
  return reg;
}

static const char* op_name(const el_micro_node* n) {
  const char* s = el_builtin_name(n->reg->builtin_code);
  return s != NULL ? s : "custom";
}

static const TfLiteIntArray* intermediates(const el_micro_node* n) {
  return n->intermediates != NULL ? n->intermediates : &kNoIndices;
}

/* Reads operator `i` into its node and runs the kernel's init. */
static TfLiteStatus read_node(el_micro_interpreter* mi, const el_fb_vec* opcodes, const el_fb_vec* ops, int i) {
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
  n->inputs = index_list(mi, &ot, 1, 1);
  n->outputs = index_list(mi, &ot, 2, 0);
  n->intermediates = index_list(mi, &ot, 8, 0);
  if (n->inputs == NULL || n->outputs == NULL || n->intermediates == NULL) return kTfLiteError;
  const int entries = n->inputs->size + n->outputs->size + n->intermediates->size;
  if (entries > mi->wide_slots) mi->wide_slots = entries;
  n->reg = resolve(mi, opcodes, opcode_index, &code);
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
  if (n->reg->init != NULL) {
    el_micro_call c; /* init has no node, so no tensors */
    call_start(&c, mi);
    n->user_data = n->reg->init(&c.ctx, init_data, init_size);
  }
  return kTfLiteOk;
}

static TfLiteStatus read_model(el_micro_interpreter* mi) {
  el_fb_table root, sg;
  el_fb_vec subgraphs, opcodes, tensors, ops;
  int has = 0;
  uint32_t version = 0;
  if (mi->fb.size < 8 || memcmp(mi->fb.base + 4, "TFL3", 4) != 0 || el_fb_root(&mi->fb, &root) != 0 ||
      el_fb_u32(&root, 0, 0, &version) != 0 || el_fb_vec_field(&root, 1, 4, &opcodes, &has) != 0 ||
      el_fb_vec_field(&root, 2, 4, &subgraphs, &has) != 0 || subgraphs.len == 0 ||
      el_fb_vec_table(&subgraphs, 0, &sg) != 0 || el_fb_vec_field(&sg, 0, 4, &tensors, &has) != 0 ||
      el_fb_vec_field(&sg, 3, 4, &ops, &has) != 0 || tensors.len > INT32_MAX / sizeof(el_micro_tensor) ||
      ops.len > INT32_MAX / sizeof(el_micro_node)) {
    say(mi, "The model is not a valid Flatbuffer buffer.");
    return kTfLiteError;
  }
  if (version != EL_SCHEMA_VERSION) {
    say(mi, "Model provided is schema version %u not equal to supported version %d.", (unsigned)version,
        EL_SCHEMA_VERSION);
    return kTfLiteError;
  }
  mi->tensors_pos = tensors.pos;
  mi->num_tensors = tensors.len;
  mi->inputs = index_list(mi, &sg, 1, 0);
  mi->outputs = index_list(mi, &sg, 2, 0);
  mi->num_nodes = (int32_t)ops.len;
  mi->tensors = persist(sizeof(el_micro_tensor) * tensors.len);
  mi->nodes = persist(sizeof(el_micro_node) * ops.len);
  if (mi->inputs == NULL || mi->outputs == NULL || (tensors.len && mi->tensors == NULL) ||
      (ops.len && mi->nodes == NULL)) {
    say(mi, "The model's graph is malformed or does not fit the arena.");
    return kTfLiteError;
  }
  if (read_tensors(mi) != kTfLiteOk) return kTfLiteError;
  for (int i = 0; i < mi->num_nodes; ++i) {
    if (read_node(mi, &opcodes, &ops, i) != kTfLiteOk) {
      say(mi, "Operator %d is invalidly specified in schema, or the arena is too small.", i);
      return kTfLiteError;
    }
  }
  if (mi->wide_slots <= EL_MICRO_STACK_SLOTS) {
    mi->wide_slots = 0;
  } else if ((mi->wide = persist(EL_MICRO_WINDOW_BYTES((size_t)mi->wide_slots))) == NULL) {
    say(mi, kTooSmall);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

/* --- running a kernel --------------------------------------------------------------------- */

/* Writes `list` renumbered into the window (`out`: a TfLiteIntArray), reading each tensor that is
 * not yet in it; a tensor listed twice gets one slot, as it is one tensor. */
static TfLiteStatus renumber(el_micro_interpreter* mi, const TfLiteIntArray* list, int* out,
                             const el_micro_window* w, int* k) {
  out[0] = list->size;
  for (int j = 0; j < list->size; ++j) {
    const int32_t g = list->data[j];
    int s = 0;
    uint8_t variable = 0;
    while (s < *k && w->global[s] != g) ++s;
    if (g < 0) {
      s = -1;
    } else if (s == *k) {
      if (describe(mi, g, &w->tensors[s], &w->quant[s], &variable) != kTfLiteOk) return kTfLiteError;
      w->global[(*k)++] = g;
    }
    out[1 + j] = s;
  }
  return kTfLiteOk;
}

/* Runs node `i`'s prepare (`preparing`) or invoke on a window of its tensors: on the stack, or
 * the interpreter's wide window for a node with more index list entries. */
static TfLiteStatus run_node(el_micro_interpreter* mi, int i, int preparing) {
  el_micro_node* n = &mi->nodes[i];
  uint64_t stack_window[(EL_MICRO_WINDOW_BYTES(EL_MICRO_STACK_SLOTS) + 7) / 8];
  const TfLiteIntArray* lists[3] = {n->inputs, n->outputs, intermediates(n)};
  const int entries = lists[0]->size + lists[1]->size + lists[2]->size;
  const size_t slots = entries > EL_MICRO_STACK_SLOTS ? (size_t)mi->wide_slots : EL_MICRO_STACK_SLOTS;
  el_micro_window w;
  w.tensors = entries > EL_MICRO_STACK_SLOTS ? mi->wide : (void*)stack_window;
  w.quant = (TfLiteAffineQuantization*)(void*)(w.tensors + slots);
  w.global = (int32_t*)(void*)(w.quant + slots);
  w.lists = (int*)(w.global + slots);
  TfLiteNode node;
  memset(&node, 0, sizeof node);
  TfLiteIntArray** views[3] = {&node.inputs, &node.outputs, &node.intermediates};
  int k = 0;
  int* at = w.lists;
  for (int l = 0; l < 3; ++l) {
    if (renumber(mi, lists[l], at, &w, &k) != kTfLiteOk) return kTfLiteError;
    *views[l] = (TfLiteIntArray*)(void*)at;
    at += 1 + lists[l]->size;
  }
  for (int s = 0; s < node.outputs->size; ++s) {
    if (w.tensors[node.outputs->data[s]].allocation_type == kTfLiteMmapRo) {
      say(mi, "Operator %d writes the constant tensor %d.", i, n->outputs->data[s]);
      return kTfLiteError;
    }
  }
  node.temporaries = (TfLiteIntArray*)(uintptr_t)&kNoIndices;
  node.user_data = n->user_data;
  if (n->intermediates != NULL) {
    node.builtin_data = (void*)(uintptr_t)n->data;
  } else if (n->data != NULL) {
    node.custom_initial_data = (const uint8_t*)n->data + 4;
    node.custom_initial_data_size = (int)el_fb_load_u32(n->data);
  }
  el_micro_call c;
  call_start(&c, mi);
  c.ctx.tensors = w.tensors;
  c.ctx.tensors_size = (size_t)k;
  c.global = w.global;
  c.preparing = preparing ? i + 1 : 0;
  if (!preparing) return n->reg->invoke(&c.ctx, &node);
  /* Kernels keep what they derive in their own data; the window's tensors end with the call. */
  const TfLiteStatus st = n->reg->prepare(&c.ctx, &node);
  n->user_data = node.user_data;
  return st;
}

/* --- preparing and planning --------------------------------------------------------------- */

static TfLiteStatus prepare_nodes(el_micro_interpreter* mi) {
  for (int i = 0; i < mi->num_nodes; ++i) {
    el_micro_node* n = &mi->nodes[i];
    if (n->reg->prepare != NULL && run_node(mi, i, 1) != kTfLiteOk) {
      say(mi, "Node number %d (%s) failed to prepare.", i, op_name(n));
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

/* The first and last step that use tensor `t`: graph inputs from step 0, graph outputs past the
 * last step (so they outlive every other buffer). */
static void lifetime(const el_micro_interpreter* mi, int t, el_micro_buffer* b) {
  b->first = INT32_MAX;
  b->last = -1;
  for (int32_t s = 0; s < mi->num_nodes; ++s) {
    const el_micro_node* nd = &mi->nodes[s];
    const TfLiteIntArray* lists[3] = {nd->inputs, nd->outputs, intermediates(nd)};
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
 * greedy plan, and the tensors' and scratch buffers' places. */
static TfLiteStatus plan(el_micro_interpreter* mi, el_micro_arena* a) {
  const int32_t ns = mi->num_scratch;
  int32_t nt = 0;
  el_micro_buffer* all = (el_micro_buffer*)(void*)a->base;
  for (int32_t i = 0; i < (int32_t)mi->num_tensors; ++i) {
    TfLiteTensor t;
    TfLiteAffineQuantization aq;
    uint8_t variable = 0;
    if (describe(mi, i, &t, &aq, &variable) != kTfLiteOk) return kTfLiteError;
    if (t.allocation_type != kTfLiteArenaRw) continue;
    el_micro_buffer* b = el_micro_scratch(a, sizeof *b);
    if (b == NULL || b != all + ns + nt) {
      say(mi, kTooSmall);
      return kTfLiteError;
    }
    b->bytes = (int32_t)t.bytes;
    lifetime(mi, i, b); /* may zero the bytes */
    ++nt;
  }
  const int32_t n = nt + ns;
  int32_t* order = el_micro_scratch(a, sizeof(int32_t) * (size_t)n);
  if (n > 0 && order == NULL) {
    say(mi, kTooSmall);
    return kTfLiteError;
  }
  mi->activations = el_micro_plan(all, n, order);
  /* The planned tensors again, in the same order, for their places. */
  for (int32_t i = 0, k = ns; i < (int32_t)mi->num_tensors; ++i) {
    TfLiteTensor t;
    TfLiteAffineQuantization aq;
    uint8_t variable = 0;
    if (describe(mi, i, &t, &aq, &variable) != kTfLiteOk) return kTfLiteError;
    if (t.allocation_type == kTfLiteArenaRw) mi->tensors[i].data = a->base + all[k++].offset;
  }
  if (ns > 0 && (mi->scratch = persist(sizeof(void*) * (size_t)ns)) == NULL) {
    say(mi, kTooSmall);
    return kTfLiteError;
  }
  for (int32_t k = 0; k < ns; ++k) mi->scratch[k] = a->base + all[k].offset;
  el_micro_scratch_reset(a); /* the records are done with: the activations take their place */
  return kTfLiteOk;
}

/* The graph inputs' and outputs' TfLiteTensors, once their data has its place. */
static TfLiteStatus make_io(el_micro_interpreter* mi) {
  const int ni = mi->inputs->size, n = ni + mi->outputs->size;
  if (n > 0 && (mi->io = persist(sizeof(el_micro_io) * (size_t)n)) == NULL) {
    say(mi, kTooSmall);
    return kTfLiteError;
  }
  for (int k = 0; k < n; ++k) {
    const int32_t g = k < ni ? mi->inputs->data[k] : mi->outputs->data[k - ni];
    uint8_t variable = 0;
    if (describe(mi, g, &mi->io[k].tensor, &mi->io[k].quant, &variable) != kTfLiteOk) return kTfLiteError;
    if (k < ni && mi->io[k].tensor.allocation_type != kTfLiteArenaRw) {
      say(mi, "Graph input %d is not a plain activation tensor.", (int)g);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

el_micro_interpreter* el_micro_interpreter_create(const void* model, size_t model_bytes, void* arena,
                                                  size_t arena_bytes, el_micro_report_fn report,
                                                  void* report_user) {
  el_micro_interpreter probe;
  el_micro_arena setup; /* the arena's bookkeeping, needed only while the interpreter is built */
  memset(&probe, 0, sizeof probe);
  probe.report = report;
  probe.report_user = report_user;
  const uintptr_t at = ((uintptr_t)arena + EL_MICRO_ALIGN - 1) & ~(uintptr_t)(EL_MICRO_ALIGN - 1);
  const size_t lead = (size_t)(at - (uintptr_t)arena);
  if (arena == NULL || model == NULL || ((uintptr_t)model & 3u) != 0 || arena_bytes < lead) {
    say(&probe, "The model buffer must be 4-byte aligned and the arena given.");
    return NULL;
  }
  el_micro_arena_init(&setup, (uint8_t*)at, (arena_bytes - lead) & ~(size_t)(EL_MICRO_ALIGN - 1));
  el_micro_interpreter* mi = el_micro_persist(&setup, sizeof *mi, EL_MICRO_ALIGN);
  if (mi == NULL) {
    say(&probe, kTooSmall);
    return NULL;
  }
  *mi = probe;
  mi->fb.base = model;
  mi->fb.size = model_bytes;
  el_micro_arena_bind(&setup);
  TfLiteStatus st = read_model(mi) == kTfLiteOk && prepare_nodes(mi) == kTfLiteOk && plan(mi, &setup) == kTfLiteOk
                        ? make_io(mi) : kTfLiteError;
  el_micro_arena_bind(NULL);
  /* The plan's records are set-up scratch: the activations take their place; the persistent
   * blocks made after the plan must leave room for them. */
  if (st == kTfLiteOk && mi->activations > setup.tail) {
    say(mi, "The arena is too small: the activations need %u bytes, %u are left.", (unsigned)mi->activations,
        (unsigned)setup.tail);
    st = kTfLiteError;
  }
  if (st != kTfLiteOk) return NULL;
  mi->arena_bytes = setup.cap;
  mi->persistent = setup.cap - setup.tail;
  mi->init_scratch = setup.head_peak;
  mi->alloc_calls = setup.calls;
  const size_t need = mi->activations + mi->persistent > setup.peak ? mi->activations + mi->persistent : setup.peak;
  /* The buffer's usable size is a multiple of the alignment, so a smaller one would not do. */
  mi->used = lead + ((need + EL_MICRO_ALIGN - 1) & ~(size_t)(EL_MICRO_ALIGN - 1));
  return mi;
}

TfLiteStatus el_micro_invoke(el_micro_interpreter* mi) {
  el_micro_arena none; /* heap calls are counted and refused during invoke */
  el_micro_arena_init(&none, NULL, 0);
  none.frozen = 1;
  el_micro_arena_bind(&none);
  TfLiteStatus st = kTfLiteOk;
  for (int i = 0; i < mi->num_nodes && st == kTfLiteOk; ++i) {
    st = run_node(mi, i, 0);
    if (st != kTfLiteOk) say(mi, "Node number %d (%s) failed to invoke.", i, op_name(&mi->nodes[i]));
  }
  el_micro_arena_bind(NULL);
  mi->alloc_calls += none.calls;
  return st;
}

/* TFLM's MicroInterpreter::Reset: every variable tensor back to the value create gave it (the
 * zero point for int8, else zero, TFLM's ResetVariableTensors) and each kernel's own per-stream
 * state back to its value after prepare (TFLM's ResetSubgraphs). The tensors are read from the
 * model again as create read them, so the reset keeps nothing more in RAM. */
TfLiteStatus el_micro_reset(el_micro_interpreter* mi) {
  for (int32_t i = 0; i < (int32_t)mi->num_tensors; ++i) {
    TfLiteTensor t;
    TfLiteAffineQuantization aq;
    uint8_t variable = 0;
    if (mi->tensors[i].data == NULL) continue;
    if (describe(mi, i, &t, &aq, &variable) != kTfLiteOk) return kTfLiteError;
    if (variable) memset(mi->tensors[i].data, t.type == kTfLiteInt8 ? t.params.zero_point : 0, t.bytes);
  }
  for (int32_t i = 0; i < mi->num_nodes; ++i) el_signal_reset(mi->nodes[i].reg, mi->nodes[i].user_data);
  return kTfLiteOk;
}

size_t el_micro_num_inputs(const el_micro_interpreter* mi) { return (size_t)mi->inputs->size; }
size_t el_micro_num_outputs(const el_micro_interpreter* mi) { return (size_t)mi->outputs->size; }

TfLiteTensor* el_micro_input(el_micro_interpreter* mi, size_t i) {
  return i < (size_t)mi->inputs->size ? &mi->io[i].tensor : NULL;
}

const TfLiteTensor* el_micro_output(const el_micro_interpreter* mi, size_t i) {
  return i < (size_t)mi->outputs->size ? &mi->io[(size_t)mi->inputs->size + i].tensor : NULL;
}

el_micro_stats el_micro_get_stats(const el_micro_interpreter* mi) {
  el_micro_stats s;
  s.arena_bytes = mi->arena_bytes;
  s.used = mi->used;
  s.activations = mi->activations;
  s.persistent = mi->persistent;
  s.init_scratch = mi->init_scratch;
  s.alloc_calls = mi->alloc_calls;
  s.tensor_bytes = sizeof(el_micro_tensor);
  return s;
}
