/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A function's share of the stack samples per window. */
#include "mg-config.h"

#include "mg-function-share.h"

#include <math.h>

gboolean
mg_function_share_stack_holds (MgFrameNamer *namer, const MgStackSet *modules,
                               const MgStackWindows *windows, guint stack, const char *function)
{
  guint n_frames;
  const MgStackFrame *frames = mg_stack_windows_get_frames (windows, stack, &n_frames);

  for (guint f = 0; f < n_frames; f++)
    {
      guint n_ids;
      const guint *ids = mg_frame_namer_name (namer, modules, &frames[f], f == 0, &n_ids);

      for (guint i = 0; i < n_ids; i++)
        if (g_strcmp0 (mg_frame_namer_get_function (namer, ids[i])->name, function) == 0)
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
  g_autofree guint8 *holds = g_new0 (guint8, MAX (n_stacks, 1));
  g_autofree guint64 *with = g_new0 (guint64, MAX (grid->n, 1));
  g_autofree guint64 *all = g_new0 (guint64, MAX (grid->n, 1));
  double *share = g_new (double, MAX (grid->n, 1));

  for (guint i = 0; i < mg_stack_windows_get_n_counts (windows); i++)
    {
      const MgStackWindowCount *c = mg_stack_windows_get_count (windows, i);
      int w = mg_series_view_window_at (grid, (c->start_s + c->end_s) / 2);

      if (w < 0)
        continue;
      if (holds[c->stack] == 0)
        holds[c->stack] = mg_function_share_stack_holds (namer, modules, windows, c->stack,
                                                         function) ? 1 : 2;
      all[w] += c->count;
      if (holds[c->stack] == 1)
        with[w] += c->count;
    }
  for (guint w = 0; w < grid->n; w++)
    share[w] = all[w] > 0 ? 100.0 * with[w] / all[w] : NAN;
  return share;
}
