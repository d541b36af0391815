/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run dialog's metric checks, in a GtkListBox it fills: every metric of
 * a catalogue under its metric group (a three-state check per group, a
 * check per metric; `always` locked on, `never` locked off, unavailable
 * metrics insensitive, each with the reason beneath; metrics whose plugin
 * declined on this machine marked so, with its reason beneath and its
 * whole message as the tooltip), each id wrapped on a line under its name
 * (the check's "id-label"), ungrouped metrics
 * under "Other metrics", broken definition files at the end; a search text
 * filters the rows. Toggling a check changes the MgRunSettings;
 * mg_run_metric_list_sync() sets the checks from them without echo. */
#pragma once

#include <gtk/gtk.h>

#include "defs/mg-catalogue.h"
#include "session/mg-run-settings.h"

G_BEGIN_DECLS

#define MG_TYPE_RUN_METRIC_LIST (mg_run_metric_list_get_type ())
G_DECLARE_FINAL_TYPE (MgRunMetricList, mg_run_metric_list, MG, RUN_METRIC_LIST, GObject)

/* list: the box to fill (owned by the caller, outlives this object). */
MgRunMetricList *mg_run_metric_list_new (GtkListBox *list, MgRunSettings *settings);
/* Rebuilds the rows for catalogue. */
void mg_run_metric_list_set_catalogue (MgRunMetricList *self, MgCatalogue *catalogue);
/* Applies the settings' toggles to the catalogue and sets the checks. */
void mg_run_metric_list_sync (MgRunMetricList *self);
/* Shows the metric rows whose id, name or group contains text (any case). */
void mg_run_metric_list_filter (MgRunMetricList *self, const char *text);
guint mg_run_metric_list_get_n_visible (MgRunMetricList *self);
/* The plugins that declined on this machine (MgUnavailable, from
 * mg_unavailable_collect: absent ones only; NULL: none known): their
 * metrics are marked; the rows are rebuilt. */
void mg_run_metric_list_set_declined (MgRunMetricList *self, GPtrArray *declined);
gboolean mg_run_metric_list_is_declined (MgRunMetricList *self, const char *metric_id);
/* A metric's (first) check, a group's check, or NULL. */
GtkCheckButton *mg_run_metric_list_get_metric_check (MgRunMetricList *self, const char *metric_id);
GtkCheckButton *mg_run_metric_list_get_group_check (MgRunMetricList *self, const char *group_id);
/* The reason shown under a metric's check (unavailable, always, never), or
 * NULL. */
const char *mg_run_metric_list_get_reason (MgRunMetricList *self, const char *metric_id);
/* The texts of the (insensitive) rows of definition files with errors. */
GStrv mg_run_metric_list_dup_definition_errors (MgRunMetricList *self);

G_END_DECLS
