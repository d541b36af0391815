/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Which source line is a function's line, for every view of it (the
 * Functions table's Source column, the Source tab's jump, the report's
 * "Where the time went"): the line most of its samples in the selection
 * were on; between lines with as many samples, the lowest line number,
 * so that the answer is the same every time. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether LINE with COUNT samples is hotter than BEST_LINE with
 * BEST_COUNT (a BEST_COUNT of 0: no line yet, any line with samples
 * wins). Line 0 (unknown) never wins. */
gboolean mg_hot_line_beats (guint64 count, guint line, guint64 best_count, guint best_line);

G_END_DECLS
