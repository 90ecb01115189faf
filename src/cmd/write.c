/* Writing a command's outputs (cmd.h): the one writer of OUT_DIR
 * (util/outset.h), and what it removed of earlier runs, met and left
 * alone said on the terminal. */
#include <stdlib.h>

#include "cmd/cmd.h"
#include "util/escape.h"

sr_error *sr_cmd_write_outputs(const char *out_dir, const char *kind, const sr_output *out, size_t n, FILE *info)
{
    sr_outset_notes notes = {0};
    sr_error *err = sr_write_outputs(out_dir, kind, out, n, &notes);
    for (size_t i = 0; i < notes.n; i++) {
        char *shown = sr_terminal_text_dup(notes.lines[i]);
        fprintf(info, "sweep-report: %s\n", shown);
        free(shown);
    }
    sr_outset_notes_release(&notes);
    return err;
}
