/* Model objects from the caller's buffer, and the metadata lookup. Parsing lives in
 * model_parse.c; models read from files (a private read-only mapping) in hosted/model_file.c. */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"

el_status el_model_finish_create(el_model* m, const void* data, size_t size, el_model** out, char* err,
                                 size_t err_cap) {
  el_status st = el_model_parse(m, data, size, err, err_cap);
  if (st != EL_OK) {
    el_model_destroy(m);
    return st;
  }
  *out = m;
  return EL_OK;
}

el_status el_model_create_from_buffer(const void* data, size_t size, el_model** out, char* err,
                                      size_t err_cap) {
  if (out == NULL) {
    el_set_error(err, err_cap, "No output pointer for the model");
    return EL_VALUE_ERROR;
  }
  *out = NULL;
  el_model* m = calloc(1, sizeof *m);
  if (m == NULL) {
    el_set_error(err, err_cap, "Out of memory creating the model");
    return EL_NO_MEMORY;
  }
  return el_model_finish_create(m, data, size, out, err, err_cap);
}

void el_model_destroy(el_model* model) {
  if (model == NULL) return;
  el_pool_free(&model->pool);
  el_model_unmap(model);
  free(model);
}

el_status el_model_metadata(const el_model* model, const char* name, const void** data, size_t* size) {
  if (model == NULL || name == NULL || data == NULL || size == NULL) return EL_VALUE_ERROR;
  /* Later entries with the same name replace earlier ones, as in TFLite's metadata map. */
  for (int32_t i = model->num_metadata - 1; i >= 0; --i) {
    const el_metadata_desc* md = &model->metadata[i];
    if (md->name == NULL || strcmp(md->name, name) != 0) continue;
    if (md->buffer >= (uint32_t)model->num_buffers) continue;
    const el_buffer_desc* b = &model->buffers[md->buffer];
    if (b->out_of_range) continue;
    *data = b->data;
    *size = b->size;
    return EL_OK;
  }
  return EL_VALUE_ERROR;
}
