/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The view state every graph row shares: the visible time range, the
 * selection, the hover time, which process is shown and the vertical
 * auto-zoom. Rows, the time axis, labels and actions all listen to the same
 * MgTimeView through property notifications, so one change moves them all.
 * GObject only (no GTK): testable without a display.
 *
 * Times are seconds from the run's start, within [0, duration]. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define MG_TYPE_TIME_VIEW (mg_time_view_get_type ())
G_DECLARE_FINAL_TYPE (MgTimeView, mg_time_view, MG, TIME_VIEW, GObject)

MgTimeView *mg_time_view_new (double duration);

/* Changing the duration resets the view to the whole run. */
double mg_time_view_get_duration (MgTimeView *self);
void mg_time_view_set_duration (MgTimeView *self, double duration);

/* Visible range [start, end]. */
double mg_time_view_get_start (MgTimeView *self);
double mg_time_view_get_end (MgTimeView *self);
/* Sets the visible range without touching the zoom history (clamped,
 * at least a minimal width). */
void mg_time_view_set_range (MgTimeView *self, double start, double end);

gboolean mg_time_view_get_has_selection (MgTimeView *self);
double mg_time_view_get_selection_start (MgTimeView *self);
double mg_time_view_get_selection_end (MgTimeView *self);
/* t0 and t1 in any order; clamped to the run. */
void mg_time_view_set_selection (MgTimeView *self, double t0, double t1);
void mg_time_view_clear_selection (MgTimeView *self);

/* -1: no hover. */
double mg_time_view_get_hover_time (MgTimeView *self);
void mg_time_view_set_hover_time (MgTimeView *self, double t);

/* -1: the aggregate across processes; >= 0: that process's own series. */
int mg_time_view_get_process (MgTimeView *self);
void mg_time_view_set_process (MgTimeView *self, int process);

gboolean mg_time_view_get_auto_zoom_vertical (MgTimeView *self);
void mg_time_view_set_auto_zoom_vertical (MgTimeView *self, gboolean auto_zoom);

/* Zooms to the selection and pushes the current range on the history.
 * Does nothing without a (non-empty) selection. */
void mg_time_view_zoom_to_selection (MgTimeView *self);
/* Steps back through the zoom history; at its bottom zooms out x2 around
 * the centre, up to the whole run. */
void mg_time_view_zoom_out (MgTimeView *self);
gboolean mg_time_view_can_zoom_out (MgTimeView *self);
/* The whole run, no selection, empty history. */
void mg_time_view_reset (MgTimeView *self);
/* Scales the visible range by factor (< 1 zooms in) keeping time t at the
 * same place on screen. No history. */
void mg_time_view_zoom_around (MgTimeView *self, double t, double factor);
/* Moves the visible range by dt seconds, clamped to [0, duration]. */
void mg_time_view_pan (MgTimeView *self, double dt);

/* What the row figures describe: the selection if any, else the visible
 * range when zoomed in, else the whole run. */
typedef enum {
  MG_FIGURES_RANGE_RUN,
  MG_FIGURES_RANGE_VISIBLE,
  MG_FIGURES_RANGE_SELECTION,
} MgFiguresRange;

/* [t0, t1] of what the row figures describe, and which range that is. */
MgFiguresRange mg_time_view_get_figures_range (MgTimeView *self, double *t0, double *t1);
/* The figures' range said in a sentence: "Figures of the selection: 1.2 s
 * to 3.4 s (2.2 s)", "… of the visible range: …", "… of the whole run: 0 s
 * to 10 s (10 s)", for the readout, the figures' tooltips and exports. */
char *mg_time_view_describe_figures_range (MgTimeView *self);

/* Points *slot at @view for @owner, which follows the view's changes
 * through @on_notify (its "notify" signal, connected with @flags); the
 * previous view's handlers for @owner are disconnected. FALSE when *slot
 * was @view already. */
gboolean mg_time_view_follow (MgTimeView **slot, MgTimeView *view, gpointer owner,
                              GCallback on_notify, GConnectFlags flags);
/* Disconnects @owner's handlers from *slot's view and clears *slot. */
void mg_time_view_unfollow (MgTimeView **slot, gpointer owner);

G_END_DECLS
