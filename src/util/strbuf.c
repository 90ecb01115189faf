#include "util/strbuf.h"

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

bool sr_grow(void **array, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t new_cap = *cap ? *cap : 8;
    while (new_cap < need) {
        if (new_cap > SIZE_MAX / 2)
            return false;
        new_cap *= 2;
    }
    size_t bytes;
    if (!sr_size_mul(new_cap, elem, &bytes))
        return false;
    void *p = realloc(*array, bytes);
    if (!p)
        return false;
    *array = p;
    *cap = new_cap;
    return true;
}

void sr_strbuf_init(sr_strbuf *sb)
{
    sb->data = NULL;
    sb->len = 0;
    sb->cap = 0;
    sb->failed = false;
}

void sr_strbuf_release(sr_strbuf *sb)
{
    free(sb->data);
    sr_strbuf_init(sb);
}

bool sr_strbuf_reserve(sr_strbuf *sb, size_t extra)
{
    size_t need;
    if (sb->failed)
        return false;
    if (!sr_size_add(sb->len, extra, &need) || !sr_size_add(need, 1, &need)) {
        sb->failed = true;
        return false;
    }
    void *data = sb->data;
    if (!sr_grow(&data, &sb->cap, need, 1)) {
        sb->failed = true;
        return false;
    }
    sb->data = data;
    return true;
}

void sr_strbuf_append(sr_strbuf *sb, const char *data, size_t len)
{
    if (!sr_strbuf_reserve(sb, len))
        return;
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
    if (n < 0) {
        sb->failed = true;
        return;
    }
    if (!sr_strbuf_reserve(sb, (size_t)n))
        return;
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
    if (sb->failed) {
        sr_strbuf_release(sb);
        return NULL;
    }
    char *s = sb->data;
    if (!s)
        s = calloc(1, 1);
    sr_strbuf_init(sb);
    return s;
}

const char *sr_strbuf_cstr(const sr_strbuf *sb)
{
    return sb->data ? sb->data : "";
}

char *sr_vasprintf(const char *fmt, va_list ap)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_vprintf(&sb, fmt, ap);
    return sr_strbuf_detach(&sb);
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
    size_t len = strnlen(s, n);
    char *out = malloc(len + 1);
    if (!out)
        return NULL;
    memcpy(out, s, len);
    out[len] = '\0';
    return out;
}
