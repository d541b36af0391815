/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A partial report file (seed 000, section 3): report metrics computed from
 * profile metrics, and subsections listing them. Parsed with every rule of
 * the spec checked; problems go to a diagnostics list as file:line messages
 * naming the rule, and a file with an error is refused whole. GTK-free. */
#pragma once

#include <glib.h>

#include "defs/mg-metric-def.h"

G_BEGIN_DECLS

/* The namespace the spec requires on <partialReport>. */
#define MG_PARTIAL_REPORT_XMLNS "http://www.allinea.com/2016/AllineaReports"

/* Which value of each sample window (across processes), and how the
 * windows are combined over time. */
typedef enum {
  MG_REPORT_PICK_MIN,
  MG_REPORT_PICK_MAX,
  MG_REPORT_PICK_MEAN,
  MG_REPORT_PICK_SUM, /* sampleValue only */
} MgReportPick;

typedef struct {
  char *id;
  char *display_name;
  char *tooltip;          /* NULL when absent; may hold HTML */
  char *units;            /* "" when absent */
  gboolean has_colour;
  MgRgba colour;
  char *metric_ref;
  MgReportPick sample_value;
  MgReportPick aggregation;
  int line;
} MgReportMetric;

typedef struct {
  const MgReportMetric *metric; /* owned by the report */
  char *group;            /* NULL when absent */
  int line;
} MgReportEntry;

typedef struct {
  char *id;
  char *heading;
  gboolean has_colour;
  MgRgba colour;
  char *text;             /* NULL when absent; may hold HTML */
  GPtrArray *entries;     /* MgReportEntry* */
  int line;
} MgReportSubsection;

typedef struct {
  char *name;
  char *file;
  GPtrArray *metrics;     /* MgReportMetric*, in file order */
  GPtrArray *subsections; /* MgReportSubsection*, in file order */
  gboolean builtin;       /* shipped with Metrograph: hidden when nothing of it was recorded */
} MgPartialReport;

/* Parses @path. Returns NULL when the file is refused (an error was added
 * to @diagnostics, made with mg_diagnostic_list_new()); warnings are added
 * for files that are still used. */
MgPartialReport *mg_partial_report_load (const char *path, GPtrArray *diagnostics);
/* The same from memory; @name stands for the file in messages. */
MgPartialReport *mg_partial_report_load_data (const char *data, gsize len, const char *name,
                                              GPtrArray *diagnostics);
void mg_partial_report_free (MgPartialReport *report);
/* Replaces the reader's text (headings, display names, tooltips, texts) by
 * its translation in gettext @domain: for the built-in sections, whose
 * strings are in Metrograph's catalogue (po/its). */
void mg_partial_report_translate (MgPartialReport *report, const char *domain);

const char *mg_report_pick_to_string (MgReportPick pick);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgPartialReport, mg_partial_report_free)

G_END_DECLS
