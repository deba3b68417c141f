/* No file system on a freestanding target: models come from the caller's buffer (flash). */
#include "error.h"
#include "model.h"

el_status el_model_create_from_file(const char* path, el_model** out, char* err, size_t err_cap) {
  (void)path;
  if (out != NULL) *out = NULL;
  el_set_error(err, err_cap, "Models cannot be read from files in the freestanding build; use el_model_create_from_buffer");
  return EL_VALUE_ERROR;
}

void el_model_unmap(el_model* model) { (void)model; }
