/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The few lines the command line prints on stderr at a run's end
 * (--profile, --recover), as plain text made once from the profile: where
 * the profile is, what it holds, one line for what this machine could not
 * measure and one for metrics that failed, or with --verbose every plugin
 * and metric error in full instead; then the ranks selected and the
 * metrics asked for that got nothing. The front end only prints them, so
 * it never reads the profile itself. GTK-free. */
#pragma once

#include "defs/mg-catalogue.h"
#include "profile/mg-profile.h"

G_BEGIN_DECLS

/* What the run asked for that the summary answers. */
typedef struct {
  const char *output;              /* where the profile was written */
  double stopped_after_s;          /* > 0: --stop-after ended the program */
  const char *select_ranks;        /* --select-ranks as given; NULL: none */
  MgCatalogue *catalogue;          /* resolves @enable_metrics; NULL: none asked */
  const char *const *enable_metrics; /* --enable-metrics as given; NULL: none */
} MgRunSummaryRequest;

typedef struct {
  char **lines;      /* always said, in order, each a whole line ("metrograph: …\n") */
  char **brief;      /* then by default: not available here, metrics that failed */
  char **details;    /* or with --verbose: every plugin and metric error in full */
  char *ranks;       /* --select-ranks: the selection and the ranks the profile holds,
                      * a whole line; NULL when not asked */
  char **unmeasured; /* asked for with --enable-metrics and got nothing for want of
                      * its plugin: one message each, without the "metrograph: " */
} MgRunSummary;

MgRunSummary *mg_run_summary_new (MgProfile *profile, const MgRunSummaryRequest *request);
void mg_run_summary_free (MgRunSummary *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgRunSummary, mg_run_summary_free)

G_END_DECLS
