/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-settings-from-profile.h"

#include "format/mg-plan-keywords.h"
#include "mg-run-settings-line.h"
#include "mg-run-metric-toggles.h"

static void
set_program (MgRunSettings *s, char **argv)
{
  g_autoptr (GString) arguments = g_string_new (NULL);

  if (argv == NULL || argv[0] == NULL)
    return;
  mg_run_settings_set_program (s, argv[0]);
  for (guint i = 1; argv[i] != NULL; i++)
    {
      g_autofree char *word = mg_run_quote_word (argv[i]);

      if (arguments->len > 0)
        g_string_append_c (arguments, ' ');
      g_string_append (arguments, word);
    }
  mg_run_settings_set_arguments (s, arguments->str);
}

static void
set_metrics (MgRunSettings *s, MgProfile *profile, MgCatalogue *catalogue)
{
  for (guint i = 0; i < mg_catalogue_get_n_metrics (catalogue); i++)
    {
      const MgCatalogueMetric *m = mg_catalogue_get_metric (catalogue, i);

      if (mg_run_metric_is_switchable (m))
        mg_run_settings_set_metric_enabled (s, catalogue, m->def->id,
                                            mg_profile_find_metric (profile, m->def->id) >= 0);
    }
}

MgRunSettings *
mg_run_settings_new_from_profile (MgProfile *profile, MgCatalogue *catalogue)
{
  const MgRunInfo *info = mg_profile_get_run_info (profile);
  MgRunSettings *s = mg_run_settings_new ();
  g_autofree char *launcher = NULL;
  guint interval = (guint) (info->interval_start_ms + 0.5);

  set_program (s, info->argv);
  mg_run_settings_set_working_folder (s, info->working_dir);
  if (interval > 0 && interval != MG_PLAN_DEFAULT_INTERVAL_MS)
    mg_run_settings_set_interval_ms (s, interval);
  if (info->max_samples >= MG_PLAN_MIN_SAMPLES && info->max_samples != MG_PLAN_DEFAULT_SAMPLES)
    mg_run_settings_set_max_samples (s, info->max_samples);
  /* Ranks started by -n: the recorded command line has no launcher. */
  launcher = info->argv != NULL && info->argv[0] != NULL ? g_path_get_basename (info->argv[0]) : NULL;
  if (info->n_processes > 1 && launcher != NULL && !g_str_has_prefix (launcher, "mpi")
      && g_strcmp0 (launcher, "srun") != 0)
    {
      gboolean ranks = FALSE;

      for (guint i = 0; i < mg_profile_get_n_processes (profile); i++)
        ranks |= mg_profile_get_process (profile, i)->rank >= 0;
      if (ranks)
        mg_run_settings_set_n_processes (s, info->n_processes);
    }
  if (catalogue != NULL)
    set_metrics (s, profile, catalogue);
  mg_run_settings_set_process_precision (s, mg_profile_get_process_precision (profile));
  return s;
}
