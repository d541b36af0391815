/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's parts, for its own files only: the instance and what one
 * part asks of another. mg-window.c holds the type, its template and its
 * chrome; mg-window-recent.c the start page's recent profiles;
 * mg-window-recovery.c its interrupted runs;
 * mg-window-loading.c loading a file; mg-window-profile-view.c the profile
 * view; mg-window-actions.c the window actions; mg-window-export.c export;
 * mg-window-queries.c what tests read (mg-window-private.h). */
#pragma once

#include "mg-metric-visibility.h"
#include "plot/mg-time-view.h"
#include "mg-window.h"

G_BEGIN_DECLS

struct _MgWindow
{
  GtkApplicationWindow parent_instance;

  /* template children */
  GtkWidget *header_bar;
  GtkWidget *metrics_button;
  GtkWidget *process_dropdown;
  GtkWidget *helpers_check;     /* lists the launch's helper processes too */
  GtkWidget *menu_button;
  GMenuModel *primary_menu;
  GtkWidget *title_label;
  GtkWidget *subtitle_label;
  GtkWidget *info_button;
  GtkWidget *zoom_box;
  GtkWidget *stack;
  GtkWidget *recover_heading;
  GtkWidget *recover_list;
  GtkWidget *recent_heading;
  GtkWidget *recent_list;
  GtkWidget *spinner;
  GtkWidget *loading_label;
  GtkWidget *error_title;
  GtkWidget *error_message;
  GtkWidget *errors_revealer;
  GtkWidget *errors_label;
  GtkWidget *rows_stack;
  GtkWidget *code_paned;        /* the metric rows above, the Code pane below */
  GtkWidget *code_box;
  GtkWidget *rows_box;
  GtkWidget *axis_box;
  GtkWidget *axis_caption;
  GtkWidget *axis_column;
  GtkWidget *side_revealer;
  GtkWidget *side_switcher;
  GtkWidget *side_stack;
  GtkWidget *info_scroller;
  GtkWidget *errors_scroller;
  GtkWidget *report_scroller;
  GtkWidget *undo_revealer;
  GtkWidget *undo_label;
  GtkWidget *undo_dismiss;

  GSettings *settings;      /* NULL when the schema is not installed */
  GCancellable *cancellable;
  gboolean loading;
  GFile *file;
  MgProfile *profile;
  MgTimeView *view;
  MgMetricVisibility *visibility;
  GtkSizeGroup *label_group;
  GMenuModel *metrics_menu; /* given to metrics_button when it opens */
  GtkWidget *rows;          /* MgMetricRows, in rows_box */
  GtkWidget *code_view;     /* MgCodeView, in code_box */
  GtkWidget *function_rows; /* MgFunctionRows, above rows in rows_box */
  GtkWidget *event_strip;
  GtkWidget *time_axis;
  GtkWidget *range_label;   /* under the axis: what the figures describe */
  GtkWidget *range_button;  /* "Whole Run", when they describe less */
  guint error_count;
  gboolean stop_asked;      /* the run shown was stopped as asked: its kill is no error */
  GArray *listed;           /* guint: the process of each entry after "All Processes" */
  guint undo_timeout;
  gboolean side_built;      /* the side panel shows this profile */
  gboolean run_banner_shown; /* a run's banner says it all: no errors banner too */
  gboolean recent_watched;  /* the recent list follows the recent manager */
  gboolean recent_stale;    /* it changed while the start page was hidden */
  guint recent_idle;
  char *recent_uri;         /* to add to the recent files after the first frame */
  gboolean live_run;        /* a live run's page covers the profile (mg_window_set_live_run) */
  gboolean process_choice;  /* the profile has processes to choose between */
};

/* The start page's interrupted runs (mg-window-recovery.c): the action
 * win.recover-run and the list, filled when the start page is shown. */
void mg_window_recovery_init (MgWindow *self);
void mg_window_recovery_fill (MgWindow *self);
/* FILE's name as text to show (mg-window-loading.c): a name is bytes,
 * and one that is not UTF-8 reached Pango as it was. */
char *mg_window_file_display_name (GFile *file);
/* The start page's list of recent profiles (mg-window-recent.c). */
void mg_window_recent_init (MgWindow *self);
/* Adds file to the desktop's recent files once the profile is drawn. */
void mg_window_recent_remember (MgWindow *self, GFile *file);
/* Adds one still waiting at once (the window closes). */
void mg_window_recent_flush (MgWindow *self);

/* The profile view (mg-window-profile-view.c). */
void mg_window_profile_view_init (MgWindow *self);
void mg_window_clear_profile_view (MgWindow *self);
/* The header's profile controls (Metrics, processes, zoom, side panel) and
 * the actions on the profile, as the page shown needs them. */
void mg_window_update_header (MgWindow *self);
/* The side panel's contents, built when first shown. */
void mg_window_build_side_panel (MgWindow *self);
/* Hides the undo notification (its dismiss button, in the template). */
void mg_window_dismiss_undo (MgWindow *self);

/* The window actions and the file drop target (mg-window-actions.c). */
void mg_window_add_actions (MgWindow *self);
/* Action win.rank-overview and its window (mg-window-rank-overview.c). */
void mg_window_rank_overview_init (MgWindow *self);

/* Export, Save Report, Run Details…: on only while a profile is shown. */
void mg_window_update_profile_actions (MgWindow *self);

/* Action win.export: asks where to (mg-window-export.c). */
void mg_window_export_activated (GSimpleAction *action, GVariant *parameter, gpointer user_data);
/* Action win.save-report: asks where to (mg-window-export.c). */
void mg_window_save_report_activated (GSimpleAction *action, GVariant *parameter,
                                      gpointer user_data);

/* Gives metrics_menu to the Metrics button, with its custom items
 * (mg-window.c): when it first opens, and when a new profile replaces it. */
void mg_window_attach_metrics_menu (MgWindow *self);

/* A modal error message over the window. */
void mg_window_show_message (MgWindow *self, const char *title, const char *detail);

G_END_DECLS
