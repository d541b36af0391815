/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-source-gutter.h"

#include <glib/gi18n.h>

#include "graph/mg-theme.h"

/* The sparkline's size in pixels, beside the two shares. */
#define SPARK_WIDTH 56
#define GAP 8

struct _MgSourceGutter
{
  GtkSourceGutterRenderer parent_instance;

  const MgLineFigures *figures;
  int share_width;     /* of "100.0 %" in the view's font */
};

G_DEFINE_FINAL_TYPE (MgSourceGutter, mg_source_gutter, GTK_SOURCE_TYPE_GUTTER_RENDERER)

static char *
format_share (double share)
{
  return share > 0 && share < 0.05 ? g_strdup ("<0.1 %") : g_strdup_printf ("%.1f %%", share);
}

static PangoLayout *
layout_of (MgSourceGutter *self, const char *text)
{
  return gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
}

static void
measure_share (MgSourceGutter *self)
{
  g_autoptr (PangoLayout) layout = layout_of (self, "100.0 %");
  pango_layout_get_pixel_size (layout, &self->share_width, NULL);
}

static void
mg_source_gutter_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                          int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  MgSourceGutter *self = MG_SOURCE_GUTTER (widget);

  *minimum_baseline = *natural_baseline = -1;
  if (orientation == GTK_ORIENTATION_VERTICAL)
    {
      *minimum = *natural = 0;
      return;
    }
  measure_share (self);
  *minimum = *natural = GAP + 2 * (self->share_width + GAP) + SPARK_WIDTH + GAP;
}

static void
append_text (GtkSnapshot *snapshot, PangoLayout *layout, double right, double y, double height,
             const GdkRGBA *colour)
{
  int w, h;
  pango_layout_get_pixel_size (layout, &w, &h);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (right - w, y + (height - h) / 2));
  gtk_snapshot_append_layout (snapshot, layout, colour);
  gtk_snapshot_restore (snapshot);
}

/* Hot lines' colour: an amber that reads on light and dark. */
static GdkRGBA
hot_colour (gboolean dark)
{
  return dark ? (GdkRGBA) { 1.0, 0.70, 0.25, 1 } : (GdkRGBA) { 0.85, 0.45, 0.0, 1 };
}

static void
append_sparkline (MgSourceGutter *self, GtkSnapshot *snapshot, const MgLineFigure *f, double x,
                  double y, double height)
{
  guint n = mg_line_figures_get_n_bins (self->figures);
  const guint64 *totals = mg_line_figures_get_bin_totals (self->figures);
  gboolean dark = mg_theme_is_dark (GTK_WIDGET (self));
  GdkRGBA bar = hot_colour (dark);
  GdkRGBA base = dark ? (GdkRGBA) { 1, 1, 1, 0.18 } : (GdkRGBA) { 0, 0, 0, 0.22 };
  double top = y + 2, h = MAX (height - 4, 2), w = (double) SPARK_WIDTH / n;

  gtk_snapshot_append_color (snapshot, &base, &GRAPHENE_RECT_INIT (x, top + h - 1, SPARK_WIDTH, 1));
  for (guint b = 0; b < n; b++)
    {
      if (f->bins[b] == 0 || totals[b] == 0)
        continue;
      double share = (double) f->bins[b] / (double) totals[b];
      double bh = MAX (share * h, 1);
      gtk_snapshot_append_color (snapshot, &bar,
                                 &GRAPHENE_RECT_INIT (x + b * w, top + h - bh, MAX (w - 0.5, 0.5), bh));
    }
}

static void
mg_source_gutter_snapshot_line (GtkSourceGutterRenderer *renderer, GtkSnapshot *snapshot,
                                GtkSourceGutterLines *lines, guint line)
{
  MgSourceGutter *self = MG_SOURCE_GUTTER (renderer);
  const MgLineFigure *f;
  int y, height;
  GdkRGBA fg;

  if (self->figures == NULL || (f = mg_line_figures_lookup (self->figures, line + 1)) == NULL)
    return;
  gtk_source_gutter_lines_get_line_yrange (lines, line, GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_CELL,
                                           &y, &height);
  /* A hot line's figures in the text's colour, the others in the
   * gutter's dimmer one. */
  GtkWidget *from = GTK_WIDGET (self);
  GtkSourceView *view = gtk_source_gutter_renderer_get_view (renderer);
  if (f->hot && view != NULL)
    from = GTK_WIDGET (view);
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (from), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  g_autofree char *self_text = format_share (mg_line_figures_share (self->figures, f->self));
  g_autofree char *total_text = format_share (mg_line_figures_share (self->figures, f->total));
  g_autoptr (PangoLayout) self_layout = layout_of (self, f->self > 0 ? self_text : "·");
  g_autoptr (PangoLayout) total_layout = layout_of (self, total_text);
  double x = GAP + self->share_width;
  append_text (snapshot, self_layout, x, y, height, &fg);
  x += GAP + self->share_width;
  append_text (snapshot, total_layout, x, y, height, &fg);
  if (f->hot)
    append_sparkline (self, snapshot, f, x + GAP, y, height);
}

/* The line under (X, Y) of the gutter, 1 for the first; 0: none. */
static guint
line_at (MgSourceGutter *self, double x, double y)
{
  GtkSourceView *view = gtk_source_gutter_renderer_get_view (GTK_SOURCE_GUTTER_RENDERER (self));
  GtkTextIter iter;
  double vx, vy;
  int bx, by;

  if (view == NULL
      || !gtk_widget_translate_coordinates (GTK_WIDGET (self), GTK_WIDGET (view), x, y, &vx, &vy))
    return 0;
  gtk_text_view_window_to_buffer_coords (GTK_TEXT_VIEW (view), GTK_TEXT_WINDOW_WIDGET, (int) vx,
                                         (int) vy, &bx, &by);
  gtk_text_view_get_line_at_y (GTK_TEXT_VIEW (view), &iter, by, NULL);
  return (guint) gtk_text_iter_get_line (&iter) + 1;
}

char *
mg_source_gutter_dup_tooltip_at (MgSourceGutter *self, double x, double y)
{
  return mg_source_gutter_dup_tooltip (self, line_at (self, x, y));
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  g_autofree char *text = mg_source_gutter_dup_tooltip_at (MG_SOURCE_GUTTER (widget), x, y);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
mg_source_gutter_class_init (MgSourceGutterClass *klass)
{
  GTK_WIDGET_CLASS (klass)->measure = mg_source_gutter_measure;
  GTK_SOURCE_GUTTER_RENDERER_CLASS (klass)->snapshot_line = mg_source_gutter_snapshot_line;
}

static void
mg_source_gutter_init (MgSourceGutter *self)
{
  gtk_widget_add_css_class (GTK_WIDGET (self), "numeric");
  mg_theme_follow (GTK_WIDGET (self));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
}

GtkSourceGutterRenderer *
mg_source_gutter_new (void)
{
  return g_object_new (MG_TYPE_SOURCE_GUTTER, NULL);
}

void
mg_source_gutter_set_figures (MgSourceGutter *self, const MgLineFigures *figures)
{
  self->figures = figures;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

char *
mg_source_gutter_describe_line (MgSourceGutter *self, guint line)
{
  const MgLineFigure *f = self->figures ? mg_line_figures_lookup (self->figures, line) : NULL;

  if (f == NULL)
    return NULL;
  g_autofree char *self_text = format_share (mg_line_figures_share (self->figures, f->self));
  g_autofree char *total_text = format_share (mg_line_figures_share (self->figures, f->total));
  /* Translators: the Source view's figures of one line; %s are shares like "12.5 %" */
  return g_strdup_printf (_("Self %s, Total %s"), self_text, total_text);
}

char *
mg_source_gutter_dup_tooltip (MgSourceGutter *self, guint line)
{
  const MgLineFigure *f = self->figures && line > 0 ? mg_line_figures_lookup (self->figures, line)
                                                    : NULL;
  g_autofree char *figures = f ? mg_source_gutter_describe_line (self, line) : NULL;

  if (f == NULL)
    return NULL;
  if (!f->hot)
    return g_steal_pointer (&figures);
  return g_strconcat (figures, "\n",
                      /* Translators: the tooltip of a hot line's sparkline in the Source view */
                      _("The bars: the line's share of the samples over the range, from its "
                        "start to its end"),
                      NULL);
}
