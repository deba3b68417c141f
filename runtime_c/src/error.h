/* Error text: a one-shot writer for caller buffers and an accumulating reporter for
 * interpreters (TFLite's error reporter concatenates every report until the next call). */
#ifndef EDGELITE_ERROR_H_
#define EDGELITE_ERROR_H_

#include <stdarg.h>
#include <stddef.h>

/* Room for the messages of one failing call; firmware keeps a short one (errors are truncated). */
#ifdef EDGELITE_FREESTANDING
enum { EL_ERROR_CAP = 256 };
#else
enum { EL_ERROR_CAP = 8192 };
#endif

typedef struct el_errbuf {
  char text[EL_ERROR_CAP];
  size_t len;
} el_errbuf;

/* printf into err (if err_cap > 0), always NUL-terminated, truncated when too long. */
void el_set_error(char* err, size_t err_cap, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));

void el_err_clear(el_errbuf* e);
void el_err_append(el_errbuf* e, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void el_err_vappend(el_errbuf* e, const char* fmt, va_list ap);
/* Copy the accumulated text into a caller buffer. */
void el_err_copy_out(const el_errbuf* e, char* err, size_t err_cap);

#endif /* EDGELITE_ERROR_H_ */
