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

/* A build without message texts (-DEDGELITE_STRIP_ERROR_TEXT=ON, freestanding; TFLite's
 * TF_LITE_STRIP_ERROR_STRINGS) reports only where an error arose, "edgelite error at
 * builder.c:78", so the texts take no flash. The functions are defined as (name) to escape these. */
#ifdef EDGELITE_STRIP_ERROR_TEXT
#ifdef __FILE_NAME__
#define EL_ERR_WHERE __FILE_NAME__, __LINE__
#else
#define EL_ERR_WHERE __FILE__, __LINE__
#endif
#define el_set_error(err, err_cap, ...) \
  el_set_error(err, err_cap, "edgelite error at %s:%d", EL_ERR_WHERE)
#define el_err_append(e, ...) el_err_append(e, "edgelite error at %s:%d\n", EL_ERR_WHERE)
#endif

#endif /* EDGELITE_ERROR_H_ */
