/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-code-export.h"
#include "mg-flame-graph.h"
#include "mg-text-sink.h"
#include "mg-view-export.h"

typedef struct {
  const MgCallTree *tree;
  GArray *boxes;
  MgFlameStyle style;  /* the view's, sized for the page */
  const char *title, *range;
} FlamePage;

static void
draw_flame_page (cairo_t *cr, gpointer user_data)
{
  const FlamePage *page = user_data;
  cairo_text_extents_t extents;
  gboolean dark = page->style.dark;
  double ink = dark ? 0.92 : 0.12;

  if (dark)
    cairo_set_source_rgb (cr, 0.12, 0.12, 0.13);
  else
    cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size (cr, 16);
  cairo_set_source_rgb (cr, ink, ink, ink);
  cairo_move_to (cr, MG_FLAME_EXPORT_MARGIN, 28);
  mg_text_show (cr, page->title);
  /* Which range and process, at the title's right. */
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, 12);
  cairo_text_extents (cr, page->range, &extents);
  cairo_set_source_rgba (cr, ink, ink, ink, 0.7);
  cairo_move_to (cr, MG_FLAME_EXPORT_WIDTH - MG_FLAME_EXPORT_MARGIN - extents.x_advance, 28);
  mg_text_show (cr, page->range);

  cairo_translate (cr, MG_FLAME_EXPORT_MARGIN, MG_FLAME_EXPORT_TITLE_HEIGHT);
  mg_flame_draw (cr, page->tree, page->boxes, &page->style);
}

gboolean
mg_flame_export_save (const MgCallTree *tree, guint focus, const MgFlameStyle *look,
                      const char *title, const char *range, double scale, const char *path,
                      GError **error)
{
  double width = MG_FLAME_EXPORT_WIDTH - 2 * MG_FLAME_EXPORT_MARGIN;
  g_autoptr (GArray) boxes = mg_flame_layout (tree, focus, 1.0 / width);
  FlamePage page = { tree, boxes, *look, title, range };
  guint rows = 0;

  for (guint i = 0; i < boxes->len; i++)
    rows = MAX (rows, g_array_index (boxes, MgFlameBox, i).depth + 1);
  /* The view's orientation, colouring, theme and search; the page's size. */
  page.style.width = width;
  page.style.row_height = MG_FLAME_EXPORT_ROW_HEIGHT;
  page.style.height = rows * MG_FLAME_EXPORT_ROW_HEIGHT;
  double height = MG_FLAME_EXPORT_TITLE_HEIGHT + page.style.height + MG_FLAME_EXPORT_MARGIN;
  g_autofree char *description = g_strdup_printf ("%s\n%s", title, range);
  return mg_view_export_draw (path, MG_FLAME_EXPORT_WIDTH, height, scale, draw_flame_page, &page,
                              title, description, error);
}

/* A CSV field: quoted, inner quotes doubled; UTF-8, as spreadsheets and
 * Python's csv read it (a module called caf\xe9 naming unresolved
 * frames: its bytes that are not UTF-8 as U+FFFD). */
static void
append_field (GString *out, const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text ? text : "", -1);

  g_string_append_c (out, '"');
  for (const char *c = valid; *c; c++)
    {
      if (*c == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *c);
    }
  g_string_append_c (out, '"');
}

static void
append_row (GString *out, const MgCallTree *tree, guint i)
{
  guint64 self, total, all = MAX (mg_call_tree_get_total (tree), 1);
  const MgCallFunction *f = mg_call_tree_get_function (tree, i, &self, &total);
  char number[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *file = f->file ? g_path_get_basename (f->file) : NULL;
  g_autofree char *location = file && f->line ? g_strdup_printf ("%s:%u", file, f->line)
                                              : g_strdup (file);
  g_autofree char *module = f->module ? g_path_get_basename (f->module) : NULL;

  append_field (out, f->name);
  /* Numbers in the C locale: a CSV's commas are its separators. */
  g_string_append_printf (out, ",%s", g_ascii_formatd (number, sizeof number, "%.3f",
                                                       100.0 * (double) self / (double) all));
  g_string_append_printf (out, ",%s", g_ascii_formatd (number, sizeof number, "%.3f",
                                                       100.0 * (double) total / (double) all));
  g_string_append_printf (out, ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",", self, total);
  append_field (out, location);
  g_string_append_c (out, ',');
  append_field (out, module);
  g_string_append_c (out, '\n');
}

gboolean
mg_functions_csv_save (const MgCallTree *tree, const GArray *rows, const char *path,
                       GError **error)
{
  g_autoptr (GString) out = g_string_new (
    "function,self_percent,total_percent,self_samples,total_samples,source,module\n");
  guint n = rows ? rows->len : mg_call_tree_get_n_functions (tree);

  for (guint k = 0; k < n; k++)
    {
      guint i = rows ? g_array_index (rows, guint, k) : k;
      if (i < mg_call_tree_get_n_functions (tree))
        append_row (out, tree, i);
    }
  if (!g_file_set_contents (path, out->str, (gssize) out->len, error))
    {
      g_prefix_error (error, _("Cannot write the functions to “%s”: "), path);
      return FALSE;
    }
  return TRUE;
}
