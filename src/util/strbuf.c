#include "util/strbuf.h"

#include "util/alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool sr_size_mul(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a)
        return false;
    *out = a * b;
    return true;
}

bool sr_size_add(size_t a, size_t b, size_t *out)
{
    if (b > SIZE_MAX - a)
        return false;
    *out = a + b;
    return true;
}

void sr_grow(void **array, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return;
    size_t new_cap = *cap ? *cap : 8;
    while (new_cap < need) {
        if (new_cap > SIZE_MAX / 2)
            sr_die_oom(); /* no such array could be had */
        new_cap *= 2;
    }
    *array = sr_xreallocarray(*array, new_cap, elem);
    *cap = new_cap;
}

void sr_strbuf_init(sr_strbuf *sb)
{
    sb->data = NULL;
    sb->len = 0;
    sb->cap = 0;
}

void sr_strbuf_release(sr_strbuf *sb)
{
    free(sb->data);
    sr_strbuf_init(sb);
}

void sr_strbuf_reserve(sr_strbuf *sb, size_t extra)
{
    size_t need;
    if (!sr_size_add(sb->len, extra, &need) || !sr_size_add(need, 1, &need))
        sr_die_oom(); /* no such buffer could be had */
    void *data = sb->data;
    sr_grow(&data, &sb->cap, need, 1);
    sb->data = data;
}

void sr_strbuf_append(sr_strbuf *sb, const char *data, size_t len)
{
    sr_strbuf_reserve(sb, len);
    if (len)
        memcpy(sb->data + sb->len, data, len);
    sb->len += len;
    sb->data[sb->len] = '\0';
}

void sr_strbuf_puts(sr_strbuf *sb, const char *s)
{
    sr_strbuf_append(sb, s, strlen(s));
}

void sr_strbuf_putc(sr_strbuf *sb, char c)
{
    sr_strbuf_append(sb, &c, 1);
}

void sr_strbuf_vprintf(sr_strbuf *sb, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        sr_die_oom(); /* glibc fails only for lack of memory or EOVERFLOW */
    sr_strbuf_reserve(sb, (size_t)n);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void sr_strbuf_printf(sr_strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sr_strbuf_vprintf(sb, fmt, ap);
    va_end(ap);
}

char *sr_strbuf_detach(sr_strbuf *sb)
{
    char *s = sb->data;
    if (!s)
        s = sr_xcalloc(1, 1);
    sr_strbuf_init(sb);
    return s;
}

const char *sr_strbuf_cstr(const sr_strbuf *sb)
{
    return sb->data ? sb->data : "";
}

char *sr_vasprintf(const char *fmt, va_list ap)
{
    return sr_xvasprintf(fmt, ap);
}

char *sr_asprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = sr_vasprintf(fmt, ap);
    va_end(ap);
    return s;
}

char *sr_strndup(const char *s, size_t n)
{
    return sr_xstrndup(s, n);
}
