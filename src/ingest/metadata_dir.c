/* Finding each model's config.json and Hub record in METADATA_DIR (the
 * three layouts of survey_ingest.h). Nothing is parsed here: this file only
 * decides which files belong to which model and checks that every path
 * stays inside METADATA_DIR. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest/survey_ingest.h"
#include "util/alloc.h"
#include "util/decode.h"
#include "util/fileio.h"
#include "util/strbuf.h"

#define CONFIG_SUFFIX ".config.json"
#define RECORD_SUFFIX ".model_info.json"
#define RECORD_NAME "model_info.json"
#define CACHE_PREFIX "models--"
#define MAX_MODELS 100000

typedef struct scan {
    const char *dir;   /* as given */
    const char *what;  /* the directory in messages: "METADATA_DIR", "--configs DIR" */
    bool configs_only; /* --configs: config.json files alone, no Hub record expected */
    char *root_real;   /* realpath(dir) */
    sr_metadata_files *items;
    size_t n, cap;
} scan;

void sr_metadata_files_free(sr_metadata_files *files, size_t n)
{
    if (!files)
        return;
    for (size_t i = 0; i < n; i++) {
        free(files[i].name);
        free(files[i].config_rel);
        free(files[i].config_open);
        free(files[i].record_rel);
        free(files[i].record_open);
        free(files[i].problem_path);
        free(files[i].problem);
    }
    free(files);
}

static bool inside_root(const char *root, const char *path)
{
    size_t n = strlen(root);
    return strncmp(root, path, n) == 0 && (path[n] == '/' || path[n] == '\0' || (n == 1 && root[0] == '/'));
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && strcmp(s + n - m, suffix) == 0;
}

/* "org--name" -> "org/name" when it makes a repo id, else NULL. Hugging
 * Face forbids "--" inside org and repo names, so the split is unique. */
static char *id_from_stem(const char *stem, size_t len)
{
    const char *sep = NULL;
    for (size_t i = 0; i + 1 < len; i++)
        if (stem[i] == '-' && stem[i + 1] == '-') {
            if (sep)
                return NULL;
            sep = stem + i;
            i++;
        }
    if (!sep)
        return NULL;
    char *id = sr_asprintf("%.*s/%.*s", (int)(sep - stem), stem, (int)(len - (size_t)(sep - stem) - 2), sep + 2);
    if (!sr_is_repo_id(id, strlen(id))) {
        free(id);
        return NULL;
    }
    return id;
}

/* A new model of the scan; NULL when it has MAX_MODELS already (scan_dir
 * then says so). */
static sr_metadata_files *new_item(scan *sc, const char *name, bool name_is_id)
{
    if (sc->n >= MAX_MODELS)
        return NULL;
    void *items = sc->items;
    sr_grow(&items, &sc->cap, sc->n + 1, sizeof *sc->items);
    sc->items = items;
    sr_metadata_files *f = &sc->items[sc->n];
    memset(f, 0, sizeof *f);
    f->name = sr_xstrdup(name);
    f->name_is_id = name_is_id;
    sc->n++;
    return f;
}

static void set_problem(sr_metadata_files *f, const char *rel, const char *what)
{
    if (f->problem)
        return; /* the first problem is the one reported */
    f->problem_path = sr_xstrdup(rel);
    f->problem = sr_xstrdup(what);
}

/* Resolve rel (below the root) to a regular file inside the root: *open set
 * on success; absent files leave it NULL; a link out of the root, or
 * something other than a file, is recorded as the model's problem. */
static void locate(scan *sc, sr_metadata_files *f, const char *rel, char **open_path, char **rel_out)
{
    *open_path = NULL;
    char *abs = sr_path_join(sc->dir, rel);
    struct stat st;
    if (lstat(abs, &st) != 0) {
        free(abs);
        return;
    }
    char *real = sr_xrealpath(abs);
    free(abs);
    if (!real)
        set_problem(f, rel, "broken symbolic link");
    else if (!inside_root(sc->root_real, real))
        set_problem(f, rel,
                    sc->configs_only ? "symbolic link leads outside the --configs directory; refused"
                                     : "symbolic link leads outside METADATA_DIR; refused");
    else if (stat(real, &st) != 0 || !S_ISREG(st.st_mode))
        set_problem(f, rel, "is not a regular file");
    else {
        *rel_out = sr_xstrdup(rel);
        *open_path = real;
        real = NULL;
    }
    free(real);
}

static void locate_pair(scan *sc, sr_metadata_files *f, const char *config_rel, const char *record_rel)
{
    locate(sc, f, config_rel, &f->config_open, &f->config_rel);
    if (!sc->configs_only)
        locate(sc, f, record_rel, &f->record_open, &f->record_rel);
    if (f->problem)
        return;
    if (sc->configs_only) {
        if (!f->config_open)
            set_problem(f, config_rel, "is missing");
    } else if (!f->config_open && !f->record_open) {
        set_problem(f, config_rel, "is missing, and so is the Hub record beside it");
    } else if (!f->config_open) {
        set_problem(f, config_rel, "is missing (the model's Hub record is there)");
    } else if (!f->record_open) {
        set_problem(f, record_rel, "is missing: no Hub record beside the model's config.json");
    }
}

/* A directory holding config.json and model_info.json. */
static void add_model_dir(scan *sc, const char *name)
{
    char *config = sr_path_join(name, "config.json"), *record = sr_path_join(name, RECORD_NAME);
    char *abs_config = sr_path_join(sc->dir, config);
    char *abs_record = sr_path_join(sc->dir, record);
    struct stat st;
    if (lstat(abs_config, &st) == 0 || (!sc->configs_only && lstat(abs_record, &st) == 0)) {
        /* a directory with neither file is no model (notes, scripts): left alone */
        sr_metadata_files *f = new_item(sc, name, false);
        if (f)
            locate_pair(sc, f, config, record);
    }
    free(config);
    free(record);
    free(abs_config);
    free(abs_record);
}

/* The snapshot a hub cache entry's config.json is read from: the one
 * refs/main names, else the only one. Fresh "snapshots/<rev>" or NULL with
 * *why set. */
static char *cache_snapshot(scan *sc, const char *entry, const char **why)
{
    char *snaps_rel = sr_path_join(entry, "snapshots");
    char *snaps = sr_path_join(sc->dir, snaps_rel);
    char *ref_abs = sr_asprintf("%s/%s/refs/main", sc->dir, entry);
    char *ref_path = sr_xrealpath(ref_abs); /* absent: NULL */
    char *found = NULL;
    *why = "no snapshots/ directory";
    free(ref_abs);
    if (ref_path && !inside_root(sc->root_real, ref_path)) {
        *why = sc->configs_only ? "refs/main leads outside the --configs directory; refused"
                                : "refs/main leads outside METADATA_DIR; refused";
        free(snaps_rel);
        free(snaps);
        free(ref_path);
        return NULL;
    }
    if (ref_path) {
        char *data;
        size_t len;
        sr_error *err = sr_metadata_read(ref_path, "refs/main", 256, &data, &len);
        if (!err) {
            while (len > 0 && (data[len - 1] == '\n' || data[len - 1] == '\r' || data[len - 1] == ' '))
                data[--len] = '\0';
            bool hex = len >= 7 && len <= 64;
            for (size_t i = 0; i < len && hex; i++)
                hex = (data[i] >= '0' && data[i] <= '9') || (data[i] >= 'a' && data[i] <= 'f');
            if (hex)
                found = sr_asprintf("snapshots/%s", data);
            else
                *why = "refs/main does not hold a commit hash";
            free(data);
            if (!found) {
                free(snaps_rel);
                free(snaps);
                free(ref_path);
                return NULL;
            }
        }
        sr_error_free(err);
    }
    if (!found && snaps) {
        struct dirent **names = NULL;
        int n = sr_xscandir(snaps, &names, NULL, sr_dirent_name_order);
        int dirs = 0;
        for (int i = 0; i < n; i++) {
            if (names[i]->d_name[0] != '.') {
                dirs++;
                if (dirs == 1)
                    found = sr_asprintf("snapshots/%s", names[i]->d_name);
            }
            free(names[i]);
        }
        free(names);
        if (dirs > 1) {
            free(found);
            found = NULL;
            *why = "several snapshots and no refs/main to choose one";
        } else if (dirs == 0 && n >= 0) {
            *why = "snapshots/ is empty";
        }
    }
    free(snaps_rel);
    free(snaps);
    free(ref_path);
    return found;
}

/* models--<org>--<name>/: the snapshot's config.json and the record saved
 * beside snapshots/ as model_info.json. */
static void add_cache_entry(scan *sc, const char *name)
{
    const char *stem = name + strlen(CACHE_PREFIX);
    char *id = id_from_stem(stem, strlen(stem));
    if (!id)
        return; /* not a model (datasets--, spaces-- live beside models--) */
    sr_metadata_files *f = new_item(sc, id, true);
    free(id);
    if (!f)
        return;
    const char *why = NULL;
    char *snap = cache_snapshot(sc, name, &why);
    char *record = sr_path_join(name, RECORD_NAME);
    char *config = snap ? sr_asprintf("%s/%s/config.json", name, snap) : NULL;
    if (!snap)
        set_problem(f, name, why);
    else
        locate_pair(sc, f, config, record);
    free(snap);
    free(record);
    free(config);
}

/* rel is one of the two files of stem (its name then a suffix). */
static bool from_stem(const char *rel, const char *stem, size_t len)
{
    return rel && strncmp(rel, stem, len) == 0 &&
           (strcmp(rel + len, CONFIG_SUFFIX) == 0 || strcmp(rel + len, RECORD_SUFFIX) == 0);
}

/* <org>--<name>.config.json with <org>--<name>.model_info.json beside it
 * (either may come first in the listing). */
static void add_flat_file(scan *sc, const char *name, const char *suffix)
{
    size_t stem_len = strlen(name) - strlen(suffix);
    char *id = id_from_stem(name, stem_len);
    if (!id)
        return; /* some other file */
    for (size_t i = 0; i < sc->n; i++)
        if (sc->items[i].name_is_id && strcmp(sc->items[i].name, id) == 0 &&
            (from_stem(sc->items[i].config_rel, name, stem_len) || from_stem(sc->items[i].record_rel, name, stem_len) ||
             from_stem(sc->items[i].problem_path, name, stem_len))) {
            free(id);
            return; /* the pair was added from its other file */
        }
    sr_metadata_files *f = new_item(sc, id, true);
    free(id);
    if (!f)
        return;
    char *config = sr_asprintf("%.*s%s", (int)stem_len, name, CONFIG_SUFFIX);
    char *record = sr_asprintf("%.*s%s", (int)stem_len, name, RECORD_SUFFIX);
    locate_pair(sc, f, config, record);
    free(config);
    free(record);
}

static void add_entry(scan *sc, const char *name)
{
    /* a flat pair checks its own links (locate) */
    if (ends_with(name, CONFIG_SUFFIX)) {
        add_flat_file(sc, name, CONFIG_SUFFIX);
        return;
    }
    if (ends_with(name, RECORD_SUFFIX) && !sc->configs_only) {
        add_flat_file(sc, name, RECORD_SUFFIX);
        return;
    }
    char *abs = sr_path_join(sc->dir, name);
    struct stat st;
    char *real = sr_xrealpath(abs);
    free(abs);
    bool dir = real && stat(real, &st) == 0 && S_ISDIR(st.st_mode);
    sr_metadata_files *f = NULL;
    if (dir && !inside_root(sc->root_real, real)) {
        /* a directory link out of METADATA_DIR is never followed */
        if ((f = new_item(sc, name, false)))
            set_problem(f, name,
                        sc->configs_only ? "symbolic link leads outside the --configs directory; refused"
                                         : "symbolic link leads outside METADATA_DIR; refused");
    } else if (dir && strncmp(name, CACHE_PREFIX, strlen(CACHE_PREFIX)) == 0) {
        add_cache_entry(sc, name);
    } else if (dir) {
        add_model_dir(sc, name);
    }
    free(real);
}

static int cmp_item(const void *a, const void *b)
{
    return strcmp(((const sr_metadata_files *)a)->name, ((const sr_metadata_files *)b)->name);
}

static sr_error *scan_dir(const char *dir, const char *what, bool configs_only, sr_metadata_files **out, size_t *n_out)
{
    *out = NULL;
    *n_out = 0;
    struct stat st;
    if (stat(dir, &st) != 0)
        return sr_input_error(dir, 0, "cannot open %s: %s", what, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return sr_input_error(dir, 0, "%s is not a directory", what);
    scan sc = {dir, what, configs_only, sr_xrealpath(dir), NULL, 0, 0};
    if (!sc.root_real)
        return sr_input_error(dir, 0, "cannot resolve path: %s", strerror(errno));
    struct dirent **names = NULL;
    int n = sr_xscandir(dir, &names, NULL, sr_dirent_name_order);
    sr_error *err = n < 0 ? sr_input_error(dir, 0, "cannot read directory: %s", strerror(errno)) : NULL;
    for (int i = 0; i < n; i++) {
        if (names[i]->d_name[0] != '.')
            add_entry(&sc, names[i]->d_name);
        free(names[i]);
    }
    free(names);
    free(sc.root_real);
    if (!err && sc.n >= MAX_MODELS)
        err = sr_input_error(dir, 0, "more than %d models", MAX_MODELS);
    if (err) {
        sr_metadata_files_free(sc.items, sc.n);
        return err;
    }
    if (sc.n > 1)
        qsort(sc.items, sc.n, sizeof *sc.items, cmp_item);
    *out = sc.items;
    *n_out = sc.n;
    return NULL;
}

sr_error *sr_metadata_scan(const char *dir, sr_metadata_files **out, size_t *n_out)
{
    return scan_dir(dir, "METADATA_DIR", false, out, n_out);
}

sr_error *sr_configs_scan(const char *dir, sr_metadata_files **out, size_t *n_out)
{
    return scan_dir(dir, "--configs DIR", true, out, n_out);
}

/* The repo name of an org/name item ("gemma-4-E2B-it"), or NULL. */
static const char *repo_name(const sr_metadata_files *f)
{
    const char *slash = f->name_is_id ? strchr(f->name, '/') : NULL;
    return slash ? slash + 1 : NULL;
}

const sr_metadata_files *sr_configs_find(const sr_metadata_files *files, size_t n, const char *model_id)
{
    size_t len = strlen(model_id);
    while (len > 0 && model_id[len - 1] == '/')
        len--;
    size_t start = len;
    while (start > 0 && model_id[start - 1] != '/')
        start--;
    const char *last = model_id + start;
    size_t last_len = len - start;
    if (last_len == 0)
        return NULL;
    bool repo = model_id[0] != '/' && model_id[0] != '.' && sr_is_repo_id(model_id, len);
    char *underscored = repo ? sr_asprintf("%.*s_%.*s", (int)(start - 1), model_id, (int)last_len, last) : NULL;
    const sr_metadata_files *found = NULL;
    /* In order: the id itself (<org>--<name>.config.json, the hub cache),
     * <org>_<name>/, <name>/; a name alone (a local checkpoint's last path
     * component) also matches the one org/name item of that name. */
    for (int pass = 0; pass < 4 && !found; pass++) {
        size_t hits = 0;
        for (size_t i = 0; i < n; i++) {
            const sr_metadata_files *f = &files[i];
            bool match = false;
            if (pass == 0)
                match = repo && f->name_is_id && strlen(f->name) == len && strncmp(f->name, model_id, len) == 0;
            else if (pass == 1)
                match = underscored && !f->name_is_id && strcmp(f->name, underscored) == 0;
            else if (pass == 2)
                match = !f->name_is_id && strlen(f->name) == last_len && strncmp(f->name, last, last_len) == 0;
            else if (!repo && repo_name(f))
                match = strlen(repo_name(f)) == last_len && strncmp(repo_name(f), last, last_len) == 0;
            if (match && hits++ == 0)
                found = f;
        }
        if (hits > 1 && pass == 3)
            found = NULL; /* google/x and other/x: which one is not known */
    }
    free(underscored);
    return found;
}

sr_error *sr_metadata_read(const char *open_path, const char *rel, size_t max, char **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    int fd = open(open_path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return sr_input_error(rel, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    sr_error *err = NULL;
    if (fstat(fd, &st) != 0)
        err = sr_input_error(rel, 0, "cannot stat: %s", strerror(errno));
    else if (!S_ISREG(st.st_mode))
        err = sr_input_error(rel, 0, "is not a regular file");
    else if ((unsigned long long)st.st_size > max)
        err = sr_input_error(rel, 0, "is %lld bytes, more than the %zu this file may have", (long long)st.st_size, max);
    char *buf = err ? NULL : sr_xmalloc((size_t)st.st_size + 1);
    size_t got = 0;
    while (!err && got < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            err = r < 0 ? sr_input_error(rel, 0, "cannot read: %s", strerror(errno))
                        : sr_input_error(rel, 0, "changed while being read");
            break;
        }
        got += (size_t)r;
    }
    close(fd);
    if (err) {
        free(buf);
        return err;
    }
    buf[got] = '\0';
    /* gzip-compressed or UTF-16 text, as every reader takes it (util/decode.h) */
    if ((err = sr_decode_buffer(rel, &buf, &got, (long long)max))) {
        free(buf);
        return err;
    }
    *data = buf;
    *len = got;
    return NULL;
}
