/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run dialog's fields and checks, read and driven as a user would:
 * for tests, not for the rest of the application. */
#pragma once

#include "mg-run-dialog.h"

G_BEGIN_DECLS

/* A field's input widget ("program", "arguments", "working-folder",
 * "n-processes", "select-ranks", "interval", "max-samples", "start-after",
 * "stop-after", "output", "command", "search", the Write a report switch
 * "report" and the Profile button "profile"), the message shown beside it (NULL when none), the checks. */
GtkWidget *mg_run_dialog_get_field (MgRunDialog *self, const char *field);
const char *mg_run_dialog_get_field_error (MgRunDialog *self, const char *field);
GtkCheckButton *mg_run_dialog_get_metric_check (MgRunDialog *self, const char *metric_id);
GtkCheckButton *mg_run_dialog_get_group_check (MgRunDialog *self, const char *group_id);
/* The reason shown under a metric's check, or NULL; the rows of the
 * definition files with errors. */
const char *mg_run_dialog_get_metric_reason (MgRunDialog *self, const char *metric_id);
GStrv mg_run_dialog_dup_definition_errors (MgRunDialog *self);
/* Adds an environment row with this text ("NAME=VALUE" sets, "NAME" removes). */
void mg_run_dialog_add_variable (MgRunDialog *self, const char *text);
/* Metric checks left visible by the search box. */
guint mg_run_dialog_get_n_visible_metrics (MgRunDialog *self);

/* TRUE once the host probe's answer came (mg_run_dialog_probe_unavailable). */
gboolean mg_run_dialog_get_host_probed (MgRunDialog *self);

G_END_DECLS
