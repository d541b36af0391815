/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rank overview's fixture profiles (heat-map-fixture.h). */
#include "mg-config.h"

#include <math.h>

#include "heat-map-fixture.h"
#include "profile/mg-profile-builder.h"

double
heat_map_fixture_value (guint n_windows, int spike_rank, int idle_rank, gboolean with_gap,
                        guint r, guint w)
{
  if (with_gap && w >= n_windows * 8 / 10 && w < n_windows * 85 / 100)
    return NAN;
  if ((int) r == spike_rank && w == n_windows / 2)
    return 90;
  if ((int) r == idle_rank && w >= n_windows / 5 && w < n_windows / 5 + n_windows / 10)
    return 1;
  return 10 + r / 100.0;
}

MgProfile *
heat_map_fixture_profile (guint n_ranks, guint n_windows, int spike_rank, int idle_rank,
                          gboolean with_gap)
{
  MgProfileBuilder *builder = mg_profile_builder_new ();
  g_autoptr (GError) error = NULL;
  MgMetricDef *def = mg_metric_def_new ();
  const char *argv[] = { "solver", NULL };
  MgProfile *profile;

  def->id = g_strdup ("cpu");
  def->display_name = g_strdup ("CPU");
  g_free (def->units);
  def->units = g_strdup ("%");
  def->data_type = MG_DATA_TYPE_DOUBLE;
  def->type = MG_METRIC_TYPE_CPU_TIME;
  mg_profile_builder_set_command (builder, argv, "/");
  mg_profile_builder_set_interval (builder, 10, 10, 1000);
  mg_profile_builder_add_metric (builder, def);
  mg_metric_def_free (def);
  for (guint r = 0; r < n_ranks; r++)
    {
      MgProcessInfo info = { 0 };
      guint p;

      info.pid = 1000 + r;
      info.rank = r;
      info.host = (char *) "node1";
      info.program = (char *) "solver";
      info.end_s = n_windows * HEAT_MAP_FIXTURE_WINDOW;
      info.end = MG_PROCESS_END_EXITED;
      p = mg_profile_builder_add_process (builder, &info);
      mg_profile_builder_reserve (builder, p, n_windows);
      for (guint w = 0; w < n_windows; w++)
        {
          double v = heat_map_fixture_value (n_windows, spike_rank, idle_rank, with_gap, r, w);

          mg_profile_builder_add_sample (builder, p, w * HEAT_MAP_FIXTURE_WINDOW,
                                         (w + 1) * HEAT_MAP_FIXTURE_WINDOW, &v, &v, &v);
        }
    }
  profile = mg_profile_builder_finish (builder, 0, &error);
  g_assert_no_error (error);
  mg_profile_builder_free (builder);
  return profile;
}
