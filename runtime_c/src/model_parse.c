/* Flatbuffer → el_model. Any structural defect (an offset, vtable, length or union that does
 * not fit the buffer) makes the whole model invalid with TFLite's verifier message. */
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "model.h"

/* Field ids in schema.fbs (vtable slot order). */
enum {
  kModelVersion = 0, kModelOpcodes = 1, kModelSubgraphs = 2, kModelBuffers = 4,
  kModelMetadata = 6, kModelSignatures = 7
};
enum { kSgTensors = 0, kSgInputs = 1, kSgOutputs = 2, kSgOperators = 3, kSgName = 4 };
enum {
  kTensorShape = 0, kTensorType = 1, kTensorBuffer = 2, kTensorName = 3, kTensorQuant = 4,
  kTensorIsVariable = 5, kTensorSparsity = 6, kTensorShapeSignature = 7, kTensorExternalBuffer = 10
};
enum { kQuantScale = 2, kQuantZeroPoint = 3, kQuantDetailsType = 4, kQuantDetails = 5, kQuantDim = 6 };
enum { kSparseTraversal = 0, kSparseBlockMap = 1, kSparseDimMeta = 2 };
enum {
  kDimFormat = 0, kDimDenseSize = 1, kDimSegType = 2, kDimSeg = 3, kDimIdxType = 4, kDimIdx = 5
};
enum { kOpcodeDeprecated = 0, kOpcodeCustom = 1, kOpcodeVersion = 2, kOpcodeBuiltin = 3 };
enum {
  kOpOpcodeIndex = 0, kOpInputs = 1, kOpOutputs = 2, kOpOptionsType = 3, kOpOptions = 4,
  kOpCustomOptions = 5, kOpIntermediates = 8, kOpLargeOffset = 9, kOpLargeSize = 10,
  kOpOptions2Type = 11, kOpOptions2 = 12
};
enum { kBufferData = 0, kBufferOffset = 1, kBufferSize = 2 };
enum { kMetaName = 0, kMetaBuffer = 1 };
enum { kSigInputs = 0, kSigOutputs = 1, kSigKey = 2, kSigSubgraph = 4 };
enum { kMapName = 0, kMapTensor = 1 };

/* The verifier bounds the work a hostile file can cause: many tables may share one long
 * vector, so every element copied is charged against a budget proportional to the file. */
typedef struct parse_ctx {
  el_model* m;
  size_t budget;
} parse_ctx;

#define CHECK(expr)            \
  do {                         \
    if ((expr) != 0) return -1; \
  } while (0)

static int charge(parse_ctx* c, size_t n) {
  if (n > c->budget) return -1;
  c->budget -= n;
  return 0;
}

/* Flatbuffer scalars are little-endian; on such a host an aligned vector is already the array. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
enum { kInPlace = 1 };
#else
enum { kInPlace = 0 };
#endif

/* The vector's elements where they lie in the file when that layout is the array, else NULL. */
static const void* in_place(const el_fb_vec* v, size_t align) {
  const uint8_t* at = el_fb_vec_data(v);
  return kInPlace && (uintptr_t)at % align == 0 ? at : NULL;
}

static int read_int_list(parse_ctx* c, const el_fb_table* t, int id, el_int_list* out, int* present) {
  el_fb_vec v;
  int has = 0;
  CHECK(el_fb_vec_field(t, id, 4, &v, &has));
  if (present) *present = has;
  out->n = 0;
  out->v = NULL;
  if (!has) return 0;
  if (v.len > INT32_MAX / 4) return -1;
  CHECK(charge(c, v.len + 1));
  out->v = in_place(&v, _Alignof(int));
  if (out->v == NULL) {
    int* copy = el_pool_alloc(&c->m->pool, v.len, sizeof(int));
    if (copy == NULL) return -1;
    for (uint32_t i = 0; i < v.len; ++i) copy[i] = el_fb_vec_i32(&v, i);
    out->v = copy;
  }
  out->n = (int32_t)v.len;
  return 0;
}

/* A SparseIndexVector union member: a table whose field 0 is a vector of int32/uint16/uint8. */
static int read_index_vector(parse_ctx* c, const el_fb_table* dm, int type_id, int val_id,
                             uint8_t* type, el_int_list* out) {
  el_fb_table t;
  int has = 0;
  CHECK(el_fb_u8(dm, type_id, 0, type));
  CHECK(el_fb_table_field(dm, val_id, &t, &has));
  if (!has) *type = 0;
  /* An unknown union type leaves the list empty; the builder reports the dimension as invalid. */
  if (!has || *type < 1 || *type > 3) return 0;
  static const size_t widths[4] = {0, 4, 2, 1};
  el_fb_vec v;
  int vhas = 0;
  CHECK(el_fb_vec_field(&t, 0, widths[*type], &v, &vhas));
  if (!vhas) {
    *type = 0;
    return 0;
  }
  if (v.len > INT32_MAX / 4) return -1;
  CHECK(charge(c, v.len + 1));
  int* copy = el_pool_alloc(&c->m->pool, v.len, sizeof(int));
  if (copy == NULL) return -1;
  out->v = copy;
  for (uint32_t i = 0; i < v.len; ++i) {
    copy[i] = *type == 1 ? el_fb_vec_i32(&v, i)
                           : (*type == 2 ? (int32_t)el_fb_vec_u16(&v, i) : (int32_t)el_fb_vec_u8(&v, i));
  }
  out->n = (int32_t)v.len;
  return 0;
}

static int read_sparsity(parse_ctx* c, const el_fb_table* t, el_sparsity_desc* s) {
  CHECK(read_int_list(c, t, kSparseTraversal, &s->traversal_order, &s->has_traversal_order));
  CHECK(read_int_list(c, t, kSparseBlockMap, &s->block_map, &s->has_block_map));
  el_fb_vec v;
  CHECK(el_fb_vec_field(t, kSparseDimMeta, 4, &v, &s->has_dim_metadata));
  if (!s->has_dim_metadata) return 0;
  CHECK(charge(c, v.len + 1));
  s->dim_metadata = el_pool_alloc(&c->m->pool, v.len, sizeof(el_dim_meta_desc));
  if (s->dim_metadata == NULL) return -1;
  s->num_dim_metadata = (int32_t)v.len;
  for (uint32_t i = 0; i < v.len; ++i) {
    el_fb_table dm;
    el_dim_meta_desc* d = &s->dim_metadata[i];
    CHECK(el_fb_vec_table(&v, i, &dm));
    CHECK(el_fb_i8(&dm, kDimFormat, 0, &d->format));
    CHECK(el_fb_i32(&dm, kDimDenseSize, 0, &d->dense_size));
    CHECK(read_index_vector(c, &dm, kDimSegType, kDimSeg, &d->segments_type, &d->segments));
    CHECK(read_index_vector(c, &dm, kDimIdxType, kDimIdx, &d->indices_type, &d->indices));
  }
  return 0;
}

static int read_quant(parse_ctx* c, const el_fb_table* t, el_quant_desc* q) {
  el_fb_vec scales, zps;
  int has_s = 0, has_z = 0;
  q->present = 1;
  CHECK(el_fb_vec_field(t, kQuantScale, 4, &scales, &has_s));
  CHECK(el_fb_vec_field(t, kQuantZeroPoint, 8, &zps, &has_z));
  CHECK(el_fb_u8(t, kQuantDetailsType, 0, &q->details_type));
  if (q->details_type != 0) {
    el_fb_table details;
    int has_d = 0;
    CHECK(el_fb_table_field(t, kQuantDetails, &details, &has_d));
  }
  CHECK(el_fb_i32(t, kQuantDim, 0, &q->quantized_dimension));
  if (has_s) {
    if (scales.len > INT32_MAX / 4) return -1;
    CHECK(charge(c, scales.len + 1));
    q->scales = in_place(&scales, _Alignof(float));
    q->scales_in_place = q->scales != NULL;
    if (q->scales == NULL) {
      float* copy = el_pool_alloc(&c->m->pool, scales.len, sizeof(float));
      if (copy == NULL) return -1;
      for (uint32_t i = 0; i < scales.len; ++i) copy[i] = el_fb_vec_f32(&scales, i);
      q->scales = copy;
    }
    q->num_scales = (int32_t)scales.len;
  }
  q->num_zero_points = -1;
  if (has_z) {
    if (zps.len > INT32_MAX / 8) return -1;
    CHECK(charge(c, zps.len + 1));
    q->zero_points = in_place(&zps, _Alignof(int64_t));
    if (q->zero_points == NULL) {
      int64_t* copy = el_pool_alloc(&c->m->pool, zps.len, sizeof(int64_t));
      if (copy == NULL) return -1;
      for (uint32_t i = 0; i < zps.len; ++i) copy[i] = el_fb_vec_i64(&zps, i);
      q->zero_points = copy;
    }
    q->num_zero_points = (int32_t)zps.len;
  }
  return 0;
}

static int read_tensor(parse_ctx* c, const el_fb_table* t, el_tensor_desc* d) {
  uint32_t name_len = 0;
  CHECK(el_fb_string_field(t, kTensorName, &d->name, &name_len));
  if (d->name == NULL) d->name = "";
  CHECK(read_int_list(c, t, kTensorShape, &d->shape, NULL));
  CHECK(el_fb_i8(t, kTensorType, 0, &d->schema_type));
  CHECK(el_fb_u32(t, kTensorBuffer, 0, &d->buffer));
  uint8_t var = 0;
  CHECK(el_fb_u8(t, kTensorIsVariable, 0, &var));
  d->is_variable = var != 0;
  CHECK(read_int_list(c, t, kTensorShapeSignature, &d->shape_signature, &d->has_shape_signature));
  CHECK(el_fb_u32(t, kTensorExternalBuffer, 0, &d->external_buffer));
  el_fb_table sub;
  int has = 0;
  CHECK(el_fb_table_field(t, kTensorQuant, &sub, &has));
  if (has) CHECK(read_quant(c, &sub, &d->quant));
  CHECK(el_fb_table_field(t, kTensorSparsity, &sub, &has));
  if (has) {
    d->sparsity = el_pool_alloc(&c->m->pool, 1, sizeof(el_sparsity_desc));
    if (d->sparsity == NULL) return -1;
    CHECK(read_sparsity(c, &sub, d->sparsity));
  }
  return 0;
}

static int read_operator(parse_ctx* c, const el_fb_table* t, el_operator_desc* op) {
  CHECK(el_fb_u32(t, kOpOpcodeIndex, 0, &op->opcode_index));
  CHECK(read_int_list(c, t, kOpInputs, &op->inputs, NULL));
  CHECK(read_int_list(c, t, kOpOutputs, &op->outputs, NULL));
  CHECK(read_int_list(c, t, kOpIntermediates, &op->intermediates, NULL));
  CHECK(el_fb_u8(t, kOpOptionsType, 0, &op->builtin_options_type));
  CHECK(el_fb_table_field(t, kOpOptions, &op->builtin_options, &op->has_builtin_options));
  CHECK(el_fb_u8(t, kOpOptions2Type, 0, &op->builtin_options_2_type));
  CHECK(el_fb_table_field(t, kOpOptions2, &op->builtin_options_2, &op->has_builtin_options_2));
  el_fb_vec v;
  CHECK(el_fb_vec_field(t, kOpCustomOptions, 1, &v, &op->has_custom_options));
  if (op->has_custom_options) {
    op->custom_options = el_fb_vec_data(&v);
    op->custom_options_size = v.len;
  }
  CHECK(el_fb_u64(t, kOpLargeOffset, 0, &op->large_custom_options_offset));
  CHECK(el_fb_u64(t, kOpLargeSize, 0, &op->large_custom_options_size));
  return 0;
}

static int read_subgraph(parse_ctx* c, const el_fb_table* t, el_subgraph_desc* sg) {
  CHECK(el_fb_string_field(t, kSgName, &sg->name, NULL));
  if (sg->name == NULL) sg->name = "";
  CHECK(read_int_list(c, t, kSgInputs, &sg->inputs, NULL));
  CHECK(read_int_list(c, t, kSgOutputs, &sg->outputs, NULL));
  el_fb_vec v;
  CHECK(el_fb_vec_field(t, kSgTensors, 4, &v, &sg->has_tensors));
  if (sg->has_tensors) {
    CHECK(charge(c, v.len + 1));
    sg->tensors = el_pool_alloc(&c->m->pool, v.len, sizeof(el_tensor_desc));
    if (sg->tensors == NULL) return -1;
    sg->num_tensors = (int32_t)v.len;
    for (uint32_t i = 0; i < v.len; ++i) {
      el_fb_table tt;
      CHECK(el_fb_vec_table(&v, i, &tt));
      CHECK(read_tensor(c, &tt, &sg->tensors[i]));
    }
  }
  int has = 0;
  CHECK(el_fb_vec_field(t, kSgOperators, 4, &v, &has));
  if (has) {
    CHECK(charge(c, v.len + 1));
    sg->operators = el_pool_alloc(&c->m->pool, v.len, sizeof(el_operator_desc));
    if (sg->operators == NULL) return -1;
    sg->num_operators = (int32_t)v.len;
    for (uint32_t i = 0; i < v.len; ++i) {
      el_fb_table ot;
      CHECK(el_fb_vec_table(&v, i, &ot));
      CHECK(read_operator(c, &ot, &sg->operators[i]));
    }
  }
  return 0;
}

static int read_opcodes(parse_ctx* c, const el_fb_table* root) {
  el_fb_vec v;
  int has = 0;
  CHECK(el_fb_vec_field(root, kModelOpcodes, 4, &v, &has));
  if (!has) return 0;
  CHECK(charge(c, v.len + 1));
  c->m->opcodes = el_pool_alloc(&c->m->pool, v.len, sizeof(el_opcode_desc));
  if (c->m->opcodes == NULL) return -1;
  c->m->num_opcodes = (int32_t)v.len;
  for (uint32_t i = 0; i < v.len; ++i) {
    el_fb_table t;
    el_opcode_desc* oc = &c->m->opcodes[i];
    int8_t deprecated = 0;
    int32_t code = 0;
    CHECK(el_fb_vec_table(&v, i, &t));
    CHECK(el_fb_i8(&t, kOpcodeDeprecated, 0, &deprecated));
    CHECK(el_fb_i32(&t, kOpcodeBuiltin, 0, &code));
    CHECK(el_fb_i32(&t, kOpcodeVersion, 1, &oc->version));
    CHECK(el_fb_string_field(&t, kOpcodeCustom, &oc->custom_code, NULL));
    /* Old writers fill only the byte, new ones put 127 there and the real code in the int. */
    oc->builtin_code = code > deprecated ? code : deprecated;
  }
  return 0;
}

static int read_buffers(parse_ctx* c, const el_fb_table* root) {
  el_fb_vec v;
  CHECK(el_fb_vec_field(root, kModelBuffers, 4, &v, &c->m->has_buffers));
  if (!c->m->has_buffers) return 0;
  CHECK(charge(c, v.len + 1));
  c->m->buffers = el_pool_alloc(&c->m->pool, v.len, sizeof(el_buffer_desc));
  if (c->m->buffers == NULL) return -1;
  c->m->num_buffers = (int32_t)v.len;
  for (uint32_t i = 0; i < v.len; ++i) {
    el_fb_table t;
    el_buffer_desc* b = &c->m->buffers[i];
    el_fb_vec data;
    int has = 0;
    uint64_t offset = 0, size = 0;
    CHECK(el_fb_vec_table(&v, i, &t));
    CHECK(el_fb_vec_field(&t, kBufferData, 1, &data, &has));
    CHECK(el_fb_u64(&t, kBufferOffset, 0, &offset));
    CHECK(el_fb_u64(&t, kBufferSize, 0, &size));
    if (has) {
      b->data = data.len ? el_fb_vec_data(&data) : NULL;
      b->size = data.len;
    } else if (offset > 1) {
      /* Data stored after the flatbuffer (models over 2 GB); offsets count from the file start. */
      if (offset > c->m->fb.size || size > c->m->fb.size - offset) {
        b->out_of_range = 1;
      } else {
        b->data = size ? c->m->fb.base + offset : NULL;
        b->size = (size_t)size;
      }
    }
  }
  return 0;
}

static int read_metadata(parse_ctx* c, const el_fb_table* root) {
  el_fb_vec v;
  int has = 0;
  CHECK(el_fb_vec_field(root, kModelMetadata, 4, &v, &has));
  if (!has) return 0;
  CHECK(charge(c, v.len + 1));
  c->m->metadata = el_pool_alloc(&c->m->pool, v.len, sizeof(el_metadata_desc));
  if (c->m->metadata == NULL) return -1;
  c->m->num_metadata = (int32_t)v.len;
  for (uint32_t i = 0; i < v.len; ++i) {
    el_fb_table t;
    CHECK(el_fb_vec_table(&v, i, &t));
    CHECK(el_fb_string_field(&t, kMetaName, &c->m->metadata[i].name, NULL));
    CHECK(el_fb_u32(&t, kMetaBuffer, 0, &c->m->metadata[i].buffer));
  }
  return 0;
}

/* TFLite keeps a signature's tensors in a name-sorted map; duplicate names keep the last. */
static int read_tensor_map(parse_ctx* c, const el_fb_table* sig, int id, int32_t* n,
                           const char*** names, int32_t** tensors) {
  el_fb_vec v;
  int has = 0;
  *n = 0;
  CHECK(el_fb_vec_field(sig, id, 4, &v, &has));
  if (!has) return 0;
  CHECK(charge(c, v.len + 1));
  *names = el_pool_alloc(&c->m->pool, v.len, sizeof(char*));
  *tensors = el_pool_alloc(&c->m->pool, v.len, sizeof(int32_t));
  if (*names == NULL || *tensors == NULL) return -1;
  int32_t count = 0;
  for (uint32_t i = 0; i < v.len; ++i) {
    el_fb_table t;
    const char* name = NULL;
    uint32_t index = 0;
    CHECK(el_fb_vec_table(&v, i, &t));
    CHECK(el_fb_string_field(&t, kMapName, &name, NULL));
    CHECK(el_fb_u32(&t, kMapTensor, 0, &index));
    if (name == NULL) continue;
    /* Insertion into a sorted array; quadratic only in the signature's size. */
    CHECK(charge(c, (size_t)count + 1));
    int32_t pos = 0;
    while (pos < count && strcmp((*names)[pos], name) < 0) ++pos;
    if (pos < count && strcmp((*names)[pos], name) == 0) {
      (*tensors)[pos] = (int32_t)index;
      continue;
    }
    for (int32_t k = count; k > pos; --k) {
      (*names)[k] = (*names)[k - 1];
      (*tensors)[k] = (*tensors)[k - 1];
    }
    (*names)[pos] = name;
    (*tensors)[pos] = (int32_t)index;
    ++count;
  }
  *n = count;
  return 0;
}

static int read_signatures(parse_ctx* c, const el_fb_table* root) {
  el_fb_vec v;
  int has = 0;
  CHECK(el_fb_vec_field(root, kModelSignatures, 4, &v, &has));
  if (!has) return 0;
  CHECK(charge(c, v.len + 1));
  c->m->signatures = el_pool_alloc(&c->m->pool, v.len, sizeof(el_signature_desc));
  if (c->m->signatures == NULL) return -1;
  c->m->num_signatures = (int32_t)v.len;
  for (uint32_t i = 0; i < v.len; ++i) {
    el_fb_table t;
    el_signature_desc* s = &c->m->signatures[i];
    CHECK(el_fb_vec_table(&v, i, &t));
    CHECK(el_fb_string_field(&t, kSigKey, &s->key, NULL));
    CHECK(el_fb_u32(&t, kSigSubgraph, 0, &s->subgraph_index));
    CHECK(read_tensor_map(c, &t, kSigInputs, &s->num_inputs, &s->input_names, &s->input_tensors));
    CHECK(read_tensor_map(c, &t, kSigOutputs, &s->num_outputs, &s->output_names, &s->output_tensors));
  }
  return 0;
}

static int read_model(parse_ctx* c) {
  el_fb_table root;
  CHECK(el_fb_root(&c->m->fb, &root));
  CHECK(el_fb_u32(&root, kModelVersion, 0, &c->m->version));
  CHECK(read_opcodes(c, &root));
  CHECK(read_buffers(c, &root));
  el_fb_vec v;
  CHECK(el_fb_vec_field(&root, kModelSubgraphs, 4, &v, &c->m->has_subgraphs));
  if (c->m->has_subgraphs) {
    CHECK(charge(c, v.len + 1));
    c->m->subgraphs = el_pool_alloc(&c->m->pool, v.len, sizeof(el_subgraph_desc));
    if (c->m->subgraphs == NULL) return -1;
    c->m->num_subgraphs = (int32_t)v.len;
    for (uint32_t i = 0; i < v.len; ++i) {
      el_fb_table t;
      CHECK(el_fb_vec_table(&v, i, &t));
      CHECK(read_subgraph(c, &t, &c->m->subgraphs[i]));
    }
  }
  CHECK(read_metadata(c, &root));
  CHECK(read_signatures(c, &root));
  return 0;
}

el_status el_model_parse(el_model* model, const void* data, size_t size, char* err, size_t err_cap) {
  model->fb.base = data;
  model->fb.size = size;
  /* Flatbuffers address with 32-bit offsets; anything past 4 GB can only be external data. */
  parse_ctx c = {model, 64 * (size / 4) + 4096};
  if (data == NULL || size < 8 || read_model(&c) != 0) {
    el_set_error(err, err_cap, "The model is not a valid Flatbuffer buffer");
    return EL_VALUE_ERROR;
  }
  const uint8_t* id = model->fb.base + 4;
  if (memcmp(id, "TFL3", 4) != 0) {
    char shown[5];
    for (int i = 0; i < 4; ++i) shown[i] = (id[i] >= 32 && id[i] < 127) ? (char)id[i] : '?';
    shown[4] = 0;
    el_set_error(err, err_cap, "Model provided has model identifier '%s', should be 'TFL3'\n", shown);
    return EL_VALUE_ERROR;
  }
  return EL_OK;
}
