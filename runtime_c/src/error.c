#include "error.h"

#include <stdio.h>
#include <string.h>

void(el_set_error)(char* err, size_t err_cap, const char* fmt, ...) {
  if (err == NULL || err_cap == 0) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, err_cap, fmt, ap);
  va_end(ap);
}

void el_err_clear(el_errbuf* e) {
  e->len = 0;
  e->text[0] = 0;
}

void el_err_vappend(el_errbuf* e, const char* fmt, va_list ap) {
  if (e->len >= EL_ERROR_CAP - 1) return;
  int n = vsnprintf(e->text + e->len, EL_ERROR_CAP - e->len, fmt, ap);
  if (n < 0) {
    e->text[e->len] = 0;
    return;
  }
  e->len += (size_t)n;
  if (e->len >= EL_ERROR_CAP) e->len = EL_ERROR_CAP - 1;
}

void(el_err_append)(el_errbuf* e, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  el_err_vappend(e, fmt, ap);
  va_end(ap);
}

void el_err_copy_out(const el_errbuf* e, char* err, size_t err_cap) {
  if (err == NULL || err_cap == 0) return;
  size_t n = e->len < err_cap - 1 ? e->len : err_cap - 1;
  memcpy(err, e->text, n);
  err[n] = 0;
}
