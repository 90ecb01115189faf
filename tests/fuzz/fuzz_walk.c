/* libFuzzer target: the export walk (src/ingest/export.c, walk.c, bucket.c)
 * over trees the input describes. The bytes are decoded into operations
 * that build a small tree under a fresh temporary directory: directories
 * (deep chains too), small files of the kinds the walk reads, symbolic
 * links (to ".", "..", "../..", the export, a directory outside it, "/",
 * nothing, a sibling) and FIFOs. The export is loaded, the tree removed.
 * A hang (a link loop, a FIFO opened blocking) is libFuzzer's timeout, a
 * crash or leak ASan's; and nothing outside the export may be read: the
 * model of the bench file beside it never appears. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "ingest/export.h"

#define OUTSIDE_MODEL "org/outside-the-export"

static const char *const names[] = {
    "m",
    "qwen3-4b",
    "bench",
    "lm_eval",
    "logs",
    "bfcl",
    "loop",
    "zz",
    "server.log",
    "run.log",
    "config.json",
    "sweep.json",
    "sweep.arms",
    "a.scores.csv",
    "vllm-infqps-concurrency4-m.json",
    "samples_gsm8k_2026-11-02T11-00-00.000000.jsonl",
    "results_2026-11-02T11-00-00.000000.json",
    "t1.load.json",
    "claims.md",
    "x.json.gz",
    /* a results copy (bucket.h): <run>-logs/ beside <run>-<tag>-gen/ */
    "results",
    "r-logs",
    "r-t1-gen",
    "t1.long1024.c4.json",
};
enum { N_NAMES = sizeof names / sizeof *names };

static const char *const contents[] = {
    "",
    ("{\"output_throughput\": 150.0, \"completed\": 16, \"max_concurrency\": 4, \"model_id\": \"org/m\", "
     "\"input_len\": 128, \"output_len\": 256}\n"),
    "INFO 11-02 10:15:40 [kv_cache_utils.py:2214] GPU KV cache size: 1000 tokens\n",
    "{\"doc_id\": 0, \"filter\": \"strict-match\", \"metrics\": [\"exact_match\"], \"exact_match\": 1.0}\n",
    "{\"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"num_key_value_heads\": 2, \"head_dim\": 8}\n",
    "item_id,score\n1,1\n2,0\n",
    "{\"baseline\": \"org/m\"}\n",
    "t1 org/m\n",
};
enum { N_CONTENTS = sizeof contents / sizeof *contents };

static const char *const link_targets[] = {
    ".", "..", "../..", "../../..", "/", "nothing-here", "m", "../outside", "../outside/bench.json"};
enum { N_LINK_TARGETS = sizeof link_targets / sizeof *link_targets };

enum { MAX_DEPTH = 200, MAX_OPS = 48 };

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static void remove_tree(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Only a regular file of our own: never through a link (it may lead out of
 * the temporary directory), never blocking on a FIFO made before. */
static void write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (fd < 0)
        return;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && write(fd, text, strlen(text)) < 0)
        st.st_mode = 0; /* nothing to do: the tree is what it is */
    close(fd);
}

/* A directory to build in: a real one, not a link to one. */
static bool is_real_dir(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Build the tree the bytes describe below export (which exists). */
static void build_tree(const char *export, const char *outside, const uint8_t *data, size_t size)
{
    char cwd[8192];
    snprintf(cwd, sizeof cwd, "%s", export);
    size_t depth = 0, pos = 0;
    for (int op = 0; op < MAX_OPS && pos + 1 < size; op++) {
        uint8_t kind = data[pos++] % 8, arg = data[pos++];
        const char *name = names[arg % N_NAMES];
        char path[8300];
        snprintf(path, sizeof path, "%s/%s", cwd, name);
        switch (kind) {
        case 0: /* a directory, entered */
            if ((mkdir(path, 0755) == 0 || errno == EEXIST) && is_real_dir(path) && depth < MAX_DEPTH &&
                strlen(path) < 4000) {
                snprintf(cwd, sizeof cwd, "%s", path);
                depth++;
            }
            break;
        case 1: /* a file */ write_file(path, contents[(arg >> 5) % N_CONTENTS]); break;
        case 2:                   /* a symbolic link */
            if (arg >> 4 == 15) { /* to the export or outside it, by absolute path */
                symlink(arg & 1 ? export : outside, path);
            } else {
                symlink(link_targets[(arg >> 3) % N_LINK_TARGETS], path);
            }
            break;
        case 3: /* a FIFO */ mkfifo(path, 0644); break;
        case 4: { /* a chain of nested directories */
            size_t n = 1 + arg % 64;
            for (size_t i = 0; i < n && depth < MAX_DEPTH && strlen(cwd) < 4000; i++, depth++) {
                size_t len = strlen(cwd);
                snprintf(cwd + len, sizeof cwd - len, "/d");
                if ((mkdir(cwd, 0755) != 0 && errno != EEXIST) || !is_real_dir(cwd)) {
                    cwd[len] = '\0';
                    break;
                }
            }
            break;
        }
        case 5: /* up one level */
            if (depth > 0) {
                *strrchr(cwd, '/') = '\0';
                depth--;
            }
            break;
        case 6: /* back to the top */
            snprintf(cwd, sizeof cwd, "%s", export);
            depth = 0;
            break;
        default: /* a file named by the input's own bytes (up to 12, as printable ASCII but '/', to a NUL) */
        {
            char own[13];
            size_t n = 0;
            while (n < sizeof own - 1 && pos < size && data[pos] != 0) {
                char c = (char)(0x21 + data[pos] % 94);
                if (c != '/')
                    own[n++] = c;
                pos++;
            }
            own[n] = '\0';
            if (n > 0 && strcmp(own, ".") != 0 && strcmp(own, "..") != 0) {
                snprintf(path, sizeof path, "%s/%s", cwd, own);
                write_file(path, contents[arg % N_CONTENTS]);
            }
            break;
        }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char top[] = "/tmp/fuzz-walk-XXXXXX";
    if (!mkdtemp(top))
        abort();
    char export[64], outside[64], path[128];
    snprintf(export, sizeof export, "%s/export", top);
    snprintf(outside, sizeof outside, "%s/outside", top);
    mkdir(export, 0755);
    mkdir(outside, 0755);
    snprintf(path, sizeof path, "%s/bench.json", outside);
    write_file(path,
               "{\"output_throughput\": 1.0, \"completed\": 1, \"max_concurrency\": 1, \"model_id\": \"" OUTSIDE_MODEL
               "\", \"input_len\": 1, \"output_len\": 1}\n");
    build_tree(export, outside, data + 1, size - 1);

    sr_sweep sweep;
    sr_sweep_init(&sweep);
    sweep.settings.keep_going = data[0] & 1;
    sweep.settings.threads = 1 + (data[0] >> 1) % 2;
    sr_error *err = sr_load_export(&sweep, export);
    for (size_t i = 0; i < sweep.n_models; i++)
        if (sweep.models[i].id && strstr(sweep.models[i].id, "outside-the-export"))
            abort(); /* read through a link that leaves the export */
    for (size_t i = 0; i < sweep.n_warnings; i++)
        if (!sr_utf8_valid(sweep.warnings[i], strlen(sweep.warnings[i])))
            abort();
    fuzz_drop_error(err);
    sr_sweep_release(&sweep);
    remove_tree(top);
    return 0;
}
