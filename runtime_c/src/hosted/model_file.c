/* Models read from a file: a private read-only mapping of it, released with the model. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "model.h"

el_status el_model_create_from_file(const char* path, el_model** out, char* err, size_t err_cap) {
  if (out == NULL || path == NULL) {
    el_set_error(err, err_cap, "No path or output pointer for the model");
    return EL_VALUE_ERROR;
  }
  *out = NULL;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    if (fd >= 0) close(fd);
    el_set_error(err, err_cap, "Could not open '%s'.The model allocation is null/empty", path);
    return EL_VALUE_ERROR;
  }
  if (st.st_size == 0) {
    close(fd);
    el_set_error(err, err_cap, "mmap of size 0 requested.The model allocation is null/empty");
    return EL_VALUE_ERROR;
  }
  size_t size = (size_t)st.st_size;
  void* map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED) {
    el_set_error(err, err_cap, "Could not open '%s'.The model allocation is null/empty", path);
    return EL_VALUE_ERROR;
  }
  el_model* m = calloc(1, sizeof *m);
  if (m == NULL) {
    munmap(map, size);
    el_set_error(err, err_cap, "Out of memory creating the model");
    return EL_NO_MEMORY;
  }
  m->mapping = map;
  m->mapping_size = size;
  return el_model_finish_create(m, map, size, out, err, err_cap);
}

void el_model_unmap(el_model* model) {
  if (model->mapping != NULL) munmap(model->mapping, model->mapping_size);
}
