/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Report page: header facts, summary, sections; each line a name, a
 * value and a level bar (the report's comparison bar), in the partial
 * report's colour as in the HTML report. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "defs/mg-colour.h"
#include "defs/mg-diagnostic.h"
#include "session/mg-install-paths.h"
#include "report/mg-report-markup.h"
#include "report/mg-report-set.h"
#include "mg-report-view.h"
#include "report/mg-report.h"
#include "symbols/mg-code-callbacks.h"

static GtkWidget *
label_new (const char *text, const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

static GtkWidget *
heading_new (const char *text, const MgRgba *colour)
{
  GtkWidget *label = label_new (NULL, "heading");
  g_autofree char *escaped = g_markup_escape_text (text, -1);
  g_autofree char *hex = colour != NULL ? mg_colour_to_string (colour) : NULL;
  g_autofree char *markup = hex != NULL
                              ? g_strdup_printf ("<span foreground=\"%s\">%s</span>", hex, escaped)
                              : g_strdup (escaped);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_widget_set_margin_top (label, 12);
  return label;
}

static void
add_facts (GtkBox *box, const MgReport *report)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 2);
  for (guint i = 0; i < report->facts->len; i++)
    {
      const MgReportFact *fact = g_ptr_array_index (report->facts, i);
      GtkWidget *value = label_new (fact->value, NULL);

      gtk_label_set_selectable (GTK_LABEL (value), TRUE);
      gtk_widget_set_hexpand (value, TRUE);
      gtk_grid_attach (GTK_GRID (grid), label_new (fact->label, "dim-label"), 0, (int) i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), value, 1, (int) i, 1, 1);
    }
  gtk_box_append (box, grid);
}

/* A bar in @colour: a class per colour, whose rule goes into @css (the
 * view's style sheet) the first time. */
static void
colour_bar (GtkWidget *bar, const MgRgba *colour, GString *css)
{
  g_autofree char *hex = mg_colour_to_string (colour);
  g_autofree char *css_class = g_strdup_printf ("mg-report-bar-%s", hex + 1);
  g_autofree char *selector = g_strdup_printf ("levelbar.%s ", css_class);

  if (strstr (css->str, selector) == NULL)
    g_string_append_printf (css, "%sblock.filled { background: %s; border-color: %s; }\n",
                            selector, hex, hex);
  gtk_widget_add_css_class (bar, css_class);
}

static void
add_lines (GtkBox *box, GPtrArray *lines, GString *css)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_column_spacing (GTK_GRID (grid), 8);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  for (guint i = 0; i < lines->len; i++)
    {
      const MgReportLine *line = g_ptr_array_index (lines, i);
      GtkWidget *name = label_new (line->name, NULL);
      GtkWidget *value = label_new (line->value_text, isnan (line->value) ? "dim-label" : "numeric");
      int row = (int) i * 3;

      gtk_widget_set_hexpand (name, TRUE);
      if (line->tooltip != NULL)
        {
          g_autofree char *tooltip = mg_report_markup_to_text (line->tooltip);

          gtk_widget_set_tooltip_text (name, tooltip);
        }
      gtk_grid_attach (GTK_GRID (grid), name, 0, row, 1, 1);
      if (isnan (line->value))
        {
          gtk_grid_attach (GTK_GRID (grid), value, 0, row + 1, 2, 1);
          continue;
        }
      gtk_label_set_xalign (GTK_LABEL (value), 1);
      gtk_grid_attach (GTK_GRID (grid), value, 1, row, 1, 1);
      if (!isnan (line->bar))
        {
          GtkWidget *bar = gtk_level_bar_new_for_interval (0.0, 1.0);

          gtk_level_bar_set_value (GTK_LEVEL_BAR (bar), CLAMP (line->bar, 0.0, 1.0));
          /* One colour: no "low"/"high" offsets on a comparison. */
          gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_OFFSET_LOW);
          gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_OFFSET_HIGH);
          gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_OFFSET_FULL);
          gtk_accessible_update_property (GTK_ACCESSIBLE (bar), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                          line->name, -1);
          if (line->has_colour)
            colour_bar (bar, &line->colour, css);
          gtk_grid_attach (GTK_GRID (grid), bar, 0, row + 1, 2, 1);
          if (line->scale_text != NULL)
            {
              /* What a full bar is (100 %, or the run's peak), under its
               * end: every bar keeps the whole width. */
              GtkWidget *scale = gtk_label_new (line->scale_text);

              gtk_widget_add_css_class (scale, "caption");
              gtk_widget_add_css_class (scale, "dim-label");
              gtk_label_set_xalign (GTK_LABEL (scale), 1);
              gtk_accessible_update_property (GTK_ACCESSIBLE (bar),
                                              GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                              line->scale_text, -1);
              gtk_grid_attach (GTK_GRID (grid), scale, 0, row + 2, 2, 1);
            }
        }
    }
  gtk_box_append (box, grid);
}

/* Refused partial report files are said here, as on the command line. */
static void
add_problems (GtkBox *box, GPtrArray *diagnostics)
{
  for (guint i = 0; i < diagnostics->len; i++)
    {
      const MgDiagnostic *d = g_ptr_array_index (diagnostics, i);
      g_autofree char *text = NULL;

      if (d->severity != MG_SEVERITY_ERROR)
        continue;
      text = mg_diagnostic_to_string (d);
      gtk_box_append (box, label_new (text, "error"));
    }
}

static void
remove_style (GtkCssProvider *provider)
{
  gtk_style_context_remove_provider_for_display (gdk_display_get_default (),
                                                 GTK_STYLE_PROVIDER (provider));
  g_object_unref (provider);
}

/* The bars' colours, for as long as the view lives. */
static void
add_style (GtkWidget *view, const char *css)
{
  GtkCssProvider *provider;

  if (*css == '\0' || gdk_display_get_default () == NULL)
    return;
  provider = gtk_css_provider_new ();
#if GTK_CHECK_VERSION(4, 12, 0)
  gtk_css_provider_load_from_string (provider, css);
#else
  gtk_css_provider_load_from_data (provider, css, -1);
#endif
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_set_data_full (G_OBJECT (view), "mg-report-style", provider,
                          (GDestroyNotify) remove_style);
}

GtkWidget *
mg_report_view_new (MgProfile *profile, const char *profile_path)
{
  g_autoptr (GString) css = g_string_new (NULL);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  g_autofree char *installed = mg_install_paths_get_reports_dir ();
  g_autoptr (MgReportSet) set = mg_report_set_load (NULL, installed);
  /* Frames the profile does not name (it was recorded before profiles
   * carried names) are named where the binaries still are. */
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  MgStackNamer namer = mg_code_callbacks_namer (symbolizer);
  g_autoptr (MgReport) report = mg_report_new_named (profile, profile_path, set->reports, &namer);

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_widget_add_css_class (box, "report-view");
  add_problems (GTK_BOX (box), set->diagnostics);
  add_facts (GTK_BOX (box), report);
  gtk_box_append (GTK_BOX (box), heading_new (_("Summary"), NULL));
  gtk_box_append (GTK_BOX (box), label_new (report->sentence, NULL));
  add_lines (GTK_BOX (box), report->summary, css);
  for (guint s = 0; s < report->sections->len; s++)
    {
      const MgReportSection *section = g_ptr_array_index (report->sections, s);

      gtk_box_append (GTK_BOX (box), heading_new (section->heading,
                                                  section->has_colour ? &section->colour : NULL));
      if (section->text != NULL && *section->text != '\0')
        {
          g_autofree char *text = mg_report_markup_to_text (section->text);

          gtk_box_append (GTK_BOX (box), label_new (text, "dim-label"));
        }
      add_lines (GTK_BOX (box), section->lines, css);
    }
  add_style (box, css->str);
  return box;
}
