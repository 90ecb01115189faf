/* Warnings of one kind, together. A sweep of many models repeats the same
 * warning with other paths and numbers ("'a.log:28': the same run as
 * 'a.json' …" twelve times); the outputs show each kind once with its
 * count. A warning's kind is its sentence with every 'quoted' span and
 * every number masked, so no list of kinds has to be kept in step with
 * the sentences that make them. */
#ifndef SR_RENDER_SHARED_FINDINGS_H
#define SR_RENDER_SHARED_FINDINGS_H

#include <stddef.h>

typedef struct sr_finding_group {
    char *kind;       /* the masked sentence: "'…': the same run as '…' …" */
    size_t *members;  /* indices into the items, ascending */
    size_t n_members; /* at least 1 */
} sr_finding_group;

typedef struct sr_finding_groups {
    sr_finding_group *groups; /* in the order of their first member */
    size_t n;
} sr_finding_groups;

/* Group items[0, n) by kind; O(n log n). */
void sr_findings_group(char *const *items, size_t n, sr_finding_groups *out);
void sr_finding_groups_release(sr_finding_groups *g);

/* A kind with more members than this is shown as its first member and the
 * count; fewer are listed in full. */
#define SR_FINDINGS_LISTED 3

#endif
