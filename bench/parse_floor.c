/* The floor under the report's load step: read every file named on the
 * command line, SHA-256 it and parse each of its lines with cJSON (then
 * free the tree), nothing else, on all cores like the report (one file per
 * job, cJSON allocating from the same per-thread arena). Prints the wall
 * seconds. bench/run.sh runs it on the lm-eval
 * samples of the 60-model export: the parsing the report cannot skip (it
 * must read every line it scores, with the chosen JSON library) set against
 * numpy's bootstrap time. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "util/fileio.h"
#include "util/json_arena.h"
#include "util/parallel.h"

typedef struct floor_job {
    char **paths;
    size_t *lines;
    int *failed;
} floor_job;

static void parse_file(void *ctx, size_t i)
{
    floor_job *job = ctx;
    char *data;
    size_t len;
    sr_error *err = sr_read_file(job->paths[i], job->paths[i], &data, &len);
    if (err) {
        fprintf(stderr, "parse-floor: %s: %s\n", job->paths[i], err->message);
        sr_error_free(err);
        job->failed[i] = 1;
        return;
    }
    char hex[65];
    sr_sha256_hex(data, len, hex);
    sr_lines it;
    const char *line;
    size_t n;
    sr_lines_init(&it, data, len);
    sr_json_arena_begin(); /* cJSON's allocations as the report makes them */
    while (sr_lines_next(&it, &line, &n)) {
        cJSON *root = cJSON_ParseWithLength(line, n);
        job->failed[i] |= root == NULL && n > 0;
        job->lines[i]++;
        cJSON_Delete(root);
        sr_json_arena_reset();
    }
    sr_json_arena_end();
    free(data);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)argc - 1 : 0;
    if (n == 0) {
        fprintf(stderr, "usage: parse-floor FILE...\n");
        return 2;
    }
    floor_job job = {argv + 1, calloc(n, sizeof(size_t)), calloc(n, sizeof(int))};
    if (!job.lines || !job.failed)
        return 1;
    sr_json_arena_install();
    double t0 = now_seconds();
    sr_parallel_for(n, sr_thread_count(0, n), parse_file, &job);
    double wall = now_seconds() - t0;
    size_t lines = 0;
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        lines += job.lines[i];
        failed |= job.failed[i];
    }
    printf("parse_floor_seconds=%.3f files=%zu lines=%zu threads=%d\n", wall, n, lines, sr_thread_count(0, n));
    free(job.lines);
    free(job.failed);
    return failed;
}
