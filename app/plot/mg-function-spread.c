/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-call-tree.h"
#include "mg-function-spread.h"

/* Each process's call tree (total > 0): its functions' samples. */
static void
add_tree (MgProcessSpread *spread, guint process, const MgCallTree *tree)
{
  mg_process_spread_begin_process (spread, process, mg_call_tree_get_total (tree));
  for (guint i = 0; i < mg_call_tree_get_n_functions (tree); i++)
    {
      guint64 self, all;
      const MgCallFunction *f = mg_call_tree_get_function (tree, i, &self, &all);
      mg_process_spread_add (spread, f->id, self, all);
    }
}

MgProcessSpread *
mg_function_spread_new (MgFrameNamer *namer, MgProfile *profile, double t0, double t1)
{
  MgProcessSpread *spread = mg_process_spread_new ();

  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    {
      g_autoptr (MgStackSet) set = mg_stack_set_new (profile, (int) p, t0, t1);
      guint64 total = mg_stack_set_get_total (set);
      if (total == 0)
        continue;
      /* The call tree names the functions and counts each once per stack,
       * as the Functions table does. */
      g_autoptr (MgCallTree) tree = mg_call_tree_new (namer, set);
      if (mg_call_tree_get_total (tree) > 0)
        add_tree (spread, p, tree);
    }
  mg_process_spread_finish (spread);
  return spread;
}

MgProcessSpread *
mg_function_spread_new_for_index (const MgCallIndex *index, guint n_processes, double t0,
                                  double t1)
{
  MgProcessSpread *spread = mg_process_spread_new ();

  for (guint p = 0; p < n_processes; p++)
    {
      g_autoptr (MgCallTree) tree = mg_call_index_query (index, (int) p, t0, t1, NULL);
      if (mg_call_tree_get_total (tree) > 0)
        add_tree (spread, p, tree);
    }
  mg_process_spread_finish (spread);
  return spread;
}
