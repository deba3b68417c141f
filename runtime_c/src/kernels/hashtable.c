/* Hash tables: HASHTABLE names a table (its table_id, key and value types: int64 keys with
 * string values or string keys with int64 values, as in TFLite) and outputs the id in a
 * resource tensor; HASHTABLE_IMPORT fills it from a key and a value vector once (later imports
 * leave it as it is, and of repeated keys the first stays); HASHTABLE_FIND maps every key to its
 * value or the default; HASHTABLE_SIZE gives the number of entries. Tables live in the
 * interpreter's resource store (resources.h) until the interpreter is destroyed, so every
 * subgraph sees the same ones. Keys are found through an open-addressing index built by the
 * import. */
#include <stdlib.h>
#include <string.h>

#include "edgelite/builtin_op_data.h"
#include "kernels/coverage_ops.h"
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/resources.h"
#include "kernels/string_util.h"
#include "subgraph_api.h"

/* One key or value: an int64, or a string (bytes owned by the table). */
typedef struct item {
  int64_t i;
  char* s;
  int32_t len;
} item;

typedef struct table {
  int id;
  TfLiteType key_type, value_type;
  bool imported;
  item* keys;
  item* values;
  int32_t count;
  int32_t* index; /* entry + 1 per slot, 0 empty; slots a power of two */
  uint64_t slots;
} table;

typedef struct tables {
  table* list;
  int num, cap;
} tables;

static void free_items(item* v, int32_t n) {
  for (int32_t k = 0; v != NULL && k < n; ++k) free(v[k].s);
  free(v);
}

static void free_tables(void* p) {
  tables* ts = p;
  if (ts == NULL) return;
  for (int i = 0; i < ts->num; ++i) {
    free_items(ts->list[i].keys, ts->list[i].count);
    free_items(ts->list[i].values, ts->list[i].count);
    free(ts->list[i].index);
  }
  free(ts->list);
  free(ts);
}

static tables* get_tables(TfLiteContext* ctx) {
  void** slot = el_resource_tables(ctx, free_tables);
  if (slot == NULL) return NULL;
  if (*slot == NULL) *slot = calloc(1, sizeof(tables));
  return *slot;
}

static table* find_table(TfLiteContext* ctx, int id) {
  tables* ts = get_tables(ctx);
  for (int i = 0; ts != NULL && i < ts->num; ++i) {
    if (ts->list[i].id == id) return &ts->list[i];
  }
  return NULL;
}

/* ---- keys ------------------------------------------------------------------------------ */

static uint64_t hash_bytes(const char* s, int32_t len) {
  uint64_t h = 1469598103934665603ULL; /* FNV-1a */
  for (int32_t k = 0; k < len; ++k) {
    h ^= (unsigned char)s[k];
    h *= 1099511628211ULL;
  }
  return h;
}

static uint64_t hash_int(int64_t v) {
  uint64_t x = (uint64_t)v;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

/* Key k of a key tensor (checked), as an item pointing into the tensor. */
static item key_of(const TfLiteTensor* t, int64_t k) {
  item it = {0, NULL, 0};
  if (t->type == kTfLiteString) {
    const char* s;
    el_string_get(t, k, &s, &it.len);
    it.s = (char*)s;
  } else {
    it.i = t->data.i64[k];
  }
  return it;
}

static uint64_t hash_item(TfLiteType type, const item* it) {
  return type == kTfLiteString ? hash_bytes(it->s, it->len) : hash_int(it->i);
}

static bool same_item(TfLiteType type, const item* a, const item* b) {
  if (type != kTfLiteString) return a->i == b->i;
  return a->len == b->len && (a->len == 0 || memcmp(a->s, b->s, (size_t)a->len) == 0);
}

/* The entry holding `key`, or -1. */
static int32_t lookup(const table* t, const item* key) {
  if (t->count == 0) return -1;
  const uint64_t mask = t->slots - 1;
  for (uint64_t s = hash_item(t->key_type, key) & mask;; s = (s + 1) & mask) {
    const int32_t e = t->index[s];
    if (e == 0) return -1;
    if (same_item(t->key_type, &t->keys[e - 1], key)) return e - 1;
  }
}

static bool copy_item(item* dst, const item* src, TfLiteType type) {
  *dst = *src;
  if (type != kTfLiteString) return true;
  dst->s = malloc(src->len > 0 ? (size_t)src->len : 1);
  if (dst->s == NULL) return false;
  if (src->len > 0) memcpy(dst->s, src->s, (size_t)src->len);
  return true;
}

static bool supported_pair(TfLiteType key, TfLiteType value) {
  return (key == kTfLiteInt64 && value == kTfLiteString) || (key == kTfLiteString && value == kTfLiteInt64);
}

/* The table a handle tensor names. */
static TfLiteStatus handle_table(TfLiteContext* ctx, const TfLiteTensor* h, table** t) {
  int32_t id;
  EL_ENSURE_MSG(ctx, (h->type == kTfLiteResource || h->type == kTfLiteInt32) && h->data.raw != NULL &&
                         h->bytes >= sizeof id,
                "The hash table handle holds no table id.");
  memcpy(&id, h->data.raw, sizeof id);
  *t = find_table(ctx, id);
  if (*t == NULL) {
    ctx->ReportError(ctx, "Hash table %d does not exist.", (int)id);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

/* ---- HASHTABLE ------------------------------------------------------------------------- */

static TfLiteStatus hashtable_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 0, 1));
  EL_ENSURE_MSG(ctx, node->builtin_data != NULL, "HASHTABLE has no options.");
  const TfLiteHashtableParams* p = node->builtin_data;
  EL_ENSURE_MSG(ctx, supported_pair(p->key_dtype, p->value_dtype),
                "HASHTABLE: keys and values must be int64 and string, or string and int64.");
  TfLiteTensor* out;
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &out));
  EL_ENSURE_TYPES_EQ(ctx, out->type, kTfLiteResource);
  tables* ts = get_tables(ctx);
  EL_ENSURE_MSG(ctx, ts != NULL, "Out of memory creating the resource store.");
  table* t = find_table(ctx, p->table_id);
  if (t == NULL) {
    if (ts->num == ts->cap) {
      const int cap = ts->cap ? ts->cap * 2 : 4;
      table* grown = realloc(ts->list, (size_t)cap * sizeof *grown);
      EL_ENSURE_MSG(ctx, grown != NULL, "Out of memory creating a hash table.");
      ts->list = grown;
      ts->cap = cap;
    }
    t = &ts->list[ts->num++];
    memset(t, 0, sizeof *t);
    t->id = p->table_id;
    t->key_type = p->key_dtype;
    t->value_type = p->value_dtype;
  }
  EL_ENSURE_MSG(ctx, t->key_type == p->key_dtype && t->value_type == p->value_dtype,
                "HASHTABLE: a table of this id exists with other key or value types.");
  el_set_dynamic(out);
  int dims[1] = {1};
  EL_ENSURE_OK(ctx, el_resize(ctx, out, 1, dims));
  EL_ENSURE_OK(ctx, el_ctx_tensor_realloc(ctx, out, sizeof(int32_t)));
  const int32_t id = p->table_id;
  memcpy(out->data.raw, &id, sizeof id);
  return kTfLiteOk;
}

static TfLiteStatus hashtable_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteHashtableParams* p = node->builtin_data;
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  const int32_t id = p->table_id;
  memcpy(out->data.raw, &id, sizeof id);
  return kTfLiteOk;
}

const TfLiteRegistration el_ref_hashtable =
    EL_REGISTRATION(NULL, NULL, hashtable_prepare, hashtable_invoke, EL_OP_HASHTABLE);

/* ---- HASHTABLE_IMPORT ------------------------------------------------------------------ */

static TfLiteStatus check_handle(TfLiteContext* ctx, const TfLiteNode* node) {
  const TfLiteTensor* h;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 0, &h));
  EL_ENSURE(ctx, h->type == kTfLiteResource || h->type == kTfLiteInt32);
  return kTfLiteOk;
}

static TfLiteStatus import_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 3, 0));
  EL_ENSURE_OK(ctx, check_handle(ctx, node));
  const TfLiteTensor *keys, *values;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 1, &keys));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 2, &values));
  EL_ENSURE(ctx, supported_pair(keys->type, values->type));
  EL_ENSURE_EQ(ctx, el_ndims(keys), 1);
  EL_ENSURE_EQ(ctx, el_num_elements(keys), el_num_elements(values));
  return kTfLiteOk;
}

/* Adds every key not there yet (the first of repeated keys wins), then indexes the entries. */
static TfLiteStatus fill(TfLiteContext* ctx, table* t, const TfLiteTensor* keys, const TfLiteTensor* values) {
  const int64_t n = el_num_elements(keys);
  EL_ENSURE_MSG(ctx, n < (1 << 28), "HASHTABLE_IMPORT: too many keys.");
  uint64_t slots = 1;
  while (slots < 2 * (uint64_t)n) slots *= 2;
  t->keys = calloc((size_t)(n ? n : 1), sizeof(item));
  t->values = calloc((size_t)(n ? n : 1), sizeof(item));
  t->index = calloc((size_t)slots, sizeof(int32_t));
  EL_ENSURE_MSG(ctx, t->keys != NULL && t->values != NULL && t->index != NULL, "Out of memory filling a hash table.");
  t->slots = slots;
  for (int64_t k = 0; k < n; ++k) {
    const item key = key_of(keys, k);
    if (lookup(t, &key) >= 0) continue;
    const item value = key_of(values, k);
    item* kd = &t->keys[t->count];
    item* vd = &t->values[t->count];
    EL_ENSURE_MSG(ctx, copy_item(kd, &key, t->key_type) && copy_item(vd, &value, t->value_type),
                  "Out of memory filling a hash table.");
    ++t->count;
    uint64_t s = hash_item(t->key_type, &key) & (slots - 1);
    while (t->index[s] != 0) s = (s + 1) & (slots - 1);
    t->index[s] = t->count;
  }
  return kTfLiteOk;
}

static TfLiteStatus import_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  table* t;
  EL_ENSURE_OK(ctx, handle_table(ctx, &ctx->tensors[node->inputs->data[0]], &t));
  const TfLiteTensor* keys = &ctx->tensors[node->inputs->data[1]];
  const TfLiteTensor* values = &ctx->tensors[node->inputs->data[2]];
  EL_ENSURE_TYPES_EQ(ctx, keys->type, t->key_type);
  EL_ENSURE_TYPES_EQ(ctx, values->type, t->value_type);
  if (t->imported) return kTfLiteOk;
  const int64_t n = el_num_elements(keys);
  if (keys->type == kTfLiteString) EL_ENSURE_OK(ctx, el_string_check(ctx, keys, n));
  if (values->type == kTfLiteString) EL_ENSURE_OK(ctx, el_string_check(ctx, values, n));
  t->imported = true;
  return fill(ctx, t, keys, values);
}

const TfLiteRegistration el_ref_hashtable_import =
    EL_REGISTRATION(NULL, NULL, import_prepare, import_invoke, EL_OP_HASHTABLE_IMPORT);

/* ---- HASHTABLE_FIND -------------------------------------------------------------------- */

static TfLiteStatus find_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 3, 1));
  EL_ENSURE_OK(ctx, check_handle(ctx, node));
  const TfLiteTensor *keys, *def;
  TfLiteTensor* out;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 1, &keys));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, 2, &def));
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &out));
  EL_ENSURE(ctx, supported_pair(keys->type, def->type));
  EL_ENSURE_TYPES_EQ(ctx, out->type, def->type);
  EL_ENSURE_EQ(ctx, el_num_elements(def), 1);
  if (out->type == kTfLiteString) el_set_dynamic(out);
  return el_resize_like(ctx, out, keys);
}

typedef struct found {
  const table* t;
  const TfLiteTensor* keys;
  const TfLiteTensor* def;
} found;

static void found_string(const void* p, int64_t k, const char** data, int32_t* len) {
  const found* f = p;
  const item key = key_of(f->keys, k);
  const int32_t e = lookup(f->t, &key);
  if (e < 0) {
    el_string_get(f->def, 0, data, len);
    return;
  }
  *data = f->t->values[e].s;
  *len = f->t->values[e].len;
}

static TfLiteStatus find_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  table* t;
  EL_ENSURE_OK(ctx, handle_table(ctx, &ctx->tensors[node->inputs->data[0]], &t));
  const TfLiteTensor* keys = &ctx->tensors[node->inputs->data[1]];
  const TfLiteTensor* def = &ctx->tensors[node->inputs->data[2]];
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  EL_ENSURE_TYPES_EQ(ctx, keys->type, t->key_type);
  EL_ENSURE_TYPES_EQ(ctx, def->type, t->value_type);
  const int64_t n = el_num_elements(keys);
  if (keys->type == kTfLiteString) EL_ENSURE_OK(ctx, el_string_check(ctx, keys, n));
  if (def->type == kTfLiteString) {
    EL_ENSURE_OK(ctx, el_string_check(ctx, def, 1));
    const found f = {t, keys, def};
    return el_string_write(ctx, n, found_string, &f, out);
  }
  for (int64_t k = 0; k < n; ++k) {
    const item key = key_of(keys, k);
    const int32_t e = lookup(t, &key);
    out->data.i64[k] = e < 0 ? def->data.i64[0] : t->values[e].i;
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_ref_hashtable_find =
    EL_REGISTRATION(NULL, NULL, find_prepare, find_invoke, EL_OP_HASHTABLE_FIND);

/* ---- HASHTABLE_SIZE -------------------------------------------------------------------- */

static TfLiteStatus size_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 1, 1));
  EL_ENSURE_OK(ctx, check_handle(ctx, node));
  TfLiteTensor* out;
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &out));
  EL_ENSURE_TYPES_EQ(ctx, out->type, kTfLiteInt64);
  int dims[1] = {1};
  return el_resize(ctx, out, 1, dims);
}

static TfLiteStatus size_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  table* t;
  EL_ENSURE_OK(ctx, handle_table(ctx, &ctx->tensors[node->inputs->data[0]], &t));
  ctx->tensors[node->outputs->data[0]].data.i64[0] = t->count;
  return kTfLiteOk;
}

const TfLiteRegistration el_ref_hashtable_size =
    EL_REGISTRATION(NULL, NULL, size_prepare, size_invoke, EL_OP_HASHTABLE_SIZE);
