/* edgelite public C API: load and verify a .tflite model, plan its arena, run it.
 *
 * This header is also the cffi cdef of the Python binding: the binding reads it, drops the
 * preprocessor lines and the C++ guards, and hands the rest to cffi. So it uses only plain C
 * types, no macros in declarations and no includes beyond the standard integer types; the
 * TfLite ABI structs (common.h) travel through it as void pointers.
 *
 * Every function that can fail returns an el_status. Its value tells the binding which Python
 * exception to raise; the text is in the error buffer (model creation) or el_interpreter_error. */
#ifndef EDGELITE_EDGELITE_H_
#define EDGELITE_EDGELITE_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a declaration below changes; the binding refuses a library of another version. */
enum { EL_API_VERSION = 1 };

typedef enum el_status {
  EL_OK = 0,
  EL_VALUE_ERROR = 1,   /* bad model bytes, bad argument, bad index: Python ValueError */
  EL_RUNTIME_ERROR = 2, /* prepare/invoke failed, wrong call order: Python RuntimeError */
  EL_OS_ERROR = 3,      /* a file or library could not be opened: Python OSError */
  EL_NO_MEMORY = 4      /* allocation failed: Python MemoryError */
} el_status;

/* Which kernels run: matches tflite's OpResolverType numbering. AUTO and BUILTIN pick the
 * optimized tier, BUILTIN_REF the bit-exact reference tier. */
typedef enum el_resolver {
  EL_RESOLVER_AUTO = 0,
  EL_RESOLVER_BUILTIN = 1,
  EL_RESOLVER_BUILTIN_REF = 2,
  EL_RESOLVER_BUILTIN_WITHOUT_DEFAULT_DELEGATES = 3
} el_resolver;

typedef struct el_model el_model;
typedef struct el_interpreter el_interpreter;

/* A kernel supplied by the user: `registration` points to a TfLiteRegistration. With a name it
 * serves that custom op; with name NULL it replaces the builtin operator `builtin_code`. A
 * version <= 0 matches every version. */
typedef struct el_custom_op {
  const char* name;
  int version;
  const void* registration;
  int32_t builtin_code;
} el_custom_op;

typedef struct el_interpreter_options {
  int num_threads;          /* >= 1 */
  int resolver;             /* an el_resolver value */
  int preserve_all_tensors; /* non-zero: no arena reuse, every intermediate stays readable */
  const el_custom_op* custom_ops;
  int num_custom_ops;
  const char* kernel_tier;  /* "optimized" or "reference"; NULL: $EDGELITE_KERNEL_TIER, else optimized */
  const char* isa;          /* ISA level of the optimized kernels: "auto", "scalar", "avx2", "avx512",
                               "avx512_vnni", "neon", "neon_dot"; NULL: $EDGELITE_ISA, else auto */
} el_interpreter_options;

typedef struct el_tensor_info {
  const char* name;
  int32_t type;                    /* TfLiteType */
  int32_t ndims;
  const int32_t* dims;             /* current shape */
  int32_t ndims_signature;
  const int32_t* dims_signature;   /* -1 for unknown dimensions; equals dims when absent */
  float scale;                     /* per-tensor (legacy) quantization; 0 when unquantized */
  int32_t zero_point;
  int32_t num_quant;               /* number of per-axis scales / zero points (0 when none) */
  const float* scales;
  const int64_t* zero_points;
  int32_t quantized_dimension;
  void* data;                      /* NULL until allocated */
  size_t bytes;
  int32_t is_variable;
  int32_t is_constant;             /* data points into the model bytes */
  int32_t has_sparsity;
} el_tensor_info;

typedef struct el_op_info {
  const char* op_name;             /* builtin name, e.g. "CONV_2D", or the custom code for CUSTOM */
  const char* custom_name;         /* NULL unless CUSTOM */
  int32_t builtin_code;
  int32_t version;
  int32_t num_inputs;
  const int32_t* inputs;           /* -1 for an absent optional input */
  int32_t num_outputs;
  const int32_t* outputs;
  int32_t delegated;               /* non-zero once a delegate kernel replaced this node */
} el_op_info;

typedef struct el_signature_info {
  const char* key;
  int32_t subgraph_index;
  int32_t num_inputs;
  const char* const* input_names;
  const int32_t* input_tensors;
  int32_t num_outputs;
  const char* const* output_names;
  const int32_t* output_tensors;
} el_signature_info;

int el_api_version(void);
const char* el_version_string(void);

/* Models. A model is verified completely before it is returned; any byte string either gives a
 * model or an error status with a message, never a crash. `from_file` memory-maps the file;
 * `from_buffer` does not copy: the caller keeps `data` alive as long as the model lives. */
el_status el_model_create_from_file(const char* path, el_model** out, char* err, size_t err_cap);
el_status el_model_create_from_buffer(const void* data, size_t size, el_model** out, char* err,
                                      size_t err_cap);
void el_model_destroy(el_model* model);
/* Model metadata entry by name (e.g. "min_runtime_version"); EL_VALUE_ERROR if absent. */
el_status el_model_metadata(const el_model* model, const char* name, const void** data,
                            size_t* size);

/* Interpreters. The model must outlive the interpreter. */
el_status el_interpreter_create(const el_model* model, const el_interpreter_options* options,
                                el_interpreter** out, char* err, size_t err_cap);
void el_interpreter_destroy(el_interpreter* interp);
const char* el_interpreter_error(const el_interpreter* interp);

/* `delegate` is a TfLiteDelegate*. Call before allocate_tensors. */
el_status el_interpreter_modify_graph_with_delegate(el_interpreter* interp, void* delegate);
el_status el_interpreter_allocate_tensors(el_interpreter* interp, int subgraph);
el_status el_interpreter_invoke(el_interpreter* interp, int subgraph);
el_status el_interpreter_resize_input(el_interpreter* interp, int subgraph, int tensor_index,
                                      const int32_t* dims, int ndims, int strict);
el_status el_interpreter_reset_variables(el_interpreter* interp);
el_status el_interpreter_set_num_threads(el_interpreter* interp, int num_threads);

/* Kernel configuration. The ISA levels this CPU runs the optimized kernels at, comma separated,
 * lowest first ("scalar,avx2,..."); and the tier and level an interpreter runs. */
const char* el_cpu_isa_levels(void);
/* 1 when interpreters at the "auto" level run int8 1x1 convolutions on AMX tiles (the CPU has
 * AMX-INT8 and the OS granted this process the tile state), else 0. */
int el_cpu_amx_int8(void);
el_status el_interpreter_kernel_config(const el_interpreter* interp, const char** tier,
                                       const char** isa);

/* Op profiling. While enabled, invoke records the wall time of every execution-plan step;
 * enabling (again) clears the records. Entries are per step, in execution order. */
typedef struct el_op_profile {
  const char* op_name;     /* builtin name, custom code, or the delegate kernel's name */
  int32_t node_index;      /* index of the node (equals the model operator index unless delegated) */
  int32_t delegated;       /* non-zero for a delegate kernel node */
  int64_t invocations;     /* invokes timed since profiling was enabled */
  int64_t total_ns;
  int64_t last_ns;
} el_op_profile;
el_status el_interpreter_set_profiling(el_interpreter* interp, int enabled);
el_status el_interpreter_profile_steps(const el_interpreter* interp, int subgraph, int* steps);
el_status el_interpreter_profile_entry(const el_interpreter* interp, int subgraph, int step,
                                       el_op_profile* out);

/* Structure. */
int el_interpreter_num_subgraphs(const el_interpreter* interp);
el_status el_subgraph_io(const el_interpreter* interp, int subgraph, const int32_t** inputs,
                         int* num_inputs, const int32_t** outputs, int* num_outputs);
el_status el_subgraph_counts(const el_interpreter* interp, int subgraph, int* num_tensors,
                             int* num_ops);
el_status el_tensor_get_info(const el_interpreter* interp, int subgraph, int tensor_index,
                             el_tensor_info* out);
el_status el_op_get_info(const el_interpreter* interp, int subgraph, int op_index,
                         el_op_info* out);
int el_interpreter_num_signatures(const el_interpreter* interp);
el_status el_signature_get(const el_interpreter* interp, int index, el_signature_info* out);

/* Data. Copies check the byte count; the tensor must be allocated. */
el_status el_tensor_copy_from(el_interpreter* interp, int subgraph, int tensor_index,
                              const void* src, size_t bytes);
/* Replaces a non-constant STRING tensor's contents with `bytes` bytes in TFLite's string layout
 * (int32 count, count + 1 int32 offsets from the buffer start, the bytes of the strings): the
 * count must equal the tensor's element count and the offsets run from the end of the header to
 * the end of the buffer without going back. The tensor's memory may move. */
el_status el_tensor_set_string(el_interpreter* interp, int subgraph, int tensor_index,
                               const void* src, size_t bytes);
el_status el_tensor_copy_to(const el_interpreter* interp, int subgraph, int tensor_index,
                            void* dst, size_t bytes);

/* Memory plan of the last allocate_tensors: the arena's size, and its lower bound: the most bytes
 * of model tensors that must be held at once at one step of the execution plan (inputs and
 * outputs of the step and every tensor live across it; a RESHAPE-like op's output counted with
 * its input; no kernel scratch, kernel temporaries or alignment), summed over subgraphs. */
el_status el_interpreter_arena(const el_interpreter* interp, size_t* planned, size_t* lower_bound);

/* Arena options, used from the next allocate_tensors on. `limit`: bytes each subgraph's arena
 * may take (0: no limit); nodes whose fast kernels need more scratch than fits run kernels
 * with less (the reference ones), and allocate_tensors fails when even that does not fit.
 * `reuse_inputs` non-zero: the graph inputs' memory is reused after their last reader, so
 * every input must be set again before each invoke (as in TensorFlow Lite Micro). */
el_status el_interpreter_set_arena_options(el_interpreter* interp, size_t limit, int reuse_inputs);
/* A tensor's arena slot after allocate_tensors: its offset from the arena start (-1 when it has
 * none) and its bytes. Tensors that share one buffer have the same offset. */
el_status el_interpreter_arena_tensor(const el_interpreter* interp, int subgraph, int tensor,
                                      int64_t* offset, size_t* bytes);
/* Kernel scratch buffer `k` of a subgraph: the node that asked for it, its arena offset (-1:
 * heap) and bytes; EL_VALUE_ERROR past the last one. */
el_status el_interpreter_arena_scratch(const el_interpreter* interp, int subgraph, int k, int* node,
                                       int64_t* offset, size_t* bytes);
/* Whether a node runs its least-scratch kernel because of the arena limit. */
el_status el_interpreter_node_small_scratch(const el_interpreter* interp, int subgraph, int node,
                                            int* small);

/* The TfLiteContext* of a subgraph (for _native_handle and delegate tests). */
void* el_interpreter_context(el_interpreter* interp, int subgraph);

#ifdef __cplusplus
}
#endif
#endif /* EDGELITE_EDGELITE_H_ */
