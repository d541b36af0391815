/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --export=FILE.json|FILE.csv|FILE.folded|FILE.pb.gz PROFILE: the format
 * follows the extension. */
#include "mg-config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "mg-cli.h"
#include "symbols/mg-code-callbacks.h"
#include "profile/mg-export-csv.h"
#include "profile/mg-export-folded.h"
#include "profile/mg-export-json.h"
#include "profile/mg-export-pprof.h"
#include "profile/mg-profile.h"
#include "session/mg-rank-list.h"

/* A process's number in --processes: its rank in an MPI run, else its
 * index in the profile (the viewer's process list). */
static gboolean
is_mpi (MgProfile *profile)
{
  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    if (mg_profile_get_process (profile, p)->rank >= 0)
      return TRUE;
  return FALSE;
}

/* The flags of --processes (NULL without it); NULL with a message when
 * the list names a process the profile does not have. */
static gboolean *
select_processes (MgProfile *profile, const MgCliOptions *options, gboolean *ok)
{
  guint n = mg_profile_get_n_processes (profile);
  gboolean mpi = is_mpi (profile);
  g_autofree gboolean *flags = g_new0 (gboolean, MAX (n, 1));
  g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr (GArray) chosen = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree char *all_list = NULL, *chosen_list = NULL;

  *ok = TRUE;
  if (options->processes_list == NULL)
    return NULL;
  for (guint p = 0; p < n; p++)
    {
      int key = mpi ? mg_profile_get_process (profile, p)->rank : (int) p;

      if (key < 0)
        continue;
      g_array_append_val (all, key);
      flags[p] = mg_rank_list_contains (options->processes_list, key);
      if (flags[p])
        g_array_append_val (chosen, key);
    }
  all_list = mg_rank_list_from_ranks ((const int *) all->data, all->len);
  chosen_list = mg_rank_list_from_ranks ((const int *) chosen->data, chosen->len);
  if (g_strcmp0 (chosen_list, options->processes_list) == 0)
    return g_steal_pointer (&flags);
  *ok = FALSE;
  if (mpi)
    mg_cli_print_error (_("--processes=%s: the profile has no such rank: its ranks are %s "
                          "(give ranks from those, e.g. --processes=%s)"),
                        options->processes, all_list, all_list);
  else
    mg_cli_print_error (_("--processes=%s: the profile has no such process: it has processes "
                          "%s, numbered from 0 in the order the viewer lists them (give "
                          "numbers from those)"),
                        options->processes, all_list);
  return NULL;
}

/* FALSE with a message when no window of the profile overlaps --range. */
static gboolean
check_range (MgProfile *profile, const MgCliOptions *options)
{
  guint n = mg_profile_get_n_windows (profile);
  const double *starts = mg_profile_get_window_starts (profile);
  const double *ends = mg_profile_get_window_ends (profile);

  if (options->range == NULL)
    return TRUE;
  for (guint w = 0; w < n; w++)
    if (ends[w] > options->range_start && starts[w] < options->range_end)
      return TRUE;
  mg_cli_print_error (_("--range=%s: no sample window of the profile overlaps it: its windows "
                        "run from %.3f to %.3f s (give a range inside those)"),
                      options->range, n > 0 ? starts[0] : 0.0, n > 0 ? ends[n - 1] : 0.0);
  return FALSE;
}

int
mg_cli_export (const MgCliOptions *options)
{
  const char *input = options->rest[0];
  g_autoptr (MgProfile) profile = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree gboolean *processes = NULL;
  MgExportSelection selection;
  gboolean ok;

  profile = mg_profile_load (input, &error);
  if (profile == NULL)
    {
      mg_cli_print_profile_error (input, error);
      return MG_EXIT_PROFILE_FILE;
    }
  processes = select_processes (profile, options, &ok);
  if (!ok || !check_range (profile, options))
    return MG_EXIT_USAGE;
  selection.processes = processes;
  selection.start_s = options->range != NULL ? options->range_start : -INFINITY;
  selection.end_s = options->range != NULL ? options->range_end : INFINITY;
  if (g_str_has_suffix (options->export_file, ".folded"))
    {
      /* One symboliser for the whole export: each module opened once. */
      g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
      MgStackNamer namer = mg_code_callbacks_namer (symbolizer);
      ok = mg_export_folded (profile, options->export_file, processes, selection.start_s,
                             selection.end_s, &namer, &error);
    }
  else if (g_str_has_suffix (options->export_file, ".pb.gz"))
    {
      g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
      MgStackNamer namer = mg_code_callbacks_namer (symbolizer);
      ok = mg_export_pprof (profile, options->export_file, processes, selection.start_s,
                            selection.end_s, &namer, &error);
    }
  else if (g_str_has_suffix (options->export_file, ".json"))
    ok = mg_export_json_selected (profile, options->export_file, &selection, &error);
  else
    ok = mg_export_csv_selected (profile, options->export_file, &selection, &error);
  if (!ok)
    {
      mg_cli_print_error (_("cannot export to %s: %s (check that its folder exists and is "
                            "writable)"), options->export_file, error->message);
      return MG_EXIT_PROFILE_FILE;
    }
  return 0;
}
