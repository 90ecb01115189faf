/* The comparison's tables (tables.c), built once in the table layer
 * (shared/table.h) and laid out by every writer. */
#ifndef SR_RENDER_COMPARE_TABLES_H
#define SR_RENDER_COMPARE_TABLES_H

#include <stdbool.h>

#include "model/comparison.h"
#include "render/shared/table.h"

/* In the order the outputs show them: setup changes first (they explain
 * the rest), status changes, accuracy per benchmark, speed, KV, then the
 * models in one export only. *none (when given) says the table has
 * nothing to show. */

/* The builders that may have nothing to show, as one type. */
typedef sr_table *(*sr_compare_table_fn)(const sr_comparison *c, bool *none);
sr_table *sr_table_compare_setup(const sr_comparison *c, bool *none);
sr_table *sr_table_compare_status(const sr_comparison *c, bool *none);
sr_table *sr_table_compare_accuracy(const sr_comparison *c, const char *benchmark);
sr_table *sr_table_compare_speed(const sr_comparison *c, bool *none);
sr_table *sr_table_compare_kv(const sr_comparison *c, bool *none);
sr_table *sr_table_compare_one_sided(const sr_comparison *c, bool *none);
/* The two sides: export, name, date, vLLM, image, models, inputs. */
sr_table *sr_table_compare_sides(const sr_comparison *c);

#endif
