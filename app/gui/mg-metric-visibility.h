/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Which metric rows the window shows: the profile's metrics arranged in
 * sections (one per metric group with graphs, a metric in several groups
 * under each, ungrouped metrics under "Other metrics"), and which groups and
 * metrics are shown. Every change goes through stateful GActions, so menus,
 * shortcuts and tests drive the same thing (docs/viewer.md lists them):
 *
 *   preset                 string state: "default", "all", "group:<id>" or ""
 *                          (custom)
 *   show-group.<escaped>   boolean state, one per section with graphs
 *   show-other-metrics     boolean state, the "Other metrics" section
 *   show-metric.<escaped>  boolean state, one per time-domain metric
 *   hide-metric            parameter: a metric id (row context menu)
 *   undo-hide              shows the metric hidden last again
 *
 * <escaped> is the id with every character other than A-Z a-z 0-9 and "."
 * written as "-XX" (hex), see mg_metric_visibility_action_name(). The
 * choice is remembered in GSettings (org.metrograph.Metrograph) when a
 * settings object is given, for each kind of run apart: MPI runs (a process
 * has a rank) in the keys mpi-preset, mpi-hidden-groups and
 * mpi-hidden-metrics, others in preset, hidden-groups and hidden-metrics.
 * GTK-free. */
#pragma once

#include <gio/gio.h>

#include "profile/mg-profile.h"

G_BEGIN_DECLS

typedef struct {
  char *id;             /* the group's id; NULL for "Other metrics" */
  char *title;          /* display name */
  char *description;    /* tooltip, may be NULL */
  GArray *metrics;      /* guint: time-domain metric indices, in group order */
  char *action_name;    /* its show action, without the "win." prefix */
} MgMetricSection;

/* A group none of whose metrics has graphs in this profile. */
typedef struct {
  char *id;
  char *title;
  char *reason;         /* why, translated */
} MgUnavailableGroup;

#define MG_TYPE_METRIC_VISIBILITY (mg_metric_visibility_get_type ())
G_DECLARE_FINAL_TYPE (MgMetricVisibility, mg_metric_visibility, MG, METRIC_VISIBILITY, GObject)

/* settings may be NULL (nothing remembered). Applies the remembered choice.
 * Emits "changed" (no arguments) after every change of what is shown. */
MgMetricVisibility *mg_metric_visibility_new (MgProfile *profile, GSettings *settings);

MgProfile *mg_metric_visibility_get_profile (MgMetricVisibility *self);

/* Adds the actions above to map (e.g. the window). */
void mg_metric_visibility_add_actions (MgMetricVisibility *self, GActionMap *map);
/* Removes them again (before another profile's are added). */
void mg_metric_visibility_remove_actions (MgMetricVisibility *self, GActionMap *map);

guint mg_metric_visibility_get_n_sections (MgMetricVisibility *self);
const MgMetricSection *mg_metric_visibility_get_section (MgMetricVisibility *self, guint i);
/* The section of the group called "Default" (by display name), or -1. */
int mg_metric_visibility_get_default_section (MgMetricVisibility *self);
guint mg_metric_visibility_get_n_unavailable (MgMetricVisibility *self);
const MgUnavailableGroup *mg_metric_visibility_get_unavailable (MgMetricVisibility *self,
                                                                guint i);

gboolean mg_metric_visibility_get_section_shown (MgMetricVisibility *self, guint section);
gboolean mg_metric_visibility_get_metric_shown (MgMetricVisibility *self, guint metric);
/* Shown section and shown metric. */
gboolean mg_metric_visibility_is_row_visible (MgMetricVisibility *self, guint section,
                                              guint metric);
/* Applies a preset as the "preset" action does: "all", "group:<id>" or
 * "default" (the Default group and, in an MPI run, the groups of MPI
 * metrics; all when there is none of them). FALSE when the profile lacks
 * it. */
gboolean mg_metric_visibility_set_preset (MgMetricVisibility *self, const char *preset);
/* Whether a process of the profile has an MPI rank. */
gboolean mg_metric_visibility_is_mpi_run (MgMetricVisibility *self);
/* "default", "all", "group:<id>" or "" when chosen metric by metric. */
const char *mg_metric_visibility_get_preset (MgMetricVisibility *self);

/* The ids of the metrics with at least one visible row, in section order,
 * each once. Free with g_strfreev. */
char **mg_metric_visibility_dup_visible_ids (MgMetricVisibility *self);

/* The action name (without "win.") for prefix "show-group" or
 * "show-metric" and an id. */
char *mg_metric_visibility_action_name (const char *prefix, const char *id);

G_END_DECLS
