/* Claims: figures someone published about a sweep (a blog post's table, a
 * README, a CSV), read from claims files and checked against the export.
 * Part of the data model (sweep.h holds the list): src/ingest/claims.c
 * fills the read parts, src/analysis/claims.c the parts marked
 * "analysis:", and renderers word them (src/render/report/claims_text.c). */
#ifndef SR_MODEL_CLAIMS_H
#define SR_MODEL_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>

/* The verdict on one claim (docs/claims.md). */
typedef enum {
    SR_CLAIM_UNCHECKED = 0,  /* not analysed yet */
    SR_CLAIM_REPRODUCED,     /* the recomputed value prints as the claim */
    SR_CLAIM_CONSISTENT,     /* a bootstrap figure within Monte Carlo error of ours */
    SR_CLAIM_DIFFERS,        /* neither */
    SR_CLAIM_NOT_VERIFIABLE, /* the export lacks what the claim needs (see sr_claim_reason) */
    SR_CLAIM_UNMATCHED,      /* no model of the export has that name */
    SR_CLAIM_IMPOSSIBLE,     /* a proportion no count k of its n items gives, however it was rounded */
    SR_CLAIM_INCONSISTENT,   /* disagrees with the table's own figures it follows from (a difference with the two
                                scores, a speed ratio with the two throughputs), beyond their rounding */
    SR_CLAIM_N_STATUS
} sr_claim_status;

/* "reproduced", "consistent", "differs", "not verifiable", "unmatched",
 * "impossible", "inconsistent"; "unchecked" for SR_CLAIM_UNCHECKED. */
const char *sr_claim_status_name(sr_claim_status status);

/* Why a claim is not verifiable. */
typedef enum {
    SR_CLAIM_WHY_NONE = 0,
    SR_CLAIM_WHY_MODEL_FAILED,         /* the model produced no results */
    SR_CLAIM_WHY_NO_BENCHMARK,         /* the model has no scores for that benchmark */
    SR_CLAIM_WHY_BASELINE_ITSELF,      /* a difference to the baseline claimed for the baseline */
    SR_CLAIM_WHY_NOT_COMPARED,         /* the baseline has no scores for that benchmark */
    SR_CLAIM_WHY_NO_SCENARIO,          /* the model has no runs of that speed scenario */
    SR_CLAIM_WHY_BASELINE_NO_SCENARIO, /* the baseline has none, so there is no ratio */
    SR_CLAIM_WHY_NO_LOG,               /* no server log (logged KV figures) */
    SR_CLAIM_WHY_NO_CONFIG,            /* no config.json (recomputed KV figures) */
    SR_CLAIM_WHY_TOO_FEW_ITEMS,        /* under SR_MIN_PAIRED_ITEMS paired items: no interval, no verdict */
    SR_CLAIM_WHY_NO_VALUE,             /* the inputs are there but do not give this figure */
    SR_CLAIM_WHY_NO_BASELINE,          /* a figure relative to the baseline, and no baseline was named */
    SR_CLAIM_WHY_PROVENANCE,           /* an input it rests on is missing from the copy or differs from the
                                          bucket's listing (--listing) */
    SR_CLAIM_WHY_NO_RESULTS            /* the model has no results, and no file states a failure */
} sr_claim_reason;

const char *sr_claim_reason_name(sr_claim_reason reason); /* "model failed", ...; NULL for NONE */

/* How a number was written: its unit sign, which sets how it is compared
 * (docs/claims.md). */
typedef enum {
    SR_CLAIM_UNIT_PLAIN = 0, /* 0.911, 321,280 */
    SR_CLAIM_UNIT_PERCENT,   /* 91.1% (÷100) */
    SR_CLAIM_UNIT_POINTS,    /* points: a bare number in a Δ column, or "pp"/"pts" (÷100) */
    SR_CLAIM_UNIT_TIMES      /* 0.57x, 0.57× */
} sr_claim_unit;

/* Written units per report.json unit: 100 for percent and points, else 1. */
double sr_claim_unit_factor(sr_claim_unit unit);

/* The unit a difference is stated in. */
typedef enum {
    SR_CLAIM_DIFF_PLAIN = 0, /* the figure's own unit */
    SR_CLAIM_DIFF_POINTS,    /* scores and their differences: ×100 */
    SR_CLAIM_DIFF_RATIO,     /* speed ratios */
    SR_CLAIM_DIFF_TOKENS     /* KV tokens, also in blocks */
} sr_claim_diff_unit;

typedef struct sr_claim {
    char *source; /* "path:line" */
    char *path;   /* the claims file as given */
    long line;
    long table;   /* the line of the Markdown table's header this claim's row is in (rows of one table
                     name distinct models); -1 for CSV */
    char *model;          /* as written (Markdown decoration removed) */
    char *figure;         /* path of the value inside a model of report.json: "accuracy.gsm8k.score" */
    char *written;        /* the claimed value as written: "+0.4", "91.1%", "no measured difference" */
    bool is_words;        /* a verdict, a status: compared as words */
    char *words;          /* the claimed words (is_words), else NULL */
    double claimed;       /* in report.json's units (91.1% -> 0.911; 5.3 points -> 0.053); NAN for words */
    double written_value; /* the number as written (91.1): claimed times sr_claim_unit_factor(unit); NAN */
    int decimals;         /* printed precision in the written unit: 0.57 -> 2, 321,280 -> 0, 1.5e3 -> -2 */
    sr_claim_unit unit;
    long row_n;           /* the items its row says it scored (a claims table's column headed n); -1 */

    /* analysis: */
    sr_claim_status status;
    sr_claim_reason reason; /* for SR_CLAIM_NOT_VERIFIABLE */
    long model_index;       /* the matched model in sweep->models; -1 */
    char *model_id;         /* its id; NULL */
    char *candidates;       /* unmatched: the entries the name's words fit equally, "a, b"; NULL */
    char *nearest;          /* unmatched, no candidates: the entry whose name is nearest to the written one
                               (a misspelling: 'Qwen3 4.0B' -> qwen3-4b), its label; NULL when none is near */
    double value;           /* recomputed, in report.json's units; NAN */
    char *value_words;      /* recomputed words (verdict, status); NULL */
    sr_claim_diff_unit diff_unit;
    double difference;        /* value - claimed, report.json's units; NAN */
    double difference_blocks; /* KV tokens: the difference in cache blocks; NAN */
    long block_size;          /* the block those are counted in; -1 */
    /* The consistent test (bootstrap bounds and verdicts); NAN when not made: */
    double nominal;         /* the nominal quantile p: (1 - confidence) / 2 or (1 + confidence) / 2 */
    double position_low;    /* where the claim lies in the exact bootstrap distribution: */
    double position_high;   /*   P(mean < claimed - h), P(mean <= claimed + h), h half its last digit */
    double standard_error;  /* sqrt(p (1 - p) / R) */
    long resamples;         /* R; -1 */
    bool exact_unavailable; /* a bound or verdict that no exact distribution could test (not 0/1
                               scores, more than 16 distinct differences) */
    /* The table's forensics (analysis/forensics.h), on the written figures alone: */
    sr_claim_status evidence;  /* impossible or inconsistent: what the files said (differs or not verifiable) */
    long grim_n;               /* impossible: the n no count k of which gives the written value; -1 */
    bool grim_n_written;       /* that n is the claim row's own, not the files' */
    long grim_below, grim_above; /* the nearest counts k whose k/n lie below and above it; -1 when none */
    long against[2];           /* inconsistent: the claims it disagrees with (this row's score or throughput, the
                                  baseline row's), indices into the list; -1 */
    double implied_low, implied_high; /* what those two allow it to be, report.json's units; NAN */
    long tie_k, tie_n;         /* reproduced: k/n is a decimal tie at the written precision, which rounding
                                  decides; -1 */
} sr_claim;

/* A header of a Markdown table that names no known figure: listed once,
 * never guessed. */
typedef struct sr_claim_column {
    char *source; /* "path:line" of the first table that had it */
    char *header; /* as written */
    char *key;    /* normalised (case, spaces, ',' ignored): each is listed once */
} sr_claim_column;

/* A claims file read: for provenance. */
typedef struct sr_claim_file {
    char *path;
    char sha256[65];
    char *format; /* "markdown" | "csv" */
} sr_claim_file;

typedef struct sr_claim_list {
    sr_claim *items;
    size_t n, cap;
    sr_claim_column *unchecked;
    size_t n_unchecked, cap_unchecked;
    sr_claim_file *files;
    size_t n_files, cap_files;
    long resamples; /* resamples the claims' author used, when known; -1: assume ours */
} sr_claim_list;

/* An extra Markdown header the caller knows: the report's own column labels
 * for other sweeps' scenarios and benchmarks. figure is a report.json path
 * inside a model ("speed.in512-out128-c8.ratio"); what a cell under it may
 * hold follows from the figure (docs/claims.md). Checked before the
 * built-in headers (sr_read_claims). */
typedef struct sr_claim_alias {
    const char *header;
    const char *figure;
} sr_claim_alias;

/* A list of them that owns its strings: the report's headings for a
 * sweep (render/report/aliases.c). */
typedef struct sr_claim_aliases {
    sr_claim_alias *items;
    size_t n, cap;
} sr_claim_aliases;
/* Append; takes header and figure (fresh strings). */
void sr_claim_aliases_add(sr_claim_aliases *list, char *header, char *figure);
void sr_claim_aliases_release(sr_claim_aliases *list);

void sr_claim_list_init(sr_claim_list *list);
void sr_claim_list_release(sr_claim_list *list); /* back to empty */

/* An empty claim: no strings, numbers unknown (NAN, -1), unchecked. */
void sr_claim_init(sr_claim *c);
void sr_claim_release(sr_claim *c);

/* Equal as words: ASCII case ignored, any run of spaces (ASCII, U+00A0)
 * equal to one, none at the ends. */
bool sr_claim_words_equal(const char *a, size_t alen, const char *b, size_t blen);


/* Who a claim is about, for finding contradictions: the model as written
 * in the claims file (the reader), or the model it was matched to (the
 * check: "Qwen3-4B" and "Qwen/Qwen3-4B" are one model; unmatched claims
 * are left out). */
typedef enum { SR_CLAIM_BY_WRITTEN_MODEL, SR_CLAIM_BY_MATCHED_MODEL } sr_claim_key;

/* The first claim (in list order, at index first or later) that gives
 * the same figure of the same model as an earlier claim with another value
 * (sr_claim_same_value): *repeat is it, *original the first claim of that
 * figure; false when there is none. A figure repeated with the same value
 * (a post's summary and detail tables) is no contradiction. */
bool sr_claim_list_contradiction(const sr_claim_list *list, size_t first, sr_claim_key key, size_t *repeat,
                                 size_t *original);

/* How many claims have each status; counts has SR_CLAIM_N_STATUS entries. */
void sr_claim_list_count(const sr_claim_list *list, size_t *counts);

/* The unmatched claims that name a model first (each written name once, the
 * first claim of it), their indices in list order (fresh; *n of them): by
 * sorting, so 100,000 unmatched names take O(n log n) comparisons, not one
 * scan of the claims before each. *comparisons, when not NULL, counts the
 * name comparisons made (a test holds them to n log n). */
size_t *sr_claims_unmatched_first_counted(const sr_claim_list *list, size_t *n, size_t *comparisons);
size_t *sr_claims_unmatched_first(const sr_claim_list *list, size_t *n);

#endif
