/* The marks of table cells and their legends (marks.h). */
#include "render/shared/marks.h"

static const struct {
    const char *symbol, *legend;
} marks[SR_N_MARKS] = {
    [SR_MARK_NOISY] = {"\xE2\x80\xA0", "the runs of the scenario spread by more than 5% (coefficient of variation), so "
                                       "their median is not a measurement: it needs more runs"},
    [SR_MARK_VERSIONS] = {"\xE2\x80\xA1", "BFCL of one version compared with the baseline's of another (v3 "
                                          "\xE2\x80\x9Csimple\xE2\x80\x9D against v4 \xE2\x80\x9Csimple_python"
                                          "\xE2\x80\x9D): the versions' categories and checks differ"},
    [SR_MARK_FAILED_REQUESTS] = {"\xC2\xA7", "requests of the scenario's runs failed (the count beside the figure): "
                                             "its throughput and latency are of the requests that completed "
                                             "(validity check failed_requests)"},
    [SR_MARK_VALIDITY_FAIL] = {"\xC2\xB6", "a validity check failed on the runs or items the figure rests on "
                                           "(report.json: validity)"},
    [SR_MARK_VALIDITY_WARN] = {"\xE2\x97\x8A", "a validity check warns on the runs or items the figure rests on "
                                               "(report.json: validity)"},
    [SR_MARK_CUSTODY] = {"\xE2\x89\xA0", "an input of the entry is missing from the copy or differs from the "
                                          "bucket's listing (Provenance)"},
};

const char *sr_mark_symbol(sr_mark m)
{
    return m < SR_N_MARKS ? marks[m].symbol : "";
}

const char *sr_mark_legend(sr_mark m)
{
    return m < SR_N_MARKS ? marks[m].legend : "";
}
