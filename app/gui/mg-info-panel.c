/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run details panel. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-error-list.h"
#include "mg-info-panel.h"
#include "mg-process-ends.h"
#include "plot/mg-selection-stats.h"
#include "mg-tooltip.h"
#include "defs/mg-units.h"
#include "profile/mg-process-images.h"
#include "profile/mg-shell-line.h"
#include "session/mg-mpi.h"
#include "profile/mg-unavailable.h"

static void
add_heading (GtkGrid *grid, int *row, const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_set_margin_top (label, *row == 0 ? 0 : 18);
  gtk_grid_attach (grid, label, 0, (*row)++, 2, 1);
}

static void
add_fact (GtkGrid *grid, int *row, const char *name, const char *value)
{
  /* Names are bytes (a folder, a host): shown with what is not UTF-8
   * replaced. */
  g_autofree char *shown = g_utf8_make_valid (value, -1);
  GtkWidget *name_label = gtk_label_new (name);
  GtkWidget *value_label = gtk_label_new (shown);

  gtk_label_set_xalign (GTK_LABEL (name_label), 1);
  gtk_label_set_yalign (GTK_LABEL (name_label), 0);
  gtk_widget_add_css_class (name_label, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (value_label), 0);
  gtk_label_set_wrap (GTK_LABEL (value_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (value_label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (value_label), TRUE);
  gtk_widget_set_hexpand (value_label, TRUE);
  gtk_grid_attach (grid, name_label, 0, *row, 1, 1);
  /* Over the copy button's column too (only the command's row has one):
   * in the 380 px panel the values wrapped 40 px short of its edge. */
  gtk_grid_attach (grid, value_label, 1, (*row)++, 2, 1);
}

static char *
describe_exit (const MgProcessInfo *process)
{
  switch (process->end)
    {
    case MG_PROCESS_END_EXITED:
      return g_strdup_printf (_("exited with status %d"), process->status);
    case MG_PROCESS_END_SIGNALLED:
      if (mg_error_list_is_fault_signal (process->status))
        /* Translators: how a process ended: the signal's number and name */
        return g_strdup_printf (_("crashed: signal %d (%s)"), process->status,
                                g_strsignal (process->status));
      /* Translators: how a process ended: the signal's number and name */
      return g_strdup_printf (_("killed by signal %d (%s)"), process->status,
                              g_strsignal (process->status));
    case MG_PROCESS_END_EXECED:
      return g_strdup (_("replaced by exec"));
    case MG_PROCESS_END_UNKNOWN:
    default:
      return g_strdup (_("end unknown"));
    }
}

/* The ranks the run had (processes that are not helpers, each rank once). */
static guint
count_ranks (MgProfile *profile)
{
  g_autoptr (GHashTable) ranks = g_hash_table_new (g_direct_hash, g_direct_equal);

  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    {
      const MgProcessInfo *process = mg_profile_get_process (profile, p);

      if (!process->helper && process->rank >= 0)
        g_hash_table_add (ranks, GINT_TO_POINTER (process->rank));
    }
  return g_hash_table_size (ranks);
}

/* The command as a shell reads it back, quoted, with the MPI launcher a
 * run started with -n had (the profile keeps the program's command line):
 * what to type to run it again without Metrograph. */
static char *
describe_command (MgProfile *profile)
{
  const MgRunInfo *run = mg_profile_get_run_info (profile);
  g_autofree char *line = mg_shell_line_from_run (run);
  guint ranks = count_ranks (profile);

  if (ranks > 1 && run->argv != NULL && run->argv[0] != NULL && !mg_mpi_is_launcher (run->argv[0]))
    return g_strdup_printf ("mpirun -n %u %s", ranks, line);
  return g_steal_pointer (&line);
}

static void
on_copy_command (GtkButton *button, const char *command)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (button)), command);
}

/* A button beside the command (a third column, which the command's value
 * then leaves to it) copies it whole. */
static void
add_copy_button (GtkGrid *grid, int row, const char *command)
{
  GtkWidget *button = gtk_button_new_from_icon_name ("edit-copy-symbolic");
  GtkWidget *value = gtk_grid_get_child_at (grid, 1, row);
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (grid));

  gtk_grid_layout_child_set_column_span (
    GTK_GRID_LAYOUT_CHILD (gtk_layout_manager_get_layout_child (layout, value)), 1);

  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_valign (button, GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (button, _("Copy the Command"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Copy the Command"), -1);
  gtk_widget_set_name (button, "copy-command");
  g_object_set_data_full (G_OBJECT (button), "mg-command", g_strdup (command), g_free);
  g_signal_connect (button, "clicked", G_CALLBACK (on_copy_command),
                    g_object_get_data (G_OBJECT (button), "mg-command"));
  gtk_grid_attach (grid, button, 2, row, 1, 1);
}

static void
add_run_facts (GtkGrid *grid, int *row, MgProfile *profile)
{
  const MgRunInfo *run = mg_profile_get_run_info (profile);
  g_autofree char *command = describe_command (profile);
  g_autofree char *hosts = run->hosts ? g_strjoinv (", ", run->hosts) : g_strdup ("");
  guint n_helpers = mg_profile_get_n_helpers (profile);
  g_autofree char *processes = n_helpers == 0
                                 ? g_strdup_printf ("%u", run->n_processes)
                                 /* Translators: processes, then how many of them are helpers */
                                 : g_strdup_printf (ngettext ("%u, of which %u helper of the launch "
                                                              "(a wrapper script, a shim’s step), "
                                                              "in no statistic across processes",
                                                              "%u, of which %u helpers of the launch "
                                                              "(wrapper scripts, shims’ steps), "
                                                              "in no statistic across processes",
                                                              n_helpers),
                                                    run->n_processes, n_helpers);
  g_autofree char *nodes = g_strdup_printf ("%u", run->n_nodes);
  g_autofree char *duration = mg_units_format_time (run->duration_s);
  g_autofree char *interval = NULL;
  g_autofree char *status = g_strdup_printf ("%d", run->exit_status);
  g_autoptr (GDateTime) start = g_date_time_new_from_unix_local (run->start_time_us / G_USEC_PER_SEC);
  /* The locale's date and time; the exports keep ISO 8601. */
  g_autofree char *start_text = start ? g_date_time_format (start, "%c") : g_strdup ("");

  if (run->interval_start_ms == run->interval_end_ms)
    interval = g_strdup_printf (_("%.0f ms"), run->interval_start_ms);
  else
    interval = g_strdup_printf (_("%.0f ms, %.0f ms after merges"), run->interval_start_ms,
                                run->interval_end_ms);

  add_heading (grid, row, _("Run"));
  add_fact (grid, row, _("Command"), command);
  add_copy_button (grid, *row - 1, command);
  add_fact (grid, row, _("Folder"), run->working_dir ? run->working_dir : "");
  add_fact (grid, row, _("Hosts"), hosts);
  add_fact (grid, row, _("Processes"), processes);
  add_fact (grid, row, _("Nodes"), nodes);
  add_fact (grid, row, _("Start"), start_text);
  add_fact (grid, row, _("Duration"), duration);
  add_fact (grid, row, _("Sampling"), interval);
  add_fact (grid, row, _("Exit status"), status);
  /* A profile merged before execs were kept (its processes name no images):
   * its numbers as recorded, and what they lack said. */
  if (run->n_processes > 0 && !mg_profile_has_process_images (profile))
    add_fact (grid, row, _("Corrections"),
              _("merged by an earlier Metrograph, shown as recorded: an exec there counts as "
                "another process (same pid), and helper processes (wrapper scripts, shims) are "
                "in the statistics across processes"));
  /* Only when it is not what a profile normally is: lossless. */
  if (mg_profile_get_process_precision (profile) == MG_PROCESS_PRECISION_SINGLE)
    add_fact (grid, row, _("Process series"),
              _("single precision (float32): each process's values within 2^-24 of the "
                "values recorded; the aggregates are exact"));
}

static void
add_process_end (GtkGrid *grid, int *row, MgProfile *profile, guint p)
{
  const MgProcessInfo *process = mg_profile_get_process (profile, p);
  g_autofree char *who = mg_selection_stats_describe_process (profile, (int) p);
  g_autofree char *end = describe_exit (process);
  g_autofree char *program = mg_profile_describe_process_program (profile, p);
  /* Translators: the program a process became, its host and how it ended: "true (via env) on
   * node1, exited with status 0"; a helper (a wrapper script) says so */
  g_autofree char *value = g_strdup_printf (process->helper ? _("helper: %s on %s, %s")
                                                            : _("%s on %s, %s"),
                                            program, process->host ? process->host : "", end);

  add_fact (grid, row, who, value);
}

/* A process that ended unlike the others on a row of its own, as before;
 * those that ended alike on one row ("ranks 0–63: 64 processes exited with
 * status 0"). */
static void
add_end_group (GtkGrid *grid, int *row, MgProfile *profile, GArray *group)
{
  g_autofree char *who = NULL, *what = NULL;

  if (group->len == 1)
    {
      add_process_end (grid, row, profile, g_array_index (group, guint, 0));
      return;
    }
  who = mg_process_ends_describe_members (profile, group);
  what = mg_process_ends_describe (profile, group);
  add_fact (grid, row, who, what);
}

/* The rest of the rows, asked for: they go at the end of the grid, where
 * the "and N more" row was (the process list comes last). */
static void
on_show_all_processes (GtkButton *button, GtkGrid *grid)
{
  GtkWidget *more = gtk_widget_get_parent (GTK_WIDGET (button));
  MgProfile *profile = g_object_get_data (G_OBJECT (more), "mg-profile");
  GPtrArray *groups = g_object_get_data (G_OBJECT (more), "mg-groups");
  int row = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (more), "mg-row"));

  g_object_ref (profile);
  g_ptr_array_ref (groups);
  gtk_grid_remove (grid, more);
  for (guint g = MG_INFO_PANEL_PROCESSES_SHOWN; g < groups->len; g++)
    add_end_group (grid, &row, profile, g_ptr_array_index (groups, g));
  g_ptr_array_unref (groups);
  g_object_unref (profile);
}

static void
add_process_ends (GtkGrid *grid, int *row, MgProfile *profile)
{
  g_autoptr (GPtrArray) groups = mg_process_ends_group (profile);
  GtkWidget *more, *label, *button;
  g_autofree char *text = NULL;
  guint rest = 0;

  add_heading (grid, row, _("Processes"));
  for (guint g = 0; g < groups->len && g < MG_INFO_PANEL_PROCESSES_SHOWN; g++)
    add_end_group (grid, row, profile, g_ptr_array_index (groups, g));
  if (groups->len <= MG_INFO_PANEL_PROCESSES_SHOWN)
    return;

  /* Thousands of rows cost seconds to build: the rest on request. */
  for (guint g = MG_INFO_PANEL_PROCESSES_SHOWN; g < groups->len; g++)
    rest += ((GArray *) g_ptr_array_index (groups, g))->len;
  text = g_strdup_printf (ngettext ("and %u more process", "and %u more processes", rest), rest);
  more = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  label = gtk_label_new (text);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_hexpand (label, TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  button = gtk_button_new_with_mnemonic (_("Show _All"));
  g_signal_connect (button, "clicked", G_CALLBACK (on_show_all_processes), grid);
  gtk_box_append (GTK_BOX (more), label);
  gtk_box_append (GTK_BOX (more), button);
  g_object_set_data_full (G_OBJECT (more), "mg-profile", g_object_ref (profile), g_object_unref);
  g_object_set_data_full (G_OBJECT (more), "mg-groups", g_ptr_array_ref (groups),
                          (GDestroyNotify) g_ptr_array_unref);
  g_object_set_data (G_OBJECT (more), "mg-row", GINT_TO_POINTER (*row));
  gtk_grid_attach (grid, more, 0, (*row)++, 3, 1);
}

static void
add_single_values (GtkGrid *grid, int *row, MgProfile *profile)
{
  gboolean any = FALSE;

  for (guint m = 0; m < mg_profile_get_n_metrics (profile); m++)
    {
      const MgSingleValue *value = mg_profile_get_single_value (profile, m);
      const MgMetricDef *def = mg_profile_get_metric (profile, m);
      g_autofree char *text = NULL;

      if (value == NULL)
        continue;
      if (!any)
        add_heading (grid, row, _("Single Values"));
      any = TRUE;
      if (value->count <= 1 || value->min == value->max)
        text = mg_units_format_value (def, value->mean);
      else
        {
          g_autofree char *min = mg_units_format_value (def, value->min);
          g_autofree char *mean = mg_units_format_value (def, value->mean);
          g_autofree char *max = mg_units_format_value (def, value->max);

          text = g_strdup_printf (_("min %s, mean %s, max %s"), min, mean, max);
        }
      add_fact (grid, row, def->display_name ? def->display_name : def->id, text);
    }
}

/* The plugins that declined, once each and calmly: "Energy: no RAPL",
 * the plugin's whole message as the tooltip. */
static void
add_not_measured (GtkGrid *grid, int *row, MgProfile *profile)
{
  g_autoptr (GPtrArray) unavailable = mg_unavailable_collect (profile);
  gboolean first = TRUE;

  for (guint i = 0; i < unavailable->len; i++)
    {
      const MgUnavailable *entry = g_ptr_array_index (unavailable, i);
      g_autofree char *text = NULL;

      if (!mg_unavailable_is_absent (entry))
        continue;
      /* Translators: a plugin's name and why it measured nothing, e.g. "Energy: no RAPL" */
      text = *entry->reason != '\0' ? g_strdup_printf (_("%s: %s"), entry->name, entry->reason)
                                    : g_strdup (entry->name);
      add_fact (grid, row, first ? _("Not measured here") : "", text);
      mg_tooltip_set_text (gtk_grid_get_child_at (grid, 1, *row - 1), entry->message);
      first = FALSE;
    }
}

/* What the program printed (a run from the viewer), in a monospaced view
 * of its own under its heading, with a note when its start was left out. */
static void
add_output (GtkGrid *grid, int *row, MgProfile *profile)
{
  const MgRunInfo *run = mg_profile_get_run_info (profile);
  GtkWidget *view;
  GtkTextBuffer *buffer;

  if (run->output == NULL)
    return;
  add_heading (grid, row, _("Output"));
  if (run->output_cut > 0)
    {
      g_autofree char *size = g_format_size (run->output_cut);
      /* Translators: %s is a size such as "3.2 MB" */
      g_autofree char *note = g_strdup_printf (_("The first %s were left out: this is the end "
                                                 "of what the program printed."), size);
      GtkWidget *label = gtk_label_new (note);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_set_name (label, "output-cut");
      gtk_grid_attach (grid, label, 0, (*row)++, 3, 1);
    }
  if (run->output[0] == '\0')
    {
      GtkWidget *label = gtk_label_new (_("The program printed nothing."));

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_grid_attach (grid, label, 0, (*row)++, 3, 1);
      return;
    }
  view = gtk_text_view_new ();
  gtk_widget_set_name (view, "output");
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  {
    g_autofree char *shown = g_utf8_make_valid (run->output, -1);

    gtk_text_buffer_set_text (buffer, shown, -1);
  }
  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_cursor_visible (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (view, "run-output");
  gtk_widget_set_hexpand (view, TRUE);
  gtk_grid_attach (grid, view, 0, (*row)++, 3, 1);
}

GtkWidget *
mg_info_panel_new (MgProfile *profile)
{
  GtkWidget *grid = gtk_grid_new ();
  int row = 0;

  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_widget_set_margin_start (grid, 18);
  gtk_widget_set_margin_end (grid, 18);
  gtk_widget_set_margin_top (grid, 12);
  gtk_widget_set_margin_bottom (grid, 18);
  add_run_facts (GTK_GRID (grid), &row, profile);
  add_not_measured (GTK_GRID (grid), &row, profile);
  add_single_values (GTK_GRID (grid), &row, profile);
  add_process_ends (GTK_GRID (grid), &row, profile);
  add_output (GTK_GRID (grid), &row, profile);
  return grid;
}
