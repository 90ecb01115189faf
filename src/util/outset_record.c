/* The writer's records in OUT_DIR (outset_record.h). */
#include "util/outset_record.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/fileio.h"
#include "util/strbuf.h"

#define MANIFEST_HEADING "sweep-report manifest 1"
#define STAGING_HEADING "sweep-report staging"

bool sr_output_name_is_plain(const char *name)
{
    size_t len = strnlen(name, 64);
    if (len == 0 || len >= 64)
        return false;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
            return false;
    const char *slash = strchr(name, '/');
    if (slash && strchr(slash + 1, '/'))
        return false;
    if (name[0] == '.' || (slash && (slash == name || slash[1] == '\0' || slash[1] == '.')))
        return false;
    return true;
}

/* ---- the manifest ----------------------------------------------------------------- */

/* A field of digits only, at most 19 of them (fits any file size, device
 * or inode number a file system gives). */
static bool parse_count(const char *p, size_t len, unsigned long long *out)
{
    if (len == 0 || len > 19 || strspn(p, "0123456789") < len)
        return false;
    unsigned long long v = 0;
    for (size_t i = 0; i < len; i++)
        v = v * 10 + (unsigned long long)(p[i] - '0');
    *out = v;
    return true;
}

/* "KIND SHA256 SIZE NAME" into e; false when it is not exactly that. */
static bool parse_entry(const char *line, size_t len, sr_written_file *e)
{
    const char *end = line + len, *fields[3];
    size_t lens[3];
    const char *p = line;
    if (memchr(line, '\0', len)) /* the fields are read as C strings below */
        return false;
    for (int f = 0; f < 3; f++) {
        const char *sp = memchr(p, ' ', (size_t)(end - p));
        if (!sp)
            return false;
        fields[f] = p;
        lens[f] = (size_t)(sp - p);
        p = sp + 1;
    }
    size_t name_len = (size_t)(end - p);
    if (lens[0] == 0 || lens[0] >= sizeof e->kind || strspn(fields[0], "abcdefghijklmnopqrstuvwxyz") < lens[0])
        return false;
    if (lens[1] != 64 || strspn(fields[1], "0123456789abcdef") < 64)
        return false;
    if (!parse_count(fields[2], lens[2], &e->size))
        return false;
    if (name_len == 0 || name_len >= sizeof e->name)
        return false;
    memcpy(e->kind, fields[0], lens[0]);
    e->kind[lens[0]] = '\0';
    memcpy(e->sha256, fields[1], 64);
    e->sha256[64] = '\0';
    memcpy(e->name, p, name_len);
    e->name[name_len] = '\0';
    return sr_output_name_is_plain(e->name);
}

void sr_written_set_add(sr_written_set *m, const sr_written_file *e)
{
    sr_grow((void **)&m->items, &m->cap, m->n + 1, sizeof *m->items);
    m->items[m->n++] = *e;
}

void sr_written_set_parse(const char *text, size_t len, sr_written_set *m)
{
    memset(m, 0, sizeof *m);
    bool headed = false;
    for (size_t pos = 0; pos < len;) {
        const char *line = text + pos, *nl = memchr(line, '\n', len - pos);
        size_t line_len = nl ? (size_t)(nl - line) : len - pos;
        pos += line_len + (nl ? 1 : 0);
        sr_written_file e;
        if (!headed) {
            headed = line_len == strlen(MANIFEST_HEADING) && memcmp(line, MANIFEST_HEADING, line_len) == 0;
            if (!headed)
                m->n_bad++;
        } else if (line_len > 0 && line[0] == '#') {
            continue; /* a comment */
        } else if (parse_entry(line, line_len, &e)) {
            sr_written_set_add(m, &e);
        } else {
            m->n_bad++;
        }
    }
}

char *sr_written_set_format(const sr_written_set *m, size_t *len)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb,
                   MANIFEST_HEADING "\n# the files sweep-report runs wrote here, as they left them: kind, SHA-256, "
                                    "size, name. A later run of the same kind removes those it does not "
                                    "write that are still so; nothing else.\n");
    for (size_t i = 0; i < m->n; i++) {
        const sr_written_file *e = &m->items[i];
        sr_strbuf_printf(&sb, "%s %s %llu %s\n", e->kind, e->sha256, e->size, e->name);
    }
    *len = sb.len;
    return sr_strbuf_detach(&sb);
}

void sr_written_set_release(sr_written_set *m)
{
    free(m->items);
    memset(m, 0, sizeof *m);
}

bool sr_written_file_holds(int dir_fd, const char *name, const sr_written_file *e)
{
    int fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    bool same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (unsigned long long)st.st_size == e->size;
    if (same) {
        sr_sha256 sha;
        sr_sha256_init(&sha);
        char buf[1 << 16];
        ssize_t got;
        unsigned long long total = 0;
        while ((got = read(fd, buf, sizeof buf)) > 0 || (got < 0 && errno == EINTR))
            if (got > 0) {
                sr_sha256_update(&sha, buf, (size_t)got);
                total += (unsigned long long)got;
            }
        char hex[65];
        sr_sha256_final_hex(&sha, hex);
        same = got == 0 && total == e->size && strcmp(hex, e->sha256) == 0;
    }
    close(fd);
    return same;
}

/* ---- the lock file's line ------------------------------------------------------------ */

char *sr_staging_record_format(const char *name, dev_t dev, ino_t ino)
{
    return sr_asprintf(STAGING_HEADING " %s %llu %llu\n", name, (unsigned long long)dev, (unsigned long long)ino);
}

bool sr_staging_record_parse(const char *text, size_t len, char name[64], dev_t *dev, ino_t *ino)
{
    static const char heading[] = STAGING_HEADING " ";
    size_t hl = sizeof heading - 1;
    if (len < hl || memcmp(text, heading, hl) != 0 || text[len - 1] != '\n')
        return false;
    const char *p = text + hl, *end = text + len - 1;
    const char *sp1 = memchr(p, ' ', (size_t)(end - p));
    const char *sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(end - sp1 - 1)) : NULL;
    unsigned long long d, i;
    size_t name_len = sp1 ? (size_t)(sp1 - p) : 0;
    size_t prefix_len = strlen(SR_STAGING_PREFIX);
    if (!sp2 || name_len <= prefix_len || name_len >= 64 || memcmp(p, SR_STAGING_PREFIX, prefix_len) != 0 ||
        strcspn(p + prefix_len, "/ \n") < name_len - prefix_len || !parse_count(sp1 + 1, (size_t)(sp2 - sp1 - 1), &d) ||
        !parse_count(sp2 + 1, (size_t)(end - sp2 - 1), &i))
        return false;
    memcpy(name, p, name_len);
    name[name_len] = '\0';
    *dev = (dev_t)d;
    *ino = (ino_t)i;
    return true;
}
