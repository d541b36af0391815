/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-cli-enable-check.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "mg-cli.h"
#include "profile/mg-unavailable.h"

/* TRUE when @id (a metric of the profile) has no value in any window. */
static gboolean
has_no_value (MgProfile *profile, const char *id)
{
  int index = mg_profile_find_metric (profile, id);
  const MgSeries *series;

  if (index < 0)
    return TRUE;
  series = mg_profile_get_series (profile, (guint) index);
  if (series == NULL)
    {
      const MgSingleValue *single = mg_profile_get_single_value (profile, (guint) index);

      return single == NULL || single->count == 0;
    }
  for (guint w = 0; w < mg_profile_get_n_windows (profile); w++)
    if (!isnan (series->means[w]))
      return FALSE;
  return TRUE;
}

/* The unavailable plugin behind @metric when it recorded nothing, else NULL. */
static const MgUnavailable *
missing_because (MgProfile *profile, GPtrArray *unavailable, const MgCatalogueMetric *metric)
{
  if (metric->source == NULL || !has_no_value (profile, metric->def->id))
    return NULL;
  for (guint i = 0; i < unavailable->len; i++)
    {
      const MgUnavailable *entry = g_ptr_array_index (unavailable, i);

      if (strcmp (entry->source_id, metric->source->id) == 0)
        return entry;
    }
  return NULL;
}

/* The reason when every metric @id names recorded nothing for want of its
 * plugin, else NULL. */
static const MgUnavailable *
id_unavailable (MgProfile *profile, MgCatalogue *catalogue, GPtrArray *unavailable,
                const char *id)
{
  const MgCatalogueMetric *metric = mg_catalogue_lookup_metric (catalogue, id);
  const MgCatalogueGroup *group;
  const MgUnavailable *why = NULL;

  if (metric != NULL)
    return missing_because (profile, unavailable, metric);
  group = mg_catalogue_lookup_group (catalogue, id);
  for (guint j = 0; group != NULL && j < group->members->len; j++)
    {
      const MgCatalogueMetric *member = g_ptr_array_index (group->members, j);
      const MgUnavailable *member_why;

      if (!member->enabled)
        continue;
      member_why = missing_because (profile, unavailable, member);
      if (member_why == NULL)
        return NULL;
      why = why != NULL ? why : member_why;
    }
  return why;
}

gboolean
mg_cli_check_enabled (MgProfile *profile, MgCatalogue *catalogue,
                      const char *const *enable_ids)
{
  g_autoptr (GPtrArray) unavailable = mg_unavailable_collect (profile);
  gboolean all = TRUE;

  for (guint i = 0; enable_ids != NULL && enable_ids[i] != NULL && unavailable->len > 0; i++)
    {
      const char *id = mg_catalogue_resolve_id (catalogue, enable_ids[i], NULL);
      const MgUnavailable *why;

      if (id == NULL)
        continue;
      why = id_unavailable (profile, catalogue, unavailable, id);
      if (why == NULL)
        continue;
      mg_cli_print_error (_("--enable-metrics=%s: not available on this machine: %s (the "
                            "profile is written without it)"),
                          enable_ids[i], why->message);
      all = FALSE;
    }
  return all;
}
