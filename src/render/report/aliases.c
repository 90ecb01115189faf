/* The report's column headings as claims aliases (aliases.h). */
#include "render/report/aliases.h"

#include <stdlib.h>
#include <string.h>

#include "render/shared/speed_columns.h"
#include "render/shared/words.h"
#include "util/strbuf.h"

void sr_report_claim_aliases(const sr_sweep *sw, sr_claim_aliases *out)
{
    sr_speed_columns speed;
    sr_speed_columns_make(sw, &speed);
    for (size_t c = 0; c < speed.n; c++) {
        const sr_speed_column *col = &speed.cols[c];
        /* the full name the tables show, and the short heading earlier
         * reports and the published tables wrote (where it names one column) */
        sr_claim_aliases_add(out, sr_asprintf("%s", col->heading), sr_asprintf("speed.%s.ratio", col->key));
        bool unique = true;
        for (size_t d = 0; d < speed.n && unique; d++)
            unique = d == c || strcmp(speed.cols[d].short_heading, col->short_heading) != 0;
        if (unique && strcmp(col->short_heading, col->heading) != 0)
            sr_claim_aliases_add(out, sr_asprintf("%s", col->short_heading), sr_asprintf("speed.%s.ratio", col->key));
        if (col->short_legend)
            sr_claim_aliases_add(out, sr_asprintf("%s", col->short_legend), sr_asprintf("speed.%s.ratio", col->key));
    }
    sr_speed_columns_release(&speed);

    size_t n = 0;
    const char **benches = sr_text_benchmark_list(sw, &n);
    for (size_t b = 0; b < n; b++) {
        const char *title = sr_text_benchmark_title(benches[b]);
        sr_claim_aliases_add(out, sr_asprintf("%s", title), sr_asprintf("accuracy.%s.score", benches[b]));
        sr_claim_aliases_add(out, sr_asprintf("\xCE\x94 %s", title), sr_asprintf("accuracy.%s.delta", benches[b]));
        sr_claim_aliases_add(out, sr_asprintf("%s verdict", title), sr_asprintf("accuracy.%s.verdict", benches[b]));
    }
    free(benches);
}
