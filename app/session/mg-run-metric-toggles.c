/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-metric-toggles.h"

gboolean
mg_run_metric_is_switchable (const MgCatalogueMetric *metric)
{
  return metric->available && metric->def->enabled != MG_ENABLED_ALWAYS
         && metric->def->enabled != MG_ENABLED_NEVER;
}

/* The effective states after the settings' toggles; defaults when the
 * toggles no longer fit the catalogue. */
static gboolean *
current_states (MgRunSettings *self, MgCatalogue *catalogue)
{
  guint n = mg_catalogue_get_n_metrics (catalogue);
  gboolean *states = g_new0 (gboolean, MAX (n, 1));

  if (!mg_run_settings_apply_toggles (self, catalogue, NULL))
    mg_catalogue_apply_toggles (catalogue, NULL, NULL, NULL);
  for (guint i = 0; i < n; i++)
    states[i] = mg_catalogue_get_metric (catalogue, i)->enabled;
  return states;
}

static int
metric_index (MgCatalogue *catalogue, const MgCatalogueMetric *metric)
{
  for (guint i = 0; i < mg_catalogue_get_n_metrics (catalogue); i++)
    if (mg_catalogue_get_metric (catalogue, i) == metric)
      return (int) i;
  return -1;
}

/* A group stands for its switchable members when they all share one state
 * and at least two of them differ from their default that way. */
static void
cover_groups (MgCatalogue *catalogue, const gboolean *states, gboolean *covered,
              GStrvBuilder *enable, GStrvBuilder *disable)
{
  for (guint g = 0; g < mg_catalogue_get_n_groups (catalogue); g++)
    {
      const MgCatalogueGroup *group = mg_catalogue_get_group (catalogue, g);
      int first_state = -1;
      guint n_changed = 0;
      gboolean uniform = TRUE;

      for (guint j = 0; j < group->members->len && uniform; j++)
        {
          const MgCatalogueMetric *m = g_ptr_array_index (group->members, j);
          int i = metric_index (catalogue, m);

          if (i < 0 || !mg_run_metric_is_switchable (m))
            continue;
          if (first_state < 0)
            first_state = states[i];
          uniform = states[i] == first_state;
          n_changed += states[i] != m->default_on;
        }
      if (!uniform || n_changed < 2)
        continue;
      g_strv_builder_add (first_state ? enable : disable, group->group->id);
      for (guint j = 0; j < group->members->len; j++)
        {
          int i = metric_index (catalogue, g_ptr_array_index (group->members, j));

          if (i >= 0)
            covered[i] = TRUE;
        }
    }
}

static void
build_lists (MgCatalogue *catalogue, const gboolean *states, gboolean use_groups,
             GStrv *enable_ids, GStrv *disable_ids)
{
  guint n = mg_catalogue_get_n_metrics (catalogue);
  g_autofree gboolean *covered = g_new0 (gboolean, MAX (n, 1));
  g_autoptr (GStrvBuilder) enable = g_strv_builder_new ();
  g_autoptr (GStrvBuilder) disable = g_strv_builder_new ();

  if (use_groups)
    cover_groups (catalogue, states, covered, enable, disable);
  for (guint i = 0; i < n; i++)
    {
      const MgCatalogueMetric *m = mg_catalogue_get_metric (catalogue, i);

      if (!covered[i] && mg_run_metric_is_switchable (m) && states[i] != m->default_on)
        g_strv_builder_add (states[i] ? enable : disable, m->def->id);
    }
  *enable_ids = g_strv_builder_end (enable);
  *disable_ids = g_strv_builder_end (disable);
}

static gboolean
lists_give_states (MgCatalogue *catalogue, GStrv enable_ids, GStrv disable_ids,
                   const gboolean *states)
{
  if (!mg_catalogue_apply_toggles (catalogue, (const char *const *) enable_ids,
                                   (const char *const *) disable_ids, NULL))
    return FALSE;
  for (guint i = 0; i < mg_catalogue_get_n_metrics (catalogue); i++)
    if (mg_catalogue_get_metric (catalogue, i)->enabled != states[i])
      return FALSE;
  return TRUE;
}

/* Stores the shortest toggles for @states; groups only when the catalogue
 * confirms they give exactly these states. */
static void
store_states (MgRunSettings *self, MgCatalogue *catalogue, const gboolean *states)
{
  g_auto (GStrv) enable_ids = NULL;
  g_auto (GStrv) disable_ids = NULL;

  build_lists (catalogue, states, TRUE, &enable_ids, &disable_ids);
  if (!lists_give_states (catalogue, enable_ids, disable_ids, states))
    {
      g_clear_pointer (&enable_ids, g_strfreev);
      g_clear_pointer (&disable_ids, g_strfreev);
      build_lists (catalogue, states, FALSE, &enable_ids, &disable_ids);
      lists_give_states (catalogue, enable_ids, disable_ids, states);
    }
  g_object_freeze_notify (G_OBJECT (self));
  mg_run_settings_set_enable_metrics (self, (const char *const *) enable_ids);
  mg_run_settings_set_disable_metrics (self, (const char *const *) disable_ids);
  g_object_thaw_notify (G_OBJECT (self));
}

gboolean
mg_run_settings_get_metric_enabled (MgRunSettings *self, MgCatalogue *catalogue,
                                    const char *metric_id)
{
  const MgCatalogueMetric *metric = mg_catalogue_lookup_metric (catalogue, metric_id);
  int i = metric != NULL ? metric_index (catalogue, metric) : -1;
  g_autofree gboolean *states = NULL;

  if (i < 0)
    return FALSE;
  states = current_states (self, catalogue);
  return states[i];
}

void
mg_run_settings_set_metric_enabled (MgRunSettings *self, MgCatalogue *catalogue,
                                    const char *metric_id, gboolean enabled)
{
  const MgCatalogueMetric *metric = mg_catalogue_lookup_metric (catalogue, metric_id);
  int i = metric != NULL ? metric_index (catalogue, metric) : -1;
  g_autofree gboolean *states = NULL;

  if (i < 0 || !mg_run_metric_is_switchable (metric))
    return;
  states = current_states (self, catalogue);
  states[i] = enabled;
  store_states (self, catalogue, states);
}

MgToggleState
mg_run_settings_get_group_state (MgRunSettings *self, MgCatalogue *catalogue,
                                 const char *group_id)
{
  const MgCatalogueGroup *group = mg_catalogue_lookup_group (catalogue, group_id);
  g_autofree gboolean *states = NULL;
  gboolean any_on = FALSE, any_off = FALSE;

  if (group == NULL)
    return MG_TOGGLE_OFF;
  states = current_states (self, catalogue);
  for (guint j = 0; j < group->members->len; j++)
    {
      const MgCatalogueMetric *m = g_ptr_array_index (group->members, j);
      int i = metric_index (catalogue, m);

      if (i < 0 || !mg_run_metric_is_switchable (m))
        continue;
      any_on |= states[i];
      any_off |= !states[i];
    }
  return any_on && any_off ? MG_TOGGLE_MIXED : any_on ? MG_TOGGLE_ON : MG_TOGGLE_OFF;
}

void
mg_run_settings_set_group_enabled (MgRunSettings *self, MgCatalogue *catalogue,
                                   const char *group_id, gboolean enabled)
{
  const MgCatalogueGroup *group = mg_catalogue_lookup_group (catalogue, group_id);
  g_autofree gboolean *states = NULL;

  if (group == NULL)
    return;
  states = current_states (self, catalogue);
  for (guint j = 0; j < group->members->len; j++)
    {
      const MgCatalogueMetric *m = g_ptr_array_index (group->members, j);
      int i = metric_index (catalogue, m);

      if (i >= 0 && mg_run_metric_is_switchable (m))
        states[i] = enabled;
    }
  store_states (self, catalogue, states);
}

void
mg_run_settings_reset_toggles (MgRunSettings *self)
{
  g_object_freeze_notify (G_OBJECT (self));
  mg_run_settings_set_enable_metrics (self, NULL);
  mg_run_settings_set_disable_metrics (self, NULL);
  g_object_thaw_notify (G_OBJECT (self));
}
