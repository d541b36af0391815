/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run dialog and the live view under Xvfb, driven through their
 * widgets, properties and actions: checks ↔ command line, errors beside the
 * fields, a real run with live graphs, then the saved profile in the
 * window; failures explained. MG_GUI_SCREENSHOT_DIR=dir saves screenshots. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <signal.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>

#include "gui/graph/mg-metric-graph.h"
#include "gui/graph/mg-time-axis.h"
#include "gui/mg-metric-row.h"
#include "gui/mg-metric-rows.h"
#include "profile/mg-profile-builder.h"
#include "gui/mg-application.h"
#include "mg-resources.h"
#include "gui/run/mg-run-actions.h"
#include "session/mg-run-settings-line.h"
#include "gui/run/mg-run-dialog-private.h"
#include "gui/run/mg-run-end.h"
#include "gui/run/mg-run-host.h"
#include "session/mg-run-metric-toggles.h"
#include "gui/run/mg-run-view-private.h"
#include "gui/mg-code-view-private.h"
#include "session/mg-run-settings-from-profile.h"
#include "gui/mg-window-private.h"
#include "gui/mg-error-list.h"
#include "profile/mg-stop-event.h"
#include "session/mg-host-probe.h"
#include "profile/mg-unavailable.h"
#include "session-test-support.h"
#include "mg-test-common.h"

static GtkApplication *app;

/* Metrics that need hardware (counters, RAPL, a GPU) or MPI: off, so runs
 * here have no plugin errors. */
#define QUIET_METRICS "--disable-metrics=cpu_instructions,energy,mpi,software_events,gpu"

/* The first widget of type under root (root included), or NULL. */
static GtkWidget *
find_type (GtkWidget *root, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_type (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
save_png (GtkWidget *widget, const char *name)
{
  const char *dir = g_getenv ("MG_GUI_SCREENSHOT_DIR");
  g_autofree char *path = NULL;
  g_autoptr (GdkPaintable) paintable = NULL;
  g_autoptr (GtkSnapshot) snapshot = NULL;
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);

  if (dir == NULL)
    return;
  paintable = gtk_widget_paintable_new (widget);
  /* A widget shown a moment ago may not have drawn yet (a loaded machine):
   * its paintable is empty until then. */
  for (int tries = 0; node == NULL && tries < 100; tries++)
    {
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
      if (node == NULL)
        mg_test_spin (20);
    }
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  path = g_build_filename (dir, name, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
}

static void
type_into (MgRunDialog *dialog, const char *field, const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (mg_run_dialog_get_field (dialog, field)), text);
}

static void
assert_command (MgRunDialog *dialog, const char *expected)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (mg_run_dialog_get_field (dialog, "command")));
  GtkTextIter start, end;
  g_autofree char *shown = NULL;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  shown = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  g_assert_cmpstr (mg_run_dialog_get_command_line (dialog), ==, expected);
  g_assert_cmpstr (shown, ==, expected);
}

static void
assert_error_contains (MgRunDialog *dialog, const char *field, const char *part)
{
  const char *message = mg_run_dialog_get_field_error (dialog, field);

  if (part == NULL)
    g_assert_cmpstr (message, ==, NULL);
  else if (message == NULL || strstr (message, part) == NULL)
    g_error ("%s: “%s” lacks “%s”", field, message, part);
}

static MgRunDialog *
fixture_dialog (void)
{
  g_autoptr (MgCatalogue) catalogue = session_test_fixture_catalogue ();
  g_autoptr (MgRunSettings) initial = mg_run_settings_new ();
  MgRunDialog *dialog;

  mg_run_settings_set_program (initial, "./app");
  dialog = mg_run_dialog_new (NULL, catalogue, initial);
  gtk_window_present (GTK_WINDOW (dialog));
  mg_test_spin (50);
  return dialog;
}

/* Every check and group check changes the line at once; a pasted line sets
 * the checks and fields. */

/* The search filters after a pause in typing: waited for, not slept. */
static gboolean
visible_metrics_are (gpointer data)
{
  void **args = data;

  return mg_run_dialog_get_n_visible_metrics (args[0]) == GPOINTER_TO_UINT (args[1]);
}

static void
assert_visible_metrics (MgRunDialog *dialog, guint expected)
{
  void *args[] = { dialog, GUINT_TO_POINTER (expected) };

  session_test_wait (visible_metrics_are, args, 20);
  g_assert_cmpuint (mg_run_dialog_get_n_visible_metrics (dialog), ==, expected);
}

static void
test_checks_and_command_line (void)
{
  MgRunDialog *dialog = fixture_dialog ();
  GtkCheckButton *on1 = mg_run_dialog_get_metric_check (dialog, "fx_on1");
  GtkCheckButton *on2 = mg_run_dialog_get_metric_check (dialog, "fx_on2");
  GtkCheckButton *off = mg_run_dialog_get_metric_check (dialog, "fx_off");
  GtkCheckButton *group = mg_run_dialog_get_group_check (dialog, "fixture");
  GtkCheckButton *always = mg_run_dialog_get_metric_check (dialog, "fx_always");
  GtkCheckButton *never = mg_run_dialog_get_metric_check (dialog, "fx_never");
  GtkCheckButton *missing = mg_run_dialog_get_metric_check (dialog, "fx_missing");
  GtkWidget *env_list;

  assert_command (dialog, "metrograph --profile ./app");
  /* Definition defaults; always / never / unavailable locked. */
  g_assert_true (gtk_check_button_get_active (on1));
  g_assert_false (gtk_check_button_get_active (off));
  g_assert_true (gtk_check_button_get_active (always));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (always)));
  g_assert_false (gtk_check_button_get_active (never));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (never)));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (missing)));
  g_assert_true (gtk_check_button_get_inconsistent (group));

  gtk_check_button_set_active (on1, FALSE);
  assert_command (dialog, "metrograph --profile --disable-metrics=fx_on1 ./app");
  gtk_check_button_set_active (on2, FALSE);
  assert_command (dialog, "metrograph --profile --disable-metrics=fixture ./app");
  g_assert_false (gtk_check_button_get_inconsistent (group));
  g_assert_false (gtk_check_button_get_active (group));
  gtk_check_button_set_active (off, TRUE);
  assert_command (dialog, "metrograph --profile --enable-metrics=fx_off --disable-metrics=fx_on1,fx_on2 ./app");
  g_assert_true (gtk_check_button_get_inconsistent (group));
  /* A mixed group turns fully on. */
  gtk_check_button_set_active (group, TRUE);
  assert_command (dialog, "metrograph --profile --enable-metrics=fx_off ./app");
  g_assert_true (gtk_check_button_get_active (on1));
  g_assert_false (gtk_check_button_get_inconsistent (group));
  gtk_check_button_set_active (mg_run_dialog_get_group_check (dialog, "io"), FALSE);
  assert_command (dialog, "metrograph --profile --enable-metrics=fx_off --disable-metrics=io ./app");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "run.reset-metrics", NULL);
  assert_command (dialog, "metrograph --profile ./app");

  /* The sampler's defaults typed in are not options. */
  type_into (dialog, "interval", "20");
  type_into (dialog, "max-samples", "4096");
  assert_command (dialog, "metrograph --profile ./app");
  type_into (dialog, "max-samples", "");

  /* Fields. */
  type_into (dialog, "arguments", "--size 10 'two words'");
  type_into (dialog, "interval", "5");
  type_into (dialog, "stop-after", "2.5");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (mg_run_dialog_get_field (dialog, "n-processes")), 4);
  mg_run_dialog_add_variable (dialog, "OMP_NUM_THREADS=2");
  mg_run_dialog_add_variable (dialog, "-LANG");
  assert_command (dialog, "env -u LANG OMP_NUM_THREADS=2 metrograph --profile --np=4 --interval=5 "
                          "--stop-after=2.5 ./app --size 10 'two words'");

  /* Pasting a line fills the dialog. */
  mg_run_dialog_set_command_line (dialog, "cd /tmp && metrograph --profile --samples=64 "
                                          "--enable-metrics=fx_off --disable-metrics=memory,fx_on2 "
                                          "./other 'a b' c");
  g_assert_null (mg_run_dialog_get_field_error (dialog, "command"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (mg_run_dialog_get_field (dialog, "program"))), ==, "./other");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (mg_run_dialog_get_field (dialog, "arguments"))), ==, "'a b' c");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (mg_run_dialog_get_field (dialog, "working-folder"))), ==, "/tmp");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (mg_run_dialog_get_field (dialog, "max-samples"))), ==, "64");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (mg_run_dialog_get_field (dialog, "interval"))), ==, "");
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (mg_run_dialog_get_field (dialog, "n-processes"))), ==, 0);
  env_list = gtk_widget_get_first_child (gtk_widget_get_parent (mg_run_dialog_get_field (dialog, "environment")));
  g_assert_false (gtk_widget_get_visible (env_list));
  g_assert_true (gtk_check_button_get_active (off));
  g_assert_true (gtk_check_button_get_active (on1));
  g_assert_false (gtk_check_button_get_active (on2));
  g_assert_false (gtk_check_button_get_active (mg_run_dialog_get_metric_check (dialog, "rss")));
  g_assert_false (gtk_check_button_get_active (mg_run_dialog_get_group_check (dialog, "memory")));
  g_assert_true (gtk_check_button_get_inconsistent (mg_run_dialog_get_group_check (dialog, "defaultGroup")));

  /* A bad line: the message under it, the dialog as it was. */
  mg_run_dialog_set_command_line (dialog, "metrograph --profile --interval=fast ./x");
  assert_error_contains (dialog, "command", "--interval=fast");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (mg_run_dialog_get_field (dialog, "program"))), ==, "./other");

  /* The search box. */
  type_into (dialog, "search", "by default");
  assert_visible_metrics (dialog, 3);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
test_errors_beside_fields (void)
{
  MgRunDialog *dialog = fixture_dialog ();
  g_autofree char *dir = g_dir_make_tmp ("mg-run-dialog-XXXXXX", NULL);

  type_into (dialog, "working-folder", dir);
  type_into (dialog, "program", "./no-such-program");
  assert_error_contains (dialog, "program", "does not exist");
  type_into (dialog, "program", "sh");
  assert_error_contains (dialog, "program", NULL);
  type_into (dialog, "interval", "abc");
  assert_error_contains (dialog, "interval", "Give a whole number of at least 1");
  type_into (dialog, "max-samples", "8");
  assert_error_contains (dialog, "max-samples", "at least 16");
  type_into (dialog, "start-after", "2");
  type_into (dialog, "stop-after", "1");
  assert_error_contains (dialog, "stop-after", "later than");
  type_into (dialog, "working-folder", "/no/such/folder");
  assert_error_contains (dialog, "working-folder", "is not a folder");
  mg_run_dialog_add_variable (dialog, "JUSTANAME");
  assert_error_contains (dialog, "environment", "NAME=value to set it");

  if (g_getenv ("MG_GUI_SCREENSHOT_DIR") != NULL)
    {
      mg_test_spin (100);
      save_png (GTK_WIDGET (dialog), "run-dialog-errors.png");
    }
  /* Profile refuses and starts nothing. */
  gtk_widget_activate_action (GTK_WIDGET (dialog), "run.start", NULL);
  g_assert_null (mg_run_dialog_get_session (dialog));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));

  /* Fixed, the messages go. */
  type_into (dialog, "interval", "10");
  type_into (dialog, "max-samples", "");
  type_into (dialog, "stop-after", "");
  type_into (dialog, "working-folder", dir);
  assert_error_contains (dialog, "interval", NULL);
  assert_error_contains (dialog, "max-samples", NULL);
  assert_error_contains (dialog, "stop-after", NULL);
  assert_error_contains (dialog, "working-folder", NULL);

  /* A missing program: said beside the field, no run. */
  type_into (dialog, "program", "");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "run.start", NULL);
  assert_error_contains (dialog, "program", "Choose the program");
  type_into (dialog, "program", "/no/such/program");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "run.start", NULL);
  assert_error_contains (dialog, "program", "/no/such/program does not exist");
  g_assert_null (mg_run_dialog_get_session (dialog));
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_rmdir (dir);
}

static void
on_clipboard_text (GObject *source, GAsyncResult *result, gpointer data)
{
  char **text = data;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
  if (*text == NULL)
    *text = g_strdup ("(nothing)");
}

static gboolean
is_set (gpointer data)
{
  return *(char **) data != NULL;
}

static char *
read_clipboard (GtkWidget *widget)
{
  char *text = NULL;

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, on_clipboard_text, &text);
  g_assert_true (session_test_wait (is_set, &text, 10));
  return text;
}

/* Copy puts the line exactly as shown on the clipboard. */
static void
test_copy_command (void)
{
  MgRunDialog *dialog = fixture_dialog ();
  const char *pasted = "cd '/tmp/a b' && env A=1 metrograph --profile -n 2 --stop-after 3 ./app 'x y'";
  g_autofree char *copied = NULL;

  type_into (dialog, "arguments", "--size 10 'two words'");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "run.copy-command", NULL));
  copied = read_clipboard (GTK_WIDGET (dialog));
  g_assert_cmpstr (copied, ==, "metrograph --profile ./app --size 10 'two words'");
  g_assert_cmpstr (copied, ==, mg_run_dialog_get_command_line (dialog));
  g_clear_pointer (&copied, g_free);
  /* A pasted line in its own spelling. */
  mg_run_dialog_set_command_line (dialog, pasted);
  gtk_widget_activate_action (GTK_WIDGET (dialog), "run.copy-command", NULL);
  copied = read_clipboard (GTK_WIDGET (dialog));
  g_assert_cmpstr (copied, ==, pasted);
  /* Wrapped where it must, but never with a hyphen that reads as part of
   * a path: the whole line, typed or set, is tagged so. */
  {
    GtkTextBuffer *buffer =
      gtk_text_view_get_buffer (GTK_TEXT_VIEW (mg_run_dialog_get_field (dialog, "command")));
    GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "no-hyphens");
    GtkTextIter at;
    gboolean hyphens = TRUE;

    g_assert_nonnull (tag);
    g_object_get (tag, "insert-hyphens", &hyphens, NULL);
    g_assert_false (hyphens);
    gtk_text_buffer_get_end_iter (buffer, &at);
    gtk_text_buffer_insert (buffer, &at, " /a/very/long/path/typed/at/the/end", -1);
    for (gtk_text_buffer_get_start_iter (buffer, &at); !gtk_text_iter_is_end (&at);
         gtk_text_iter_forward_char (&at))
      g_assert_true (gtk_text_iter_has_tag (&at, tag));
  }
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* Why a metric cannot be switched is written under its check; broken
 * definition files are listed with their file, line and message. */
static void
test_metric_reasons (void)
{
  g_autoptr (MgCatalogue) catalogue = session_test_fixture_catalogue ();
  MgRunDialog *dialog = mg_run_dialog_new (NULL, catalogue, NULL);
  const MgCatalogueMetric *missing = mg_catalogue_lookup_metric (catalogue, "fx_missing");
  g_auto (GStrv) broken = NULL;
  gboolean found = FALSE;

  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_nonnull (missing->unavailable_reason);
  g_assert_cmpstr (mg_run_dialog_get_metric_reason (dialog, "fx_missing"), ==,
                   missing->unavailable_reason);
  g_assert_nonnull (strstr (mg_run_dialog_get_metric_reason (dialog, "fx_missing"),
                            "libnot-installed.so"));
  g_assert_cmpstr (mg_run_dialog_get_metric_reason (dialog, "fx_always"), ==,
                   "Always recorded (its definition says so)");
  g_assert_cmpstr (mg_run_dialog_get_metric_reason (dialog, "fx_never"), ==,
                   "Never recorded (its definition says so)");
  g_assert_null (mg_run_dialog_get_metric_reason (dialog, "fx_on1"));

  broken = mg_run_dialog_dup_definition_errors (dialog);
  g_assert_cmpuint (g_strv_length (broken), >=, 1);
  for (guint i = 0; broken[i] != NULL; i++)
    {
      g_test_message ("definition error row: %s", broken[i]);
      /* broken.xml: an unknown <enabled> value, then an unclosed element. */
      if (g_regex_match_simple ("broken\\.xml:[0-9]+(:[0-9]+)?: .+", broken[i], 0, 0))
        found = TRUE;
    }
  g_assert_true (found);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* The first visible, non-empty label of css_class under root, or NULL. */
static GtkWidget *
find_label_with_class (GtkWidget *root, const char *css_class)
{
  if (GTK_IS_LABEL (root) && gtk_widget_has_css_class (root, css_class)
      && gtk_widget_get_visible (root) && *gtk_label_get_text (GTK_LABEL (root)) != '\0')
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label_with_class (child, css_class);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static double
relative_luminance (const GdkRGBA *colour)
{
  const double c[3] = { colour->red, colour->green, colour->blue };
  double linear[3];

  for (guint i = 0; i < 3; i++)
    linear[i] = c[i] <= 0.04045 ? c[i] / 12.92 : pow ((c[i] + 0.055) / 1.055, 2.4);
  return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
}

/* WCAG's contrast of the label's text on the theme's colour named
 * background. */
static double
label_contrast (GtkWidget *label, const char *background)
{
  GdkRGBA fg, bg;
  double a, b;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (label), &fg);
  g_assert_true (gtk_style_context_lookup_color (gtk_widget_get_style_context (label), background,
                                                 &bg));
  G_GNUC_END_IGNORE_DEPRECATIONS
  g_assert_cmpfloat (fg.alpha, ==, 1);
  a = relative_luminance (&fg);
  b = relative_luminance (&bg);
  return (MAX (a, b) + 0.05) / (MIN (a, b) + 0.05);
}

/* A field's error and a metric's reason read on a light and on a dark
 * theme: #c01c28 and #986a00 were 2.0 : 1 and 2.9 : 1 on Adwaita's dark
 * window and list backgrounds. */
static void
test_dark_colours (void)
{
  GtkSettings *settings = gtk_settings_get_default ();

  for (guint dark = 0; dark < 2; dark++)
    {
      g_autoptr (MgCatalogue) catalogue = session_test_fixture_catalogue ();
      MgRunDialog *dialog;
      GtkWidget *error, *reason;
      double error_ratio, reason_ratio;

      g_object_set (settings, "gtk-application-prefer-dark-theme", (gboolean) dark, NULL);
      dialog = mg_run_dialog_new (NULL, catalogue, NULL);
      gtk_window_present (GTK_WINDOW (dialog));
      type_into (dialog, "interval", "abc");
      assert_error_contains (dialog, "interval", "Give a whole number of at least 1");
      mg_test_spin (50);
      error = find_label_with_class (GTK_WIDGET (dialog), "field-error");
      reason = g_object_get_data (G_OBJECT (mg_run_dialog_get_metric_check (dialog, "fx_missing")),
                                  "reason");
      g_assert_true (GTK_IS_LABEL (reason));
      g_assert_true (gtk_widget_has_css_class (reason, "metric-reason"));
      g_assert_nonnull (error);
      g_assert_nonnull (reason);
      error_ratio = label_contrast (error, "theme_bg_color");
      reason_ratio = label_contrast (reason, "theme_base_color");
      g_test_message ("%s: field error %.2f : 1, metric reason %.2f : 1", dark ? "dark" : "light",
                      error_ratio, reason_ratio);
      g_assert_cmpfloat (error_ratio, >=, 4.5);
      g_assert_cmpfloat (reason_ratio, >=, 4.5);
      if (g_getenv ("MG_GUI_SCREENSHOT_DIR") != NULL)
        save_png (GTK_WIDGET (dialog), dark ? "run-dialog-error-dark.png" : "run-dialog-error-light.png");
      gtk_window_destroy (GTK_WINDOW (dialog));
    }
  g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
}

/* One process on host that recorded "cpu", the energy plugin declining
 * there (code 0: nothing to measure), as a run on a machine without RAPL
 * leaves it. */
#define NO_RAPL "Energy: no RAPL: /sys/class/powercap does not exist (load it with 'modprobe intel_rapl_common')"

static MgProfile *
declined_profile (const char *host)
{
  MgProfileBuilder *builder = mg_profile_builder_new ();
  const char *argv[] = { "./app", NULL };
  MgMetricDef *def = mg_metric_def_new ();
  MgProcessInfo info = { .pid = 10, .ppid = 1, .rank = -1, .host = (char *) host,
                         .program = (char *) "app", .end_s = 1, .end = MG_PROCESS_END_EXITED };
  MgPluginError declined = { 0, (char *) "org.metrograph.metrics.energy_src",
                             (char *) "libmetrograph-energy.so", 0, (char *) NO_RAPL };
  g_autoptr (GError) error = NULL;
  MgProfile *profile;
  guint p;

  def->id = g_strdup ("cpu");
  def->data_type = MG_DATA_TYPE_DOUBLE;
  mg_profile_builder_set_command (builder, argv, "/tmp");
  mg_profile_builder_set_interval (builder, 10, 10, 1000);
  mg_profile_builder_add_metric (builder, def);
  mg_metric_def_free (def);
  p = mg_profile_builder_add_process (builder, &info);
  for (guint w = 0; w < 10; w++)
    {
      double v = 50;

      mg_profile_builder_add_sample (builder, p, w * 0.01, (w + 1) * 0.01, &v, &v, &v);
    }
  mg_profile_builder_add_plugin_error (builder, &declined);
  profile = mg_profile_builder_finish (builder, 0, &error);
  g_assert_no_error (error);
  mg_profile_builder_free (builder);
  return profile;
}

/* The id label beside a metric's check. */
static GtkLabel *
metric_id_label (MgRunDialog *dialog, const char *metric_id)
{
  GtkWidget *check = GTK_WIDGET (mg_run_dialog_get_metric_check (dialog, metric_id));
  GtkWidget *id = g_object_get_data (G_OBJECT (check), "id-label");

  g_assert_true (GTK_IS_LABEL (id));
  return GTK_LABEL (id);
}

/* Ids are cut at their end (they share their start), whole in a tooltip;
 * what a profile recorded on this machine says its plugins could not
 * measure is marked in the list, with the reason, and unchecked, as the
 * viewer's Run page says it; a profile from another machine changes
 * nothing. */
static gboolean
host_probed (gpointer dialog)
{
  return mg_run_dialog_get_host_probed (dialog);
}

/* Without a profile recorded here (none open), the dialog asks the host
 * probe (mg-host-probe.h): a short run with every metric on, whose plugins
 * decline what this machine lacks; here RAPL, its folder made empty. The
 * answer is kept: a second dialog has it at once. */
static void
test_unavailable_probed (void)
{
  g_autofree char *powercap = g_dir_make_tmp ("mg-no-rapl-XXXXXX", NULL);
  MgRunDialog *dialog;
  gint64 start;
  double first_s, second_s;
  guint n_runs;

  g_setenv ("METROGRAPH_POWERCAP_DIR", powercap, TRUE);
  mg_host_probe_forget ();
  dialog = mg_run_open_dialog (NULL, NULL, NULL);
  start = g_get_monotonic_time ();
  /* It opens at once, with nothing marked yet. */
  g_assert_false (mg_run_dialog_get_host_probed (dialog));
  g_assert_null (mg_run_dialog_get_metric_reason (dialog, "rapl_power"));
  g_assert_true (session_test_wait (host_probed, dialog, 30));
  first_s = (g_get_monotonic_time () - start) / 1e6;
  g_assert_cmpstr (mg_run_dialog_get_metric_reason (dialog, "rapl_power"), ==,
                   "Not available on this machine: no RAPL");
  g_assert_cmpstr (mg_run_dialog_get_metric_reason (dialog, "rapl_energy"), ==,
                   "Not available on this machine: no RAPL");
  g_assert_false (gtk_check_button_get_active (mg_run_dialog_get_metric_check (dialog, "rapl_power")));
  g_assert_false (gtk_check_button_get_active (mg_run_dialog_get_metric_check (dialog, "rapl_energy")));
  g_assert_nonnull (strstr (mg_run_dialog_get_command_line (dialog), "--disable-metrics=energy"));
  /* What this machine has stays as it was: CPU time is measured. */
  g_assert_null (mg_run_dialog_get_metric_reason (dialog, "cpu_time_percentage"));
  gtk_window_destroy (GTK_WINDOW (dialog));
  n_runs = mg_host_probe_get_n_runs ();
  g_assert_cmpuint (n_runs, >=, 1);

  dialog = mg_run_open_dialog (NULL, NULL, NULL);
  start = g_get_monotonic_time ();
  g_assert_true (session_test_wait (host_probed, dialog, 5));
  second_s = (g_get_monotonic_time () - start) / 1e6;
  g_test_message ("host probe: the first dialog answered %.2f s after it opened, the second "
                  "%.3f s after", first_s, second_s);
  /* No second run: the first one's answer. */
  g_assert_cmpuint (mg_host_probe_get_n_runs (), ==, n_runs);
  g_assert_cmpstr (mg_run_dialog_get_metric_reason (dialog, "rapl_power"), ==,
                   "Not available on this machine: no RAPL");
  gtk_window_destroy (GTK_WINDOW (dialog));

  /* The application quitting mid-probe ends it at once: the dialog is told
   * nothing, marks nothing, and the probe leaves no run folder behind
   * (it would read as an interrupted run). */
  mg_host_probe_forget ();
  {
    g_autofree char *tmp = g_dir_make_tmp ("mg-probe-tmp-XXXXXX", NULL);
    g_autoptr (GDir) listing = NULL;

    g_setenv ("METROGRAPH_TMPDIR", tmp, TRUE);
    dialog = mg_run_open_dialog (NULL, NULL, NULL);
    g_assert_cmpuint (mg_host_probe_get_n_runs (), ==, n_runs + 1);
    /* Its run folder is there while it runs. */
    listing = g_dir_open (tmp, 0, NULL);
    g_assert_nonnull (g_dir_read_name (listing));
    g_clear_pointer (&listing, g_dir_close);
    mg_host_probe_abandon ();
    g_assert_true (session_test_wait (host_probed, dialog, 5));
    g_assert_null (mg_run_dialog_get_metric_reason (dialog, "rapl_power"));
    listing = g_dir_open (tmp, 0, NULL);
    g_assert_null (g_dir_read_name (listing));
    g_unsetenv ("METROGRAPH_TMPDIR");
    g_rmdir (tmp);
    gtk_window_destroy (GTK_WINDOW (dialog));
  }
  mg_host_probe_forget ();
  g_unsetenv ("METROGRAPH_POWERCAP_DIR");
  g_rmdir (powercap);
}

static void
test_unavailable_here (void)
{
  g_autoptr (MgProfile) elsewhere = declined_profile ("another-host.example");
  g_autoptr (MgProfile) here = declined_profile (g_get_host_name ());
  MgRunDialog *dialog = fixture_dialog ();
  g_autofree char *before = NULL;
  GtkLabel *id;
  GtkWidget *reason;

  gtk_window_set_default_size (GTK_WINDOW (dialog), 900, 600);
  id = metric_id_label (dialog, "com.allinea.metrics.perf.cycles_per_instruction");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (id)), ==,
                   "com.allinea.metrics.perf.cycles_per_instruction");
  /* Whole on screen, wrapped in the narrow list of a 900 × 600 dialog:
   * nothing cut, and within the list's width. */
  g_assert_cmpint (gtk_label_get_ellipsize (id), ==, PANGO_ELLIPSIZE_NONE);
  g_assert_true (gtk_label_get_wrap (id));
  mg_test_spin (200);
  {
    PangoLayout *layout = gtk_label_get_layout (id);
    GtkWidget *list = gtk_widget_get_ancestor (GTK_WIDGET (id), GTK_TYPE_LIST_BOX);
    graphene_rect_t bounds;

    g_assert_cmpstr (pango_layout_get_text (layout), ==,
                     "com.allinea.metrics.perf.cycles_per_instruction");
    g_assert_false (pango_layout_is_ellipsized (layout));
    /* Broken without a hyphen that would read as part of the id. */
    {
      PangoAttrIterator *it = pango_attr_list_get_iterator (gtk_label_get_attributes (id));
      PangoAttrInt *hyphens = (PangoAttrInt *) pango_attr_iterator_get (it, PANGO_ATTR_INSERT_HYPHENS);

      g_assert_nonnull (hyphens);
      g_assert_false (hyphens->value);
      pango_attr_iterator_destroy (it);
    }
    g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (id), list, &bounds));
    g_test_message ("id label %.0f × %.0f px in a list %d px wide, %d lines", bounds.size.width,
                    bounds.size.height, gtk_widget_get_width (list), pango_layout_get_line_count (layout));
    g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (list));
  }

  g_assert_true (gtk_check_button_get_active (mg_run_dialog_get_metric_check (dialog, "rapl_power")));
  g_assert_null (mg_run_dialog_get_metric_reason (dialog, "rapl_power"));
  before = g_strdup (mg_run_dialog_get_command_line (dialog));

  mg_run_dialog_learn_unavailable (dialog, elsewhere);
  mg_test_spin (50);
  g_assert_true (gtk_check_button_get_active (mg_run_dialog_get_metric_check (dialog, "rapl_power")));
  g_assert_null (mg_run_dialog_get_metric_reason (dialog, "rapl_power"));
  g_assert_cmpstr (mg_run_dialog_get_command_line (dialog), ==, before);

  mg_run_dialog_learn_unavailable (dialog, here);
  mg_test_spin (50);
  g_assert_cmpstr (mg_run_dialog_get_metric_reason (dialog, "rapl_power"), ==,
                   "Not available on this machine: no RAPL");
  g_assert_cmpstr (mg_run_dialog_get_metric_reason (dialog, "rapl_energy"), ==,
                   "Not available on this machine: no RAPL");
  g_assert_false (gtk_check_button_get_active (mg_run_dialog_get_metric_check (dialog, "rapl_power")));
  g_assert_false (gtk_check_button_get_active (mg_run_dialog_get_metric_check (dialog, "rapl_energy")));
  /* Still the user's to switch on (another node may have RAPL). */
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (mg_run_dialog_get_metric_check (dialog, "rapl_power"))));
  reason = g_object_get_data (G_OBJECT (mg_run_dialog_get_metric_check (dialog, "rapl_power")), "reason");
  g_assert_nonnull (reason);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (reason), ==, NO_RAPL);
  g_assert_true (gtk_widget_has_css_class (reason, "metric-reason"));
  /* The line follows the checks: it now leaves energy out (the group,
   * both its metrics being off). */
  g_test_message ("line: %s", mg_run_dialog_get_command_line (dialog));
  g_assert_nonnull (strstr (mg_run_dialog_get_command_line (dialog), "--disable-metrics=energy"));
  g_assert_null (strstr (before, "--disable-metrics=energy"));
  /* Other metrics as they were. */
  g_assert_true (gtk_check_button_get_active (mg_run_dialog_get_metric_check (dialog, "fx_on1")));
  g_assert_null (mg_run_dialog_get_metric_reason (dialog, "fx_on1"));
  if (g_getenv ("MG_GUI_SCREENSHOT_DIR") != NULL)
    {
      GtkWidget *search = mg_run_dialog_get_field (dialog, "search");

      gtk_editable_set_text (GTK_EDITABLE (search), "rapl");
      mg_test_spin (300);
      save_png (GTK_WIDGET (dialog), "run-dialog-unavailable-900x600.png");
      gtk_editable_set_text (GTK_EDITABLE (search), "perf");
      mg_test_spin (300);
      save_png (GTK_WIDGET (dialog), "run-dialog-ids-900x600.png");
    }
  gtk_window_destroy (GTK_WINDOW (dialog));
  test_unavailable_probed ();
}

/* The live view's output pane takes no room until the program prints, then
 * comes under the graphs, about 200 px tall, and folds away by its divider;
 * the figures say how far the samples reach, the header line for hover
 * values is empty off the graphs. */
static void
test_output_pane (void)
{
  g_autoptr (MgCatalogue) catalogue = session_test_fixture_catalogue ();
  g_autoptr (MgRunSettings) settings = mg_run_settings_new ();
  g_autoptr (MgRunSession) session = NULL;
  GtkWidget *window = gtk_window_new ();
  MgRunView *view = MG_RUN_VIEW (mg_run_view_new ());
  GtkWidget *pane, *paned;
  g_autofree char *output = NULL;

  mg_run_settings_set_program (settings, "./app");
  session = mg_run_session_new (settings, catalogue);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  mg_run_view_set_session (view, session);
  gtk_window_present (GTK_WINDOW (window));
  mg_test_spin (200);
  pane = mg_run_view_get_output_expander (view);
  paned = mg_run_view_get_output_paned (view);
  g_assert_false (gtk_widget_get_visible (pane));
  g_assert_null (mg_run_view_get_readout (view));
  g_assert_nonnull (strstr (mg_run_view_get_figures (view), "sampled to 0.0 s"));

  g_signal_emit_by_name (session, "output", "hello\n");
  mg_test_spin (200);
  g_assert_true (gtk_widget_get_visible (pane));
  output = mg_run_view_dup_output (view);
  g_assert_cmpstr (output, ==, "hello\n");
  /* Under the graphs, about 200 px of the view; foldable to nothing. */
  g_test_message ("paned %d px, divider at %d", gtk_widget_get_height (paned),
                  gtk_paned_get_position (GTK_PANED (paned)));
  g_assert_cmpint (gtk_widget_get_height (paned) - gtk_paned_get_position (GTK_PANED (paned)), <=, 210);
  g_assert_cmpint (gtk_widget_get_height (pane), >=, 100);
  g_assert_true (gtk_paned_get_shrink_end_child (GTK_PANED (paned)));
  gtk_paned_set_position (GTK_PANED (paned), gtk_widget_get_height (paned));
  mg_test_spin (100);
  {
    int max_position = 0;

    g_object_get (paned, "max-position", &max_position, NULL);
    g_test_message ("folded: divider at %d of %d, pane %d px", gtk_paned_get_position (GTK_PANED (paned)),
                    max_position, gtk_widget_get_height (pane));
    g_assert_cmpint (gtk_paned_get_position (GTK_PANED (paned)), ==, max_position);
    g_assert_cmpint (gtk_widget_get_height (paned) - max_position, <=, 10);
  }
  /* The header's button folds it too (issue #32), to its header alone, and
   * unfolds it where it was. */
  gtk_paned_set_position (GTK_PANED (paned), gtk_widget_get_height (paned) - 200);
  mg_test_spin (100);
  {
    GtkWidget *button = mg_run_view_get_output_fold_button (view);
    int unfolded = gtk_paned_get_position (GTK_PANED (paned));
    int header = gtk_widget_get_height (button);
    gboolean folded = FALSE;

    g_assert_true (gtk_widget_get_visible (button));
    g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "run-view.fold-output", NULL));
    mg_test_spin (100);
    g_object_get (view, "output-folded", &folded, NULL);
    g_assert_true (folded);
    g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)));
    g_test_message ("folded by its button: divider at %d of %d, pane %d px, header %d px",
                    gtk_paned_get_position (GTK_PANED (paned)), gtk_widget_get_height (paned),
                    gtk_widget_get_height (pane), header);
    /* The header stays, the text goes: the graphs get the rest. */
    g_assert_true (gtk_widget_get_mapped (button));
    g_assert_false (gtk_widget_get_mapped (mg_run_view_get_output_scroller (view)));
    g_assert_cmpint (gtk_widget_get_height (pane), >=, header);
    g_assert_cmpint (gtk_widget_get_height (pane), <=, header + 30);
    g_assert_cmpint (gtk_paned_get_position (GTK_PANED (paned)), >=,
                     gtk_widget_get_height (paned) - header - 31);
    /* A click on the button unfolds it where it was. */
    g_signal_emit_by_name (button, "clicked");
    mg_test_spin (100);
    g_object_get (view, "output-folded", &folded, NULL);
    g_assert_false (folded);
    g_assert_true (gtk_widget_get_mapped (mg_run_view_get_output_scroller (view)));
    g_assert_cmpint (gtk_paned_get_position (GTK_PANED (paned)), ==, unfolded);
    g_assert_cmpint (gtk_widget_get_height (pane), >=, 150);
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A window that showed a profile shows a run: its header offers nothing
 * of that profile (Metrics, processes, zoom, side panel) and the profile's
 * actions are off; back on the profile, all returns. */
static void
test_header_during_run (void)
{
  g_autoptr (MgProfile) profile = declined_profile ("node1");
  g_autoptr (MgCatalogue) catalogue = session_test_fixture_catalogue ();
  g_autoptr (MgRunSettings) settings = mg_run_settings_new ();
  g_autoptr (MgRunSession) session = NULL;
  MgWindow *window = mg_window_new (app);
  GtkWidget *header;
  MgRunHost *host;
  GtkWidget *metrics;

  mg_window_set_profile (window, profile, NULL);
  gtk_window_present (GTK_WINDOW (window));
  mg_test_spin (100);
  header = gtk_window_get_titlebar (GTK_WINDOW (window));
  metrics = find_type (header, GTK_TYPE_MENU_BUTTON);
  g_assert_true (gtk_widget_get_visible (metrics));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export"));

  mg_run_settings_set_program (settings, "./app");
  session = mg_run_session_new (settings, catalogue);
  host = mg_run_host_get_for_window (GTK_WINDOW (window));
  mg_run_host_show_session (host, session);
  mg_test_spin (100);
  g_assert_cmpstr (mg_run_host_get_page (host), ==, "run");
  g_assert_false (gtk_widget_get_visible (metrics));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "show-info"));
  save_png (GTK_WIDGET (window), "run-header-live.png");

  mg_run_session_cancel (session);
  mg_test_spin (200);
  g_assert_cmpstr (mg_run_host_get_page (host), ==, "viewer");
  g_assert_true (gtk_widget_get_visible (metrics));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export"));
  gtk_window_destroy (GTK_WINDOW (window));
}

static const char *
field_text (MgRunDialog *dialog, const char *field)
{
  return gtk_editable_get_text (GTK_EDITABLE (mg_run_dialog_get_field (dialog, field)));
}

/* A line that cannot be read: said beside it, and Profile waits (it would
 * start the last settings that read, not the line on screen). */
static void
test_bad_line_blocks_profile (void)
{
  MgRunDialog *dialog = fixture_dialog ();
  GtkWidget *profile = mg_run_dialog_get_field (dialog, "profile");
  g_autofree char *dir = g_dir_make_tmp ("mg-run-bad-XXXXXX", NULL);
  g_autofree char *good = g_strdup_printf ("metrograph --profile -o %s/ sh -c true", dir);

  mg_run_dialog_set_command_line (dialog, good);
  assert_error_contains (dialog, "command", NULL);
  g_assert_true (gtk_widget_is_sensitive (profile));

  mg_run_dialog_set_command_line (dialog, "metrograph --profile --interval=fast sh");
  assert_error_contains (dialog, "command", "--interval=fast");
  g_assert_false (gtk_widget_is_sensitive (profile));
  if (g_getenv ("MG_GUI_SCREENSHOT_DIR") != NULL)
    {
      mg_test_spin (100);
      save_png (GTK_WIDGET (dialog), "run-dialog-bad-line.png");
    }
  gtk_widget_activate_action (GTK_WIDGET (dialog), "run.start", NULL);
  g_assert_null (mg_run_dialog_get_session (dialog));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  /* Unclosed quotes, a missing program: the same. */
  mg_run_dialog_set_command_line (dialog, "metrograph --profile sh -c 'true");
  assert_error_contains (dialog, "command", "cannot read the command line");
  g_assert_false (gtk_widget_is_sensitive (profile));
  mg_run_dialog_set_command_line (dialog, "metrograph --profile");
  assert_error_contains (dialog, "command", "names no program");
  g_assert_false (gtk_widget_is_sensitive (profile));

  /* Fixed, Profile is back. */
  mg_run_dialog_set_command_line (dialog, good);
  assert_error_contains (dialog, "command", NULL);
  g_assert_true (gtk_widget_is_sensitive (profile));
  /* A field changed under a bad line: the line becomes the settings' own. */
  mg_run_dialog_set_command_line (dialog, "metrograph --profile --frobnicate sh");
  g_assert_false (gtk_widget_is_sensitive (profile));
  type_into (dialog, "arguments", "-c 'exit 0'");
  assert_error_contains (dialog, "command", NULL);
  g_assert_true (gtk_widget_is_sensitive (profile));
  g_assert_nonnull (strstr (mg_run_dialog_get_command_line (dialog), "sh -c 'exit 0'"));
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_rmdir (dir);
}

/* MPI processes and Sample ranks: what does not read stays as typed with
 * the reason beside it, and Profile points at it. */
static void
test_processes_and_ranks (void)
{
  MgRunDialog *dialog = fixture_dialog ();
  GtkSpinButton *processes = GTK_SPIN_BUTTON (mg_run_dialog_get_field (dialog, "n-processes"));
  const char *bad = "Give a number of processes from 1 to 4096, or Off";

  g_assert_cmpstr (field_text (dialog, "n-processes"), ==, "Off");
  type_into (dialog, "n-processes", "abc");
  assert_error_contains (dialog, "n-processes", bad);
  /* Leaving the field (the spin button's update) keeps the text. */
  gtk_spin_button_update (processes);
  g_assert_cmpstr (field_text (dialog, "n-processes"), ==, "abc");
  assert_error_contains (dialog, "n-processes", bad);
  g_assert_cmpuint (mg_run_settings_get_n_processes (mg_run_dialog_get_settings (dialog)), ==, 0);
  gtk_widget_activate_action (GTK_WIDGET (dialog), "run.start", NULL);
  g_assert_null (mg_run_dialog_get_session (dialog));
  type_into (dialog, "n-processes", "5000");
  assert_error_contains (dialog, "n-processes", bad);
  type_into (dialog, "select-ranks", "2,x");
  if (g_getenv ("MG_GUI_SCREENSHOT_DIR") != NULL)
    {
      mg_test_spin (100);
      save_png (GTK_WIDGET (dialog), "run-dialog-processes.png");
    }
  type_into (dialog, "select-ranks", "");

  type_into (dialog, "n-processes", "3");
  assert_error_contains (dialog, "n-processes", NULL);
  assert_command (dialog, "metrograph --profile --np=3 ./app");
  gtk_spin_button_update (processes);
  g_assert_cmpstr (field_text (dialog, "n-processes"), ==, "3");
  /* The arrows replace text that does not read (replacing the text went
   * through an empty field, Off). */
  type_into (dialog, "n-processes", "x");
  assert_error_contains (dialog, "n-processes", bad);
  gtk_spin_button_spin (processes, GTK_SPIN_STEP_FORWARD, 1);
  gtk_spin_button_spin (processes, GTK_SPIN_STEP_FORWARD, 1);
  g_assert_cmpstr (field_text (dialog, "n-processes"), ==, "2");
  assert_error_contains (dialog, "n-processes", NULL);
  assert_command (dialog, "metrograph --profile --np=2 ./app");
  type_into (dialog, "n-processes", "off");
  assert_command (dialog, "metrograph --profile ./app");
  /* So does a pasted line. */
  type_into (dialog, "n-processes", "many");
  mg_run_dialog_set_command_line (dialog, "metrograph --profile -n 2 ./app");
  g_assert_cmpstr (field_text (dialog, "n-processes"), ==, "2");
  assert_error_contains (dialog, "n-processes", NULL);

  /* Sample ranks. */
  type_into (dialog, "select-ranks", "1, 0");
  assert_error_contains (dialog, "select-ranks", NULL);
  assert_command (dialog, "metrograph --profile --np=2 --select-ranks=0-1 ./app");
  type_into (dialog, "select-ranks", "1,x");
  assert_error_contains (dialog, "select-ranks", "“x” is not a rank");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "run.start", NULL);
  g_assert_null (mg_run_dialog_get_session (dialog));
  type_into (dialog, "select-ranks", "4-5");
  assert_error_contains (dialog, "select-ranks", "None of the ranks of the 2 MPI processes");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "run.start", NULL);
  g_assert_null (mg_run_dialog_get_session (dialog));
  mg_run_dialog_set_command_line (dialog, "metrograph --profile --select-ranks=7,3-5 ./app");
  g_assert_cmpstr (field_text (dialog, "select-ranks"), ==, "3-5,7");
  assert_error_contains (dialog, "select-ranks", NULL);
  type_into (dialog, "select-ranks", "");
  assert_command (dialog, "metrograph --profile ./app");

  /* An MPI launcher as the program starts its own processes: refused with
   * MPI processes on, as the command line refuses --np with it. */
  type_into (dialog, "n-processes", "2");
  type_into (dialog, "program", "mpirun");
  assert_error_contains (dialog, "n-processes", "mpirun starts the MPI processes itself");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "run.start", NULL);
  g_assert_null (mg_run_dialog_get_session (dialog));
  type_into (dialog, "n-processes", "off");
  assert_error_contains (dialog, "n-processes", NULL);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static guint
n_completions (MgRunDialog *dialog)
{
  GtkEntryCompletion *completion =
    gtk_entry_get_completion (GTK_ENTRY (mg_run_dialog_get_field (dialog, "program")));

  return gtk_tree_model_iter_n_children (gtk_entry_completion_get_model (completion), NULL);
}

static gboolean
has_completions (gpointer dialog)
{
  return n_completions (dialog) > 0;
}

static gboolean
completion_has (MgRunDialog *dialog, const char *name)
{
  GtkTreeModel *model = gtk_entry_completion_get_model (
    gtk_entry_get_completion (GTK_ENTRY (mg_run_dialog_get_field (dialog, "program"))));
  GtkTreeIter iter;
  gboolean found = FALSE;

  for (gboolean more = gtk_tree_model_get_iter_first (model, &iter); more && !found;
       more = gtk_tree_model_iter_next (model, &iter))
    {
      g_autofree char *text = NULL;

      gtk_tree_model_get (model, &iter, 0, &text, -1);
      found = g_strcmp0 (text, name) == 0;
    }
  return found;
}

/* Opening the dialog reads no folder of PATH: the program names for the
 * completion are read in a thread once a program name is typed. */
static void
test_completion_lazy (void)
{
  MgRunDialog *dialog = fixture_dialog ();
  g_autofree char *bin = g_dir_make_tmp ("mg-run-path-XXXXXX", NULL);
  g_autofree char *tool = g_build_filename (bin, "mg-own-tool", NULL);
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *path = g_strdup_printf ("%s:%s", bin, old_path);

  g_assert_true (g_file_set_contents (tool, "#!/bin/sh\n", -1, NULL));
  g_setenv ("PATH", path, TRUE);
  mg_test_spin (200);
  g_assert_cmpuint (n_completions (dialog), ==, 0);
  type_into (dialog, "program", "mg");
  g_assert_true (session_test_wait (has_completions, dialog, 10));
  g_assert_true (completion_has (dialog, "mg-own-tool"));
  g_assert_true (completion_has (dialog, "sh"));
  g_setenv ("PATH", old_path, TRUE);
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_unlink (tool);
  g_rmdir (bin);
}

/* The dialog over a 1024 × 700 window (a small screen) fits within it,
 * where it opened at 1080 × 720, past the window; over a 1600 × 1000
 * window it keeps its own 1080 × 720. */
static void
test_fits_parent (void)
{
  const int sizes[][2] = { { 1024, 700 }, { 1600, 1000 } };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      GtkWindow *parent = GTK_WINDOW (gtk_window_new ());
      int width, height;

      gtk_window_set_default_size (parent, sizes[i][0], sizes[i][1]);
      gtk_window_present (parent);
      for (gint64 end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
           gtk_widget_get_width (GTK_WIDGET (parent)) != sizes[i][0] && g_get_monotonic_time () < end;)
        g_main_context_iteration (NULL, FALSE);
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (parent)), ==, sizes[i][0]);

      MgRunDialog *dialog = mg_run_dialog_new (parent, NULL, NULL);
      gtk_window_present (GTK_WINDOW (dialog));
      mg_test_spin (300);
      width = gtk_widget_get_width (GTK_WIDGET (dialog));
      height = gtk_widget_get_height (GTK_WIDGET (dialog));
      g_test_message ("over %d × %d: the dialog %d × %d", sizes[i][0], sizes[i][1], width, height);
      g_assert_cmpint (width, <=, sizes[i][0]);
      g_assert_cmpint (height, <=, sizes[i][1]);
      /* The size asked (the drawn one less a client-side frame's few px). */
      gtk_window_get_default_size (GTK_WINDOW (dialog), &width, &height);
      g_assert_cmpint (width, ==, MIN (1080, sizes[i][0]));
      g_assert_cmpint (height, ==, MIN (720, sizes[i][1]));
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (dialog)), >=, width - 24);
      g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (dialog)), >=, height - 24);
      g_autofree char *name = g_strdup_printf ("run-dialog-over-%d.png", sizes[i][0]);
      save_png (GTK_WIDGET (dialog), name);
      gtk_window_destroy (GTK_WINDOW (dialog));
      gtk_window_destroy (parent);
    }
}

/* A line with --metrics-path brings that folder's metrics into the dialog. */
static void
test_metrics_path (void)
{
  MgRunDialog *dialog = mg_run_dialog_new (NULL, NULL, NULL);
  g_autofree char *fixture = session_test_fixture_metrics_dir ();
  g_autofree char *line = g_strdup_printf ("metrograph --profile --metrics-path=%s "
                                           "--enable-metrics=fx_off ./app", fixture);

  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_null (mg_run_dialog_get_metric_check (dialog, "fx_off"));
  g_assert_nonnull (mg_run_dialog_get_metric_check (dialog, "rss"));
  mg_run_dialog_set_command_line (dialog, line);
  assert_error_contains (dialog, "command", NULL);
  g_assert_nonnull (mg_run_dialog_get_metric_check (dialog, "fx_off"));
  g_assert_true (gtk_check_button_get_active (mg_run_dialog_get_metric_check (dialog, "fx_off")));
  g_assert_nonnull (mg_run_dialog_get_metric_check (dialog, "rss"));
  assert_command (dialog, line);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static GtkDialog *
find_message_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return GTK_DIALOG (window);
    }
  return NULL;
}

/* The Write a report switch is --report in the live line, both ways; a
 * report file written in the line stays while the switch is on. */
static void
test_report_switch (void)
{
  MgRunDialog *dialog = fixture_dialog ();
  GtkSwitch *report = GTK_SWITCH (mg_run_dialog_get_field (dialog, "report"));

  type_into (dialog, "program", "./app");
  g_assert_false (gtk_switch_get_active (report));
  gtk_switch_set_active (report, TRUE);
  assert_command (dialog, "metrograph --profile --report ./app");
  gtk_switch_set_active (report, FALSE);
  assert_command (dialog, "metrograph --profile ./app");
  mg_run_dialog_set_command_line (dialog, "metrograph --profile --report=run.html ./app");
  g_assert_true (gtk_switch_get_active (report));
  g_assert_cmpstr (mg_run_settings_get_report (mg_run_dialog_get_settings (dialog)), ==,
                   "run.html");
  mg_run_dialog_set_command_line (dialog, "metrograph --profile ./app");
  g_assert_false (gtk_switch_get_active (report));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* Run again of a run whose program, arguments and folder are not UTF-8:
 * the fields and the line show them with U+FFFD (GTK takes only UTF-8),
 * and the settings keep their bytes until a field is edited. */
static void
test_any_bytes (void)
{
  g_autoptr (MgCatalogue) catalogue = session_test_fixture_catalogue ();
  g_autoptr (MgRunSettings) initial = mg_run_settings_new ();
  MgRunDialog *dialog;
  MgRunSettings *s;
  GtkTextBuffer *buffer;
  GtkTextIter start, end;
  g_autofree char *shown = NULL;

  mg_run_settings_set_program (initial, "./caf\xe9");
  mg_run_settings_set_arguments (initial, "'a\xff'");
  mg_run_settings_set_working_folder (initial, "/tmp/d\xe9");
  dialog = mg_run_dialog_new (NULL, catalogue, initial);
  gtk_window_present (GTK_WINDOW (dialog));
  mg_test_spin (50);

  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (mg_run_dialog_get_field (dialog, "program"))),
                   ==, "./caf\xef\xbf\xbd");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (mg_run_dialog_get_field (dialog,
                                                                                 "working-folder"))),
                   ==, "/tmp/d\xef\xbf\xbd");
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (mg_run_dialog_get_field (dialog, "command")));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  shown = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  g_assert_true (g_utf8_validate (shown, -1, NULL));
  g_assert_nonnull (strstr (shown, "caf\xef\xbf\xbd"));
  s = mg_run_dialog_get_settings (dialog);
  g_assert_cmpstr (mg_run_settings_get_program (s), ==, "./caf\xe9");
  g_assert_cmpstr (mg_run_settings_get_working_folder (s), ==, "/tmp/d\xe9");
  g_assert_cmpstr (mg_run_settings_get_arguments (s), ==, "'a\xff'");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* The Score-P field is --scorep-plugins (a bare name) and --scorep-metrics
 * (NAME:TOKEN,…) in the live line, both ways; what does not read stays
 * with the option's reason beside it, and a plugin without tokens is named. */
static void
test_scorep_field (void)
{
  MgRunDialog *dialog = fixture_dialog ();
  GtkWidget *field = mg_run_dialog_get_field (dialog, "scorep");
  MgRunSettings *settings = mg_run_dialog_get_settings (dialog);

  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field)), ==, "");
  type_into (dialog, "scorep", "perf:cycles,instructions fileparser");
  assert_command (dialog, "metrograph --profile --scorep-plugins=fileparser "
                          "--scorep-metrics=perf:cycles,instructions ./app");
  /* fileparser has no tokens: the selection says where to give them. */
  assert_error_contains (dialog, "scorep", "SCOREP_METRIC_FILEPARSER");
  type_into (dialog, "scorep", "perf:cycles,instructions fileparser:/proc/loadavg");
  assert_error_contains (dialog, "scorep", NULL);
  g_assert_cmpuint (g_strv_length ((GStrv) mg_run_settings_get_scorep_metrics (settings)), ==, 2);
  g_assert_cmpuint (g_strv_length ((GStrv) mg_run_settings_get_scorep_plugins (settings)), ==, 0);

  /* The line sets the field; the field's text is the line's values. */
  mg_run_dialog_set_command_line (dialog, "metrograph --profile --scorep-plugins=a,b "
                                          "--scorep-metrics=c:x,y --scorep-metrics=d:z ./app");
  assert_error_contains (dialog, "command", NULL);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field)), ==, "a b c:x,y d:z");
  mg_run_dialog_set_command_line (dialog, "metrograph --profile ./app");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field)), ==, "");

  /* NAME: without tokens is refused by the option's own parser. */
  type_into (dialog, "scorep", "perf:");
  assert_error_contains (dialog, "scorep", "NAME:TOKEN");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field)), ==, "perf:");
  assert_command (dialog, "metrograph --profile ./app");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* A token holding blanks (fileparser's "s= …" style) is quoted in the
 * field as in the line, both ways; unbalanced quotes are said. */
static void
test_scorep_field_blanks (void)
{
  MgRunDialog *dialog = fixture_dialog ();
  GtkWidget *field = mg_run_dialog_get_field (dialog, "scorep");
  MgRunSettings *settings = mg_run_dialog_get_settings (dialog);
  const char *const *metrics;

  type_into (dialog, "scorep", "fileparser:'s= MemFree',x \"perf:a b\"");
  assert_error_contains (dialog, "scorep", NULL);
  metrics = mg_run_settings_get_scorep_metrics (settings);
  g_assert_cmpuint (g_strv_length ((GStrv) metrics), ==, 2);
  g_assert_cmpstr (metrics[0], ==, "fileparser:s= MemFree,x");
  g_assert_cmpstr (metrics[1], ==, "perf:a b");
  assert_command (dialog, "metrograph --profile '--scorep-metrics=fileparser:s= MemFree,x' "
                          "'--scorep-metrics=perf:a b' ./app");

  mg_run_dialog_set_command_line (dialog, "metrograph --profile "
                                          "'--scorep-metrics=fileparser:s= Cached' ./app");
  assert_error_contains (dialog, "command", NULL);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field)), ==, "'fileparser:s= Cached'");
  g_assert_cmpstr (mg_run_settings_get_scorep_metrics (settings)[0], ==, "fileparser:s= Cached");

  type_into (dialog, "scorep", "'fileparser:s= Cached");
  assert_error_contains (dialog, "scorep", "Check the quotes");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field)), ==, "'fileparser:s= Cached");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static gboolean
metric_check_shown (gpointer data)
{
  void **args = data;

  return mg_run_dialog_get_metric_check (args[0], args[1]) != NULL;
}

static gboolean
field_error_shown (gpointer data)
{
  void **args = data;
  const char *message = mg_run_dialog_get_field_error (args[0], args[1]);

  return message != NULL && strstr (message, args[2]) != NULL;
}

static gboolean
field_error_gone (gpointer data)
{
  void **args = data;

  return mg_run_dialog_get_field_error (args[0], args[1]) == NULL;
}

/* The plugins the field names are listed (their probe, in the background)
 * before Profile: the metric list shows their group and metrics, and the
 * line's --disable-metrics=scorep:… reads, as on the command line — also
 * when the line names the plugin itself. A plugin that cannot be listed
 * is said under the field. */
static void
test_scorep_listed (void)
{
  g_autofree char *plugins = g_build_filename (g_getenv ("MG_BUILD_ROOT"), "tests", "scorep", NULL);
  g_autofree char *library_path = g_strconcat ("LD_LIBRARY_PATH=", plugins, NULL);
  g_autoptr (MgRunSettings) initial = mg_run_settings_new ();
  MgRunDialog *dialog;
  g_autofree char *line = NULL;
  const char *level = "scorep:mgt_process_sync:level";
  const char *counter = "scorep:mgt_process_sync:counter";
  void *level_shown[] = { NULL, (void *) level };

  mg_run_settings_set_program (initial, "./app");
  dialog = mg_run_dialog_new (NULL, NULL, initial);
  level_shown[0] = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
  mg_run_dialog_add_variable (dialog, library_path);
  g_assert_null (mg_run_dialog_get_metric_check (dialog, level));
  type_into (dialog, "scorep", "mgt_process_sync:counter,level");
  g_assert_true (session_test_wait (metric_check_shown, level_shown, 20));
  assert_error_contains (dialog, "scorep", NULL);
  g_assert_nonnull (mg_run_dialog_get_metric_check (dialog, counter));
  g_assert_nonnull (mg_run_dialog_get_group_check (dialog, "scorep:mgt_process_sync"));
  g_assert_true (gtk_check_button_get_active (mg_run_dialog_get_metric_check (dialog, level)));
  g_assert_true (gtk_check_button_get_active (mg_run_dialog_get_metric_check (dialog, counter)));
  type_into (dialog, "search", "mgt_process_sync");
  assert_visible_metrics (dialog, 2);
  save_png (GTK_WIDGET (dialog), "scorep-listed.png");
  type_into (dialog, "search", "");

  /* The line unticks a plugin metric. */
  line = g_strdup (mg_run_dialog_get_command_line (dialog));
  {
    const char *after = strstr (line, " --profile") + strlen (" --profile");
    g_autofree char *before = g_strndup (line, (gsize) (after - line));
    g_autofree char *edited = g_strconcat (before, " --disable-metrics=", level, after, NULL);

    mg_run_dialog_set_command_line (dialog, edited);
    assert_error_contains (dialog, "command", NULL);
    g_assert_false (gtk_check_button_get_active (mg_run_dialog_get_metric_check (dialog, level)));
    g_assert_true (gtk_check_button_get_active (mg_run_dialog_get_metric_check (dialog, counter)));
    g_assert_nonnull (strstr (mg_run_dialog_get_command_line (dialog), "--disable-metrics=scorep:mgt_process_sync:level"));
  }

  /* A line naming another plugin and one of its metrics at once reads
   * once that plugin is listed. */
  {
    const char *strict = "scorep:mgt_thread_strict:counter";
    void *strict_error[] = { dialog, (void *) "command" };
    g_autofree char *other = g_strdup_printf ("env %s metrograph --profile --disable-metrics=%s "
                                              "--scorep-metrics=mgt_thread_strict:counter,level ./app",
                                              library_path, strict);

    mg_run_dialog_set_command_line (dialog, other);
    assert_error_contains (dialog, "command", strict);
    g_assert_true (session_test_wait (field_error_gone, strict_error, 20));
    g_assert_nonnull (mg_run_dialog_get_metric_check (dialog, strict));
    g_assert_false (gtk_check_button_get_active (mg_run_dialog_get_metric_check (dialog, strict)));
    g_assert_true (gtk_check_button_get_active (
      mg_run_dialog_get_metric_check (dialog, "scorep:mgt_thread_strict:level")));
    g_assert_null (mg_run_dialog_get_metric_check (dialog, level));
  }

  /* A plugin that is not there. */
  {
    void *missing[] = { dialog, (void *) "scorep", (void *) "mgt_nosuch" };

    type_into (dialog, "scorep", "mgt_nosuch:x");
    g_assert_true (session_test_wait (field_error_shown, missing, 20));
    g_assert_nonnull (strstr (mg_run_dialog_get_field_error (dialog, "scorep"), "libmgt_nosuch.so"));
  }
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static MgRunDialog *
find_dialog (void)
{
  g_autoptr (GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (MG_IS_RUN_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      return l->data;
  return NULL;
}

/* app.profile (Ctrl+R) and app.run-again (Ctrl+Shift+R) open the dialog. */
static void
test_app_actions (void)
{
  g_auto (GStrv) profile_accels = gtk_application_get_accels_for_action (app, "app.profile");
  g_auto (GStrv) again_accels = gtk_application_get_accels_for_action (app, "app.run-again");
  MgRunDialog *dialog;

  g_assert_cmpstr (profile_accels[0], ==, "<Control>r");
  g_assert_cmpstr (again_accels[0], ==, "<Shift><Control>r");
  g_assert_null (find_dialog ());
  g_action_group_activate_action (G_ACTION_GROUP (app), "profile", NULL);
  mg_test_spin (50);
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  /* Only the run dialog: no "profile from a terminal" message. */
  g_assert_null (find_message_dialog ());
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_action_group_activate_action (G_ACTION_GROUP (app), "run-again", NULL);
  mg_test_spin (50);
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* ---- runs --------------------------------------------------------------- */

typedef struct {
  gint64 first_update_us;
  gint64 ended_us;             /* the program ended (state left "running") */
  MgRunHost *host;
  guint live_rows;             /* graph rows seen while running */
  guint live_updates;
  guint samples_seen;
  gboolean grouped;            /* the viewer's group headers were shown */
  guint collapsed_at;          /* the update at which "Default" was collapsed */
  guint updates_collapsed;     /* later updates that kept it collapsed */
  gboolean no_wait;            /* run_through_dialog returns while it runs */
  const char *stop_after;      /* typed into Stop after, when set */
  const char *options;         /* the line's metric options, when not QUIET_METRICS */
  GHashTable *figures;         /* distinct texts of the live figures label */
  guint figures_checked;       /* times the label was compared with the session */
  guint titles_checked;        /* live profiles, and those whose window title named the run */
  guint titles_right;
  double sampled_s;            /* the figures' "sampled to": never went down */
  guint header_checked;        /* live profiles seen with the header and actions of the run */
  guint header_right;
  guint axis_checked;          /* live profiles whose graphs had a time axis beneath */
  guint hover_checked;         /* live profiles whose graphs answered a hover with values */
  guint n_profiles;            /* live profiles seen */
  guint held_updates;          /* the view's updates when the pointer came over a graph */
  gboolean held_checked;       /* the hover readout lasted through rebuilt rows */
  guint64 code_samples;        /* the most stack samples the live code views showed */
  guint code_functions;        /* and the most functions in their table */
  char *held_metric;           /* the metric hovered then */
} Live;

/* What a watch allocated, whenever the run ended: a quit mid-run can come
 * before the checks that free it. */
static void
live_clear (Live *live)
{
  g_clear_pointer (&live->figures, g_hash_table_unref);
  g_clear_pointer (&live->held_metric, g_free);
}

/* The live rows are grouped as the viewer groups them, and a group
 * collapsed by hand stays collapsed while the rows are rebuilt. */
static void
track_groups (Live *live, MgRunView *view)
{
  g_auto (GStrv) titles = mg_run_view_dup_group_titles (view);

  if (g_strv_contains ((const char *const *) titles, "CPU Time")
      && g_strv_contains ((const char *const *) titles, "Memory")
      && g_strv_contains ((const char *const *) titles, "Default"))
    live->grouped = TRUE;
  if (live->collapsed_at == 0 && live->live_updates >= 2 && live->grouped)
    {
      g_assert_true (mg_run_view_get_group_expanded (view, "Default"));
      g_assert_true (mg_run_view_set_group_expanded (view, "Default", FALSE));
      live->collapsed_at = live->live_updates;
    }
  else if (live->collapsed_at > 0 && live->live_updates > live->collapsed_at)
    {
      g_assert_false (mg_run_view_get_group_expanded (view, "Default"));
      g_assert_true (mg_run_view_get_group_expanded (view, "CPU Time"));
      live->updates_collapsed++;
    }
}

static MgProfile *
session_profile (MgRunSession *session)
{
  return mg_run_session_get_profile (session);
}

/* The live rows' hover tooltip, the pointer over the first graph on
 * screen: it is the rows' scrolled window's (which outlives the rows),
 * and says what a saved profile's tooltip says. Again after the rows were
 * rebuilt: on_live_profile. */
static gboolean check_live_tooltip_now (Live *live);

/* The check's timeout, one at a time: removed when its run ends and before
 * the next run starts (run_through_dialog), never firing on in another
 * test with this one's Live gone. */
static guint live_tooltip_source;

static gboolean
check_live_tooltip (gpointer data)
{
  Live *live = data;

  if (live->host != NULL && check_live_tooltip_now (live) == G_SOURCE_CONTINUE)
    return G_SOURCE_CONTINUE;
  live_tooltip_source = 0;
  return G_SOURCE_REMOVE;
}

static gboolean
check_live_tooltip_now (Live *live)
{
  MgRunView *view = mg_run_host_get_view (live->host);
  MgTimeView *time_view = mg_run_view_get_time_view (view);
  MgMetricRows *rows = MG_METRIC_ROWS (find_type (GTK_WIDGET (view), MG_TYPE_METRIC_ROWS));
  g_auto (GStrv) shown = mg_metric_rows_dup_visible_ids (rows);
  GtkWidget *scroller = mg_run_view_get_rows_scroller (view);
  GtkWidget *graph = NULL;
  const char *id = NULL;
  graphene_point_t at = { 0 };
  g_autofree char *tip = NULL, *saved = NULL, *off = NULL;

  if (mg_run_session_get_state (mg_run_host_get_session (live->host)) != MG_RUN_STATE_RUNNING)
    return G_SOURCE_REMOVE;
  for (guint i = 0; shown[i] != NULL && graph == NULL; i++)
    {
      GtkWidget *candidate = mg_metric_row_get_graph (mg_metric_rows_find_row (rows, shown[i]));

      if (gtk_widget_get_width (candidate) > 0
          && gtk_widget_compute_point (candidate, scroller,
                                       &GRAPHENE_POINT_INIT (gtk_widget_get_width (candidate) / 2.0,
                                                             gtk_widget_get_height (candidate) / 2.0),
                                       &at)
          && at.y > 0 && at.y < gtk_widget_get_height (scroller))
        {
          graph = candidate;
          id = shown[i];
        }
    }
  /* Rows not laid out yet: the next time. None in view (the live Code
   * pane under the rows leaves them less room than the rows above the
   * first graph take): scrolled to the first one laid out, then the next
   * time. */
  if (graph == NULL)
    {
      for (guint i = 0; shown[i] != NULL; i++)
        {
          GtkWidget *candidate = mg_metric_row_get_graph (mg_metric_rows_find_row (rows, shown[i]));
          GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));

          if (gtk_widget_get_width (candidate) > 0
              && gtk_widget_compute_point (candidate, scroller, &GRAPHENE_POINT_INIT (0, 0), &at))
            {
              gtk_adjustment_set_value (v, gtk_adjustment_get_value (v) + at.y);
              break;
            }
        }
      return G_SOURCE_CONTINUE;
    }
  g_assert_true (gtk_widget_get_has_tooltip (scroller));
  g_assert_false (gtk_widget_get_has_tooltip (graph));
  tip = mg_run_view_dup_tooltip_at (view, at.x, at.y);
  saved = mg_metric_graph_describe_time (MG_METRIC_GRAPH (graph),
                                         mg_time_view_get_hover_time (time_view));
  g_test_message ("live tooltip: %s", tip);
  g_assert_nonnull (tip);
  g_assert_cmpstr (tip, ==, saved);
  g_assert_nonnull (strchr (tip, '\n'));
  g_assert_cmpstr (mg_run_view_get_readout (view), ==, tip);
  /* Off the graphs (the labels' column): none, and the hovered row stays. */
  off = mg_run_view_dup_tooltip_at (view, 2, at.y);
  g_assert_null (off);
  live->held_metric = g_strdup (id);
  live->held_updates = mg_run_view_get_n_updates (view);
  return G_SOURCE_REMOVE;
}

static void
on_live_profile (MgRunSession *session, GParamSpec *pspec, Live *live)
{
  MgRunView *view = mg_run_host_get_view (live->host);

  if (mg_run_session_get_state (session) != MG_RUN_STATE_RUNNING)
    return;
  if (live->first_update_us == 0)
    live->first_update_us = g_get_monotonic_time ();
  live->live_rows = MAX (live->live_rows, mg_run_view_get_n_rows (view));
  live->live_updates = mg_run_view_get_n_updates (view);
  {
    /* The code views under the graphs follow the live profiles' stacks. */
    MgCodeView *code = MG_CODE_VIEW (mg_run_view_get_code_view (view));
    MgCodeTree *tree = mg_code_view_get_tree (code);
    if (tree != NULL)
      live->code_samples = MAX (live->code_samples,
                                mg_call_tree_get_total (mg_code_tree_get (tree)));
    live->code_functions = MAX (live->code_functions,
                                g_list_model_get_n_items (mg_code_view_get_functions_model (code)));
  }
  /* The pointer over a graph (as motion says it): the header reads its
   * values at the hover line, and keeps reading them as the rows are
   * rebuilt; off the graphs, nothing. */
  live->n_profiles++;
  if (live->n_profiles == 3)
    {
      MgTimeView *time_view = mg_run_view_get_time_view (view);
      MgProfile *now = session_profile (session);
      const char *id = NULL;

      /* The first metric with a graph. */
      for (guint m = 0; m < mg_profile_get_n_metrics (now) && id == NULL; m++)
        {
          g_autofree char *text = mg_run_view_dup_hover_text (view, mg_profile_get_metric (now, m)->id, 0.05);

          if (text != NULL)
            id = mg_profile_get_metric (now, m)->id;
        }
      g_assert_nonnull (id);
      /* Where that metric has a value: a plugin made to crash ("Crashes
       * at 20") has none after its crash, which the middle of the run
       * passes when the machine is slow. */
      mg_time_view_set_hover_time (time_view, 0.05);
      mg_run_view_hover_metric (view, id);
      g_assert_nonnull (mg_run_view_get_readout (view));
      g_assert_nonnull (strstr (mg_run_view_get_readout (view), " at "));
      mg_run_view_hover_metric (view, NULL);
      /* The tooltip itself, once these rows are laid out. */
      if (live_tooltip_source == 0)
        live_tooltip_source = g_timeout_add (100, check_live_tooltip, live);
    }
  else if (live->held_metric != NULL && !live->held_checked
           && mg_run_view_get_n_updates (view) > live->held_updates)
    {
      const char *readout = mg_run_view_get_readout (view);
      MgMetricRow *row = mg_metric_rows_find_row (
        MG_METRIC_ROWS (find_type (GTK_WIDGET (view), MG_TYPE_METRIC_ROWS)), live->held_metric);

      /* The rows were rebuilt: the hovered row and time are kept, the
       * tooltip's text is the new graph's. */
      g_assert_cmpuint (mg_run_view_get_n_updates (view), >, live->held_updates);
      g_assert_nonnull (readout);
      g_test_message ("live readout after %u rebuilds: %s",
                      mg_run_view_get_n_updates (view) - live->held_updates, readout);
      g_assert_nonnull (strstr (readout, "Max"));
      g_assert_nonnull (row);
      {
        g_autofree char *now = mg_metric_graph_describe_time (
          MG_METRIC_GRAPH (mg_metric_row_get_graph (row)),
          mg_time_view_get_hover_time (mg_run_view_get_time_view (view)));

        g_assert_cmpstr (readout, ==, now);
      }
      mg_time_view_set_hover_time (mg_run_view_get_time_view (view), -1);
      mg_run_view_hover_metric (view, NULL);
      g_assert_null (mg_run_view_get_readout (view));
      g_clear_pointer (&live->held_metric, g_free);
      live->held_checked = TRUE;
    }
  live->samples_seen = MAX (live->samples_seen, mg_run_session_get_n_samples (session));
  track_groups (live, view);
  /* The header offers nothing of the window's previous profile (none
   * here: the start page's), its actions are off; the live graphs have
   * the time axis of a saved profile beneath, spanning what was sampled. */
  {
    GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (view));
    MgTimeView *time_view = mg_run_view_get_time_view (view);
    GtkWidget *axis = find_type (GTK_WIDGET (view), MG_TYPE_TIME_AXIS);

    live->header_checked++;
    if (MG_IS_WINDOW (root)
        && !g_action_group_get_action_enabled (G_ACTION_GROUP (root), "export")
        && !g_action_group_get_action_enabled (G_ACTION_GROUP (root), "show-info"))
      live->header_right++;
    if (axis != NULL && gtk_widget_get_mapped (axis) && gtk_widget_get_width (axis) > 100
        && mg_time_view_get_end (time_view) > 0.09)
      live->axis_checked++;
    /* A live graph answers the hover with its values, as a saved one. */
    {
      MgProfile *now = mg_run_session_get_profile (session);
      g_autofree char *text = NULL;

      if (now != NULL && mg_profile_get_n_metrics (now) > 0)
        text = mg_run_view_dup_hover_text (view, mg_profile_get_metric (now, 0)->id,
                                           mg_time_view_get_end (time_view) / 2);
      if (text != NULL && strchr (text, ':') != NULL)
        live->hover_checked++;
    }
  }
  /* The header names the run on screen, by the program's name as typed. */
  {
    GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (view));
    g_autofree char *name = mg_run_session_dup_program_name (session);

    live->titles_checked++;
    if (GTK_IS_WINDOW (root) && g_strcmp0 (gtk_window_get_title (GTK_WINDOW (root)), name) == 0)
      live->titles_right++;
  }
}

static void
on_live_state (MgRunSession *session, GParamSpec *pspec, Live *live)
{
  if (mg_run_session_get_state (session) != MG_RUN_STATE_RUNNING && live->ended_us == 0)
    live->ended_us = g_get_monotonic_time ();
}

/* The figures label says what the session says: elapsed time (to a
 * tenth of a second, read a moment apart), processes and samples. */
static void
on_live_figures (MgRunSession *session, GParamSpec *pspec, Live *live)
{
  const char *text = mg_run_view_get_figures (mg_run_host_get_view (live->host));
  double elapsed = 0;
  guint processes = 0;
  double sampled = 0;
  char unit[32];

  if (mg_run_session_get_state (session) != MG_RUN_STATE_RUNNING)
    return;
  if (sscanf (text, "%lf s \xc2\xb7 %u %31s \xc2\xb7 sampled to %lf s", &elapsed, &processes,
              unit, &sampled) != 4)
    g_error ("figures “%s” do not read", text);
  g_assert_cmpuint (processes, ==, mg_run_session_get_n_processes (session));
  g_assert_cmpfloat (fabs (elapsed - mg_run_session_get_elapsed (session)), <, 0.2);
  g_assert_cmpstr (unit, ==, processes == 1 ? "process" : "processes");
  /* How far the samples reach: it only grows (a count of the live
   * profile's windows went down as they merged), behind the clock. */
  g_assert_cmpfloat (sampled, >=, live->sampled_s);
  g_assert_cmpfloat (sampled, <=, elapsed + 0.1);
  live->sampled_s = sampled;
  if (live->figures == NULL)
    live->figures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_add (live->figures, g_strdup (text));
  live->figures_checked++;
}

static gboolean
session_finished (gpointer data)
{
  return mg_run_session_is_finished (data);
}

static gboolean
live_enough (gpointer data)
{
  Live *live = data;

  return live->live_updates >= 4;
}

static gboolean
window_loaded (gpointer window)
{
  return mg_window_get_profile (window) != NULL && !mg_window_get_loading (window);
}

/* Opens the dialog over a fresh viewer window, fills it, starts the run and
 * waits for its end; returns the window. */
static MgWindow *
run_through_dialog (const char *program, const char *arguments, const char *folder, Live *live,
                    const char *screenshot_prefix)
{
  MgWindow *window = mg_window_new (app);
  g_autofree char *path = session_test_program (program);
  g_autofree char *line = NULL;
  MgRunDialog *dialog;
  MgRunSession *session;

  /* An earlier run's tooltip check ends with it. */
  g_clear_handle_id (&live_tooltip_source, g_source_remove);
  /* Screenshots at the size a first-time user tried it. */
  if (screenshot_prefix != NULL)
    gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
  else
    gtk_window_set_default_size (GTK_WINDOW (window), 1180, 760);
  gtk_window_present (GTK_WINDOW (window));
  mg_test_spin (50);
  dialog = g_object_ref (mg_run_open_dialog (GTK_WINDOW (window), NULL, NULL));
  /* The host probe's run (once per process) ends before this run starts:
   * the timings below are this run's alone. */
  g_assert_true (session_test_wait (host_probed, dialog, 30));
  line = g_strdup_printf ("metrograph --profile --interval=20 %s %s",
                          live->options != NULL ? live->options : QUIET_METRICS, path);
  mg_run_dialog_set_command_line (dialog, line);
  type_into (dialog, "arguments", arguments);
  type_into (dialog, "output", folder);
  if (live->stop_after != NULL)
    type_into (dialog, "stop-after", live->stop_after);
  gtk_check_button_set_active (mg_run_dialog_get_group_check (dialog, "io"), FALSE);
  mg_test_spin (100);
  if (screenshot_prefix != NULL)
    {
      g_autofree char *name = g_strdup_printf ("%s-dialog.png", screenshot_prefix);

      save_png (GTK_WIDGET (dialog), name);
    }
  gtk_widget_activate_action (GTK_WIDGET (dialog), "run.start", NULL);
  session = mg_run_dialog_get_session (dialog);
  g_assert_nonnull (session);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  live->host = mg_run_host_peek (GTK_WINDOW (window));
  g_assert_nonnull (live->host);
  g_assert_true (mg_run_host_get_session (live->host) == session);
  g_assert_cmpstr (mg_run_host_get_page (live->host), ==, "run");
  g_signal_connect (session, "notify::profile", G_CALLBACK (on_live_profile), live);
  g_signal_connect (session, "notify::state", G_CALLBACK (on_live_state), live);
  g_signal_connect (session, "notify::n-samples", G_CALLBACK (on_live_figures), live);
  g_signal_connect (session, "notify::elapsed", G_CALLBACK (on_live_figures), live);
  if (screenshot_prefix != NULL)
    {
      g_autofree char *name = g_strdup_printf ("%s-live.png", screenshot_prefix);

      session_test_wait (live_enough, live, 30);
      mg_test_spin (300);
      save_png (GTK_WIDGET (window), name);
    }
  if (!live->no_wait)
    {
      g_assert_true (session_test_wait (session_finished, session, 60));
      mg_test_spin (200);
      g_clear_handle_id (&live_tooltip_source, g_source_remove);
    }
  g_object_unref (dialog);
  return window;
}

static void
test_live_run (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mg-run-live-XXXXXX", NULL);
  Live live = { 0 };
  MgWindow *window = run_through_dialog ("run-workload", "work=2.5 'two words'", dir, &live,
                                         g_getenv ("MG_GUI_SCREENSHOT_DIR") != NULL ? "run" : NULL);
  MgRunSession *session = mg_run_host_get_session (live.host);
  MgProfile *profile;
  g_autofree char *output = NULL;
  g_autoptr (MgRunSettings) again = NULL;
  g_autofree char *again_line = NULL;
  g_auto (GStrv) visible = NULL;
  MgRunDialog *again_dialog;

  /* Live: rows and samples while the program ran, refreshed ≥ 2 per second. */
  g_assert_cmpuint (live.live_rows, >=, 3);
  g_assert_cmpuint (live.samples_seen, >=, 10);
  g_assert_cmpuint (live.live_updates, >=, 4);
  {
    /* The live view's Code pane: the stacks of the live profiles, seen
     * while the program ran or, on a loaded machine where its first
     * computation (loading the modules' symbols) outlasts the run, once
     * it is done with the last one. */
    MgCodeView *code = MG_CODE_VIEW (mg_run_view_get_code_view (mg_run_host_get_view (live.host)));
    gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
    while (mg_code_view_is_busy (code) && g_get_monotonic_time () < deadline)
      g_main_context_iteration (NULL, TRUE);
    g_assert_false (mg_code_view_is_busy (code));
    g_assert_nonnull (mg_code_view_get_tree (code));
    guint64 last = mg_call_tree_get_total (mg_code_tree_get (mg_code_view_get_tree (code)));
    g_test_message ("live code views: up to %" G_GUINT64_FORMAT " stack samples and %u "
                    "functions while running, %" G_GUINT64_FORMAT " samples at the end",
                    live.code_samples, live.code_functions, last);
    g_assert_cmpuint (MAX (live.code_samples, last), >, 0);
    g_assert_cmpuint (g_list_model_get_n_items (mg_code_view_get_functions_model (code)), >, 0);
  }
  g_assert_true (live.grouped);
  g_assert_cmpuint (live.updates_collapsed, >=, 1);
  {
    /* Counted from the first update (start-up and the first sample come
     * before it) to the program's end: at least two a second, over at
     * least a second (1.33 s of the 2.5 s run when the first update came
     * late on a loaded machine). */
    double span = (live.ended_us - live.first_update_us) / 1e6;
    double rate = live.live_updates / span;

    g_test_message ("live view: %u updates in %.2f s, %.1f per second, %u rows, %u samples",
                    live.live_updates, span, rate, live.live_rows, live.samples_seen);
    g_assert_cmpfloat (span, >, 1.0);
    g_assert_cmpfloat (rate, >=, 2.0);
  }
  /* The figures followed the session, and changed as it went. */
  g_assert_nonnull (live.figures);
  g_test_message ("figures: %u checks, %u different texts", live.figures_checked,
                  g_hash_table_size (live.figures));
  g_assert_cmpuint (g_hash_table_size (live.figures), >=, 5);
  g_assert_cmpuint (live.titles_checked, >=, 4);
  g_assert_cmpuint (live.titles_right, ==, live.titles_checked);
  live_clear (&live);
  g_assert_cmpfloat (live.sampled_s, >, 1.0);
  g_assert_cmpuint (live.header_checked, >=, 4);
  g_assert_cmpuint (live.header_right, ==, live.header_checked);
  g_assert_cmpuint (live.axis_checked, >=, 2);
  g_assert_cmpuint (live.hover_checked, >=, 2);
  g_assert_true (live.held_checked);
  output = mg_run_view_dup_output (mg_run_host_get_view (live.host));
  /* It printed: its pane is there. */
  g_assert_true (gtk_widget_get_visible (mg_run_view_get_output_expander (mg_run_host_get_view (live.host))));
  g_assert_nonnull (strstr (output, "argument: two words"));
  g_assert_nonnull (strstr (output, "step 2.0 s"));

  /* Then the saved profile in the window, in place of the live view. */
  g_assert_cmpint (mg_run_session_get_state (session), ==, MG_RUN_STATE_DONE);
  g_assert_cmpstr (mg_run_host_get_page (live.host), ==, "viewer");
  g_assert_cmpstr (mg_window_get_page (window), ==, "profile");
  profile = mg_window_get_profile (window);
  g_assert_true (profile == mg_run_session_get_profile (session));
  /* The profile's header and actions are back. */
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export"));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "show-info"));
  g_assert_cmpint (mg_profile_find_metric (profile, "cpu_time_percentage"), >=, 0);
  g_assert_cmpint (mg_profile_find_metric (profile, "rss"), >=, 0);
  g_assert_cmpint (mg_profile_find_metric (profile, "rchar_rate"), ==, -1);
  g_assert_cmpint (mg_profile_find_metric (profile, "com.allinea.metrics.perf.cycles"), ==, -1);
  visible = mg_window_get_visible_metric_ids (window);
  g_assert_true (g_strv_contains ((const char *const *) visible, "cpu_time_percentage"));
  g_assert_true (g_str_has_prefix (mg_run_host_get_banner_text (live.host), "The profile was saved as "));
  /* The saved profile on screen: its title again, by the name typed. */
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "run-workload");
  g_assert_true (g_file_test (mg_run_session_get_output_path (session), G_FILE_TEST_IS_REGULAR));
  /* What the program printed is part of the profile, in the file too. */
  g_assert_nonnull (strstr (mg_profile_get_run_info (profile)->output, "argument: two words"));
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (MgProfile) saved = mg_profile_load (mg_run_session_get_output_path (session), &error);

    g_assert_no_error (error);
    g_assert_nonnull (strstr (mg_profile_get_run_info (saved)->output, "step 2.0 s"));
    g_assert_cmpuint (mg_profile_get_run_info (saved)->output_cut, ==, 0);
  }
  if (g_getenv ("MG_GUI_SCREENSHOT_DIR") != NULL)
    save_png (GTK_WIDGET (window), "run-result.png");

  /* Run again: the recorded settings, metrics included. */
  again_dialog = mg_run_open_dialog (GTK_WINDOW (window), NULL, profile);
  again = mg_run_settings_copy (mg_run_dialog_get_settings (again_dialog));
  again_line = g_strdup (mg_run_dialog_get_command_line (again_dialog));
  g_assert_true (g_str_has_suffix (mg_run_settings_get_program (again), "/run-workload"));
  g_assert_cmpstr (mg_run_settings_get_arguments (again), ==, "work=2.5 'two words'");
  g_assert_nonnull (strstr (again_line, "--disable-metrics="));
  g_assert_nonnull (strstr (again_line, "io"));
  g_assert_false (gtk_check_button_get_active (mg_run_dialog_get_metric_check (again_dialog, "rchar_rate")));
  g_assert_true (gtk_check_button_get_active (mg_run_dialog_get_metric_check (again_dialog, "rss")));
  gtk_window_destroy (GTK_WINDOW (again_dialog));

  /* The banner's Run Again…: the dialog with this run's own settings. */
  g_assert_null (find_dialog ());
  g_assert_true (gtk_widget_get_visible (mg_run_host_get_run_again_button (live.host)));
  g_signal_emit_by_name (mg_run_host_get_run_again_button (live.host), "clicked");
  mg_test_spin (50);
  again_dialog = find_dialog ();
  g_assert_nonnull (again_dialog);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (again_dialog)) == GTK_WINDOW (window));
  g_assert_true (mg_run_settings_equal (mg_run_dialog_get_settings (again_dialog),
                                        mg_run_session_get_settings (session)));
  gtk_window_destroy (GTK_WINDOW (again_dialog));

  /* Run Again (app.run-again) for the profile opened from its file, in a
   * window of its own: what the file recorded. */
  {
    MgWindow *opened = mg_window_new (app);
    g_autoptr (GFile) file = g_file_new_for_path (mg_run_session_get_output_path (session));
    MgRunSettings *from_file;
    g_autofree char *file_line = NULL;

    gtk_window_present (GTK_WINDOW (opened));
    mg_window_open_file (opened, file);
    g_assert_true (session_test_wait (window_loaded, opened, 30));
    g_assert_true (mg_window_get_profile (opened) != profile);
    g_assert_true (gtk_application_get_active_window (app) == GTK_WINDOW (opened));
    g_action_group_activate_action (G_ACTION_GROUP (app), "run-again", NULL);
    mg_test_spin (50);
    again_dialog = find_dialog ();
    g_assert_nonnull (again_dialog);
    g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (again_dialog)) == GTK_WINDOW (opened));
    from_file = mg_run_dialog_get_settings (again_dialog);
    file_line = g_strdup (mg_run_dialog_get_command_line (again_dialog));
    g_test_message ("run again from the file: %s", file_line);
    g_assert_true (g_str_has_suffix (mg_run_settings_get_program (from_file), "/run-workload"));
    g_assert_cmpstr (mg_run_settings_get_arguments (from_file), ==, "work=2.5 'two words'");
    g_assert_cmpstr (mg_run_settings_get_working_folder (from_file), ==,
                     mg_profile_get_run_info (profile)->working_dir);
    g_assert_false (gtk_check_button_get_active (mg_run_dialog_get_metric_check (again_dialog, "rchar_rate")));
    g_assert_true (gtk_check_button_get_active (mg_run_dialog_get_metric_check (again_dialog, "rss")));
    g_assert_cmpstr (file_line, ==, again_line);
    gtk_window_destroy (GTK_WINDOW (again_dialog));
    gtk_window_destroy (GTK_WINDOW (opened));
  }

  /* The next dialog starts from this run's line: the folder to save in
   * ("-o DIR/"), where the next run gets its own name. */
  again_dialog = mg_run_dialog_new (NULL, NULL, NULL);
  g_assert_true (g_str_has_suffix (mg_run_settings_get_program (mg_run_dialog_get_settings (again_dialog)),
                                   "/run-workload"));
  {
    g_autofree char *folder = g_strconcat (dir, "/", NULL);

    g_assert_cmpstr (mg_run_settings_get_output (mg_run_dialog_get_settings (again_dialog)), ==, folder);
  }
  g_assert_false (gtk_check_button_get_active (mg_run_dialog_get_metric_check (again_dialog, "rchar_rate")));
  gtk_window_destroy (GTK_WINDOW (again_dialog));

  g_unlink (mg_run_session_get_output_path (session));
  gtk_window_destroy (GTK_WINDOW (window));
  g_rmdir (dir);
}

/* A run from the window hosts the Score-P plugin the dialog's field names
 * (found through the run's own LD_LIBRARY_PATH): its metrics are in the
 * profile on screen, with the test plugin's known values, in its group. */
static void
test_scorep_run (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mg-run-scorep-XXXXXX", NULL);
  g_autofree char *plugins = g_build_filename (g_getenv ("MG_BUILD_ROOT"), "tests", "scorep", NULL);
  g_autofree char *library_path = g_strconcat ("LD_LIBRARY_PATH=", plugins, NULL);
  g_autofree char *program = session_test_program ("run-workload");
  g_autofree char *line = g_strdup_printf ("metrograph --profile --interval=20 " QUIET_METRICS
                                           " %s work=1", program);
  MgWindow *window = mg_window_new (app);
  MgRunDialog *dialog;
  MgRunSession *session;
  MgProfile *profile;
  int level, counter;

  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 760);
  gtk_window_present (GTK_WINDOW (window));
  mg_test_spin (50);
  dialog = g_object_ref (mg_run_open_dialog (GTK_WINDOW (window), NULL, NULL));
  g_assert_true (session_test_wait (host_probed, dialog, 30));
  mg_run_dialog_set_command_line (dialog, line);
  type_into (dialog, "output", dir);
  mg_run_dialog_add_variable (dialog, library_path);
  type_into (dialog, "scorep", "mgt_process_sync:counter,level");
  assert_error_contains (dialog, "scorep", NULL);
  g_assert_nonnull (strstr (mg_run_dialog_get_command_line (dialog),
                            " --scorep-metrics=mgt_process_sync:counter,level "));
  mg_test_spin (100);
  save_png (GTK_WIDGET (dialog), "scorep-dialog.png");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "run.start", NULL);
  session = mg_run_dialog_get_session (dialog);
  g_assert_nonnull (session);
  g_assert_true (session_test_wait (session_finished, session, 60));
  g_assert_true (session_test_wait (window_loaded, window, 30));
  g_assert_cmpint (mg_run_session_get_state (session), ==, MG_RUN_STATE_DONE);

  profile = mg_window_get_profile (window);
  level = mg_profile_find_metric (profile, "scorep:mgt_process_sync:level");
  counter = mg_profile_find_metric (profile, "scorep:mgt_process_sync:counter");
  g_assert_cmpint (level, >=, 0);
  g_assert_cmpint (counter, >=, 0);
  g_assert_cmpuint (mg_profile_get_n_plugin_errors (profile), ==, 0);
  {
    const MgProcessSeries *levels = mg_profile_get_process_series (profile, 0, (guint) level);
    const MgProcessSeries *rates = mg_profile_get_process_series (profile, 0, (guint) counter);
    guint n_rates = 0;
    double rate_sum = 0;

    g_assert_cmpuint (levels->n, >, 10);
    /* level is 2.5 in every sample; counter counts ms: 1000 per second. */
    for (guint i = 0; i < levels->n; i++)
      g_assert_cmpfloat (fabs (levels->means[i] - 2.5), <, 1e-9);
    for (guint i = 0; i < rates->n; i++)
      if (!isnan (rates->means[i]))
        {
          rate_sum += rates->means[i];
          n_rates++;
        }
    g_assert_cmpuint (n_rates, >, 10);
    g_assert_cmpfloat (fabs (rate_sum / n_rates - 1000), <, 50);
  }
  {
    g_auto (GStrv) visible = mg_window_get_visible_metric_ids (window);

    g_assert_true (g_strv_contains ((const char *const *) visible,
                                    "scorep:mgt_process_sync:level"));
  }
  mg_test_spin (300);
  save_png (GTK_WIDGET (window), "scorep-result.png");
  g_object_unref (dialog);
  g_unlink (mg_run_session_get_output_path (session));
  gtk_window_destroy (GTK_WINDOW (window));
  g_rmdir (dir);
}

typedef struct {
  MgRunView *view;
  char *problems;              /* the first the live view showed */
} HangSeen;

static void
on_hang_profile (MgRunSession *session, GParamSpec *pspec, HangSeen *seen)
{
  const char *problems = mg_run_view_get_problems (seen->view);

  if (seen->problems == NULL && mg_run_session_get_state (session) == MG_RUN_STATE_RUNNING
      && *problems != '\0')
    seen->problems = g_strdup (problems);
}

/* A getter that does not return: the live view says so while the program
 * runs, as the error list says it (process, plugin, getter, sample, the
 * bound), once the sampler has abandoned the call at the bound (4
 * intervals of 20 ms here). */
static void
test_live_hang (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mg-run-hang-XXXXXX", NULL);
  g_autofree char *metrics = g_build_filename (dir, "metrics", NULL);
  g_autoptr (MgCatalogue) catalogue = session_test_hang_catalogue (metrics);
  g_autoptr (MgRunSettings) settings = mg_run_settings_new ();
  g_autofree char *program = session_test_program ("run-workload");
  g_autoptr (MgRunSession) session = NULL;
  g_autoptr (GError) error = NULL;
  GtkWidget *view = g_object_ref_sink (mg_run_view_new ());
  HangSeen seen = { MG_RUN_VIEW (view), NULL };

  mg_run_settings_set_program (settings, program);
  mg_run_settings_set_arguments (settings, "work=1.5");
  mg_run_settings_set_output (settings, dir);
  mg_run_settings_set_interval_ms (settings, 20);
  mg_run_settings_set_metric_enabled (settings, catalogue, "ft_hang", TRUE);
  g_setenv ("METROGRAPH_HANG_INTERVALS", "4", TRUE);
  session = mg_run_session_new (settings, catalogue);
  mg_run_view_set_session (MG_RUN_VIEW (view), session);
  g_assert_cmpstr (mg_run_view_get_problems (MG_RUN_VIEW (view)), ==, "");
  /* After the view's own handler: it has shown this profile. */
  g_signal_connect_after (session, "notify::profile", G_CALLBACK (on_hang_profile), &seen);
  g_assert_true (mg_run_session_start (session, &error));
  g_assert_no_error (error);
  g_assert_true (session_test_wait (session_finished, session, 60));
  g_unsetenv ("METROGRAPH_HANG_INTERVALS");

  g_assert_nonnull (seen.problems);
  g_test_message ("live view: %s", seen.problems);
  g_assert_nonnull (strstr (seen.problems, ": plugin ft_src hung in faulty_hang at sample "));
  g_assert_nonnull (strstr (seen.problems, "no return within 0.08 s); its metrics stop there"));
  /* The program itself still runs: no line says it ended. */
  g_assert_null (strchr (seen.problems, '\n'));
  g_free (seen.problems);
  g_object_unref (view);
  g_unlink (mg_run_session_get_output_path (session));
  session_test_remove_hang_metrics (metrics);
  g_rmdir (dir);
}

/* Neither the run's banner nor the errors banner counts an error, and the
 * Errors page lists none. */
static void
assert_no_error_said (MgWindow *window, Live *live)
{
  const char *text = mg_run_host_get_banner_text (live->host);

  g_test_message ("banner: %s", text);
  g_assert_null (strstr (text, "error"));
  g_assert_null (strstr (text, "failure"));
  g_assert_cmpuint (mg_window_count_errors (window), ==, 0);
  g_assert_cmpuint (mg_window_get_error_count (window), ==, 0);
  g_assert_cmpuint (mg_window_get_n_listed_errors (window), ==, 0);
}

/* The banner counts real errors only, once (issue #32): a default run on
 * this machine, whose plugins that have nothing to measure here (no RAPL,
 * no counters, no MPI) decline, says none; a plugin that crashes is one,
 * said once and listed once. */
static void
test_banner_counts (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mg-run-banner-XXXXXX", NULL);
  g_autofree char *metrics = g_build_filename (dir, "metrics", NULL);
  g_autoptr (MgCatalogue) catalogue = session_test_hang_catalogue (metrics);
  g_autofree char *options = g_strdup_printf ("--metrics-path=%s --enable-metrics=ft_crash "
                                              QUIET_METRICS, metrics);
  Live live = { 0 };
  MgWindow *window;
  MgProfile *profile;
  guint n_absent = 0;
  const char *text;

  /* The default metrics, as the dialog opens (the I/O group aside). */
  live.options = "";
  window = run_through_dialog ("run-workload", "work=0.5", dir, &live, NULL);
  g_assert_cmpstr (mg_window_get_page (window), ==, "profile");
  g_assert_true (g_str_has_prefix (mg_run_host_get_banner_text (live.host),
                                   "The profile was saved as "));
  assert_no_error_said (window, &live);
  profile = mg_window_get_profile (window);
  /* A run that ran to its end was not stopped. */
  g_assert_null (mg_stop_event_find (profile));
  for (guint i = 0; i < mg_profile_get_n_plugin_errors (profile); i++)
    n_absent += mg_plugin_error_is_absence (mg_profile_get_plugin_error (profile, i));
  g_test_message ("default run: %u plugins declined, %u plugin errors, %u metric errors", n_absent,
                  mg_profile_get_n_plugin_errors (profile), mg_profile_get_n_metric_errors (profile));
  g_unlink (mg_run_session_get_output_path (mg_run_host_get_session (live.host)));
  gtk_window_destroy (GTK_WINDOW (window));

  /* A plugin whose getter crashes at its 20th call (0.4 s at 20 ms): its
   * process records a plugin fault; the program itself runs on. */
  memset (&live, 0, sizeof live);
  live.options = options;
  window = run_through_dialog ("run-workload", "work=1.5", dir, &live, NULL);
  g_assert_cmpstr (mg_window_get_page (window), ==, "profile");
  text = mg_run_host_get_banner_text (live.host);
  g_test_message ("banner: %s", text);
  g_assert_nonnull (strstr (text, "1 error or process failure during this run (F9 lists it)."));
  /* One count: the sentence once, no other number of errors. */
  g_assert_null (strstr (strstr (text, "1 error or") + strlen ("1 error or"), "error"));
  g_assert_cmpuint (mg_window_count_errors (window), ==, 1);
  g_assert_cmpuint (mg_window_get_n_listed_errors (window), ==, 1);
  g_unlink (mg_run_session_get_output_path (mg_run_host_get_session (live.host)));
  gtk_window_destroy (GTK_WINDOW (window));

  session_test_remove_hang_metrics (metrics);
  live_clear (&live);
  g_rmdir (dir);
}

/* A stopped run's profile opened later (issue #32): the profile records
 * the stop, so the kill it holds is no error there either, neither in the
 * banner nor in the Errors page. */
static void
assert_reopened_without_errors (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (MgProfile) reopened = mg_profile_load (path, &error);
  MgWindow *window;

  g_assert_no_error (error);
  g_assert_nonnull (mg_stop_event_find (reopened));
  /* The kill is there; only the stop's record makes it no error. */
  g_assert_cmpuint (mg_error_list_count (reopened, FALSE), >=, 1);
  window = mg_window_new (app);
  mg_window_set_profile (window, reopened, NULL);
  gtk_window_present (GTK_WINDOW (window));
  mg_test_spin (100);
  g_assert_cmpuint (mg_window_count_errors (window), ==, 0);
  g_assert_cmpuint (mg_window_get_error_count (window), ==, 0);
  g_assert_cmpuint (mg_window_get_n_listed_errors (window), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_failures (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mg-run-fail-XXXXXX", NULL);
  g_autofree char *static_program = session_test_program ("run-workload-static");
  Live live = { 0 };
  MgWindow *window;
  MgRunSession *session;

  /* Non-zero exit: the profile still opens, the banner says so. */
  window = run_through_dialog ("run-workload", "work=0.5 exit=3", dir, &live, NULL);
  session = mg_run_host_get_session (live.host);
  g_assert_cmpstr (mg_window_get_page (window), ==, "profile");
  g_assert_nonnull (strstr (mg_run_host_get_banner_text (live.host), "exited with status 3"));
  g_unlink (mg_run_session_get_output_path (session));
  gtk_window_destroy (GTK_WINDOW (window));

  /* A crash: marked on the timeline, explained in the banner. */
  memset (&live, 0, sizeof live);
  window = run_through_dialog ("run-workload", "work=0.5 crash", dir, &live, NULL);
  session = mg_run_host_get_session (live.host);
  g_assert_cmpstr (mg_window_get_page (window), ==, "profile");
  g_assert_nonnull (strstr (mg_run_host_get_banner_text (live.host), "killed by signal 11"));
  g_assert_cmpuint (mg_window_get_n_event_marks (window), >=, 1);
  {
    /* The mark is the signal the launcher reaped, not "ended without trace". */
    MgProfile *profile = mg_window_get_profile (window);
    guint n_crashes = 0;

    for (guint i = 0; i < mg_profile_get_n_events (profile); i++)
      {
        const MgProcessEvent *event = mg_profile_get_event (profile, i);

        if (event->kind == MG_EVENT_SIGNAL)
          {
            g_assert_cmpint (event->status, ==, SIGSEGV);
            n_crashes++;
          }
      }
    g_assert_cmpuint (n_crashes, ==, 1);
    g_assert_cmpuint (mg_window_get_n_event_marks (window), ==, n_crashes);
  }
  if (g_getenv ("MG_GUI_SCREENSHOT_DIR") != NULL)
    save_png (GTK_WIDGET (window), "run-crash.png");
  g_unlink (mg_run_session_get_output_path (session));
  gtk_window_destroy (GTK_WINDOW (window));

  /* Stop from the live view: the program ends, the profile is written. */
  memset (&live, 0, sizeof live);
  live.no_wait = TRUE;
  window = run_through_dialog ("run-workload", "work=60", dir, &live, NULL);
  session = mg_run_host_get_session (live.host);
  g_assert_true (session_test_wait (live_enough, &live, 30));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (mg_run_host_get_view (live.host)),
                                             "run-view.stop", NULL));
  g_assert_true (session_test_wait (session_finished, session, 30));
  mg_test_spin (100);
  g_assert_cmpint (mg_run_session_get_state (session), ==, MG_RUN_STATE_DONE);
  g_assert_cmpstr (mg_window_get_page (window), ==, "profile");
  g_assert_nonnull (strstr (mg_run_host_get_banner_text (live.host), "Stopped after"));
  /* The stop asked for is no error: not counted, not listed (the profile
   * itself has the kill, which a file opened later would count). */
  assert_no_error_said (window, &live);
  g_assert_cmpuint (mg_error_list_count (mg_window_get_profile (window), FALSE), >=, 1);
  assert_reopened_without_errors (mg_run_session_get_output_path (session));
  g_unlink (mg_run_session_get_output_path (session));
  gtk_window_destroy (GTK_WINDOW (window));

  /* Stop after, from the dialog: the program ends then (not after its 60 s)
   * and the profile opens, the banner saying so as the command line does. */
  memset (&live, 0, sizeof live);
  live.stop_after = "1";
  window = run_through_dialog ("run-workload", "work=60", dir, &live, NULL);
  session = mg_run_host_get_session (live.host);
  g_assert_cmpint (mg_run_session_get_state (session), ==, MG_RUN_STATE_DONE);
  g_assert_cmpint (mg_run_session_get_exit_status (session), ==, 128 + SIGTERM);
  g_assert_cmpfloat (mg_run_session_get_elapsed (session), <, 10);
  g_assert_cmpstr (mg_window_get_page (window), ==, "profile");
  g_assert_true (g_str_has_prefix (mg_run_host_get_banner_text (live.host),
                                   "Stopped after 1 s (Stop after); the profile was still written."));
  g_unlink (mg_run_session_get_output_path (session));
  gtk_window_destroy (GTK_WINDOW (window));

  /* Cancel: nothing saved, the window back to what it showed. */
  memset (&live, 0, sizeof live);
  live.no_wait = TRUE;
  window = run_through_dialog ("run-workload", "work=60", dir, &live, NULL);
  session = mg_run_host_get_session (live.host);
  g_assert_true (session_test_wait (live_enough, &live, 30));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (mg_run_host_get_view (live.host)),
                                             "run-view.cancel", NULL));
  g_assert_true (session_test_wait (session_finished, session, 30));
  g_assert_cmpint (mg_run_session_get_state (session), ==, MG_RUN_STATE_CANCELLED);
  g_assert_cmpstr (mg_run_host_get_page (live.host), ==, "viewer");
  g_assert_cmpstr (mg_window_get_page (window), ==, "start");
  g_assert_nonnull (strstr (mg_run_host_get_banner_text (live.host), "nothing was saved"));
  gtk_window_destroy (GTK_WINDOW (window));

  /* Statically linked: no samples, and why; the run page stays. */
  if (g_file_test (static_program, G_FILE_TEST_IS_EXECUTABLE))
    {
      memset (&live, 0, sizeof live);
      window = run_through_dialog ("run-workload-static", "work=0.3", dir, &live, NULL);
      g_assert_cmpstr (mg_run_host_get_page (live.host), ==, "run");
      g_assert_nonnull (strstr (mg_run_host_get_banner_text (live.host), "No samples were recorded"));
      g_assert_nonnull (strstr (mg_run_host_get_banner_text (live.host), "statically linked"));
      if (g_getenv ("MG_GUI_SCREENSHOT_DIR") != NULL)
        save_png (GTK_WIDGET (window), "run-static.png");
      gtk_window_destroy (GTK_WINDOW (window));
    }
  live_clear (&live);
  g_rmdir (dir);
}

/* ---- leaving mid-run ---------------------------------------------------- */

static GtkDialog *
find_end_dialog (void)
{
  return find_message_dialog ();
}

static void
answer_end_dialog (MgRunEndChoice choice)
{
  GtkDialog *dialog;

  mg_test_spin (100);
  dialog = find_end_dialog ();
  g_assert_nonnull (dialog);
  g_assert_nonnull (gtk_dialog_get_widget_for_response (dialog, MG_RUN_END_STOP_AND_SAVE));
  g_assert_nonnull (gtk_dialog_get_widget_for_response (dialog, MG_RUN_END_DISCARD));
  gtk_dialog_response (dialog, choice);
  mg_test_spin (50);
  g_assert_null (find_end_dialog ());
}

/* Gone: no such process, or only its exit status left for a parent. */
static gboolean
process_gone (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *stat = NULL;
  const char *end;

  if (!g_file_get_contents (path, &stat, NULL, NULL))
    return TRUE;
  end = strrchr (stat, ')');
  return end != NULL && end[1] == ' ' && end[2] == 'Z';
}

/* Closing a window during its run asks; "keep running" keeps both, "stop
 * and keep profile" writes the profile, then the window closes. */
static void
test_close_mid_run (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mg-run-close-XXXXXX", NULL);
  Live live = { 0 };
  MgWindow *window;
  MgRunSession *session;
  g_autofree char *output = NULL;
  int pid;

  live.no_wait = TRUE;
  window = run_through_dialog ("run-workload", "work=60", dir, &live, NULL);
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  session = g_object_ref (mg_run_host_get_session (live.host));
  g_assert_true (session_test_wait (live_enough, &live, 30));
  pid = mg_run_session_get_pid (session);
  g_assert_cmpint (pid, >, 0);

  gtk_window_close (GTK_WINDOW (window));
  answer_end_dialog (MG_RUN_END_KEEP_RUNNING);
  mg_test_spin (300);
  g_assert_nonnull (window);
  g_assert_cmpint (mg_run_session_get_state (session), ==, MG_RUN_STATE_RUNNING);
  g_assert_false (process_gone (pid));

  gtk_window_close (GTK_WINDOW (window));
  answer_end_dialog (MG_RUN_END_STOP_AND_SAVE);
  g_assert_true (session_test_wait (session_finished, session, 30));
  mg_test_spin (100);
  g_assert_cmpint (mg_run_session_get_state (session), ==, MG_RUN_STATE_DONE);
  g_assert_true (mg_run_session_get_stopped (session));
  g_assert_true (g_file_test (mg_run_session_get_output_path (session), G_FILE_TEST_IS_REGULAR));
  g_assert_null (window);
  g_assert_true (process_gone (pid));
  g_unlink (mg_run_session_get_output_path (session));
  g_object_unref (session);
  live_clear (&live);
  g_rmdir (dir);
}

typedef enum {
  QUIT_DISCARD,
  QUIT_STOP,
  QUIT_BYPASS,
  QUIT_AFTER_RUN,              /* Ctrl+Q once the run has finished */
  QUIT_SIGTERM,                /* the application gets SIGTERM mid-run */
  QUIT_SIGTERM_TWICE,          /* and again while the first stops the run */
} QuitHow;

typedef struct {
  QuitHow how;
  char *dir;
  MgRunSession *session;
  Live live;                   /* watched until the session ends */
} QuitRun;

/* Once the first SIGTERM has stopped the run (its profile not yet
 * written), the second. */
static gboolean
sigterm_again (gpointer session)
{
  if (!mg_run_session_get_stopped (session))
    return G_SOURCE_CONTINUE;
  kill (getpid (), SIGTERM);
  return G_SOURCE_REMOVE;
}

/* In the application's own main loop: start a run, then quit mid-run. */
static gboolean
quit_mid_run (gpointer user_data)
{
  QuitRun *run = user_data;
  Live *live = &run->live;
  g_autofree char *pid_file = g_build_filename (run->dir, "pid", NULL);
  g_autofree char *pid_text = NULL;

  live->no_wait = TRUE;
  run_through_dialog ("run-workload", run->how == QUIT_AFTER_RUN ? "work=0.5" : "work=60",
                      run->dir, live, NULL);
  run->session = g_object_ref (mg_run_host_get_session (live->host));
  g_assert_true (run->how == QUIT_AFTER_RUN || session_test_wait (live_enough, live, 30));
  pid_text = g_strdup_printf ("%d", mg_run_session_get_pid (run->session));
  g_assert_true (g_file_set_contents (pid_file, pid_text, -1, NULL));
  if (run->how == QUIT_BYPASS)
    g_application_quit (G_APPLICATION (app));
  else if (run->how == QUIT_SIGTERM)
    kill (getpid (), SIGTERM);
  else if (run->how == QUIT_SIGTERM_TWICE)
    {
      kill (getpid (), SIGTERM);
      /* Handled apart: signals that come before one dispatch are one. */
      g_timeout_add (1, sigterm_again, run->session);
    }
  else if (run->how == QUIT_AFTER_RUN)
    {
      g_auto (GStrv) accels = gtk_application_get_accels_for_action (app, "app.quit");

      /* What Ctrl+Q does. */
      g_assert_true (g_strv_contains ((const char *const *) accels, "<Control>q"));
      g_assert_true (session_test_wait (session_finished, run->session, 60));
      g_assert_cmpint (mg_run_session_get_state (run->session), ==, MG_RUN_STATE_DONE);
      g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
    }
  else
    {
      g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
      answer_end_dialog (run->how == QUIT_STOP ? MG_RUN_END_STOP_AND_SAVE : MG_RUN_END_DISCARD);
    }
  return G_SOURCE_REMOVE;
}

static void
on_quit_test_activate (GApplication *application, QuitRun *run)
{
  g_timeout_add (50, quit_mid_run, run);
}

/* The child: the application runs its main loop until app.quit ends it. */
static void
quit_in_subprocess (QuitHow how)
{
  QuitRun run = { how, NULL, NULL, { 0 } };
  g_autofree char *saved = NULL;

  run.dir = g_strdup (g_getenv ("MG_QUIT_TEST_DIR"));
  g_signal_connect (app, "activate", G_CALLBACK (on_quit_test_activate), &run);
  g_assert_cmpint (g_application_run (G_APPLICATION (app), 0, NULL), ==, 0);
  g_assert_nonnull (run.session);
  if (how == QUIT_STOP || how == QUIT_AFTER_RUN || how == QUIT_SIGTERM)
    {
      /* It quit after the profile was written: a signal stops the run as
       * Stop does (the command line writes its profile after one too). */
      if (how == QUIT_SIGTERM)
        g_assert_true (mg_run_session_get_stopped (run.session));
      g_assert_cmpint (mg_run_session_get_state (run.session), ==, MG_RUN_STATE_DONE);
      saved = g_strdup (mg_run_session_get_output_path (run.session));
      g_assert_true (g_file_test (saved, G_FILE_TEST_IS_REGULAR));
      g_unlink (saved);
    }
  else if (how == QUIT_DISCARD)
    g_assert_cmpint (mg_run_session_get_state (run.session), ==, MG_RUN_STATE_CANCELLED);
  else if (how == QUIT_SIGTERM_TWICE)
    g_assert_cmpint (mg_run_session_get_state (run.session), !=, MG_RUN_STATE_DONE);
  g_clear_object (&run.session);
  live_clear (&run.live);
  g_free (run.dir);
}

/* Quitting the application mid-run never leaves the program running:
 * asked (discard, or stop and keep the profile) or not (g_application_quit
 * straight away, the last resort in shutdown; SIGTERM, which stops it and
 * keeps the profile, twice: discarded). Nor does any way
 * out leave the run folder, Ctrl+Q after a finished run included: the
 * child's METROGRAPH_TMPDIR is empty afterwards. */
static void
test_quit_mid_run (gconstpointer data)
{
  QuitHow how = GPOINTER_TO_INT (data);
  g_autofree char *dir = NULL;
  g_autofree char *pid_file = NULL;
  g_autofree char *pid_text = NULL;
  g_autofree char *runs = NULL;
  int pid;

  if (g_test_subprocess ())
    {
      quit_in_subprocess (how);
      return;
    }
  dir = g_dir_make_tmp ("mg-run-quit-XXXXXX", NULL);
  pid_file = g_build_filename (dir, "pid", NULL);
  runs = g_build_filename (dir, "runs", NULL);
  g_assert_cmpint (g_mkdir (runs, 0700), ==, 0);
  g_setenv ("MG_QUIT_TEST_DIR", dir, TRUE);
  g_setenv ("METROGRAPH_TMPDIR", runs, TRUE);
  g_test_trap_subprocess (NULL, 90 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_unsetenv ("MG_QUIT_TEST_DIR");
  g_unsetenv ("METROGRAPH_TMPDIR");
  g_test_trap_assert_passed ();
  /* Nothing left: rmdir fails on a folder that is not empty. */
  if (g_rmdir (runs) != 0)
    g_error ("%s is not empty after quitting", runs);
  g_assert_true (g_file_get_contents (pid_file, &pid_text, NULL, NULL));
  pid = atoi (pid_text);
  g_assert_cmpint (pid, >, 0);
  g_test_message ("program %d after quitting: %s", pid, process_gone (pid) ? "gone" : "RUNNING");
  g_assert_true (process_gone (pid));
  g_unlink (pid_file);
  g_rmdir (dir);
}


/* GTK 4.8 warns "Trying to snapshot GtkGizmo … without a current
 * allocation" when a paned's handle turns visible between a frame's
 * layout and its drawing (the run view's and the Code pane's panes, as
 * their children come and go), and draws it right at the next frame:
 * seen once in about ten runs of /gui-run/run/failures on a clean root,
 * never here. Written to the log, not fatal; every other warning stays
 * fatal (GTK logs structured messages: a test's fatal handler is not
 * asked about them, the writer is). */
static GLogWriterOutput
log_writer (GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer data)
{
  const char *domain = NULL, *message = NULL;

  for (gsize i = 0; i < n_fields; i++)
    if (g_strcmp0 (fields[i].key, "GLIB_DOMAIN") == 0 && fields[i].length < 0)
      domain = fields[i].value;
    else if (g_strcmp0 (fields[i].key, "MESSAGE") == 0 && fields[i].length < 0)
      message = fields[i].value;
  if (g_strcmp0 (domain, "Gtk") == 0 && (level & G_LOG_LEVEL_WARNING) && message != NULL
      && g_str_has_prefix (message, "Trying to snapshot GtkGizmo ")
      && strstr (message, " without a current allocation") != NULL)
    return g_log_writer_standard_streams (level, fields, n_fields, data);
  return g_log_writer_default (level, fields, n_fields, data);
}

int
main (int argc, char **argv)
{
  const char *xdg_vars[] = { "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME" };
  g_autoptr (GError) error = NULL;
  g_autofree char *home = NULL;
  int status;

  g_setenv ("GSETTINGS_SCHEMA_DIR", MG_RUN_SCHEMA_DIR, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_setenv ("LC_ALL", "C", TRUE);
  home = g_dir_make_tmp ("mg-gui-run-home-XXXXXX", NULL);
  g_setenv ("HOME", home, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (xdg_vars); i++)
    {
      g_autofree char *dir = g_build_filename (home, xdg_vars[i], NULL);

      g_setenv (xdg_vars[i], dir, TRUE);
    }
  g_unsetenv ("METROGRAPH_METRICS_PATH");
  g_log_set_writer_func (log_writer, NULL, NULL);
  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("MG_RUN_TEST_NONFATAL") != NULL)
    g_log_set_always_fatal (G_LOG_FATAL_MASK);
  gtk_init ();

  app = GTK_APPLICATION (mg_application_new ());
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_nonnull (mg_resources_get_resource ());
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "run-again"));

  g_test_add_func ("/gui-run/dialog/checks-and-command-line", test_checks_and_command_line);
  g_test_add_func ("/gui-run/dialog/errors-beside-fields", test_errors_beside_fields);
  g_test_add_func ("/gui-run/dialog/metrics-path", test_metrics_path);
  g_test_add_func ("/gui-run/dialog/fits-parent", test_fits_parent);
  g_test_add_func ("/gui-run/dialog/metric-reasons", test_metric_reasons);
  g_test_add_func ("/gui-run/dialog/dark-colours", test_dark_colours);
  g_test_add_func ("/gui-run/dialog/copy-command", test_copy_command);
  g_test_add_func ("/gui-run/dialog/unavailable-here", test_unavailable_here);
  g_test_add_func ("/gui-run/view/output-pane", test_output_pane);
  g_test_add_func ("/gui-run/view/header-during-run", test_header_during_run);
  g_test_add_func ("/gui-run/dialog/bad-line-blocks-profile", test_bad_line_blocks_profile);
  g_test_add_func ("/gui-run/dialog/processes-and-ranks", test_processes_and_ranks);
  g_test_add_func ("/gui-run/dialog/completion-lazy", test_completion_lazy);
  g_test_add_func ("/gui-run/dialog/report-switch", test_report_switch);
  g_test_add_func ("/gui-run/dialog/any-bytes", test_any_bytes);
  g_test_add_func ("/gui-run/dialog/scorep-field", test_scorep_field);
  g_test_add_func ("/gui-run/dialog/scorep-field-blanks", test_scorep_field_blanks);
  g_test_add_func ("/gui-run/dialog/scorep-listed", test_scorep_listed);
  g_test_add_func ("/gui-run/app/actions", test_app_actions);
  g_test_add_func ("/gui-run/run/live", test_live_run);
  g_test_add_func ("/gui-run/run/scorep", test_scorep_run);
  g_test_add_func ("/gui-run/run/failures", test_failures);
  g_test_add_func ("/gui-run/run/banner-counts", test_banner_counts);
  g_test_add_func ("/gui-run/run/live-hang", test_live_hang);
  g_test_add_func ("/gui-run/end/close-mid-run", test_close_mid_run);
  g_test_add_data_func ("/gui-run/end/quit-discard", GINT_TO_POINTER (QUIT_DISCARD), test_quit_mid_run);
  g_test_add_data_func ("/gui-run/end/quit-stop", GINT_TO_POINTER (QUIT_STOP), test_quit_mid_run);
  g_test_add_data_func ("/gui-run/end/quit-direct", GINT_TO_POINTER (QUIT_BYPASS), test_quit_mid_run);
  g_test_add_data_func ("/gui-run/end/quit-after-run", GINT_TO_POINTER (QUIT_AFTER_RUN),
                        test_quit_mid_run);
  g_test_add_data_func ("/gui-run/end/sigterm", GINT_TO_POINTER (QUIT_SIGTERM), test_quit_mid_run);
  g_test_add_data_func ("/gui-run/end/sigterm-twice", GINT_TO_POINTER (QUIT_SIGTERM_TWICE),
                        test_quit_mid_run);
  status = g_test_run ();
  g_object_unref (app);
  mg_test_remove_tree (home);
  return status;
}
