/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The per-thread activity strip with its header and thread names. */
#include "mg-config.h"

#include "mg-thread-strip-row.h"

#include <glib/gi18n.h>

#include "gui/graph/mg-thread-strip.h"

#define SETTINGS_KEY "thread-strips-expanded"
/* The metric rows' label column is as wide (ui/mg-metric-row.ui). */
#define LABEL_WIDTH 220

struct _MgThreadStripRow
{
  GtkWidget parent_instance;

  MgProfile *profile;
  GtkWidget *expander;
  GtkWidget *title;
  GtkWidget *labels; /* vertical box: a spacer as high as the legend, then a label a thread */
  GtkWidget *strip;
  GSettings *settings;
};

G_DEFINE_FINAL_TYPE (MgThreadStripRow, mg_thread_strip_row, GTK_TYPE_WIDGET)

static GSettings *
new_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, MG_APP_ID, TRUE);
  if (schema == NULL || !g_settings_schema_has_key (schema, SETTINGS_KEY))
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

static char *
process_title (MgThreadStripRow *self, int process, gboolean is_default)
{
  const MgProcessInfo *info = mg_profile_get_process (self->profile, (guint) process);
  g_autofree char *who = info->rank >= 0
                           /* TRANSLATORS: the process whose threads are shown, "rank 0 (pid 2000)" */
                           ? g_strdup_printf (_("rank %d (pid %d)"), info->rank, info->pid)
                           /* TRANSLATORS: the process whose threads are shown, "pid 2000" */
                           : g_strdup_printf (_("pid %d"), info->pid);

  if (is_default)
    /* TRANSLATORS: the header of the per-thread strips while every process
     * is chosen in the window's header; %s is "rank 0 (pid 2000)" */
    return g_strdup_printf (_("Activity per thread: %s (choose a process in the header for "
                              "another)"), who);
  /* TRANSLATORS: the header of the per-thread strips, %s "rank 1 (pid 2001)" */
  return g_strdup_printf (_("Activity per thread: %s"), who);
}

static void
on_strips_changed (MgThreadStrip *strip, MgThreadStripRow *self)
{
  const MgThreadStrips *strips = mg_thread_strip_get_strips (strip);
  GtkWidget *child, *spacer;

  while ((child = gtk_widget_get_first_child (self->labels)) != NULL)
    gtk_box_remove (GTK_BOX (self->labels), child);
  /* One thread alone is the main thread's activity row again. */
  gtk_widget_set_visible (GTK_WIDGET (self),
                          strips != NULL && mg_thread_strips_get_n_rows (strips) > 1);
  if (strips == NULL)
    return;
  {
    g_autofree char *title
      = process_title (self, mg_thread_strips_get_process (strips),
                       mg_thread_strip_is_default_process (strip));

    guint n_rows = mg_thread_strips_get_n_rows (strips);

    if (n_rows > mg_thread_strip_get_n_shown (strip))
      {
        /* TRANSLATORS: after the strips' header when a process has more
         * threads than are drawn, "the first 32 of 100 threads shown" */
        g_autofree char *more = g_strdup_printf (_("the first %u of %u threads shown"),
                                                 mg_thread_strip_get_n_shown (strip), n_rows);
        g_autofree char *both = g_strdup_printf ("%s · %s", title, more);

        gtk_label_set_text (GTK_LABEL (self->title), both);
      }
    else
      gtk_label_set_text (GTK_LABEL (self->title), title);
  }
  spacer = gtk_label_new (NULL);
  /* Level with the strip's legend and rows, which grow with large text. */
  gtk_widget_set_size_request (spacer, -1, mg_thread_strip_get_legend_height (strip));
  gtk_box_append (GTK_BOX (self->labels), spacer);
  for (guint r = 0; r < mg_thread_strip_get_n_shown (strip); r++)
    {
      g_autofree char *name = mg_thread_strips_thread_name (strips, mg_thread_strips_get_ordinal (strips, r));
      GtkWidget *label = gtk_label_new (name);

      gtk_label_set_xalign (GTK_LABEL (label), 1);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_add_css_class (label, "caption");
      gtk_widget_set_size_request (label, -1, mg_thread_strip_get_pitch (strip));
      gtk_widget_set_valign (label, GTK_ALIGN_START);
      gtk_box_append (GTK_BOX (self->labels), label);
    }
}

static void
mg_thread_strip_row_dispose (GObject *object)
{
  MgThreadStripRow *self = MG_THREAD_STRIP_ROW (object);

  g_clear_pointer (&self->expander, gtk_widget_unparent);
  g_clear_object (&self->settings);
  g_clear_object (&self->profile);
  G_OBJECT_CLASS (mg_thread_strip_row_parent_class)->dispose (object);
}

static void
mg_thread_strip_row_class_init (MgThreadStripRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mg_thread_strip_row_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  /* Padded as the metric rows, so the strip spans the graphs' x. */
  gtk_widget_class_set_css_name (widget_class, "metricrow");
}

static void
mg_thread_strip_row_init (MgThreadStripRow *self)
{
}

GtkWidget *
mg_thread_strip_row_new (MgProfile *profile, MgTimeView *view, GtkSizeGroup *label_group)
{
  MgThreadStripRow *self = g_object_new (MG_TYPE_THREAD_STRIP_ROW, NULL);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  self->profile = g_object_ref (profile);
  self->expander = gtk_expander_new (NULL);
  self->title = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->title), 0);
  gtk_label_set_wrap (GTK_LABEL (self->title), TRUE);
  gtk_widget_add_css_class (self->title, "dim-label");
  gtk_expander_set_label_widget (GTK_EXPANDER (self->expander), self->title);
  self->labels = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_size_request (self->labels, LABEL_WIDTH, -1);
  gtk_widget_add_css_class (self->labels, "metric-label");
  if (label_group != NULL)
    gtk_size_group_add_widget (label_group, self->labels);
  self->strip = mg_thread_strip_new (profile, view);
  gtk_box_append (GTK_BOX (box), self->labels);
  gtk_box_append (GTK_BOX (box), self->strip);
  gtk_expander_set_child (GTK_EXPANDER (self->expander), box);
  gtk_expander_set_expanded (GTK_EXPANDER (self->expander), TRUE);
  self->settings = new_settings ();
  if (self->settings != NULL)
    g_settings_bind (self->settings, SETTINGS_KEY, self->expander, "expanded",
                     G_SETTINGS_BIND_DEFAULT);
  gtk_widget_set_parent (self->expander, GTK_WIDGET (self));
  g_signal_connect_object (self->strip, "strips-changed", G_CALLBACK (on_strips_changed), self,
                           0);
  on_strips_changed (MG_THREAD_STRIP (self->strip), self);
  return GTK_WIDGET (self);
}

GtkWidget *
mg_thread_strip_row_get_strip (MgThreadStripRow *self)
{
  g_return_val_if_fail (MG_IS_THREAD_STRIP_ROW (self), NULL);
  return self->strip;
}

GtkExpander *
mg_thread_strip_row_get_expander (MgThreadStripRow *self)
{
  g_return_val_if_fail (MG_IS_THREAD_STRIP_ROW (self), NULL);
  return GTK_EXPANDER (self->expander);
}

char **
mg_thread_strip_row_dup_labels (MgThreadStripRow *self)
{
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();
  GtkWidget *child;

  g_return_val_if_fail (MG_IS_THREAD_STRIP_ROW (self), NULL);
  child = gtk_widget_get_first_child (self->labels);
  /* The first is the legend's spacer. */
  for (child = child != NULL ? gtk_widget_get_next_sibling (child) : NULL; child != NULL;
       child = gtk_widget_get_next_sibling (child))
    g_strv_builder_add (names, gtk_label_get_text (GTK_LABEL (child)));
  return g_strv_builder_end (names);
}
