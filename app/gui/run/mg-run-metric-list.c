/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Check toggles write into the settings; syncing keeps the checks set from
 * the settings from echoing back. */
#include "mg-config.h"

#include "mg-run-metric-list.h"

#include <glib/gi18n.h>
#include <string.h>

#include "profile/mg-unavailable.h"
#include "session/mg-run-metric-toggles.h"

struct _MgRunMetricList
{
  GObject parent_instance;

  GtkListBox *list;
  MgRunSettings *settings;
  MgCatalogue *catalogue;
  GHashTable *metric_checks;   /* metric id → GPtrArray of GtkCheckButton (one per group) */
  GHashTable *group_checks;    /* group id → GtkCheckButton */
  GPtrArray *metric_rows;      /* GtkWidget rows that hold a metric check */
  GPtrArray *declined;         /* MgUnavailable: plugins that declined on this machine */
  gboolean syncing;
};

G_DEFINE_FINAL_TYPE (MgRunMetricList, mg_run_metric_list, G_TYPE_OBJECT)

static void
on_metric_toggled (GtkCheckButton *check, MgRunMetricList *self)
{
  if (self->syncing)
    return;
  mg_run_settings_set_metric_enabled (self->settings, self->catalogue,
                                      g_object_get_data (G_OBJECT (check), "metric-id"),
                                      gtk_check_button_get_active (check));
}

static void
on_group_toggled (GtkCheckButton *check, MgRunMetricList *self)
{
  if (self->syncing)
    return;
  /* A mixed group turns fully on first. */
  mg_run_settings_set_group_enabled (self->settings, self->catalogue,
                                     g_object_get_data (G_OBJECT (check), "group-id"),
                                     gtk_check_button_get_active (check)
                                       || gtk_check_button_get_inconsistent (check));
}

static char *
plain_text (const char *html)
{
  g_autoptr (GRegex) tags = g_regex_new ("<[^>]*>", 0, 0, NULL);

  return html != NULL ? g_regex_replace_literal (tags, html, -1, 0, "", 0, NULL) : NULL;
}

/* The plugin behind m that declined on this machine, or NULL. */
static const MgUnavailable *
find_declined (MgRunMetricList *self, const MgCatalogueMetric *m)
{
  for (guint i = 0; self->declined != NULL && m->source != NULL && i < self->declined->len; i++)
    {
      const MgUnavailable *entry = g_ptr_array_index (self->declined, i);

      if (g_strcmp0 (entry->source_id, m->source->id) == 0)
        return entry;
    }
  return NULL;
}

static GtkWidget *
new_metric_row (MgRunMetricList *self, const MgCatalogueMetric *m, const MgCatalogueGroup *group)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *check = gtk_check_button_new_with_label (m->def->display_name != NULL
                                                        ? m->def->display_name : m->def->id);
  GtkWidget *id = gtk_label_new (m->def->id);
  g_autofree char *tooltip = plain_text (m->def->description);
  g_autofree char *search = NULL;
  const char *reason = NULL;
  const MgUnavailable *declined = find_declined (self, m);
  g_autofree char *declined_text = NULL;
  GPtrArray *checks;

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_add_css_class (row, "metric-row");
  gtk_widget_set_hexpand (check, TRUE);
  gtk_widget_add_css_class (id, "metric-id");
  gtk_widget_add_css_class (id, "dim-label");
  /* Ids share their start ("com.allinea.metrics.perf."): on a line of
   * their own under the name, wrapped rather than cut, whole in the
   * tooltip too. */
  gtk_label_set_xalign (GTK_LABEL (id), 0);
  gtk_label_set_wrap (GTK_LABEL (id), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (id), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_margin_start (id, 28);
  gtk_widget_add_css_class (id, "caption");
  gtk_widget_set_tooltip_text (id, m->def->id);
  g_object_set_data (G_OBJECT (check), "id-label", id);
  {
    /* No hyphen where an id breaks: it would read as part of the id. */
    PangoAttrList *attrs = pango_attr_list_new ();

    pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
    gtk_label_set_attributes (GTK_LABEL (id), attrs);
    pango_attr_list_unref (attrs);
  }
  gtk_widget_set_tooltip_text (check, tooltip);
  g_object_set_data_full (G_OBJECT (check), "metric-id", g_strdup (m->def->id), g_free);

  if (!m->available)
    reason = m->unavailable_reason;
  else if (declined != NULL)
    {
      /* Translators: why a metric is off: its plugin's short reason, e.g. "no RAPL" */
      declined_text = g_strdup_printf (_("Not available on this machine: %s"),
                                       *declined->reason != '\0' ? declined->reason
                                                                 : declined->message);
      reason = declined_text;
    }
  else if (m->def->enabled == MG_ENABLED_ALWAYS)
    reason = _("Always recorded (its definition says so)");
  else if (m->def->enabled == MG_ENABLED_NEVER)
    reason = _("Never recorded (its definition says so)");
  gtk_widget_set_sensitive (check, mg_run_metric_is_switchable (m));

  gtk_box_append (GTK_BOX (line), check);
  gtk_box_append (GTK_BOX (box), line);
  gtk_box_append (GTK_BOX (box), id);
  if (reason != NULL)
    {
      GtkWidget *why = gtk_label_new (reason);

      gtk_label_set_xalign (GTK_LABEL (why), 0);
      gtk_label_set_wrap (GTK_LABEL (why), TRUE);
      gtk_widget_set_margin_start (why, 28);
      gtk_widget_add_css_class (why, m->available && declined == NULL ? "dim-label"
                                                                      : "metric-reason");
      gtk_widget_add_css_class (why, "metric-id");
      /* The plugin's whole message, as the viewer's Run page has it. */
      if (declined != NULL)
        gtk_widget_set_tooltip_text (why, declined->message);
      gtk_box_append (GTK_BOX (box), why);
      g_object_set_data (G_OBJECT (check), "reason", why);
    }
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);

  search = g_strjoin (" ", m->def->id, m->def->display_name != NULL ? m->def->display_name : "",
                      group != NULL && group->group->display_name != NULL
                        ? group->group->display_name : "", NULL);
  g_object_set_data_full (G_OBJECT (row), "search", g_utf8_casefold (search, -1), g_free);
  checks = g_hash_table_lookup (self->metric_checks, m->def->id);
  if (checks == NULL)
    {
      checks = g_ptr_array_new ();
      g_hash_table_insert (self->metric_checks, m->def->id, checks);
    }
  g_ptr_array_add (checks, check);
  g_ptr_array_add (self->metric_rows, row);
  g_signal_connect (check, "toggled", G_CALLBACK (on_metric_toggled), self);
  return row;
}

static GtkWidget *
new_heading_row (const char *title, const char *tooltip, GtkWidget **check_out)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *child;

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_add_css_class (row, "metric-group-row");
  if (check_out != NULL)
    child = *check_out = gtk_check_button_new_with_label (title);
  else
    {
      child = gtk_label_new (title);
      gtk_label_set_xalign (GTK_LABEL (child), 0);
    }
  gtk_widget_set_tooltip_text (child, tooltip);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), child);
  return row;
}

static void
add_group (MgRunMetricList *self, const MgCatalogueGroup *group)
{
  g_autofree char *tooltip = plain_text (group->group->description);
  GtkWidget *check = NULL;
  GtkWidget *heading = new_heading_row (group->group->display_name != NULL
                                          ? group->group->display_name : group->group->id,
                                        tooltip, &check);
  gboolean any_switchable = FALSE;

  g_object_set_data_full (G_OBJECT (check), "group-id", g_strdup (group->group->id), g_free);
  g_hash_table_insert (self->group_checks, group->group->id, check);
  g_signal_connect (check, "toggled", G_CALLBACK (on_group_toggled), self);
  gtk_list_box_append (self->list, heading);
  for (guint j = 0; j < group->members->len; j++)
    {
      const MgCatalogueMetric *m = g_ptr_array_index (group->members, j);
      GtkWidget *row = new_metric_row (self, m, group);

      any_switchable |= mg_run_metric_is_switchable (m);
      g_object_set_data (G_OBJECT (row), "heading", heading);
      gtk_list_box_append (self->list, row);
    }
  gtk_widget_set_sensitive (check, any_switchable);
  if (!group->available && group->unavailable_reason != NULL)
    gtk_widget_set_tooltip_text (check, group->unavailable_reason);
}

static gboolean
in_some_group (MgCatalogue *catalogue, const MgCatalogueMetric *m)
{
  for (guint g = 0; g < mg_catalogue_get_n_groups (catalogue); g++)
    {
      const MgCatalogueGroup *group = mg_catalogue_get_group (catalogue, g);

      for (guint j = 0; j < group->members->len; j++)
        if (g_ptr_array_index (group->members, j) == m)
          return TRUE;
    }
  return FALSE;
}

/* Broken definition files: listed, insensitive, with what is wrong. */
static void
add_diagnostics (MgRunMetricList *self)
{
  GPtrArray *diagnostics = mg_catalogue_get_diagnostics (self->catalogue);
  gboolean heading = FALSE;

  for (guint i = 0; i < diagnostics->len; i++)
    {
      const MgDiagnostic *d = g_ptr_array_index (diagnostics, i);
      g_autofree char *text = NULL;
      GtkWidget *row, *label;

      if (d->severity != MG_SEVERITY_ERROR)
        continue;
      if (!heading)
        {
          gtk_list_box_append (self->list,
                               new_heading_row (_("Definition files with errors"), NULL, NULL));
          heading = TRUE;
        }
      text = mg_diagnostic_to_string (d);
      row = gtk_list_box_row_new ();
      label = gtk_label_new (text);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_widget_add_css_class (label, "metric-reason");
      gtk_widget_add_css_class (label, "metric-id");
      gtk_widget_add_css_class (row, "metric-row");
      gtk_widget_add_css_class (row, "definition-error");
      gtk_widget_set_sensitive (row, FALSE);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
      gtk_list_box_append (self->list, row);
    }
}

static void
build (MgRunMetricList *self)
{
  gboolean other_heading = FALSE;

  for (guint g = 0; g < mg_catalogue_get_n_groups (self->catalogue); g++)
    add_group (self, mg_catalogue_get_group (self->catalogue, g));
  for (guint i = 0; i < mg_catalogue_get_n_metrics (self->catalogue); i++)
    {
      const MgCatalogueMetric *m = mg_catalogue_get_metric (self->catalogue, i);
      GtkWidget *row;

      if (in_some_group (self->catalogue, m))
        continue;
      if (!other_heading)
        {
          gtk_list_box_append (self->list,
                               new_heading_row (_("Other metrics"), NULL, NULL));
          other_heading = TRUE;
        }
      row = new_metric_row (self, m, NULL);
      gtk_list_box_append (self->list, row);
    }
  add_diagnostics (self);
}

static void
set_checks (MgRunMetricList *self)
{
  GHashTableIter iter;
  gpointer key, value;

  if (!mg_run_settings_apply_toggles (self->settings, self->catalogue, NULL))
    mg_catalogue_apply_toggles (self->catalogue, NULL, NULL, NULL);
  for (guint i = 0; i < mg_catalogue_get_n_metrics (self->catalogue); i++)
    {
      const MgCatalogueMetric *m = mg_catalogue_get_metric (self->catalogue, i);
      GPtrArray *checks = g_hash_table_lookup (self->metric_checks, m->def->id);

      for (guint j = 0; checks != NULL && j < checks->len; j++)
        gtk_check_button_set_active (g_ptr_array_index (checks, j), m->enabled && m->available);
    }
  g_hash_table_iter_init (&iter, self->group_checks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      MgToggleState state = mg_run_settings_get_group_state (self->settings, self->catalogue, key);

      gtk_check_button_set_inconsistent (value, state == MG_TOGGLE_MIXED);
      gtk_check_button_set_active (value, state == MG_TOGGLE_ON);
    }
}

void
mg_run_metric_list_filter (MgRunMetricList *self, const char *text)
{
  g_autofree char *needle = g_utf8_casefold (text != NULL ? text : "", -1);
  GHashTable *shown_headings = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < self->metric_rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->metric_rows, i);
      const char *haystack = g_object_get_data (G_OBJECT (row), "search");
      gboolean match = *needle == '\0' || strstr (haystack, needle) != NULL;
      GtkWidget *heading = g_object_get_data (G_OBJECT (row), "heading");

      gtk_widget_set_visible (row, match);
      if (heading != NULL && match)
        g_hash_table_add (shown_headings, heading);
    }
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (GTK_IS_LIST_BOX_ROW (row) && gtk_widget_has_css_class (row, "metric-group-row")
        && g_object_get_data (G_OBJECT (gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (row))),
                              "group-id") != NULL)
      gtk_widget_set_visible (row, g_hash_table_contains (shown_headings, row));
  g_hash_table_unref (shown_headings);
}

void
mg_run_metric_list_sync (MgRunMetricList *self)
{
  if (self->catalogue == NULL)
    return;
  self->syncing = TRUE;
  set_checks (self);
  self->syncing = FALSE;
}

void
mg_run_metric_list_set_catalogue (MgRunMetricList *self, MgCatalogue *catalogue)
{
  GtkWidget *row;

  g_set_object (&self->catalogue, catalogue);
  while ((row = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, row);
  g_hash_table_remove_all (self->metric_checks);
  g_hash_table_remove_all (self->group_checks);
  g_ptr_array_set_size (self->metric_rows, 0);
  if (catalogue != NULL)
    build (self);
}

void
mg_run_metric_list_set_declined (MgRunMetricList *self, GPtrArray *declined)
{
  g_clear_pointer (&self->declined, g_ptr_array_unref);
  self->declined = declined != NULL ? g_ptr_array_ref (declined) : NULL;
  mg_run_metric_list_set_catalogue (self, self->catalogue);
  mg_run_metric_list_sync (self);
}

gboolean
mg_run_metric_list_is_declined (MgRunMetricList *self, const char *metric_id)
{
  const MgCatalogueMetric *m = self->catalogue != NULL
                                 ? mg_catalogue_lookup_metric (self->catalogue, metric_id) : NULL;

  return m != NULL && find_declined (self, m) != NULL;
}

guint
mg_run_metric_list_get_n_visible (MgRunMetricList *self)
{
  guint n = 0;

  for (guint i = 0; i < self->metric_rows->len; i++)
    n += gtk_widget_get_visible (g_ptr_array_index (self->metric_rows, i));
  return n;
}

GtkCheckButton *
mg_run_metric_list_get_metric_check (MgRunMetricList *self, const char *metric_id)
{
  GPtrArray *checks = g_hash_table_lookup (self->metric_checks, metric_id);

  return checks != NULL && checks->len > 0 ? g_ptr_array_index (checks, 0) : NULL;
}

const char *
mg_run_metric_list_get_reason (MgRunMetricList *self, const char *metric_id)
{
  GtkCheckButton *check = mg_run_metric_list_get_metric_check (self, metric_id);
  GtkWidget *why = check != NULL ? g_object_get_data (G_OBJECT (check), "reason") : NULL;

  return why != NULL ? gtk_label_get_text (GTK_LABEL (why)) : NULL;
}

GStrv
mg_run_metric_list_dup_definition_errors (MgRunMetricList *self)
{
  g_autoptr (GStrvBuilder) texts = g_strv_builder_new ();

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (gtk_widget_has_css_class (row, "definition-error") && !gtk_widget_get_sensitive (row))
      g_strv_builder_add (texts, gtk_label_get_text (
                                   GTK_LABEL (gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (row)))));
  return g_strv_builder_end (texts);
}

GtkCheckButton *
mg_run_metric_list_get_group_check (MgRunMetricList *self, const char *group_id)
{
  return g_hash_table_lookup (self->group_checks, group_id);
}

static void
mg_run_metric_list_finalize (GObject *object)
{
  MgRunMetricList *self = MG_RUN_METRIC_LIST (object);

  g_hash_table_unref (self->metric_checks);
  g_hash_table_unref (self->group_checks);
  g_ptr_array_unref (self->metric_rows);
  g_clear_pointer (&self->declined, g_ptr_array_unref);
  g_clear_object (&self->settings);
  g_clear_object (&self->catalogue);
  G_OBJECT_CLASS (mg_run_metric_list_parent_class)->finalize (object);
}

static void
mg_run_metric_list_class_init (MgRunMetricListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mg_run_metric_list_finalize;
}

static void
mg_run_metric_list_init (MgRunMetricList *self)
{
  self->metric_checks = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                               (GDestroyNotify) g_ptr_array_unref);
  self->group_checks = g_hash_table_new (g_str_hash, g_str_equal);
  self->metric_rows = g_ptr_array_new ();
}

MgRunMetricList *
mg_run_metric_list_new (GtkListBox *list, MgRunSettings *settings)
{
  MgRunMetricList *self = g_object_new (MG_TYPE_RUN_METRIC_LIST, NULL);

  self->list = list;
  self->settings = g_object_ref (settings);
  return self;
}
