/* Interpreter internals shared by builder, context callbacks, planner glue, delegates and the
 * public API. One el_subgraph per model subgraph, each with its own TfLiteContext whose impl_
 * points back at it. */
#ifndef EDGELITE_INTERP_H_
#define EDGELITE_INTERP_H_

#include <stddef.h>
#include <stdint.h>

#include "edgelite/common.h"
#include "edgelite/edgelite.h"
#include "error.h"
#include "model.h"
#include "pool.h"

/* Tensor indices and dims cross between the public API (int32_t) and the TfLite ABI (int). */
_Static_assert(sizeof(int) == sizeof(int32_t), "edgelite needs a 32-bit int");

typedef struct el_node {
  TfLiteNode node;
  TfLiteRegistration reg;
  int op_index;          /* operator index in the model, -1 for a delegate kernel node */
  int delegated;         /* replaced by a delegate kernel */
  int initialized;       /* init ran, so free must run */
  int unresolved;        /* a custom op nobody registered */
  void* owned_builtin;   /* builtin_data we allocated (freed with the node) */
  /* pad_fold.h, per allocate_tensors: a PAD the convolution after it took on (not run), and
   * the tensor + 1 a convolution reads in place of its input 0 (0: its own input). */
  int pad_folded;
  int pad_source;
  int small_scratch;     /* prepare picks the kernel with the least arena scratch (arena limit) */
} el_node;

typedef struct el_tensor_extra {
  int is_constant;        /* data points at model bytes (or our aligned copy of them) */
  void* owned;            /* heap memory owned by the tensor: aligned constant copy or dynamic data */
  size_t owned_cap;
  TfLiteIntArray* pending_dims; /* resize_input waiting for the next allocate_tensors */
  int64_t arena_offset;   /* -1 when the tensor has no arena slot */
  size_t arena_bytes;     /* size of its slot */
  const el_tensor_desc* desc; /* NULL for tensors added by kernels */
  int first_read;         /* first plan step whose node reads it (-1: a subgraph input) ...  */
  int first_write;        /* ... and writes it, in this prepare pass; INT_MAX: none */
} el_tensor_extra;

typedef struct el_scratch {
  size_t bytes;
  int node;               /* execution plan position that requested it */
  int64_t arena_offset;   /* -1 for heap-backed scratch */
  size_t align;           /* the arena offset's alignment (heap scratch: always 64) */
  void* heap;
} el_scratch;

typedef struct el_persistent {
  struct el_persistent* next;
} el_persistent;

enum { EL_STATE_UNPREPARED = 0, EL_STATE_READY = 1 };

typedef struct el_step_profile {
  int64_t invocations;
  int64_t total_ns;
  int64_t last_ns;
} el_step_profile;

typedef struct el_subgraph {
  struct el_interpreter* interp;
  int index;
  TfLiteContext ctx;
  const el_subgraph_desc* desc;
  el_tensor_extra* extra;  /* parallel to ctx.tensors */
  size_t tensor_cap;
  int32_t num_model_tensors;
  el_node** nodes;         /* stable addresses: kernels and delegates keep node pointers */
  int num_nodes;
  int node_cap;
  TfLiteIntArray* plan;    /* execution plan: node indices (pool memory: delegates may keep it) */
  int consistent;          /* tensor indices checked */
  int state;
  int has_pending_resize;
  int preparing;           /* inside allocate_tensors' prepare loop */
  int current_step;        /* execution plan position being prepared or invoked */
  int deferred_from;       /* plan position from which nodes are prepared during invoke; -1 none */
  int deferred_prepared;   /* deferred nodes have been prepared since the last allocate */
  int invoking;
  int resized_in_invoke;   /* a tensor changed shape during this invoke */
  uint8_t* arena;          /* 64-byte aligned start inside arena_raw */
  uint8_t* arena_raw;
  size_t arena_size;
  size_t arena_lower_bound;
  el_scratch* scratch;
  int num_scratch;
  int scratch_cap;
  el_persistent* persistent;
  TfLiteExternalContext* external[kTfLiteMaxExternalContexts];
  el_pool* preview_pool;   /* holds the last PreviewDelegatePartitioning result */
  el_step_profile* profile; /* per execution-plan step while profiling (profile.c) */
  int profile_cap;
} el_subgraph;

struct el_interpreter {
  const el_model* model;
  el_pool pool;
  el_errbuf err;
  int num_threads;
  int resolver;
  int preserve_all_tensors;
  el_custom_op* custom_ops;
  int num_custom_ops;
  const TfLiteRegistration** opcode_regs; /* per model opcode; NULL for an unresolved custom op */
  TfLiteRegistration* unresolved_regs;    /* placeholders for unresolved custom ops */
  el_subgraph* subgraphs;
  int num_subgraphs;
  el_signature_info* signatures;
  int num_signatures;
  void* resources;                        /* kernels' interpreter-wide store (subgraph_api.h) */
  void (*free_resources)(void* resources);
  struct el_cpu_backend* backend; /* kernel tier, ISA level and worker pool (kernels/optimized) */
  int profiling;                  /* invoke times every step (profile.c) */
  size_t arena_limit;             /* bytes each subgraph's arena may take; 0: no limit */
  int reuse_inputs;               /* graph inputs' memory is reused after their last reader */
};

/* builder.c */
el_status el_resolve_opcodes(struct el_interpreter* it, const el_interpreter_options* o);
el_status el_build_subgraph(struct el_interpreter* it, int index);

/* tensor_setup.c: the TfLiteTensor for model tensor `i`; messages go to the error reporter. */
TfLiteStatus el_setup_model_tensor(el_subgraph* sg, int i);
void el_release_tensor(el_subgraph* sg, int i);
/* Elements of a tensor with `dims`. Kernels index with int, as TFLite's do, so a shape whose
 * non-zero extents multiply past INT32_MAX (or with a negative extent) is an error. */
TfLiteStatus el_element_count(const int* dims, int ndims, size_t* count);
/* Bytes of a tensor of `type` with `dims`; kTfLiteError on overflow or a type without a size. */
TfLiteStatus el_bytes_required(TfLiteType type, const int* dims, int ndims, size_t* bytes);
/* TFLite's TensorType → TfLiteType; -1 for a value it does not know. */
int el_convert_tensor_type(int8_t schema_type);

/* context.c */
void el_context_init(el_subgraph* sg);
void el_report(el_subgraph* sg, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
#ifdef EDGELITE_STRIP_ERROR_TEXT
#define el_report(sg, ...) el_report(sg, "edgelite error at %s:%d\n", EL_ERR_WHERE) /* error.h */
#endif
TfLiteStatus el_add_tensors(el_subgraph* sg, int n, int* first);
TfLiteStatus el_add_node(el_subgraph* sg, el_node** out, int* index);
TfLiteStatus el_resize_tensor(el_subgraph* sg, TfLiteTensor* t, TfLiteIntArray* dims);
void el_free_persistent(el_subgraph* sg);

/* subgraph.c */
el_status el_subgraph_check_consistent(el_subgraph* sg);

el_status el_subgraph_allocate(el_subgraph* sg);
el_status el_subgraph_invoke(el_subgraph* sg);
el_status el_subgraph_reset_variables(el_subgraph* sg);
/* interpreter.c: resize_input without clearing the error text. */
el_status el_subgraph_resize_input(el_subgraph* sg, int tensor_index, const int* dims, int ndims,
                                   int strict);
void el_subgraph_release(el_subgraph* sg);
const char* el_node_error_name(const el_node* n);
const char* el_node_info_name(const el_node* n);
TfLiteStatus el_tensor_realloc(el_subgraph* sg, int index, size_t bytes);

/* profile.c: a monotonic clock, the record of one timed step, and the records' release. */
int64_t el_now_ns(void);

/* A node's kernel callbacks (kernel_calls.c): the registration's own, else those of the
 * TfLiteRegistrationExternal it carries. A missing init gives NULL, a missing prepare succeeds. */
void* el_kernel_call_init(const TfLiteRegistration* r, TfLiteContext* ctx, const char* data, size_t size);
TfLiteStatus el_kernel_call_prepare(const TfLiteRegistration* r, TfLiteContext* ctx, TfLiteNode* node);
int el_kernel_has_invoke(const TfLiteRegistration* r);
TfLiteStatus el_kernel_call_invoke(const TfLiteRegistration* r, TfLiteContext* ctx, TfLiteNode* node);
void el_kernel_call_free(const TfLiteRegistration* r, TfLiteContext* ctx, void* data);
void el_profile_record(el_subgraph* sg, int step, int64_t start_ns);
void el_profile_release(el_subgraph* sg);

/* delegate.c */
el_status el_apply_delegate(el_subgraph* sg, TfLiteDelegate* delegate);
TfLiteStatus el_replace_with_delegate(TfLiteContext* ctx, TfLiteRegistration reg,
                                      const TfLiteIntArray* nodes, TfLiteDelegate* delegate);
TfLiteStatus el_preview_partitioning(TfLiteContext* ctx, const TfLiteIntArray* nodes,
                                     TfLiteDelegateParams** params, int* num);
void el_free_preview(el_subgraph* sg);

/* builtin_options.c: TFLite's builtin param struct for `code`, parsed from the operator's
 * options (defaults when absent or of another type). NULL data for ops without options. */
TfLiteStatus el_parse_builtin_options(el_subgraph* sg, int32_t code, const el_operator_desc* op,
                                      void** out);
/* Zeroed memory for the parsed options, owned by the interpreter (builder.c; the micro
 * interpreter, runtime_c/src/micro, passes its own state as `sg` and defines this and el_report). */
void* el_options_alloc(el_subgraph* sg, size_t bytes);

#endif /* EDGELITE_INTERP_H_ */
