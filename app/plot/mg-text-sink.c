/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Texts recorded for an SVG export's real text. */
#include "mg-config.h"

#include "mg-text-sink.h"

#include <math.h>

struct _MgTextSink
{
  GArray *runs; /* MgTextRun */
};

static const cairo_user_data_key_t sink_key;

static void
run_clear (gpointer data)
{
  g_free (((MgTextRun *) data)->text);
}

MgTextSink *
mg_text_sink_new (void)
{
  MgTextSink *sink = g_new0 (MgTextSink, 1);

  sink->runs = g_array_new (FALSE, TRUE, sizeof (MgTextRun));
  g_array_set_clear_func (sink->runs, run_clear);
  return sink;
}

void
mg_text_sink_free (MgTextSink *sink)
{
  if (sink == NULL)
    return;
  g_array_unref (sink->runs);
  g_free (sink);
}

void
mg_text_sink_attach (MgTextSink *sink, cairo_t *cr)
{
  cairo_set_user_data (cr, &sink_key, sink, NULL);
}

guint
mg_text_sink_get_n_runs (MgTextSink *sink)
{
  return sink->runs->len;
}

const MgTextRun *
mg_text_sink_get_run (MgTextSink *sink, guint i)
{
  g_return_val_if_fail (i < sink->runs->len, NULL);
  return &g_array_index (sink->runs, MgTextRun, i);
}

void
mg_text_show (cairo_t *cr, const char *text)
{
  MgTextSink *sink = cairo_get_user_data (cr, &sink_key);
  cairo_font_face_t *face = cairo_get_font_face (cr);
  cairo_text_extents_t extents;
  cairo_matrix_t font_matrix;
  MgTextRun run = { 0 };
  double dx = 0, dy;

  if (sink == NULL)
    {
      cairo_show_text (cr, text);
      return;
    }
  cairo_get_current_point (cr, &run.x, &run.y);
  cairo_user_to_device (cr, &run.x, &run.y);
  cairo_get_font_matrix (cr, &font_matrix);
  dy = font_matrix.yy;
  cairo_user_to_device_distance (cr, &dx, &dy);
  run.size = hypot (dx, dy);
  run.bold = cairo_font_face_get_type (face) == CAIRO_FONT_TYPE_TOY
             && cairo_toy_font_face_get_weight (face) == CAIRO_FONT_WEIGHT_BOLD;
  run.a = 1;
  if (cairo_pattern_get_rgba (cairo_get_source (cr), &run.r, &run.g, &run.b, &run.a)
      != CAIRO_STATUS_SUCCESS)
    run.r = run.g = run.b = 0, run.a = 1;
  run.text = g_strdup (text);
  g_array_append_val (sink->runs, run);
  /* Where cairo_show_text leaves the current point. */
  cairo_text_extents (cr, text, &extents);
  cairo_rel_move_to (cr, extents.x_advance, extents.y_advance);
}
