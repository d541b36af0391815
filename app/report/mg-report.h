/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A performance report: the facts of a run, a summary of how its time
 * divides, and the sections of the partial reports, each line a name, a
 * value with auto-scaled units and a bar against the line's own scale
 * (100 % for a share, the run's peak for a rate), which it states. Built once from a
 * profile; the text and HTML writers and the viewer show it. GTK-free. */
#pragma once

#include "mg-partial-report.h"
#include "profile/mg-profile.h"
#include "profile/mg-stack-namer.h"

G_BEGIN_DECLS

typedef struct {
  char *label;
  char *value;
} MgReportFact;

typedef struct {
  char *name;              /* plain text */
  char *tooltip;           /* markup, NULL when none */
  double value;            /* NaN when not recorded */
  char *value_text;        /* "12.3 k/s", or why there is no value */
  double bar;              /* 0..1 of the line's scale; NaN: no bar */
  char *scale_text;        /* what a full bar is: "of 100 %", "of the peak, 12 k/s"; NULL: no bar */
  gboolean has_colour;
  MgRgba colour;
  /* With a baseline (mg_report_compare): its value, as text, and the
   * relative change (NaN when either is missing or the baseline is 0). */
  double baseline;
  char *baseline_text;
  double change;
} MgReportLine;

typedef struct {
  char *heading;
  gboolean has_colour;
  MgRgba colour;
  char *text;              /* markup, NULL when none */
  GPtrArray *lines;        /* MgReportLine* */
} MgReportSection;

typedef struct {
  GPtrArray *facts;        /* MgReportFact*: the header */
  char *sentence;          /* the summary in one sentence */
  GPtrArray *summary;      /* MgReportLine*: compute, MPI, neither, I/O */
  GPtrArray *sections;     /* MgReportSection*: built-in then partial reports */
} MgReport;

/* @profile_path: shown in the header (may be NULL); @partial_reports:
 * MgPartialReport* in the order to show (may be NULL). */
MgReport *mg_report_new (MgProfile *profile, const char *profile_path,
                         GPtrArray *partial_reports);
/* The same, the call stacks' frames named through @namer (NULL: module +
 * offset) in the "Where the time went" sections, which a profile with
 * stacks gets after the others (mg-report-where.c). */
MgReport *mg_report_new_named (MgProfile *profile, const char *profile_path,
                               GPtrArray *partial_reports, const MgStackNamer *namer);
void mg_report_free (MgReport *report);

/* Changes smaller than this share are within the run-to-run noise: shown,
 * but not marked as changes (the report says so). */
#define MG_REPORT_NOISE 0.05

/* Adds @baseline's values beside @report's: lines are matched by their
 * section's heading and their name; a fact names the baseline. */
void mg_report_compare (MgReport *report, const MgReport *baseline, const char *baseline_path);
/* TRUE when the line's change is beyond the noise. */
gboolean mg_report_line_changed (const MgReportLine *line);

/* Internal to app/report: lines and their bars. */
MgReportLine *mg_report_line_new (const char *name, double value, const char *units,
                                  const char *why_not);
void mg_report_line_free (MgReportLine *line);
/* The line's bar against its own meaningful maximum: @full is a full bar,
 * 100 for a share in per cent (@peak FALSE: "of 100 %"), else the run's
 * peak of the same quantity ("of the peak, 12 k/s", in @units). Nothing
 * when the line has no value. */
void mg_report_line_set_scale (MgReportLine *line, double full, gboolean peak, const char *units);
void mg_report_summarise (MgReport *report, MgProfile *profile);
/* "Where the time went: self" and ": total", the top 10 functions of the
 * call-stack samples each, then "Source text left out" when the profile
 * could not keep the text of every file holding sampled lines
 * (mg-profile-code.h); nothing when the profile has no stacks. */
void mg_report_add_where (MgReport *report, MgProfile *profile, const MgStackNamer *namer);
/* "MPI call sites that waited longest": the MPI waits of the call stacks
 * (MG_STACK_MPI) by MPI function and call site, with the time waited and
 * the ranks; nothing when the profile has none (mg-report-mpi-sites.c). */
void mg_report_add_mpi_sites (MgReport *report, MgProfile *profile, const MgStackNamer *namer);
/* The share of the time (0..1) in which the CPU waited on the GPU (the
 * rule in mg-report-gpu-wait.c), NaN when the run did not record both;
 * the CPU section's note when it is at least half, else NULL. */
double mg_report_gpu_wait_share (MgProfile *profile);
char *mg_report_gpu_wait_note (MgProfile *profile);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgReport, mg_report_free)

G_END_DECLS
