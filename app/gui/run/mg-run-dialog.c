/* Two-way binding by hand: widgets write into the MgRunSettings as the user
 * types; every settings change (typing, a check, a pasted line, "Run
 * again") refreshes the widgets that differ, the checks and the command
 * line. `syncing` keeps the refresh from echoing back into the settings. */
#include "mg-config.h"

#include "mg-run-dialog.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mg-install-paths.h"
#include "mg-run-check.h"
#include "mg-run-command-line.h"
#include "mg-run-css.h"
#include "mg-run-metric-toggles.h"

#define RUN_SCHEMA_ID MG_APP_ID ".Run"

struct _MgRunDialog
{
  GtkWindow parent_instance;

  GtkWidget *program_entry, *program_error;
  GtkWidget *arguments_entry, *arguments_error;
  GtkWidget *working_folder_entry, *working_folder_error;
  GtkWidget *environment_list, *environment_entry, *environment_error;
  GtkWidget *n_processes_entry, *n_processes_error;
  GtkWidget *interval_entry, *interval_error;
  GtkWidget *max_samples_entry, *max_samples_error;
  GtkWidget *start_after_entry, *start_after_error;
  GtkWidget *stop_after_entry, *stop_after_error;
  GtkWidget *output_entry, *output_error;
  GtkWidget *search_entry;
  GtkWidget *metrics_list;
  GtkWidget *command_entry, *command_error;
  GtkWidget *start_button;

  MgRunSettings *settings;
  MgCatalogue *catalogue;
  MgRunSession *session;
  GSettings *gsettings;
  char *command_line;
  GHashTable *parse_errors;    /* field → message of text that does not parse */
  GHashTable *metric_checks;   /* metric id → GPtrArray of GtkCheckButton (one per group) */
  GHashTable *group_checks;    /* group id → GtkCheckButton */
  GPtrArray *metric_rows;      /* GtkWidget rows that hold a metric check */
  gboolean syncing;
  gboolean command_editing;
  gboolean start_tried;        /* an empty program is an error only then */
};

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
  FIELD ("interval", interval),
  FIELD ("max-samples", max_samples),
  FIELD ("start-after", start_after),
  FIELD ("stop-after", stop_after),
  FIELD ("output", output),
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
  return G_STRUCT_MEMBER (GtkWidget *, self, error ? field->error_offset : field->entry_offset);
}

static void sync_from_settings (MgRunDialog *self);

/* ---- errors beside the fields ------------------------------------------ */

static void
show_field_error (MgRunDialog *self, const char *name, const char *message)
{
  const Field *field = find_field (name);
  GtkWidget *label = field_widget (self, field, TRUE);
  GtkWidget *input = field_widget (self, field, FALSE);

  gtk_label_set_text (GTK_LABEL (label), message != NULL ? message : "");
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
  { "output", "output" },
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

      if (strcmp (name, "command") == 0)
        continue;
      for (guint j = 0; j < G_N_ELEMENTS (checked) && parse == NULL && message == NULL; j++)
        if (strcmp (checked[j].field, name) == 0)
          message = mg_run_settings_check_field (self->settings, checked[j].property);
      /* Nothing typed yet is not worth a red line until Profile is pressed. */
      if (strcmp (name, "program") == 0 && !self->start_tried
          && mg_run_settings_get_program (self->settings) == NULL)
        g_clear_pointer (&message, g_free);
      show_field_error (self, name, parse != NULL ? parse : message);
      if ((parse != NULL || message != NULL) && first == NULL)
        first = name;
    }
  return first;
}

/* ---- fields → settings -------------------------------------------------- */

static const char *
entry_text (GtkWidget *entry)
{
  return gtk_editable_get_text (GTK_EDITABLE (entry));
}

static void
on_text_field_changed (GtkEditable *editable, MgRunDialog *self)
{
  const char *text = gtk_editable_get_text (editable);
  GtkWidget *entry = GTK_WIDGET (editable);

  if (self->syncing)
    return;
  if (entry == self->program_entry)
    mg_run_settings_set_program (self->settings, g_strstrip (g_strdup (text)) /* below */);
}
