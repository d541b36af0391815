/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One process of the profile builder: its sample windows and their values,
 * held in rows in the profile's layout (so that finishing hands them over
 * instead of copying them), as they grow, are packed, or are read back for
 * the aggregates. GTK-free. */
#pragma once

#include "mg-builder-rows.h"
#include "mg-profile.h"

G_BEGIN_DECLS

/* Samples staged before they go to their rows (mg_builder_process_add). */
enum { MG_BUILDER_STAGE = 64 };

/* A process's samples: rows of cap doubles, [metric][mins, maxs, means]. */
typedef struct {
  MgProcessInfo info;
  gsize n;           /* samples */
  gsize cap;         /* room per row */
  double *starts;    /* cap */
  double *ends;      /* cap: the profile's process times */
  double *values;    /* n_metrics × 3 rows of cap */
  double *singles;   /* n_metrics, NaN = not set; NULL until the first */
  /* Samples wait here, row-major, and go to the rows MG_BUILDER_STAGE at a
   * time: writing each sample straight across rows cap × 8 bytes apart
   * makes every store a cache miss. */
  double *stage;     /* MG_BUILDER_STAGE × n_metrics × 3 */
  guint staged;      /* samples in stage, at n .. n + staged */
  /* Packed (mg_profile_builder_pack): values is gone, its metrics' rows
   * are parts[m] (NULL: not reported); starts and ends stay for the grid. */
  gboolean packed;
  GBytes **parts;    /* n_metrics */
  /* Its first n_reused samples are those of process `previous` of the
   * cache's profile (-1: none). */
  int previous;
  gsize n_reused;
  gboolean sorted;   /* ends never decrease (set by finishing) */
  /* Where its samples fall on the grid (mg_grid_span_build, for the
   * aggregates): the same for every metric, so found once. */
  guint32 *span_end; /* n: sample k's windows are span_w[span_end[k-1] .. span_end[k]);
                      NULL: none, each metric finds them */
  guint32 *span_w;
  double *span_overlap; /* > 0; 0: an instant in that window */
  gboolean in_slab;  /* values is in the builder's slabs */
  gsize values_size; /* bytes of values, when its own */
} MgBuilderProcess;

/* info is copied. */
MgBuilderProcess *mg_builder_process_new (const MgProcessInfo *info);
void mg_builder_process_free (MgBuilderProcess *p);
/* The packed parts, which the profile may have taken (their bytes are
 * freed here, the array with the process). */
void mg_builder_process_free_parts (MgBuilderProcess *p, guint n_metrics);

/* Re-lays the rows with room for new_cap samples. */
void mg_builder_process_resize (MgBuilderProcess *p, MgBuilderRows *rows, guint n_metrics,
                                gsize new_cap);
/* Room for n_samples more samples. */
void mg_builder_process_reserve (MgBuilderProcess *p, MgBuilderRows *rows, guint n_metrics,
                                 guint n_samples);
/* One sample window and its values (n_metrics each), staged. */
void mg_builder_process_add (MgBuilderProcess *p, MgBuilderRows *rows, guint n_metrics,
                             double t_start_s, double t_end_s, const double *mins,
                             const double *maxs, const double *means);
/* Moves the staged samples to their rows, one run per row. */
void mg_builder_process_flush (MgBuilderProcess *p, guint n_metrics);
/* Closes the gaps between rows: row r moves from r × cap to r × n. */
void mg_builder_process_compact (MgBuilderProcess *p, guint n_metrics);
/* The rows handed back to rows (kept for another process, or freed). */
void mg_builder_process_release_rows (MgBuilderProcess *p, MgBuilderRows *rows);
/* The rows of metric m: in place, or unpacked into scratch (3 × n). */
const double *mg_builder_process_metric_rows (MgBuilderProcess *p, guint m, double *scratch);
/* A single-value metric's value in the process. */
void mg_builder_process_set_single (MgBuilderProcess *p, guint n_metrics, guint metric,
                                    double value);

G_END_DECLS
