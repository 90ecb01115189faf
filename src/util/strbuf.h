/* A growable byte string, and printf into fresh heap strings. All size
 * arithmetic is checked; out of memory exits (util/alloc.h), so nothing
 * here fails and callers check nothing. */
#ifndef SR_UTIL_STRBUF_H
#define SR_UTIL_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct sr_strbuf {
    char *data; /* always NUL-terminated when len > 0 or after any append */
    size_t len;
    size_t cap;
} sr_strbuf;

void sr_strbuf_init(sr_strbuf *sb);
void sr_strbuf_release(sr_strbuf *sb);
void sr_strbuf_reserve(sr_strbuf *sb, size_t extra);
void sr_strbuf_append(sr_strbuf *sb, const char *data, size_t len);
void sr_strbuf_puts(sr_strbuf *sb, const char *s);
void sr_strbuf_putc(sr_strbuf *sb, char c);
void sr_strbuf_printf(sr_strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sr_strbuf_vprintf(sr_strbuf *sb, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Hand the contents over (caller frees, never NULL); the buffer is left
 * empty. */
char *sr_strbuf_detach(sr_strbuf *sb);
/* Contents as a C string ("" when empty). */
const char *sr_strbuf_cstr(const sr_strbuf *sb);

char *sr_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *sr_vasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* Fresh strings, never NULL (out of memory exits). */
char *sr_strndup(const char *s, size_t n);

/* Checked arithmetic for sizes: false on overflow. */
bool sr_size_mul(size_t a, size_t b, size_t *out);
bool sr_size_add(size_t a, size_t b, size_t *out);

/* Grow an array of elements of size elem so that it can hold need entries.
 * *cap is updated (overflow and out of memory exit). */
void sr_grow(void **array, size_t *cap, size_t need, size_t elem);

#endif
