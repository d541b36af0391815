/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Two-way binding by hand: widgets write into the MgRunSettings as the user
 * types; every settings change (typing, a check, a pasted line, "Run
 * again") refreshes the widgets that differ, the checks and the command
 * line. `syncing` keeps the refresh from echoing back into the settings. */
#include "mg-config.h"

#include "mg-run-dialog.h"
#include "mg-run-dialog-private.h"

#include <glib/gi18n.h>
#include <string.h>

#include "symbols/mg-code-callbacks.h"
#include "profile/mg-unavailable.h"
#include "session/mg-host-probe.h"
#include "session/mg-rank-list.h"
#include "session/mg-run-catalogue.h"
#include "session/mg-run-check.h"
#include "session/mg-run-settings-line.h"
#include "mg-run-css.h"
#include "mg-run-env-editor.h"
#include "mg-run-metric-list.h"
#include "session/mg-run-metric-toggles.h"
#include "session/mg-run-options.h"
#include "session/mg-scorep-defs.h"
#include "session/mg-scorep-selection.h"

#define RUN_SCHEMA_ID MG_APP_ID ".Run"

struct _MgRunDialog
{
  GtkWindow parent_instance;

  gboolean host_probed;        /* the host probe's answer came (mg-host-probe.h) */

  GtkWidget *program_entry, *program_error;
  GtkWidget *arguments_entry, *arguments_error;
  GtkWidget *working_folder_entry, *working_folder_error;
  GtkWidget *environment_list, *environment_entry, *environment_error;
  GtkWidget *n_processes_entry, *n_processes_error;
  GtkWidget *select_ranks_entry, *select_ranks_error;
  GtkWidget *interval_entry, *interval_error;
  GtkWidget *max_samples_entry, *max_samples_error;
  GtkWidget *start_after_entry, *start_after_error;
  GtkWidget *stop_after_entry, *stop_after_error;
  GtkWidget *output_entry, *output_error;
  GtkWidget *report_switch;
  GtkWidget *scorep_entry, *scorep_error;
  GtkWidget *search_entry;
  GtkWidget *metrics_list;
  GtkWidget *command_entry, *command_error;
  GtkWidget *start_button;

  MgRunSettings *settings;
  MgCatalogue *catalogue;
  gboolean own_catalogue;      /* loaded here: follows --metrics-path */
  GStrv catalogue_path;        /* the --metrics-path it was loaded with */
  MgRunSession *session;
  GSettings *gsettings;
  char *command_line;
  GHashTable *parse_errors;    /* field → message of text that does not parse */
  MgRunMetricList *metric_list; /* fills metrics_list */
  MgRunEnvEditor *env_editor;   /* fills environment_list */
  gboolean syncing;
  gboolean command_editing;
  gboolean start_tried;        /* an empty program is an error only then */
  gboolean path_read;          /* the completion's names were asked for */
  int processes_at_error;      /* MPI processes when their text stopped reading */
  GCancellable *cancellable;   /* work in threads for this dialog */
  guint scorep_timeout;        /* the plugins are listed once typing pauses */
  char *scorep_key;            /* the listing the catalogue holds (mg_scorep_defs_get_key) */
  char *scorep_listing_key;    /* the listing under way, if any */
  MgRunSettings *scorep_wanted; /* the settings to list once typing pauses */
  char *scorep_listing_error;  /* why a plugin named could not be listed */
};

/* Typing pauses this long before the Score-P plugins named are listed. */
#define SCOREP_LISTING_DELAY_MS 400

G_DEFINE_FINAL_TYPE (MgRunDialog, mg_run_dialog, GTK_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_SETTINGS,
  PROP_CATALOGUE,
  PROP_SESSION,
  PROP_COMMAND_LINE,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

typedef struct {
  const char *name;
  glong entry_offset;
  glong error_offset;
} Field;

#define FIELD(name, member) { name, G_STRUCT_OFFSET (MgRunDialog, member##_entry), \
                              G_STRUCT_OFFSET (MgRunDialog, member##_error) }
static const Field fields[] = {
  FIELD ("program", program),
  FIELD ("arguments", arguments),
  FIELD ("working-folder", working_folder),
  FIELD ("environment", environment),
  FIELD ("n-processes", n_processes),
  FIELD ("select-ranks", select_ranks),
  FIELD ("interval", interval),
  FIELD ("max-samples", max_samples),
  FIELD ("start-after", start_after),
  FIELD ("stop-after", stop_after),
  FIELD ("output", output),
  FIELD ("scorep", scorep),
  FIELD ("command", command),
};
#undef FIELD

static const Field *
find_field (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    if (strcmp (fields[i].name, name) == 0)
      return &fields[i];
  return NULL;
}

static GtkWidget *
field_widget (MgRunDialog *self, const Field *field, gboolean error)
{
  if (field == NULL)
    return NULL;
  return G_STRUCT_MEMBER (GtkWidget *, self, error ? field->error_offset : field->entry_offset);
}

static void sync_from_settings (MgRunDialog *self);
static void read_path_names (MgRunDialog *self);
static void on_command_changed (MgRunDialog *self);

/* ---- errors beside the fields ------------------------------------------ */

static void
show_field_error (MgRunDialog *self, const char *name, const char *message)
{
  const Field *field = find_field (name);
  GtkWidget *label = field_widget (self, field, TRUE);
  GtkWidget *input = field_widget (self, field, FALSE);

  if (label == NULL || input == NULL)
    return;
  /* The command line's frame shows the error colour. */
  if (input == self->command_entry)
    input = gtk_widget_get_parent (input);
  {
    /* A message may name a path that is not UTF-8. */
    g_autofree char *shown = g_utf8_make_valid (message != NULL ? message : "", -1);

    gtk_label_set_text (GTK_LABEL (label), shown);
  }
  gtk_widget_set_visible (label, message != NULL);
  if (message != NULL)
    gtk_widget_add_css_class (input, "error");
  else
    gtk_widget_remove_css_class (input, "error");
}

/* Settings field checked by MgRunSettings → dialog field shown. */
static const struct { const char *property; const char *field; } checked[] = {
  { "program", "program" },
  { "arguments", "arguments" },
  { "working-folder", "working-folder" },
  { "env-set", "environment" },
  { "env-unset", "environment" },
  { "stop-after", "stop-after" },
  { "n-processes", "n-processes" },
  { "output", "output" },
  { "select-ranks", "select-ranks" },
  { "scorep-plugins", "scorep" },
};

/* Shows every problem; returns the first field with one, or NULL. */
static const char *
update_errors (MgRunDialog *self)
{
  const char *first = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      const char *name = fields[i].name;
      const char *parse = g_hash_table_lookup (self->parse_errors, name);
      g_autofree char *message = NULL;

      for (guint j = 0; j < G_N_ELEMENTS (checked) && parse == NULL && message == NULL; j++)
        if (strcmp (checked[j].field, name) == 0)
          message = mg_run_settings_check_field (self->settings, checked[j].property);
      /* Nothing typed yet is not worth a red line until Profile is pressed. */
      if (strcmp (name, "program") == 0 && !self->start_tried
          && mg_run_settings_get_program (self->settings) == NULL)
        g_clear_pointer (&message, g_free);
      if ((parse != NULL || message != NULL) && first == NULL)
        first = name;
      /* A plugin that cannot be listed is said, but the run may go on
       * without it, as from the command line. */
      if (strcmp (name, "scorep") == 0 && message == NULL)
        message = g_strdup (self->scorep_listing_error);
      show_field_error (self, name, parse != NULL ? parse : message);
    }
  /* Profile would start something else than the line shown: it waits
   * until the line reads. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "run.start",
                                 !g_hash_table_contains (self->parse_errors, "command"));
  return first;
}

/* ---- fields → settings -------------------------------------------------- */

static const char *
entry_text (GtkWidget *entry)
{
  return gtk_editable_get_text (GTK_EDITABLE (entry));
}

static void
set_parse_error (MgRunDialog *self, const char *field, char *message)
{
  if (message != NULL)
    g_hash_table_insert (self->parse_errors, (gpointer) field, message);
  else
    g_hash_table_remove (self->parse_errors, field);
}

static void
read_count (MgRunDialog *self, const char *field, GtkWidget *entry, const char *option,
            void (*setter) (MgRunSettings *, guint))
{
  char *message = NULL;
  guint value;
  guint min = mg_run_options_lookup (option)->minimum;

  if (mg_run_parse_count (entry_text (entry), min, 0, &value, &message))
    setter (self->settings, value);
  set_parse_error (self, field, message);
}

static void
read_seconds (MgRunDialog *self, const char *field, GtkWidget *entry,
              void (*setter) (MgRunSettings *, double))
{
  char *message = NULL;
  double value;

  if (mg_run_parse_seconds (entry_text (entry), &value, &message))
    setter (self->settings, value);
  set_parse_error (self, field, message);
}

/* Kept in canonical form ("0,4-7"); what does not read stays as typed,
 * with the reason beside it. */
static void
read_ranks (MgRunDialog *self, GtkWidget *entry)
{
  g_autofree char *text = g_strstrip (g_strdup (entry_text (entry)));
  g_autoptr (GError) error = NULL;
  g_autofree char *ranks = NULL;

  if (*text == '\0')
    {
      mg_run_settings_set_select_ranks (self->settings, NULL);
      set_parse_error (self, "select-ranks", NULL);
      return;
    }
  ranks = mg_rank_list_normalise (text, &error);
  if (ranks != NULL)
    mg_run_settings_set_select_ranks (self->settings, ranks);
  set_parse_error (self, "select-ranks", ranks == NULL ? g_strdup (error->message) : NULL);
}

static void
read_string (GtkWidget *entry, MgRunSettings *settings,
             void (*setter) (MgRunSettings *, const char *))
{
  g_autofree char *text = g_strstrip (g_strdup (entry_text (entry)));

  setter (settings, text);
}

/* Both Score-P options in one field (mg_scorep_selection_set_from_text). */
static void
read_scorep (MgRunDialog *self, GtkWidget *entry)
{
  g_autoptr (GError) error = NULL;

  mg_scorep_selection_set_from_text (self->settings, entry_text (entry), &error);
  set_parse_error (self, "scorep", error != NULL ? g_strdup (error->message) : NULL);
}

static void
on_field_changed (MgRunDialog *self, GtkWidget *entry)
{
  if (self->syncing)
    return;
  if (entry == self->program_entry)
    {
      read_string (entry, self->settings, mg_run_settings_set_program);
      read_path_names (self);
    }
  else if (entry == self->arguments_entry)
    mg_run_settings_set_arguments (self->settings, entry_text (entry));
  else if (entry == self->working_folder_entry)
    read_string (entry, self->settings, mg_run_settings_set_working_folder);
  else if (entry == self->output_entry)
    read_string (entry, self->settings, mg_run_settings_set_output);
  else if (entry == self->select_ranks_entry)
    read_ranks (self, entry);
  else if (entry == self->scorep_entry)
    read_scorep (self, entry);
  else if (entry == self->interval_entry)
    read_count (self, "interval", entry, "--interval", mg_run_settings_set_interval_ms);
  else if (entry == self->max_samples_entry)
    read_count (self, "max-samples", entry, "--samples", mg_run_settings_set_max_samples);
  else if (entry == self->start_after_entry)
    read_seconds (self, "start-after", entry, mg_run_settings_set_start_after);
  else if (entry == self->stop_after_entry)
    read_seconds (self, "stop-after", entry, mg_run_settings_set_stop_after);
  update_errors (self);
}

static void
on_processes_changed (MgRunDialog *self)
{
  if (!self->syncing)
    mg_run_settings_set_n_processes (self->settings, (guint) gtk_spin_button_get_value_as_int (
                                       GTK_SPIN_BUTTON (self->n_processes_entry)));
}

#define MAX_PROCESSES 4096

/* "Off", nothing, or a whole number up to MAX_PROCESSES (0 is Off too). */
static gboolean
read_processes (const char *text, guint *n)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text));
  g_autofree char *folded = g_utf8_casefold (stripped, -1);
  g_autofree char *off = g_utf8_casefold (_("Off"), -1);
  guint64 value;

  if (*stripped == '\0' || strcmp (folded, off) == 0)
    {
      *n = 0;
      return TRUE;
    }
  if (!g_ascii_isdigit (*stripped)
      || !g_ascii_string_to_unsigned (stripped, 10, 0, MAX_PROCESSES, &value, NULL))
    return FALSE;
  *n = (guint) value;
  return TRUE;
}

/* Typing: the settings follow what reads; what does not stays as typed with
 * the reason beside it, as in the other fields. */
static void
on_processes_text_changed (MgRunDialog *self)
{
  GtkSpinButton *spin = GTK_SPIN_BUTTON (self->n_processes_entry);
  guint n;

  if (self->syncing)
    return;
  if (read_processes (entry_text (self->n_processes_entry), &n))
    {
      set_parse_error (self, "n-processes", NULL);
      mg_run_settings_set_n_processes (self->settings, n);
    }
  else
    {
      self->processes_at_error = gtk_spin_button_get_value_as_int (spin);
      set_parse_error (self, "n-processes",
                       g_strdup_printf (_("Give a number of processes from 1 to %u, or %s"),
                                        MAX_PROCESSES, _("Off")));
    }
  update_errors (self);
}

/* 0 reads "Off". Text that already says the value is left as typed, and
 * so is text that does not read, until the value itself changes (the
 * arrows, a pasted line). */
static gboolean
on_processes_output (GtkSpinButton *spin, MgRunDialog *self)
{
  int value = gtk_spin_button_get_value_as_int (spin);
  const char *shown = gtk_editable_get_text (GTK_EDITABLE (spin));
  g_autofree char *text = NULL;
  guint typed;

  if (read_processes (shown, &typed) ? typed == (guint) value
                                     : g_hash_table_contains (self->parse_errors, "n-processes")
                                         && value == self->processes_at_error)
    return TRUE;
  text = value == 0 ? g_strdup (_("Off")) : g_strdup_printf ("%d", value);
  gtk_editable_set_text (GTK_EDITABLE (spin), text);
  return TRUE;
}

/* Text that does not read keeps the value (and the text: see above) rather
 * than making the spin button revert it silently. */
static int
on_processes_input (GtkSpinButton *spin, double *value, MgRunDialog *self)
{
  guint n;

  *value = read_processes (gtk_editable_get_text (GTK_EDITABLE (spin)), &n)
             ? (double) n : gtk_spin_button_get_value (spin);
  return TRUE;
}

/* ---- environment rows --------------------------------------------------- */

void
mg_run_dialog_add_variable (MgRunDialog *self, const char *text)
{
  mg_run_env_editor_add (self->env_editor, text);
  update_errors (self);
}

static void
on_add_variable (GtkWidget *widget, const char *action, GVariant *parameter)
{
  GtkWidget *entry = mg_run_env_editor_add (MG_RUN_DIALOG (widget)->env_editor, NULL);

  gtk_widget_grab_focus (entry);
}

/* ---- metrics ------------------------------------------------------------ */

static void
on_search_changed (MgRunDialog *self)
{
  mg_run_metric_list_filter (self->metric_list, entry_text (self->search_entry));
}

guint
mg_run_dialog_get_n_visible_metrics (MgRunDialog *self)
{
  return mg_run_metric_list_get_n_visible (self->metric_list);
}

/* A fresh catalogue from the dialog's --metrics-path with the Score-P
 * plugins' @files (taken; NULL for none) listed for @key (taken). */
static void
replace_catalogue (MgRunDialog *self, GPtrArray *files, char *key)
{
  g_clear_object (&self->catalogue);
  self->catalogue = mg_run_catalogue_load_definitions ((const char *const *) self->catalogue_path);
  if (files != NULL)
    mg_scorep_defs_add_files (self->catalogue, files);
  g_free (self->scorep_key);
  self->scorep_key = key;
  mg_run_metric_list_set_catalogue (self->metric_list, self->catalogue);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CATALOGUE]);
}

/* The first plugin of @files that could not be listed, as said under the
 * field, or NULL. */
static char *
listing_error (GPtrArray *files)
{
  for (guint i = 0; i < files->len; i++)
    {
      const MgDefinitionFile *file = g_ptr_array_index (files, i);
      const MgSourceDef *source = g_ptr_array_index (file->sources, 0);

      /* The probe's own messages name the plugin already. */
      if (source->scorep_error != NULL && strstr (source->scorep_error, source->scorep_plugin))
        return g_strdup (source->scorep_error);
      if (source->scorep_error != NULL)
        return g_strdup_printf (_("Score-P plugin %s: %s"), source->scorep_plugin,
                                source->scorep_error);
    }
  return NULL;
}

static void
on_scorep_listed (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (MgRunDialog) self = user_data;
  g_autofree char *key = NULL;
  g_autoptr (GPtrArray) files = mg_scorep_defs_list_finish (result, &key, NULL);

  /* Closed, or the field changed again meanwhile (the later listing
   * counts). */
  if (files == NULL || g_cancellable_is_cancelled (self->cancellable)
      || g_strcmp0 (key, self->scorep_listing_key) != 0)
    return;
  g_clear_pointer (&self->scorep_listing_key, g_free);
  g_free (self->scorep_listing_error);
  self->scorep_listing_error = listing_error (files);
  replace_catalogue (self, g_steal_pointer (&files), g_steal_pointer (&key));
  /* A line naming the plugins' metrics reads now; one that still does
   * not stays as typed. */
  if (g_hash_table_contains (self->parse_errors, "command"))
    on_command_changed (self);
  if (g_hash_table_contains (self->parse_errors, "command"))
    {
      mg_run_metric_list_sync (self->metric_list);
      update_errors (self);
    }
  else
    sync_from_settings (self);
}

static void
start_scorep_listing (gpointer user_data)
{
  MgRunDialog *self = user_data;
  g_autoptr (MgRunSettings) wanted = g_steal_pointer (&self->scorep_wanted);

  self->scorep_timeout = 0;
  g_free (self->scorep_listing_key);
  self->scorep_listing_key = mg_scorep_defs_get_key (wanted, NULL);
  mg_scorep_defs_list_async (wanted, self->cancellable, on_scorep_listed, g_object_ref (self));
}

/* The plugins @settings name, listed into the dialog's own catalogue once
 * typing pauses, so that the metric list and the line know their metrics
 * before Profile. */
static void
schedule_scorep_listing (MgRunDialog *self, MgRunSettings *settings)
{
  g_autofree char *key = NULL;

  if (!self->own_catalogue)
    return;
  key = mg_scorep_defs_get_key (settings, NULL);
  if (key == NULL || g_strcmp0 (key, self->scorep_listing_key) == 0)
    return;
  g_clear_handle_id (&self->scorep_timeout, g_source_remove);
  if (g_strcmp0 (key, self->scorep_key) == 0)
    {
      g_clear_pointer (&self->scorep_listing_key, g_free); /* its result is stale */
      return;
    }
  g_set_object (&self->scorep_wanted, settings);
  self->scorep_timeout = g_timeout_add_once (SCOREP_LISTING_DELAY_MS, start_scorep_listing, self);
}

/* A line or settings with other --metrics-path folders: their metrics. */
static void
ensure_catalogue (MgRunDialog *self, const char *const *metrics_path)
{
  static const char *const none[] = { NULL };
  if (!self->own_catalogue || metrics_path == NULL
      || g_strv_equal (metrics_path, self->catalogue_path != NULL
                                       ? (const char *const *) self->catalogue_path : none))
    return;
  g_strfreev (self->catalogue_path);
  self->catalogue_path = g_strdupv ((char **) metrics_path);
  replace_catalogue (self, NULL, g_strdup (""));
}

/* ---- the command line --------------------------------------------------- */

static GtkTextBuffer *
command_buffer (MgRunDialog *self)
{
  return gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->command_entry));
}

static char *
command_text (MgRunDialog *self)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (command_buffer (self), &start, &end);
  return gtk_text_buffer_get_text (command_buffer (self), &start, &end, FALSE);
}

static void
set_command_text (MgRunDialog *self, const char *line)
{
  g_autofree char *current = command_text (self);
  g_autofree char *shown = g_utf8_make_valid (line, -1);

  if (g_strcmp0 (current, shown) != 0)
    gtk_text_buffer_set_text (command_buffer (self), shown, -1);
}

/* Broken across lines where it must (wrap mode char), but without the
 * hyphen Pango would add there: "/w-" + "ork" reads as part of a path. */
static void
keep_command_unhyphenated (GtkTextBuffer *buffer)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_apply_tag_by_name (buffer, "no-hyphens", &start, &end);
}

static void
on_command_changed (MgRunDialog *self)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (MgRunSettings) read = mg_run_settings_new ();
  g_autofree char *text = NULL;
  gboolean reads;

  if (self->syncing)
    return;
  text = command_text (self);
  self->command_editing = TRUE;
  /* Read without the catalogue: its folders and plugins come from it. */
  reads = mg_run_settings_set_from_command_line (read, text, NULL, NULL);
  if (reads)
    ensure_catalogue (self, mg_run_settings_get_metrics_path (read));
  set_parse_error (self, "command", NULL);
  if (!mg_run_settings_set_from_command_line (self->settings, text, self->catalogue, &error))
    {
      set_parse_error (self, "command", g_strdup (error->message));
      /* Its metric ids may be those of the plugins it names. */
      if (reads)
        schedule_scorep_listing (self, read);
    }
  self->command_editing = FALSE;
  update_errors (self);
}

void
mg_run_dialog_set_command_line (MgRunDialog *self, const char *line)
{
  set_command_text (self, line);
}

/* The line as shown, character for character. */
static void
on_copy_command (GtkWidget *widget, const char *action, GVariant *parameter)
{
  g_autofree char *text = command_text (MG_RUN_DIALOG (widget));

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

/* ---- settings → widgets ------------------------------------------------- */

static void
set_entry (GtkWidget *entry, const char *text)
{
  /* A name that is not UTF-8 (Run again of such a run) is shown with
   * U+FFFD; the settings keep its bytes until the field is edited. */
  g_autofree char *shown = g_utf8_make_valid (text != NULL ? text : "", -1);

  if (g_strcmp0 (entry_text (entry), shown) != 0)
    gtk_editable_set_text (GTK_EDITABLE (entry), shown);
}

/* Text the user is still fixing stays, unless a pasted line replaces it. */
static gboolean
keep_typed_text (MgRunDialog *self, const char *field)
{
  if (self->command_editing)
    g_hash_table_remove (self->parse_errors, field);
  return g_hash_table_contains (self->parse_errors, field);
}

static void
set_count_entry (MgRunDialog *self, const char *field, GtkWidget *entry, guint value)
{
  g_autofree char *text = value > 0 ? g_strdup_printf ("%u", value) : NULL;
  g_autofree char *message = NULL;
  guint shown;

  if (keep_typed_text (self, field))
    return;
  if (mg_run_parse_count (entry_text (entry), 0, 0, &shown, &message) && shown == value)
    return;
  set_entry (entry, text);
}

static void
set_seconds_entry (MgRunDialog *self, const char *field, GtkWidget *entry, double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *message = NULL;
  double shown;

  if (keep_typed_text (self, field))
    return;
  if (mg_run_parse_seconds (entry_text (entry), &shown, &message) && shown == value)
    return;
  set_entry (entry, value > 0 ? g_ascii_formatd (buffer, sizeof buffer, "%g", value) : NULL);
}

static void
set_ranks_entry (MgRunDialog *self, const char *ranks)
{
  g_autofree char *shown = NULL;

  if (keep_typed_text (self, "select-ranks"))
    return;
  shown = *entry_text (self->select_ranks_entry) != '\0'
            ? mg_rank_list_normalise (entry_text (self->select_ranks_entry), NULL) : NULL;
  if (g_strcmp0 (shown, ranks) != 0)
    set_entry (self->select_ranks_entry, ranks);
}

static void
set_scorep_entry (MgRunDialog *self)
{
  g_autofree char *text = NULL;

  if (keep_typed_text (self, "scorep")
      || mg_scorep_selection_text_matches (self->settings, entry_text (self->scorep_entry)))
    return;
  text = mg_scorep_selection_to_text (self->settings);
  set_entry (self->scorep_entry, text);
}

/* The switch is --report alone; a report file typed in the line is kept
 * while the switch stays on. */
static void
on_report_switched (MgRunDialog *self)
{
  gboolean on = gtk_switch_get_active (GTK_SWITCH (self->report_switch));

  if (self->syncing || on == (mg_run_settings_get_report (self->settings) != NULL))
    return;
  mg_run_settings_set_report (self->settings, on ? "" : NULL);
}

static void
sync_from_settings (MgRunDialog *self)
{
  MgRunSettings *s = self->settings;

  ensure_catalogue (self, mg_run_settings_get_metrics_path (s));
  self->syncing = TRUE;
  set_entry (self->program_entry, mg_run_settings_get_program (s));
  set_entry (self->arguments_entry, mg_run_settings_get_arguments (s));
  set_entry (self->working_folder_entry, mg_run_settings_get_working_folder (s));
  set_entry (self->output_entry, mg_run_settings_get_output (s));
  set_count_entry (self, "interval", self->interval_entry, mg_run_settings_get_interval_ms (s));
  set_count_entry (self, "max-samples", self->max_samples_entry, mg_run_settings_get_max_samples (s));
  set_seconds_entry (self, "start-after", self->start_after_entry, mg_run_settings_get_start_after (s));
  set_seconds_entry (self, "stop-after", self->stop_after_entry, mg_run_settings_get_stop_after (s));
  set_ranks_entry (self, mg_run_settings_get_select_ranks (s));
  set_scorep_entry (self);
  gtk_switch_set_active (GTK_SWITCH (self->report_switch), mg_run_settings_get_report (s) != NULL);
  /* A pasted line replaces MPI processes that did not read, too. */
  if ((self->command_editing && g_hash_table_remove (self->parse_errors, "n-processes"))
      || (guint) gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->n_processes_entry))
           != mg_run_settings_get_n_processes (s))
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->n_processes_entry),
                               mg_run_settings_get_n_processes (s));
  mg_run_env_editor_sync (self->env_editor);
  mg_run_metric_list_sync (self->metric_list);

  g_free (self->command_line);
  self->command_line = mg_run_settings_to_command_line (s, self->catalogue);
  /* The line shown is then the settings' own, which reads. */
  if (!self->command_editing)
    {
      set_command_text (self, self->command_line);
      set_parse_error (self, "command", NULL);
    }
  self->syncing = FALSE;
  update_errors (self);
  schedule_scorep_listing (self, self->settings);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_COMMAND_LINE]);
}

/* ---- choosers ----------------------------------------------------------- */

static void
on_chooser_response (GtkNativeDialog *chooser, int response, gpointer user_data)
{
  GtkWidget *entry = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        gtk_editable_set_text (GTK_EDITABLE (entry), path);
    }
  g_object_unref (chooser);
}

static void
choose (MgRunDialog *self, const char *title, GtkFileChooserAction action, GtkWidget *entry)
{
  GtkFileChooserNative *chooser =
    gtk_file_chooser_native_new (title, GTK_WINDOW (self), action, _("_Select"), _("_Cancel"));
  const char *folder = mg_run_settings_get_working_folder (self->settings);

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  if (folder != NULL && g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      g_autoptr (GFile) current = g_file_new_for_path (folder);

      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), current, NULL);
    }
  g_signal_connect (chooser, "response", G_CALLBACK (on_chooser_response), entry);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
on_choose_program (GtkWidget *widget, const char *action, GVariant *parameter)
{
  MgRunDialog *self = MG_RUN_DIALOG (widget);

  choose (self, _("Choose the Program to Profile"), GTK_FILE_CHOOSER_ACTION_OPEN, self->program_entry);
}

static void
on_choose_folder (GtkWidget *widget, const char *action, GVariant *parameter)
{
  MgRunDialog *self = MG_RUN_DIALOG (widget);

  choose (self, _("Choose the Working Folder"), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
          self->working_folder_entry);
}

static void
on_choose_output (GtkWidget *widget, const char *action, GVariant *parameter)
{
  MgRunDialog *self = MG_RUN_DIALOG (widget);

  choose (self, _("Choose Where to Save the Profile"), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
          self->output_entry);
}

static void
on_reset_metrics (GtkWidget *widget, const char *action, GVariant *parameter)
{
  mg_run_settings_reset_toggles (MG_RUN_DIALOG (widget)->settings);
}

/* Program names on PATH for the program entry's completion: read in a
 * worker thread the first time the user types a program name, so that
 * opening the dialog never waits for PATH's folders (thousands of names,
 * maybe on a network file system). */
#define MAX_COMPLETIONS 8000

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

static void
read_path_in_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  g_auto (GStrv) dirs = g_strsplit (task_data != NULL ? task_data : "", ":", -1);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; dirs[i] != NULL && !g_cancellable_is_cancelled (cancellable); i++)
    {
      g_autoptr (GDir) dir = *dirs[i] != '\0' ? g_dir_open (dirs[i], 0, NULL) : NULL;
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL && names->len < MAX_COMPLETIONS)
        if (!g_hash_table_contains (seen, name))
          {
            char *copy = g_strdup (name);

            g_hash_table_add (seen, copy);
            g_ptr_array_add (names, copy);
          }
    }
  g_ptr_array_sort (names, compare_names);
  g_task_return_pointer (task, names, (GDestroyNotify) g_ptr_array_unref);
}

static void
on_path_read (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GtkListStore *store = GTK_LIST_STORE (source);
  g_autoptr (GPtrArray) names = g_task_propagate_pointer (G_TASK (result), NULL);

  for (guint i = 0; names != NULL && i < names->len; i++)
    gtk_list_store_insert_with_values (store, NULL, -1, 0, g_ptr_array_index (names, i), -1);
}

static void
read_path_names (MgRunDialog *self)
{
  GtkEntryCompletion *completion = gtk_entry_get_completion (GTK_ENTRY (self->program_entry));
  g_autoptr (GTask) task = NULL;

  if (self->path_read)
    return;
  self->path_read = TRUE;
  task = g_task_new (gtk_entry_completion_get_model (completion), self->cancellable, on_path_read,
                     NULL);
  g_task_set_task_data (task, g_strdup (g_getenv ("PATH")), g_free);
  g_task_run_in_thread (task, read_path_in_thread);
}

static void
setup_completion (MgRunDialog *self)
{
  g_autoptr (GtkListStore) names = gtk_list_store_new (1, G_TYPE_STRING);
  g_autoptr (GtkEntryCompletion) completion = gtk_entry_completion_new ();

  gtk_entry_completion_set_model (completion, GTK_TREE_MODEL (names));
  gtk_entry_completion_set_text_column (completion, 0);
  gtk_entry_completion_set_minimum_key_length (completion, 2);
  gtk_entry_completion_set_inline_completion (completion, TRUE);
  gtk_entry_set_completion (GTK_ENTRY (self->program_entry), completion);
}

/* ---- starting ----------------------------------------------------------- */

/* The Score-P plugins the settings choose in the catalogue the run uses:
 * the dialog's own has them when their listing has finished; else they are
 * listed now (a short child each), into a fresh catalogue when the dialog
 * owns it, so that a second try does not list them twice. */
static gboolean
add_scorep_plugins (MgRunDialog *self, GError **error)
{
  g_autofree char *key = mg_scorep_defs_get_key (self->settings, error);

  if (key == NULL)
    return FALSE;
  if (*key == '\0' || (self->own_catalogue && g_strcmp0 (key, self->scorep_key) == 0))
    return TRUE;
  if (self->own_catalogue)
    {
      g_clear_handle_id (&self->scorep_timeout, g_source_remove);
      g_clear_pointer (&self->scorep_listing_key, g_free);
      replace_catalogue (self, NULL, g_strdup (key));
    }
  return mg_scorep_defs_add_to_catalogue (self->catalogue, self->settings, error);
}

/* The profile carries its frames' names and source text: the session
 * keeps the symboliser, which names the frames on the thread that saves,
 * at the end. */
static void
give_code_callbacks (MgRunSession *session)
{
  MgSymbolizer *symbolizer = mg_symbolizer_new ();
  MgStackNamer namer = mg_code_callbacks_namer (symbolizer);
  MgSourceCollector sources = mg_code_callbacks_sources ();

  g_object_set_data_full (G_OBJECT (session), "mg-symbolizer", symbolizer, g_object_unref);
  mg_run_session_set_stack_namer (session, &namer);
  mg_run_session_set_source_collector (session, &sources, MG_PROFILE_SOURCE_DEFAULT_LIMIT);
}

static void
on_start (GtkWidget *widget, const char *action, GVariant *parameter)
{
  MgRunDialog *self = MG_RUN_DIALOG (widget);
  g_autoptr (MgRunSession) session = NULL;
  g_autoptr (GError) error = NULL;
  const char *first;

  self->start_tried = TRUE;
  first = update_errors (self);
  if (first != NULL)
    {
      gtk_widget_grab_focus (field_widget (self, find_field (first), FALSE));
      gtk_widget_error_bell (widget);
      return;
    }
  if (!add_scorep_plugins (self, &error))
    {
      show_field_error (self, "scorep", error->message);
      gtk_widget_error_bell (widget);
      return;
    }
  session = mg_run_session_new (self->settings, self->catalogue);
  give_code_callbacks (session);
  if (!mg_run_session_start (session, &error))
    {
      show_field_error (self, "program", error->message);
      gtk_widget_error_bell (widget);
      return;
    }
  /* GSettings keeps UTF-8 only: a command line with other bytes (a
   * folder, an argument) is not remembered rather than mangled. */
  if (self->gsettings != NULL && g_utf8_validate (self->command_line, -1, NULL))
    g_settings_set_string (self->gsettings, "last-command-line", self->command_line);
  self->session = g_steal_pointer (&session);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SESSION]);
  gtk_window_close (GTK_WINDOW (self));
}

/* ---- object ------------------------------------------------------------- */

static GSettings *
new_gsettings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, RUN_SCHEMA_ID, TRUE);
  return schema != NULL ? g_settings_new_full (schema, NULL, NULL) : NULL;
}


static void
mg_run_dialog_dispose (GObject *object)
{
  MgRunDialog *self = MG_RUN_DIALOG (object);

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->scorep_timeout, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), MG_TYPE_RUN_DIALOG);
  G_OBJECT_CLASS (mg_run_dialog_parent_class)->dispose (object);
}

static void
mg_run_dialog_finalize (GObject *object)
{
  MgRunDialog *self = MG_RUN_DIALOG (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->catalogue);
  g_strfreev (self->catalogue_path);
  g_clear_object (&self->session);
  g_clear_object (&self->gsettings);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->scorep_wanted);
  g_free (self->command_line);
  g_free (self->scorep_key);
  g_free (self->scorep_listing_key);
  g_free (self->scorep_listing_error);
  g_hash_table_unref (self->parse_errors);
  g_clear_object (&self->metric_list);
  g_clear_object (&self->env_editor);
  G_OBJECT_CLASS (mg_run_dialog_parent_class)->finalize (object);
}

static void
mg_run_dialog_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  MgRunDialog *self = MG_RUN_DIALOG (object);

  switch (prop_id)
    {
    case PROP_SETTINGS: g_value_set_object (value, self->settings); break;
    case PROP_CATALOGUE: g_value_set_object (value, self->catalogue); break;
    case PROP_SESSION: g_value_set_object (value, self->session); break;
    case PROP_COMMAND_LINE: g_value_set_string (value, self->command_line); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_run_dialog_set_property (GObject *object, guint prop_id, const GValue *value,
                            GParamSpec *pspec)
{
  MgRunDialog *self = MG_RUN_DIALOG (object);

  switch (prop_id)
    {
    case PROP_CATALOGUE: self->catalogue = g_value_dup_object (value); break;
    case PROP_COMMAND_LINE: mg_run_dialog_set_command_line (self, g_value_get_string (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_run_dialog_constructed (GObject *object)
{
  MgRunDialog *self = MG_RUN_DIALOG (object);

  G_OBJECT_CLASS (mg_run_dialog_parent_class)->constructed (object);
  if (self->catalogue == NULL)
    {
      self->catalogue = mg_run_catalogue_load_definitions (NULL);
      self->own_catalogue = TRUE;
      self->catalogue_path = g_new0 (char *, 1);
      self->scorep_key = g_strdup (""); /* no plugins in it yet */
    }
  mg_run_metric_list_set_catalogue (self->metric_list, self->catalogue);
  sync_from_settings (self);
}

static void
mg_run_dialog_class_init (MgRunDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mg_run_dialog_dispose;
  object_class->finalize = mg_run_dialog_finalize;
  object_class->get_property = mg_run_dialog_get_property;
  object_class->set_property = mg_run_dialog_set_property;
  object_class->constructed = mg_run_dialog_constructed;

  props[PROP_SETTINGS] = g_param_spec_object ("settings", NULL, NULL, MG_TYPE_RUN_SETTINGS,
                                              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  props[PROP_CATALOGUE] = g_param_spec_object ("catalogue", NULL, NULL, MG_TYPE_CATALOGUE,
                                               G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY
                                               | G_PARAM_STATIC_STRINGS);
  props[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, MG_TYPE_RUN_SESSION,
                                             G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
                                             | G_PARAM_STATIC_STRINGS);
  props[PROP_COMMAND_LINE] = g_param_spec_string ("command-line", NULL, NULL, NULL,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                  | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/metrograph/Metrograph/ui/mg-run-dialog.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, MgRunDialog, name)
  BIND (program_entry); BIND (program_error);
  BIND (arguments_entry); BIND (arguments_error);
  BIND (working_folder_entry); BIND (working_folder_error);
  BIND (environment_list); BIND (environment_entry); BIND (environment_error);
  BIND (n_processes_entry); BIND (n_processes_error);
  BIND (select_ranks_entry); BIND (select_ranks_error);
  BIND (interval_entry); BIND (interval_error);
  BIND (max_samples_entry); BIND (max_samples_error);
  BIND (start_after_entry); BIND (start_after_error);
  BIND (stop_after_entry); BIND (stop_after_error);
  BIND (output_entry); BIND (output_error);
  BIND (report_switch);
  BIND (scorep_entry); BIND (scorep_error);
  BIND (search_entry);
  BIND (metrics_list);
  BIND (command_entry); BIND (command_error);
  BIND (start_button);
#undef BIND

  gtk_widget_class_install_action (widget_class, "run.start", NULL, on_start);
  gtk_widget_class_install_action (widget_class, "run.copy-command", NULL, on_copy_command);
  gtk_widget_class_install_action (widget_class, "run.choose-program", NULL, on_choose_program);
  gtk_widget_class_install_action (widget_class, "run.choose-folder", NULL, on_choose_folder);
  gtk_widget_class_install_action (widget_class, "run.choose-output", NULL, on_choose_output);
  gtk_widget_class_install_action (widget_class, "run.add-variable", NULL, on_add_variable);
  gtk_widget_class_install_action (widget_class, "run.reset-metrics", NULL, on_reset_metrics);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK,
                                       "run.start", NULL);
}

static void
mg_run_dialog_init (MgRunDialog *self)
{
  mg_run_css_load ();
  gtk_widget_init_template (GTK_WIDGET (self));
  self->settings = mg_run_settings_new ();
  self->gsettings = new_gsettings ();
  self->cancellable = g_cancellable_new ();
  self->parse_errors = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  self->metric_list = mg_run_metric_list_new (GTK_LIST_BOX (self->metrics_list), self->settings);
  self->env_editor = mg_run_env_editor_new (GTK_LIST_BOX (self->environment_list), self->settings);

  {
    GtkWidget *text_fields[] = {
      self->program_entry, self->arguments_entry, self->working_folder_entry,
      self->output_entry, self->select_ranks_entry, self->interval_entry, self->max_samples_entry,
      self->start_after_entry, self->stop_after_entry, self->scorep_entry,
    };

    for (guint i = 0; i < G_N_ELEMENTS (text_fields); i++)
      g_signal_connect_swapped (text_fields[i], "changed", G_CALLBACK (on_field_changed), self);
  }
  g_signal_connect (self->n_processes_entry, "output", G_CALLBACK (on_processes_output), self);
  g_signal_connect (self->n_processes_entry, "input", G_CALLBACK (on_processes_input), self);
  g_signal_connect_swapped (self->n_processes_entry, "changed",
                            G_CALLBACK (on_processes_text_changed), self);
  gtk_editable_set_text (GTK_EDITABLE (self->n_processes_entry), _("Off"));
  g_signal_connect_swapped (self->n_processes_entry, "value-changed",
                            G_CALLBACK (on_processes_changed), self);
  gtk_text_buffer_create_tag (command_buffer (self), "no-hyphens", "insert-hyphens", FALSE, NULL);
  g_signal_connect (command_buffer (self), "changed", G_CALLBACK (keep_command_unhyphenated), NULL);
  g_signal_connect_swapped (command_buffer (self), "changed", G_CALLBACK (on_command_changed), self);
  g_signal_connect_swapped (self->search_entry, "search-changed", G_CALLBACK (on_search_changed), self);
  g_signal_connect_swapped (self->report_switch, "notify::active", G_CALLBACK (on_report_switched),
                            self);
  g_signal_connect_swapped (self->settings, "notify", G_CALLBACK (sync_from_settings), self);
  setup_completion (self);
  {
    g_autofree char *cwd = g_get_current_dir ();
    /* The defaults and limits are the option table's (mg-run-options.c). */
    g_autofree char *interval =
      g_strdup_printf ("%u", mg_run_options_lookup ("--interval")->default_value);
    g_autofree char *samples =
      g_strdup_printf ("%u", mg_run_options_lookup ("--samples")->default_value);

    gtk_entry_set_placeholder_text (GTK_ENTRY (self->working_folder_entry), cwd);
    /* Empty fields leave the sampler its defaults. */
    gtk_entry_set_placeholder_text (GTK_ENTRY (self->interval_entry), interval);
    gtk_entry_set_placeholder_text (GTK_ENTRY (self->max_samples_entry), samples);
  }
}

/* The last line started (a folder to save in is in it as "-o DIR/": the
 * next run gets its own name there). */
static void
restore_last (MgRunDialog *self)
{
  g_autofree char *last = g_settings_get_string (self->gsettings, "last-command-line");

  if (*last != '\0')
    mg_run_settings_set_from_command_line (self->settings, last, NULL, NULL);
}

/* Over a window smaller than the dialog's own size (1024 × 700 on a
 * small screen, where the dialog's 1080 × 720 went past it and the
 * screen), the dialog fits within it; over a bigger one it keeps its
 * size. */
static void
fit_within (GtkWindow *self, GtkWindow *parent)
{
  int width, height, parent_width, parent_height;

  if (parent == NULL)
    return;
  gtk_window_get_default_size (self, &width, &height);
  parent_width = gtk_widget_get_width (GTK_WIDGET (parent));
  parent_height = gtk_widget_get_height (GTK_WIDGET (parent));
  /* Not shown yet: the size it will open at. */
  if (parent_width <= 0 || parent_height <= 0)
    gtk_window_get_default_size (parent, &parent_width, &parent_height);
  if (parent_width > 0)
    width = MIN (width, parent_width);
  if (parent_height > 0)
    height = MIN (height, parent_height);
  gtk_window_set_default_size (self, width, height);
}

MgRunDialog *
mg_run_dialog_new (GtkWindow *parent, MgCatalogue *catalogue, MgRunSettings *initial)
{
  MgRunDialog *self = g_object_new (MG_TYPE_RUN_DIALOG, "catalogue", catalogue,
                                    "transient-for", parent, NULL);

  fit_within (GTK_WINDOW (self), parent);

  if (initial != NULL)
    mg_run_settings_assign (self->settings, initial);
  else if (self->gsettings != NULL)
    restore_last (self);
  return self;
}

/* A profile recorded here: one of its processes ran on this host. */
static gboolean
recorded_here (MgProfile *profile)
{
  const char *host = g_get_host_name ();

  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    if (g_strcmp0 (mg_profile_get_process (profile, p)->host, host) == 0)
      return TRUE;
  return FALSE;
}

gboolean
mg_run_dialog_learn_unavailable (MgRunDialog *self, MgProfile *profile)
{
  g_autoptr (GPtrArray) declined = NULL;

  g_return_val_if_fail (MG_IS_RUN_DIALOG (self), FALSE);
  if (profile == NULL || !recorded_here (profile))
    return FALSE;
  /* What the viewer lists under "Not measured here": the plugins that
   * declined in every process (mg-unavailable.h), not those that failed. */
  declined = mg_unavailable_collect (profile);
  for (guint i = 0; i < declined->len;)
    if (!mg_unavailable_is_absent (g_ptr_array_index (declined, i)))
      g_ptr_array_remove_index (declined, i);
    else
      i++;
  if (declined->len == 0)
    return TRUE;
  mg_run_metric_list_set_declined (self->metric_list, declined);
  /* Unchecked: a run would only record their absence again. */
  for (guint i = 0; i < mg_catalogue_get_n_metrics (self->catalogue); i++)
    {
      const MgCatalogueMetric *m = mg_catalogue_get_metric (self->catalogue, i);

      if (m->enabled && m->def->enabled != MG_ENABLED_ALWAYS
          && mg_run_metric_list_is_declined (self->metric_list, m->def->id))
        mg_run_settings_set_metric_enabled (self->settings, self->catalogue, m->def->id, FALSE);
    }
  return TRUE;
}

static void
on_host_probed (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (MgProfile) profile = mg_host_probe_run_finish (result, &error);
  MgRunDialog *self;

  /* Cancelled: the dialog is gone. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = MG_RUN_DIALOG (user_data);
  if (profile == NULL)
    g_debug ("no host probe: %s", error->message);
  else
    mg_run_dialog_learn_unavailable (self, profile);
  self->host_probed = TRUE;
}

void
mg_run_dialog_probe_unavailable (MgRunDialog *self)
{
  g_return_if_fail (MG_IS_RUN_DIALOG (self));
  mg_host_probe_run_async (self->cancellable, on_host_probed, self);
}

gboolean
mg_run_dialog_get_host_probed (MgRunDialog *self)
{
  return self->host_probed;
}

MgRunSettings *
mg_run_dialog_get_settings (MgRunDialog *self)
{
  return self->settings;
}

MgCatalogue *
mg_run_dialog_get_catalogue (MgRunDialog *self)
{
  return self->catalogue;
}

const char *
mg_run_dialog_get_command_line (MgRunDialog *self)
{
  return self->command_line;
}

MgRunSession *
mg_run_dialog_get_session (MgRunDialog *self)
{
  return self->session;
}

GtkWidget *
mg_run_dialog_get_field (MgRunDialog *self, const char *name)
{
  const Field *field = find_field (name);

  if (strcmp (name, "search") == 0)
    return self->search_entry;
  if (strcmp (name, "profile") == 0)
    return self->start_button;
  if (strcmp (name, "report") == 0)
    return self->report_switch;
  return field != NULL ? field_widget (self, field, FALSE) : NULL;
}

const char *
mg_run_dialog_get_field_error (MgRunDialog *self, const char *name)
{
  const Field *field = find_field (name);
  GtkWidget *label = field != NULL ? field_widget (self, field, TRUE) : NULL;

  return label != NULL && gtk_widget_get_visible (label) ? gtk_label_get_text (GTK_LABEL (label)) : NULL;
}

GtkCheckButton *
mg_run_dialog_get_metric_check (MgRunDialog *self, const char *metric_id)
{
  return mg_run_metric_list_get_metric_check (self->metric_list, metric_id);
}

const char *
mg_run_dialog_get_metric_reason (MgRunDialog *self, const char *metric_id)
{
  return mg_run_metric_list_get_reason (self->metric_list, metric_id);
}

GStrv
mg_run_dialog_dup_definition_errors (MgRunDialog *self)
{
  return mg_run_metric_list_dup_definition_errors (self->metric_list);
}

GtkCheckButton *
mg_run_dialog_get_group_check (MgRunDialog *self, const char *group_id)
{
  return mg_run_metric_list_get_group_check (self->metric_list, group_id);
}
