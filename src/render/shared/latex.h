/* LaTeX from the table layer (results.tex): text escaped for LaTeX and a
 * table as one booktabs tabular. */
#ifndef SR_RENDER_SHARED_LATEX_H
#define SR_RENDER_SHARED_LATEX_H

#include "render/shared/table.h"
#include "util/strbuf.h"

/* Append s escaped for LaTeX text (s NULL: nothing). The ten special
 * characters become their commands (\#, \$, \%, \&, \_, \{, \}, and
 * \textasciitilde{}, \textasciicircum{}, \textbackslash{}); < > | their
 * text commands; "--" keeps both hyphens. The report's own symbols become
 * math or text commands that every LaTeX has, so pdflatex needs no Unicode
 * set-up for them: Δ $\Delta$, ± $\pm$, − $-$, × $\times$, ≈ $\approx$,
 * ≥ $\geq$, ≤ $\leq$, · $\cdot$, ▲ $\blacktriangle$ and ▼
 * $\blacktriangledown$ (amssymb), † \dag{}, ‡ \ddag{}, – --, — ---, … \dots{}, the
 * no-break space ~. Any other character is kept as UTF-8 (pdflatex with
 * \usepackage[utf8]{inputenc} for Latin scripts, lualatex or xelatex for
 * any); invalid UTF-8 and control characters are repaired as
 * sr_plain_text_dup does. */
void sr_latex_escape(sr_strbuf *sb, const char *s);

/* Append s as the rest of a LaTeX comment line: control characters
 * (newlines) become spaces, so nothing in it leaves the comment. */
void sr_latex_comment(sr_strbuf *sb, const char *s);

/* The table as a tabular with booktabs rules, preceded by comment lines
 * (its title and aside) and followed by its note as comments: numeric
 * columns right-aligned, a second heading row for sub-headings, the
 * missing mark ---, a cell's second line in parentheses after it (alone
 * when the cell has no text), the baseline's row in bold. Made to fit a
 * landscape A4 page (widths estimated for Computer Modern 10 pt): when the
 * cells do not fit on one line, paragraph columns (array's p{}) at least as
 * wide as their widest word; when even the words do not, several tabulars
 * of the columns that fit, each repeating the first. */
void sr_table_latex(const sr_table *t, sr_strbuf *sb);

#endif
