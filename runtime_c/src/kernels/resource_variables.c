/* Resource variables: VAR_HANDLE names a variable (container, shared_name) and outputs its
 * int32 resource id in a resource tensor; ASSIGN_VARIABLE stores a value (any shape and type)
 * under an id; READ_VARIABLE outputs the stored value, so its output is dynamic, as in TFLite.
 * The store belongs to the interpreter, so every subgraph (a WHILE body, a CALL_ONCE
 * initialiser) sees the same variables; they live until the interpreter is destroyed. It also
 * holds the hash tables of hashtable.c (resources.h). */
#include <stdlib.h>
#include <string.h>

#include "kernels/coverage_ops.h"
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/resources.h"
#include "subgraph_api.h"

typedef struct named_id {
  char* container;
  char* shared_name;
} named_id;

typedef struct variable {
  int id;
  TfLiteType type;
  TfLiteIntArray* dims;
  void* data;
  size_t bytes;
  size_t cap;
} variable;

typedef struct store {
  named_id* names; /* resource id = position in this list */
  int num_names;
  int names_cap;
  variable* vars;
  int num_vars;
  int vars_cap;
  void* tables; /* hash tables (hashtable.c), freed with the store */
  void (*free_tables)(void* tables);
} store;

static void free_store(void* p) {
  store* s = (store*)p;
  if (s == NULL) return;
  for (int i = 0; i < s->num_names; ++i) {
    free(s->names[i].container);
    free(s->names[i].shared_name);
  }
  for (int i = 0; i < s->num_vars; ++i) {
    TfLiteIntArrayFree(s->vars[i].dims);
    free(s->vars[i].data);
  }
  free(s->names);
  free(s->vars);
  if (s->free_tables != NULL) s->free_tables(s->tables);
  free(s);
}

/* The interpreter's store, created on first use. */
static store* get_store(TfLiteContext* ctx) {
  store* s = (store*)el_ctx_get_resources(ctx);
  if (s != NULL) return s;
  s = calloc(1, sizeof(store));
  if (s != NULL && el_ctx_set_resources(ctx, s, free_store) != kTfLiteOk) {
    free(s);
    return NULL;
  }
  return s;
}

void** el_resource_tables(TfLiteContext* ctx, void (*free_fn)(void* tables)) {
  store* s = get_store(ctx);
  if (s == NULL) return NULL;
  s->free_tables = free_fn;
  return &s->tables;
}

static char* dup_text(const char* t) {
  const char* v = t ? t : "";
  size_t n = strlen(v) + 1;
  char* d = malloc(n);
  if (d != NULL) memcpy(d, v, n);
  return d;
}

/* The id of (container, shared_name), registered on first use. */
static int resource_id(store* s, const char* container, const char* shared_name) {
  const char* c = container ? container : "";
  const char* n = shared_name ? shared_name : "";
  for (int i = 0; i < s->num_names; ++i) {
    if (strcmp(s->names[i].container, c) == 0 && strcmp(s->names[i].shared_name, n) == 0) return i;
  }
  if (s->num_names == s->names_cap) {
    int cap = s->names_cap ? s->names_cap * 2 : 8;
    named_id* grown = realloc(s->names, (size_t)cap * sizeof *grown);
    if (grown == NULL) return -1;
    s->names = grown;
    s->names_cap = cap;
  }
  named_id* e = &s->names[s->num_names];
  e->container = dup_text(c);
  e->shared_name = dup_text(n);
  if (e->container == NULL || e->shared_name == NULL) {
    free(e->container);
    free(e->shared_name);
    return -1;
  }
  return s->num_names++;
}

static variable* find_variable(store* s, int id) {
  for (int i = 0; s != NULL && i < s->num_vars; ++i) {
    if (s->vars[i].id == id) return &s->vars[i];
  }
  return NULL;
}

static variable* add_variable(store* s, int id) {
  if (s->num_vars == s->vars_cap) {
    int cap = s->vars_cap ? s->vars_cap * 2 : 8;
    variable* grown = realloc(s->vars, (size_t)cap * sizeof *grown);
    if (grown == NULL) return NULL;
    s->vars = grown;
    s->vars_cap = cap;
  }
  variable* v = &s->vars[s->num_vars++];
  memset(v, 0, sizeof *v);
  v->id = id;
  v->type = kTfLiteNoType;
  return v;
}

/* The resource id a handle tensor carries. */
static TfLiteStatus handle_id(TfLiteContext* ctx, const TfLiteTensor* h, int* id) {
  if ((h->type != kTfLiteResource && h->type != kTfLiteInt32) || h->data.raw == NULL ||
      h->bytes < sizeof(int32_t)) {
    ctx->ReportError(ctx, "The resource handle holds no resource id.");
    return kTfLiteError;
  }
  memcpy(id, h->data.raw, sizeof(int32_t));
  return kTfLiteOk;
}

/* ---- VAR_HANDLE ------------------------------------------------------------------------ */

typedef struct handle_data {
  int id;
} handle_data;

static void* var_handle_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(handle_data));
}

static TfLiteStatus var_handle_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 0, 1));
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  handle_data* d = (handle_data*)node->user_data;
  const TfLiteVarHandleParams* p = (const TfLiteVarHandleParams*)node->builtin_data;
  TfLiteTensor* out;
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &out));
  EL_ENSURE_TYPES_EQ(ctx, out->type, kTfLiteResource);
  store* s = get_store(ctx);
  EL_ENSURE_MSG(ctx, s != NULL, "Out of memory creating the resource store.");
  d->id = resource_id(s, p ? p->container : NULL, p ? p->shared_name : NULL);
  EL_ENSURE_MSG(ctx, d->id >= 0, "Out of memory naming a resource variable.");
  el_set_dynamic(out);
  EL_ENSURE_OK(ctx, el_ctx_tensor_realloc(ctx, out, sizeof(int32_t)));
  int32_t id = d->id;
  memcpy(out->data.raw, &id, sizeof id);
  return kTfLiteOk;
}

static TfLiteStatus var_handle_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const handle_data* d = (const handle_data*)node->user_data;
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  int32_t id = d->id;
  memcpy(out->data.raw, &id, sizeof id);
  return kTfLiteOk;
}

const TfLiteRegistration el_ref_var_handle =
    EL_REGISTRATION(var_handle_init, el_kernel_free, var_handle_prepare, var_handle_invoke, EL_OP_VAR_HANDLE);

/* ---- READ_VARIABLE --------------------------------------------------------------------- */

static TfLiteStatus read_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 1, 1));
  const TfLiteTensor* h;
  TfLiteTensor* out;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &h));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &out));
  EL_ENSURE(ctx, h->type == kTfLiteResource || h->type == kTfLiteInt32);
  el_set_dynamic(out);
  return kTfLiteOk;
}

static TfLiteStatus read_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* h = &ctx->tensors[node->inputs->data[0]];
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  int id = 0;
  EL_ENSURE_OK(ctx, handle_id(ctx, h, &id));
  const variable* v = find_variable((store*)el_ctx_get_resources(ctx), id);
  if (v == NULL) {
    ctx->ReportError(ctx, "READ_VARIABLE: resource variable %d has not been assigned.", id);
    return kTfLiteError;
  }
  EL_ENSURE_TYPES_EQ(ctx, v->type, out->type);
  if (!TfLiteIntArrayEqual(out->dims, v->dims)) {
    EL_ENSURE_OK(ctx, el_resize(ctx, out, v->dims->size, v->dims->data));
  }
  if (out->bytes != v->bytes || out->data.raw == NULL) {
    EL_ENSURE_OK(ctx, el_ctx_tensor_realloc(ctx, out, v->bytes));
  }
  if (v->bytes > 0) memcpy(out->data.raw, v->data, v->bytes);
  return kTfLiteOk;
}

const TfLiteRegistration el_ref_read_variable =
    EL_REGISTRATION(NULL, NULL, read_prepare, read_invoke, EL_OP_READ_VARIABLE);

/* ---- ASSIGN_VARIABLE ------------------------------------------------------------------- */

static TfLiteStatus assign_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 2, 0));
  const TfLiteTensor* h;
  const TfLiteTensor* value;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &h));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 1, &value));
  EL_ENSURE(ctx, h->type == kTfLiteResource || h->type == kTfLiteInt32);
  return kTfLiteOk;
}

static TfLiteStatus assign_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* h = &ctx->tensors[node->inputs->data[0]];
  const TfLiteTensor* value = &ctx->tensors[node->inputs->data[1]];
  int id = 0;
  EL_ENSURE_OK(ctx, handle_id(ctx, h, &id));
  store* s = get_store(ctx);
  EL_ENSURE_MSG(ctx, s != NULL, "Out of memory creating the resource store.");
  variable* v = find_variable(s, id);
  /* A variable's memory is allocated on its first assignment and when a value outgrows it. */
  if (v == NULL) v = add_variable(s, id);
  EL_ENSURE_MSG(ctx, v != NULL, "Out of memory creating a resource variable.");
  if (!TfLiteIntArrayEqual(v->dims, value->dims)) {
    TfLiteIntArray* dims = TfLiteIntArrayCopy(value->dims);
    EL_ENSURE_MSG(ctx, dims != NULL, "Out of memory assigning a resource variable.");
    TfLiteIntArrayFree(v->dims);
    v->dims = dims;
  }
  if (value->bytes > v->cap) {
    void* data = malloc(value->bytes);
    EL_ENSURE_MSG(ctx, data != NULL, "Out of memory assigning a resource variable.");
    free(v->data);
    v->data = data;
    v->cap = value->bytes;
  }
  v->type = value->type;
  v->bytes = value->bytes;
  if (value->bytes > 0) memcpy(v->data, value->data.raw, value->bytes);
  return kTfLiteOk;
}

const TfLiteRegistration el_ref_assign_variable =
    EL_REGISTRATION(NULL, NULL, assign_prepare, assign_invoke, EL_OP_ASSIGN_VARIABLE);
