/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The per-thread activity strip (issue 30 point 2): under a legend, one
 * thin strip per thread of a process (mg-thread-strips.h), each pixel
 * column in the colour of that thread's main class there, following a
 * shared MgTimeView like the graphs (same x mapping: range, hover line,
 * selection). The process is the view's, or when the view shows every
 * process, mg_thread_strips_default_process's. The tooltip gives the
 * thread, the windows under the pointer and the class shares ("Thread 2,
 * 1.20–1.24 s: Computing 80 %, MPI 20 %, Off CPU 0 %"); a drag selects a
 * range, a click the windows of that thread under the pointer. Each run
 * of equal class is one cairo rectangle.
 *
 * Focusable: Up / Down choose the thread (outlined), Left / Right move the
 * keyboard cursor (the hover line) by a hundredth of the view, Enter or
 * Space selects the thread's windows at it, Escape clears the selection;
 * the accessible description is the thread's shares at the cursor. */
#pragma once

#include <gtk/gtk.h>

#include "plot/mg-thread-strips.h"
#include "plot/mg-time-view.h"
#include "profile/mg-profile.h"

G_BEGIN_DECLS

#define MG_TYPE_THREAD_STRIP (mg_thread_strip_get_type ())
G_DECLARE_FINAL_TYPE (MgThreadStrip, mg_thread_strip, MG, THREAD_STRIP, GtkWidget)

/* Height of the legend on top, and of one strip with the gap under it, at
 * 96 dpi; larger text makes both larger (the getters below). */
#define MG_THREAD_STRIP_LEGEND_HEIGHT 18
#define MG_THREAD_STRIP_PITCH 16
/* At most this many threads are drawn (the first by ordinal), so that a
 * process of hundreds of threads does not push the graphs away. */
#define MG_THREAD_STRIP_MAX_ROWS 32

GtkWidget *mg_thread_strip_new (MgProfile *profile, MgTimeView *view);

MgTimeView *mg_thread_strip_get_view (MgThreadStrip *self);
/* The strips shown (for the view's process), NULL when that process has
 * no thread known. Signal "strips-changed" when the process changed. */
const MgThreadStrips *mg_thread_strip_get_strips (MgThreadStrip *self);
/* The strips drawn: every thread's, MG_THREAD_STRIP_MAX_ROWS at most. */
guint mg_thread_strip_get_n_shown (MgThreadStrip *self);
/* The legend's height and the rows' pitch at the widget's text scale
 * (MG_THREAD_STRIP_LEGEND_HEIGHT and MG_THREAD_STRIP_PITCH at 96 dpi). */
int mg_thread_strip_get_legend_height (MgThreadStrip *self);
int mg_thread_strip_get_pitch (MgThreadStrip *self);
/* Whether the process was chosen for the view's "every process". */
gboolean mg_thread_strip_is_default_process (MgThreadStrip *self);

/* The row under y (widget coordinates), -1 for none. */
int mg_thread_strip_row_at (MgThreadStrip *self, double y);
/* What a click at (x, y) (widget coordinates) does: selects the windows
 * of the thread under y that hold the time at x. FALSE (nothing changed)
 * outside them. */
gboolean mg_thread_strip_select_at (MgThreadStrip *self, double x, double y);
/* The row Up and Down chose (0 at first). */
guint mg_thread_strip_get_key_row (MgThreadStrip *self);
/* The tooltip's text for row at time t, NULL outside its windows. */
char *mg_thread_strip_describe (MgThreadStrip *self, guint row, double t);

/* The fixed colour of a class, the same in both themes: the activity
 * row's four, and Off CPU's. */
void mg_thread_strip_class_colour (MgThreadClass klass, double rgb[3]);

G_END_DECLS
