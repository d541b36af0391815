/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Which source line is a function's line, for every view of it (the
 * Functions table's Source column, the Source tab's jump, the report's
 * "Where the time went"): the line most of its own samples in the
 * selection were on (the innermost frame there), where its time went;
 * between lines with as many (a function that only calls has none), the
 * line most samples passed through (a call site); then the lowest line
 * number, so that the answer is the same every time. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A line's samples within one function. */
typedef struct {
  guint line;     /* 1 for the file's first; 0 unknown */
  guint64 self;   /* samples whose innermost frame is on the line */
  guint64 total;  /* samples with the line anywhere in the stack, once each */
} MgHotLine;

/* Whether CANDIDATE is hotter than BEST (BEST->line 0: none yet). A line
 * 0 or without samples never is. */
gboolean mg_hot_line_beats (const MgHotLine *candidate, const MgHotLine *best);

G_END_DECLS
