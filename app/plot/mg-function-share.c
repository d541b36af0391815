/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A function's share of the stack samples per window. */
#include "mg-config.h"

#include "mg-function-share.h"

#include <math.h>
#include <string.h>

/* Whether the namer's function id is named function: each id compared
 * once (ids are interned by name and module, so several may match). */
typedef struct {
  MgFrameNamer *namer;
  const char *function;
  GByteArray *matches; /* per id: 0 not compared, 1 yes, 2 no */
} Matcher;

static gboolean
id_matches (Matcher *m, guint id)
{
  if (id >= m->matches->len)
    {
      guint old = m->matches->len;

      g_byte_array_set_size (m->matches, id + 64);
      memset (m->matches->data + old, 0, m->matches->len - old);
    }
  if (m->matches->data[id] == 0)
    m->matches->data[id]
      = g_strcmp0 (mg_frame_namer_get_function (m->namer, id)->name, m->function) == 0 ? 1 : 2;
  return m->matches->data[id] == 1;
}

static gboolean
holds (Matcher *m, const MgStackSet *modules, const MgStackWindows *windows, guint stack)
{
  guint n_frames;
  const MgStackFrame *frames = mg_stack_windows_get_frames (windows, stack, &n_frames);

  for (guint f = 0; f < n_frames; f++)
    {
      guint n_ids;
      const guint *ids = mg_frame_namer_name (m->namer, modules, &frames[f], f == 0, &n_ids);

      for (guint i = 0; i < n_ids; i++)
        if (id_matches (m, ids[i]))
          return TRUE;
    }
  return FALSE;
}

double *
mg_function_share_compute (MgFrameNamer *namer, const MgStackSet *modules,
                           const MgStackWindows *windows, const char *function,
                           const MgSeriesView *grid)
{
  guint n_stacks = mg_stack_windows_get_n_stacks (windows);
  /* Per stack: 0 not looked at, 1 holds the function, 2 does not. */
  g_autofree guint8 *held = g_new0 (guint8, MAX (n_stacks, 1));
  g_autofree guint64 *with = g_new0 (guint64, MAX (grid->n, 1));
  g_autofree guint64 *all = g_new0 (guint64, MAX (grid->n, 1));
  double *share = g_new (double, MAX (grid->n, 1));
  Matcher m = { namer, function, g_byte_array_new () };

  for (guint i = 0; i < mg_stack_windows_get_n_counts (windows); i++)
    {
      const MgStackWindowCount *c = mg_stack_windows_get_count (windows, i);
      int w = mg_series_view_window_at (grid, (c->start_s + c->end_s) / 2);

      if (w < 0)
        continue;
      if (held[c->stack] == 0)
        held[c->stack] = holds (&m, modules, windows, c->stack) ? 1 : 2;
      all[w] += c->count;
      if (held[c->stack] == 1)
        with[w] += c->count;
    }
  g_byte_array_unref (m.matches);
  for (guint w = 0; w < grid->n; w++)
    share[w] = all[w] > 0 ? 100.0 * with[w] / all[w] : NAN;
  return share;
}
