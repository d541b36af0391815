/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-flame-graph.h"

#include <math.h>

#include "defs/mg-colour.h"
#include "mg-activity-render.h"
#include "mg-text-sink.h"

static void
add_box (GArray *boxes, guint node, guint depth, double x0, double x1)
{
  MgFlameBox box = { node, depth, x0, x1 };
  g_array_append_val (boxes, box);
}

static void
layout_children (const MgCallTree *tree, GArray *boxes, guint node, guint depth, double x0,
                 double scale, double min_width)
{
  guint64 total;

  for (guint i = 0; i < mg_call_tree_get_n_children (tree, MG_CALL_TREE_TOP_DOWN, node); i++)
    {
      guint child = mg_call_tree_get_child (tree, MG_CALL_TREE_TOP_DOWN, node, i);
      mg_call_tree_get_node (tree, MG_CALL_TREE_TOP_DOWN, child, NULL, &total);
      double w = (double) total * scale;
      /* Children come largest first: the rest are narrower still. */
      if (w < min_width)
        break;
      add_box (boxes, child, depth, x0, x0 + w);
      layout_children (tree, boxes, child, depth + 1, x0, scale, min_width);
      x0 += w;
    }
}

GArray *
mg_flame_layout (const MgCallTree *tree, guint focus, double min_width)
{
  GArray *boxes = g_array_new (FALSE, FALSE, sizeof (MgFlameBox));
  g_autoptr (GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint));
  guint64 total;

  /* The focus's callers, full width above it. */
  for (guint n = focus; n != G_MAXUINT; n = mg_call_tree_get_parent (tree, MG_CALL_TREE_TOP_DOWN, n))
    g_array_prepend_val (chain, n);
  for (guint i = 0; i < chain->len; i++)
    add_box (boxes, g_array_index (chain, guint, i), i, 0, 1);
  mg_call_tree_get_node (tree, MG_CALL_TREE_TOP_DOWN, focus, NULL, &total);
  if (total > 0)
    layout_children (tree, boxes, focus, chain->len, 0, 1.0 / (double) total, min_width);
  return boxes;
}

int
mg_flame_hit (const GArray *boxes, double x, guint depth)
{
  for (guint i = 0; i < boxes->len; i++)
    {
      const MgFlameBox *b = &g_array_index (boxes, MgFlameBox, i);
      if (b->depth == depth && x >= b->x0 && x < b->x1)
        return (int) i;
    }
  return -1;
}

double
mg_flame_row_top (guint depth, MgFlameOrientation orientation, double height, double row_height)
{
  if (orientation == MG_FLAME_FLAME)
    return height - (depth + 1) * row_height;
  return depth * row_height;
}

int
mg_flame_row_at (double y, MgFlameOrientation orientation, double height, double row_height)
{
  if (y < 0 || y >= height || row_height <= 0)
    return -1;
  return (int) floor ((orientation == MG_FLAME_FLAME ? height - y : y) / row_height);
}

void
mg_flame_colour (const MgCallFunction *function, gboolean dark, double rgb[3])
{
  /* The root, and code outside every module: grey. */
  if (function == NULL || function->module == NULL)
    {
      rgb[0] = rgb[1] = rgb[2] = dark ? 0.35 : 0.78;
      return;
    }
  guint hash = g_str_hash (function->module);
  MgRgba c = mg_colour_from_hsl ((double) (hash % 360), 0.55, dark ? 0.38 : 0.74);
  rgb[0] = c.r;
  rgb[1] = c.g;
  rgb[2] = c.b;
}

void
mg_flame_activity_colour (double waiting_share, double rgb[3])
{
  MgRgba computing = mg_activity_render_class_colour (MG_ACTIVITY_COMPUTING);
  MgRgba mpi = mg_activity_render_class_colour (MG_ACTIVITY_MPI);
  double w = CLAMP (waiting_share, 0, 1);

  rgb[0] = computing.r + (mpi.r - computing.r) * w;
  rgb[1] = computing.g + (mpi.g - computing.g) * w;
  rgb[2] = computing.b + (mpi.b - computing.b) * w;
}

static void
draw_label (cairo_t *cr, const char *text, double x, double y, double w, double h)
{
  cairo_text_extents_t ext;
  g_autofree char *shown = g_strdup (text);
  glong n = g_utf8_strlen (shown, -1);

  if (w < 24)
    return;
  cairo_text_extents (cr, shown, &ext);
  /* Shortened with an ellipsis until it fits. */
  while (ext.x_advance > w - 8 && n > 1)
    {
      n--;
      g_free (shown);
      g_autofree char *head = g_utf8_substring (text, 0, n);
      shown = g_strconcat (head, "…", NULL);
      cairo_text_extents (cr, shown, &ext);
    }
  if (ext.x_advance > w - 8)
    return;
  cairo_move_to (cr, x + 4, y + h / 2 + 4);
  mg_text_show (cr, shown);
}

void
mg_flame_match_colour (gboolean dark, double rgb[3])
{
  /* Magenta: no module's hue is this saturated. */
  MgRgba c = mg_colour_from_hsl (310, 0.85, dark ? 0.55 : 0.6);
  rgb[0] = c.r;
  rgb[1] = c.g;
  rgb[2] = c.b;
}

void
mg_flame_draw (cairo_t *cr, const MgCallTree *tree, const GArray *boxes,
               const MgFlameStyle *style)
{
  double width = style->width, row_height = style->row_height;
  gboolean dark = style->dark;
  const guint8 *matches = style->matches;
  guint n_matches = style->n_matches;

  cairo_save (cr);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, MIN (12, row_height * 0.6));
  for (guint i = 0; i < boxes->len; i++)
    {
      const MgFlameBox *b = &g_array_index (boxes, MgFlameBox, i);
      guint64 total;
      const MgCallFunction *f = mg_call_tree_get_node (tree, MG_CALL_TREE_TOP_DOWN, b->node,
                                                       NULL, &total);
      double rgb[3];
      double x = floor (b->x0 * width);
      double y = mg_flame_row_top (b->depth, style->orientation, style->height, row_height);
      double w = MAX (1, floor (b->x1 * width) - x);
      gboolean found = matches && f && f->id < n_matches && matches[f->id];

      if (found)
        mg_flame_match_colour (dark, rgb);
      else if (style->colouring == MG_FLAME_BY_ACTIVITY)
        mg_flame_activity_colour (
          (double) mg_call_tree_get_waiting (tree, MG_CALL_TREE_TOP_DOWN, b->node)
            / (double) MAX (total, 1),
          rgb);
      else
        mg_flame_colour (f, dark, rgb);
      /* A search fades what it did not find. */
      cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], matches && !found ? 0.35 : 1);
      /* A pixel of gap between boxes, so neighbours read apart. */
      cairo_rectangle (cr, x, y, MAX (1, w - 1), row_height - 1);
      cairo_fill (cr);
      if (dark)
        cairo_set_source_rgb (cr, 0.95, 0.95, 0.95);
      else
        cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
      draw_label (cr, f ? f->name : style->root_label, x, y, w, row_height);
    }
  cairo_restore (cr);
}

/* As deep as the deepest box. */
static double
boxes_height (const GArray *boxes, double row_height)
{
  guint rows = 0;

  for (guint i = 0; i < boxes->len; i++)
    rows = MAX (rows, g_array_index (boxes, MgFlameBox, i).depth + 1);
  return rows * row_height;
}

void
mg_flame_render_matches (cairo_t *cr, const MgCallTree *tree, const GArray *boxes, double width,
                         double row_height, gboolean dark, const char *root_label,
                         const guint8 *matches, guint n_matches)
{
  MgFlameStyle style = { width, boxes_height (boxes, row_height), row_height, MG_FLAME_ICICLE,
                         MG_FLAME_BY_MODULE, dark, root_label, matches, n_matches };
  mg_flame_draw (cr, tree, boxes, &style);
}

void
mg_flame_render (cairo_t *cr, const MgCallTree *tree, const GArray *boxes, double width,
                 double row_height, gboolean dark, const char *root_label)
{
  mg_flame_render_matches (cr, tree, boxes, width, row_height, dark, root_label, NULL, 0);
}
