/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Run page (run details) as a first-time user reads it: the command as
 * a shell needs it (quoted, with the MPI launcher of a run started with
 * -n), copied whole by its button; processes that ended alike on one row. */
#include "mg-config.h"

#include <signal.h>
#include <string.h>

#include "gui-fixtures.h"
#include "gui-test-util.h"
#include "gui/mg-info-panel.h"
#include "gui/mg-window-private.h"

typedef struct {
  int rank;
  MgProcessEnd end;
  int status;
} End;

/* A run of argv whose processes ended as ends say (pid 3000 + index, on
 * node1), one metric. */
static MgProfile *
run_profile (const char *const *argv, const End *ends, guint n)
{
  MgProfileBuilder *builder = mg_profile_builder_new ();
  MgMetricDef *def = gui_fixture_def ("cpu", "CPU", "%", MG_METRIC_TYPE_CPU_TIME, NULL);
  g_autoptr (GError) error = NULL;
  MgProfile *profile;

  mg_profile_builder_set_command (builder, argv, "/home/user/run");
  mg_profile_builder_set_interval (builder, 10, 10, 1000);
  mg_profile_builder_add_metric (builder, def);
  mg_metric_def_free (def);
  for (guint i = 0; i < n; i++)
    {
      MgProcessInfo info = { .pid = 3000 + (int) i, .ppid = 1, .rank = ends[i].rank,
                             .host = (char *) "node1", .program = (char *) "ring", .end_s = 1,
                             .end = ends[i].end, .status = ends[i].status };
      guint p = mg_profile_builder_add_process (builder, &info);

      for (guint w = 0; w < 4; w++)
        {
          double v = 10 + i;

          mg_profile_builder_add_sample (builder, p, w * 0.01, (w + 1) * 0.01, &v, &v, &v);
        }
    }
  profile = mg_profile_builder_finish (builder, 0, &error);
  g_assert_no_error (error);
  mg_profile_builder_free (builder);
  return profile;
}

/* n ranks that exited 0, but ranks listed in odd (their own ends). */
static MgProfile *
ranks_profile (const char *const *argv, guint n, const End *odd, guint n_odd)
{
  g_autofree End *ends = g_new0 (End, n);

  for (guint i = 0; i < n; i++)
    ends[i] = (End) { (int) i, MG_PROCESS_END_EXITED, 0 };
  for (guint i = 0; i < n_odd; i++)
    ends[odd[i].rank] = odd[i];
  return run_profile (argv, ends, n);
}

/* The panel's rows as "name=value" ("# Heading" for headings). */
static GPtrArray *
read_rows (GtkWidget *panel)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  for (int row = 0;; row++)
    {
      GtkWidget *first = gtk_grid_get_child_at (GTK_GRID (panel), 0, row);
      GtkWidget *second = gtk_grid_get_child_at (GTK_GRID (panel), 1, row);

      if (first == NULL)
        break;
      if (first == second && GTK_IS_LABEL (first))
        g_ptr_array_add (lines, g_strconcat ("# ", gtk_label_get_text (GTK_LABEL (first)), NULL));
      else if (first == second)
        g_ptr_array_add (lines, g_strdup ("+"));
      else
        g_ptr_array_add (lines, g_strconcat (gtk_label_get_text (GTK_LABEL (first)), "=",
                                             gtk_label_get_text (GTK_LABEL (second)), NULL));
    }
  return lines;
}

/* The rows after "# Processes" that are not a heading: the ends. */
static GPtrArray *
process_rows (GtkWidget *panel)
{
  g_autoptr (GPtrArray) lines = read_rows (panel);
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);
  gboolean in = FALSE;

  for (guint i = 0; i < lines->len; i++)
    {
      const char *line = g_ptr_array_index (lines, i);

      if (g_str_has_prefix (line, "# "))
        in = g_str_equal (line, "# Processes");
      else if (in)
        g_ptr_array_add (rows, g_strdup (line));
    }
  return rows;
}

static char *
command_of (MgProfile *profile)
{
  GtkWidget *panel = g_object_ref_sink (mg_info_panel_new (profile));
  g_autoptr (GPtrArray) lines = read_rows (panel);
  char *command = NULL;

  for (guint i = 0; i < lines->len && command == NULL; i++)
    if (g_str_has_prefix (g_ptr_array_index (lines, i), "Command="))
      command = g_strdup ((const char *) g_ptr_array_index (lines, i) + strlen ("Command="));
  g_object_unref (panel);
  g_assert_nonnull (command);
  return command;
}

/* The command as a shell reads it back: the shown line parses into the
 * recorded words; plain words stay plain. */
static void
test_command_quoted (void)
{
  const char *python[] = { "python3", "-c", "import time,sys; a=[]; print('ok')", NULL };
  const char *plain[] = { "./ring", "8", "--size=64", NULL };
  End one = { -1, MG_PROCESS_END_EXITED, 0 };
  g_autoptr (MgProfile) p1 = run_profile (python, &one, 1);
  g_autoptr (MgProfile) p2 = run_profile (plain, &one, 1);
  g_autofree char *line = command_of (p1);
  g_autofree char *line2 = command_of (p2);
  g_auto (GStrv) words = NULL;

  g_test_message ("shown: %s", line);
  g_assert_cmpstr (line, ==, "python3 -c 'import time,sys; a=[]; print('\\''ok'\\'')'");
  g_assert_true (g_shell_parse_argv (line, NULL, &words, NULL));
  g_assert_true (g_strv_equal ((const char *const *) words, python));
  g_assert_cmpstr (line2, ==, "./ring 8 --size=64");
}

/* Ranks started by -n (the profile keeps the program's own command line):
 * shown with the launcher, as typed to run it again; a command that names
 * its launcher, or one process, as it was. */
static void
test_command_mpi (void)
{
  const char *ring[] = { "./ring", "8", NULL };
  const char *launched[] = { "mpirun", "-n", "4", "./ring", "8", NULL };
  g_autoptr (MgProfile) four = ranks_profile (ring, 4, NULL, 0);
  g_autoptr (MgProfile) own = ranks_profile (launched, 4, NULL, 0);
  g_autoptr (MgProfile) single = ranks_profile (ring, 1, NULL, 0);
  g_autofree char *a = command_of (four), *b = command_of (own), *c = command_of (single);

  g_assert_cmpstr (a, ==, "mpirun -n 4 ./ring 8");
  g_assert_cmpstr (b, ==, "mpirun -n 4 ./ring 8");
  g_assert_cmpstr (c, ==, "./ring 8");
}

static GtkWidget *
find_named (GtkWidget *root, const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (root), name) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_named (child, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
on_clipboard_text (GObject *source, GAsyncResult *result, gpointer user_data)
{
  char **text = user_data;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
  if (*text == NULL)
    *text = g_strdup ("");
}

/* The copy button beside the command puts the whole line on the clipboard,
 * in the window, with the side panel open (the Run page). */
static void
test_copy_command (void)
{
  const char *python[] = { "python3", "-c", "print(1)", NULL };
  End one = { -1, MG_PROCESS_END_EXITED, 0 };
  g_autoptr (MgProfile) profile = run_profile (python, &one, 1);
  MgWindow *window;
  GtkWidget *button;
  g_autofree char *text = NULL;
  gint64 deadline;

  gui_test_reset_settings ();
  window = gui_test_new_window (profile);
  gui_test_activate (window, "show-info", NULL);
  mg_test_spin (200);
  button = find_named (GTK_WIDGET (window), "copy-command");
  g_assert_nonnull (button);
  /* Beside the command, in the Run page's grid. */
  g_assert_true (GTK_IS_GRID (gtk_widget_get_parent (button)));
  g_assert_true (GTK_IS_BUTTON (button));
  g_assert_cmpstr (gtk_widget_get_name (button), ==, "copy-command");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (button), ==, "Copy the Command");
  g_assert_true (gtk_widget_get_mapped (button));
  /* As Enter on it: the click comes a moment later. */
  gtk_widget_activate (button);
  mg_test_spin (500);
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (button), NULL, on_clipboard_text, &text);
  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (text == NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (text, ==, "python3 -c 'print(1)'");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* 64 ranks that exited 0: one row; a rank that crashed and one killed keep
 * rows of their own, the others one row naming their ranks. */
static void
test_ends_grouped (void)
{
  const char *ring[] = { "./ring", "8", NULL };
  End odd[] = { { 5, MG_PROCESS_END_SIGNALLED, SIGSEGV }, { 9, MG_PROCESS_END_SIGNALLED, SIGTERM },
                { 40, MG_PROCESS_END_SIGNALLED, SIGTERM } };
  g_autoptr (MgProfile) all = ranks_profile (ring, 64, NULL, 0);
  g_autoptr (MgProfile) mixed = ranks_profile (ring, 64, odd, G_N_ELEMENTS (odd));
  GtkWidget *panel = g_object_ref_sink (mg_info_panel_new (all));
  g_autoptr (GPtrArray) rows = process_rows (panel);
  g_autofree char *crashed = g_strdup_printf ("rank 5=ring on node1, crashed: signal %d (%s)",
                                              SIGSEGV, g_strsignal (SIGSEGV));
  g_autofree char *killed = g_strdup_printf ("ranks 9, 40=2 processes were killed by signal %d (%s)",
                                             SIGTERM, g_strsignal (SIGTERM));

  g_assert_cmpuint (rows->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (rows, 0), ==, "ranks 0–63=64 processes exited with status 0");
  g_object_unref (panel);

  panel = g_object_ref_sink (mg_info_panel_new (mixed));
  g_ptr_array_unref (rows);
  rows = process_rows (panel);
  for (guint i = 0; i < rows->len; i++)
    g_test_message ("%s", (char *) g_ptr_array_index (rows, i));
  g_assert_cmpuint (rows->len, ==, 3);
  /* In the order of each group's first rank. */
  g_assert_cmpstr (g_ptr_array_index (rows, 0), ==,
                   "ranks 0–4, 6–8, 10–39, 41–63=61 processes exited with status 0");
  g_assert_cmpstr (g_ptr_array_index (rows, 1), ==, crashed);
  g_assert_cmpstr (g_ptr_array_index (rows, 2), ==, killed);
  g_object_unref (panel);
}

/* Past MG_INFO_PANEL_PROCESSES_SHOWN rows (each process its own status),
 * the rest on request. */
static void
test_ends_many_rows (void)
{
  const char *ring[] = { "./ring", NULL };
  const guint n = MG_INFO_PANEL_PROCESSES_SHOWN + 44;
  g_autofree End *ends = g_new0 (End, n);
  g_autoptr (MgProfile) profile = NULL;
  g_autoptr (GPtrArray) rows = NULL;
  GtkWidget *panel, *more, *button;

  for (guint i = 0; i < n; i++)
    ends[i] = (End) { (int) i, MG_PROCESS_END_EXITED, (int) i };
  profile = run_profile (ring, ends, n);
  panel = g_object_ref_sink (mg_info_panel_new (profile));
  rows = process_rows (panel);
  g_assert_cmpuint (rows->len, ==, MG_INFO_PANEL_PROCESSES_SHOWN + 1);
  g_assert_cmpstr (g_ptr_array_index (rows, rows->len - 1), ==, "+");
  /* The "and N more" row: its label and its button. */
  more = NULL;
  for (GtkWidget *child = gtk_widget_get_first_child (panel); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_BOX (child))
      more = child;
  g_assert_nonnull (more);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_widget_get_first_child (more))), ==,
                   "and 44 more processes");
  button = gtk_widget_get_last_child (more);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "Show _All");
  g_signal_emit_by_name (button, "clicked");
  g_ptr_array_unref (rows);
  rows = process_rows (panel);
  g_assert_cmpuint (rows->len, ==, n);
  g_assert_cmpstr (g_ptr_array_index (rows, n - 1), ==, "rank 299=ring on node1, exited with status 299");
  g_object_unref (panel);
}

/* Only with MG_GUI_SCREENSHOT_DIR: the Run page of a 64-rank run. */
static void
test_screenshot (void)
{
  const char *python[] = { "python3", "-c", "import time,sys; a=[]; print('ok')", NULL };
  End odd[] = { { 5, MG_PROCESS_END_SIGNALLED, SIGSEGV } };
  g_autoptr (MgProfile) profile = ranks_profile (python, 64, odd, 1);
  MgWindow *window;

  if (g_getenv ("MG_GUI_SCREENSHOT_DIR") == NULL)
    {
      g_test_skip ("MG_GUI_SCREENSHOT_DIR is not set");
      return;
    }
  gui_test_reset_settings ();
  window = gui_test_new_window (profile);
  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
  mg_test_spin (200);
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-info",
                                      g_variant_new_boolean (TRUE));
  mg_test_spin (800);
  g_assert_nonnull (find_named (GTK_WIDGET (window), "copy-command"));
  gui_test_save_screenshot (window, "run-page-1600x1000.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/run-page/command-quoted", test_command_quoted);
  g_test_add_func ("/gui/run-page/command-mpi", test_command_mpi);
  g_test_add_func ("/gui/run-page/copy-command", test_copy_command);
  g_test_add_func ("/gui/run-page/ends-grouped", test_ends_grouped);
  g_test_add_func ("/gui/run-page/ends-many-rows", test_ends_many_rows);
  g_test_add_func ("/gui/run-page/screenshot", test_screenshot);
  return gui_test_run ();
}
