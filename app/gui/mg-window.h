/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A viewer window: the start page while nothing is open, a loading page, a
 * clear message when a file cannot be opened, and the profile view (metric
 * rows grouped by metric group, the shared time axis with crash marks, the
 * errors banner, the run details side panel and the undo notification).
 *
 * Window actions: open, export, zoom-in, zoom-out, zoom-selection,
 * zoom-reset, pan-left, pan-right, clear-selection, auto-zoom-vertical
 * (stateful), show-info (stateful), show-errors, rank-overview (a metric id:
 * mg-window-rank-overview.c), plus the metric visibility
 * actions of MgMetricVisibility (docs/viewer.md). */
#pragma once

#include <gtk/gtk.h>

#include "profile/mg-profile.h"

G_BEGIN_DECLS

#define MG_TYPE_WINDOW (mg_window_get_type ())
G_DECLARE_FINAL_TYPE (MgWindow, mg_window, MG, WINDOW, GtkApplicationWindow)

MgWindow *mg_window_new (GtkApplication *app);

/* Loads file in a worker thread; the window shows "loading" meanwhile and
 * then the profile or the error. The "loading" property turns FALSE when
 * done. */
void mg_window_open_file (MgWindow *self, GFile *file);
/* Shows an already loaded profile. file may be NULL. The first graph takes
 * the keyboard focus (its arrow keys move the time cursor). */
void mg_window_set_profile (MgWindow *self, MgProfile *profile, GFile *file);
/* The same for the profile of a run started here: with @stop_asked (Stop,
 * or Stop after's time) the processes that run's stop killed are not
 * counted or listed as errors (the profile does not record the stop). */
void mg_window_set_run_profile (MgWindow *self, MgProfile *profile, GFile *file,
                                gboolean stop_asked);

/* Stores the window's size and maximised state (mg-window-state.h); it is
 * also stored on every close-request. */
void mg_window_save_state (MgWindow *self);

MgProfile *mg_window_get_profile (MgWindow *self);
/* The header bar names what the window shows: a live run's host sets its
 * own titles (subtitle NULL: none), and gives them back to the profile's
 * (or "Metrograph" on the start page) when the profile is on screen. */
void mg_window_show_titles (MgWindow *self, const char *title, const char *subtitle);
void mg_window_show_profile_titles (MgWindow *self);
/* While a live run's page covers the profile, the header offers nothing
 * of the profile (Metrics, processes, zoom, side panel) and its actions
 * (export, report, run details) are off; FALSE gives them back. */
void mg_window_set_live_run (MgWindow *self, gboolean live);
/* While the banner of a run started here is shown, it says what the errors
 * banner would (one banner per run): that one stays hidden. */
void mg_window_set_run_banner_shown (MgWindow *self, gboolean shown);
/* The errors and process failures the errors banner counts (0 without a
 * profile). */
guint mg_window_count_errors (MgWindow *self);
gboolean mg_window_get_loading (MgWindow *self);
/* Nothing open, nothing loading: a window the next file may reuse. */
gboolean mg_window_is_empty (MgWindow *self);
/* Exports the current view (group headers, visible rows with labels and
 * figures, the time axis; mg-view-export.h) or
 * the data; the format comes from the file name's extension: .png .svg
 * .pdf .json .csv. */
gboolean mg_window_export (MgWindow *self, const char *path, GError **error);
/* The same, a PNG at @scale pixels per point (1: 1200 px wide, 2: 2400). */
gboolean mg_window_export_at_scale (MgWindow *self, const char *path, double scale,
                                    GError **error);
/* Saves the profile's performance report (as metrograph --report writes
 * it): .html or .txt, by the file name's extension. */
gboolean mg_window_save_report (MgWindow *self, const char *path, GError **error);

G_END_DECLS
