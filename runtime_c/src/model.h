/* A verified .tflite model: every table the interpreter needs, read once from the flatbuffer
 * into plain structs. Pointers to bulk data (constant buffers, names, custom options) point
 * into the model bytes, which outlive the model object. Values are stored as found in the
 * file; the interpreter builder checks their meaning (types, indices, sizes). */
#ifndef EDGELITE_MODEL_H_
#define EDGELITE_MODEL_H_

#include <stddef.h>
#include <stdint.h>

#include "edgelite/edgelite.h"
#include "fb_reader.h"
#include "pool.h"

enum { EL_SCHEMA_VERSION = 3 };

/* Tensor indices, stored as the TfLite ABI's `int` so they pass straight into TfLiteIntArrays.
 * Like the quantization vectors, `v` points into the flatbuffer when its layout serves (then
 * v[-1] is the vector's length word, and the list is a TfLiteIntArray), else at a pool copy. */
typedef struct el_int_list {
  int32_t n;
  const int* v;
} el_int_list;

/* The scale and zero-point vectors point straight into the flatbuffer when its layout serves as
 * the array (little-endian host, element-aligned vector), else at a pool copy. */
typedef struct el_quant_desc {
  int present;
  int32_t num_scales;
  const float* scales;
  int32_t num_zero_points; /* -1: the zero_point vector is absent */
  const int64_t* zero_points;
  int scales_in_place;     /* scales[-1] is the vector's length word: a TfLiteFloatArray */
  int32_t quantized_dimension;
  uint8_t details_type; /* QuantizationDetails union type, 0 when none */
} el_quant_desc;

typedef struct el_dim_meta_desc {
  int8_t format;
  int32_t dense_size;
  uint8_t segments_type; /* SparseIndexVector: 1 int32, 2 uint16, 3 uint8; 0 absent */
  el_int_list segments;
  uint8_t indices_type;
  el_int_list indices;
} el_dim_meta_desc;

typedef struct el_sparsity_desc {
  int has_traversal_order;
  el_int_list traversal_order;
  int has_block_map;
  el_int_list block_map;
  int has_dim_metadata;
  int32_t num_dim_metadata;
  el_dim_meta_desc* dim_metadata;
} el_sparsity_desc;

typedef struct el_tensor_desc {
  const char* name;          /* "" when absent */
  int8_t schema_type;        /* TensorType as stored */
  el_int_list shape;
  int has_shape_signature;
  el_int_list shape_signature;
  uint32_t buffer;
  uint32_t external_buffer;
  int is_variable;
  el_quant_desc quant;
  el_sparsity_desc* sparsity; /* NULL when absent */
} el_tensor_desc;

typedef struct el_opcode_desc {
  int32_t builtin_code;       /* max(builtin_code, deprecated_builtin_code) */
  const char* custom_code;    /* NULL when absent */
  int32_t version;
} el_opcode_desc;

typedef struct el_operator_desc {
  uint32_t opcode_index;
  el_int_list inputs;
  el_int_list outputs;
  el_int_list intermediates;
  uint8_t builtin_options_type;
  int has_builtin_options;
  el_fb_table builtin_options;
  uint8_t builtin_options_2_type;
  int has_builtin_options_2;
  el_fb_table builtin_options_2;
  int has_custom_options;
  const uint8_t* custom_options;
  size_t custom_options_size;
  uint64_t large_custom_options_offset;
  uint64_t large_custom_options_size;
} el_operator_desc;

typedef struct el_subgraph_desc {
  const char* name;
  int has_tensors;
  int32_t num_tensors;
  el_tensor_desc* tensors;
  el_int_list inputs;
  el_int_list outputs;
  int32_t num_operators;
  el_operator_desc* operators;
} el_subgraph_desc;

typedef struct el_buffer_desc {
  const uint8_t* data; /* NULL when the buffer holds nothing */
  size_t size;
  int out_of_range;    /* the offset/size form points past the end of the file */
} el_buffer_desc;

typedef struct el_metadata_desc {
  const char* name;
  uint32_t buffer;
} el_metadata_desc;

typedef struct el_signature_desc {
  const char* key;
  uint32_t subgraph_index;
  int32_t num_inputs;
  const char** input_names;
  int32_t* input_tensors;
  int32_t num_outputs;
  const char** output_names;
  int32_t* output_tensors;
} el_signature_desc;

struct el_model {
  el_fb fb;
  void* mapping; /* non-NULL when the bytes are a file mapping we own */
  size_t mapping_size;
  el_pool pool;
  uint32_t version;
  int32_t num_opcodes;
  el_opcode_desc* opcodes;
  int has_subgraphs;
  int32_t num_subgraphs;
  el_subgraph_desc* subgraphs;
  int has_buffers;
  int32_t num_buffers;
  el_buffer_desc* buffers;
  int32_t num_metadata;
  el_metadata_desc* metadata;
  int32_t num_signatures;
  el_signature_desc* signatures;
  const char* signature_error; /* set when a SignatureDef is unusable */
};

/* Whether `p` lies inside the model's bytes (a list or vector read in place). */
static inline int el_model_holds(const el_model* m, const void* p) {
  const uint8_t* b = (const uint8_t*)p;
  return b != NULL && b >= m->fb.base && b < m->fb.base + m->fb.size;
}

/* Reads and verifies `size` bytes at `data` into `model` (already zeroed, fb unset). On
 * failure the message is written to err and the status returned; the caller frees the pool. */
el_status el_model_parse(el_model* model, const void* data, size_t size, char* err, size_t err_cap);

/* Parses the bytes into `m` and hands it to *out, or destroys it and returns the failure. */
el_status el_model_finish_create(el_model* m, const void* data, size_t size, el_model** out, char* err,
                                 size_t err_cap);
/* Releases the file mapping a model owns, if any (hosted/model_file.c; nothing to do freestanding). */
void el_model_unmap(el_model* model);

#endif /* EDGELITE_MODEL_H_ */
