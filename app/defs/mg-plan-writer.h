/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Writes the run plan (docs/run-plan.md) from the catalogue's enabled,
 * available metrics. GTK-free. */
#pragma once

#include <glib.h>

#include "mg-catalogue.h"

G_BEGIN_DECLS

#define MG_PLAN_ERROR (mg_plan_error_quark ())
GQuark mg_plan_error_quark (void);

typedef enum {
  MG_PLAN_ERROR_INVALID,
} MgPlanError;

typedef struct {
  const char *run_id;                /* required */
  const char *record_dir;            /* required, absolute */
  guint interval_ms;                 /* 0: not written (sampler default) */
  guint samples;                     /* 0: not written */
  guint64 start_after_ms;            /* 0: not written */
  guint64 stop_after_ms;             /* 0: not written (never) */
  guint64 hang_intervals;            /* 0: not written (the sampler's default) */
  guint64 plugin_limit_ms;           /* 0: not written (the sampler's default) */
  gboolean no_stacks;                /* TRUE: no call stacks (written as no_stacks 1) */
  const char *const *skip_programs;  /* basenames, may be NULL */
  const char *select_ranks;          /* MPI ranks to sample, canonical "1,3-5" (app/session/
                                      * mg-rank-list.h); NULL: every rank */
} MgPlanOptions;

char *mg_plan_to_string (MgCatalogue *catalogue, const MgPlanOptions *options,
                         GError **error);
/* Atomically: a reader never sees a half-written plan. */
gboolean mg_plan_write (MgCatalogue *catalogue, const MgPlanOptions *options,
                        const char *path, GError **error);
/* One field escaped as the format says: \\, \t and \n. */
char *mg_plan_escape_field (const char *field);

G_END_DECLS
