/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Values and axes scaled for reading: SI prefixes (k, M, G, T) for rates
 * and counts, binary prefixes (KiB, MiB, GiB, TiB) for bytes (units starting
 * with "B"), ns / µs / ms / s for times; percentages with one decimal
 * ("4.6 %", "100.0 %"), never prefixed.
 * The definition's displayFactor, displayUnits and decimalPlaces are
 * honoured: a value is shown as value × display_factor in display_units; an
 * author-chosen factor or display unit turns automatic prefixes off unless
 * autoDisplayFactor is set. GTK-free. */
#pragma once

#include <glib.h>

#include "mg-metric-def.h"

G_BEGIN_DECLS

/* "1.50 GiB", "12.3 k/s", "45.0 %", "850 µs"; "–" for NaN. */
char *mg_units_format_value (const MgMetricDef *def, double value);

/* The unit a metric is read in, without a prefix, for a row's label:
 * "B", "B/s", "%", "calls/s"; a time unit is its family, "s" ("ns" reads
 * "s", "ns/s" reads "s/s"), since values of it are shown in ns, µs, ms or s
 * as they need. The display unit when the definition sets one. */
char *mg_units_dup_family (const MgMetricDef *def);

/* Seconds from the start, for tooltips and labels: "0 s", "1.25 s",
 * "2 min", "1 min 30 s", "850 ms". */
char *mg_units_format_time (double seconds);

/* A value axis or a time axis: range and nice ticks (1-2-5 steps). Ticks and
 * the range are in raw metric values (seconds for a time axis); labels share
 * one prefix ("0 MiB", "512 MiB", "1024 MiB"). */
typedef struct {
  double min, max;   /* the axis range */
  double step;       /* between ticks */
  guint n_ticks;
  double *ticks;     /* n_ticks values, ascending */
  char **labels;     /* n_ticks labels, NULL-terminated */
  char *unit;        /* the common unit with its prefix, e.g. "MiB/s"; "s" for time */
  gboolean percent;  /* a percentage axis */
  gboolean flat;     /* the data is 0 throughout: the range is arbitrary */
} MgAxis;

/* data_min / data_max: the values to show (NaN when there are none).
 * Non-negative data gives a 0-based axis. The range ends close beyond the
 * data, on the ladder 1, 1.1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 (× 10^k) in
 * the prefix that reads it (93 % → 100 %, 106 % → 110 %, 692 µs → 800 µs,
 * 950 µs → 1 ms), not on a tick: ticks are the 1-2-5 steps inside it. A
 * percentage whose data stays within 100 ends at 100 at most. All-zero
 * data is flagged flat. max_ticks >= 2. */
MgAxis *mg_axis_new (const MgMetricDef *def, double data_min, double data_max,
                     guint max_ticks);
/* Ticks for the visible range [t0, t1] in seconds from the start. The range
 * is kept as given; ticks fall on nice times inside it. */
MgAxis *mg_axis_new_time (double t0, double t1, guint max_ticks);
void mg_axis_free (MgAxis *axis);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgAxis, mg_axis_free)

G_END_DECLS
