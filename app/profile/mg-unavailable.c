/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a run could not measure: the plugins that declined or failed. */
#include "mg-config.h"

#include "mg-unavailable.h"

#include <math.h>
#include <string.h>


/* Longer prefixes are sentences, not names; longer reasons are cut. */
enum { NAME_MAX_CHARS = 40, REASON_MAX_CHARS = 60 };

void
mg_unavailable_free (MgUnavailable *entry)
{
  g_free (entry->source_id);
  g_free (entry->library);
  g_free (entry->message);
  g_free (entry->name);
  g_free (entry->reason);
  g_free (entry);
}

/* The first of ": ", " (", "; " in @text, or its end. */
static const char *
clause_end (const char *text)
{
  const char *end = text + strlen (text);
  const char *const marks[] = { ": ", " (", "; " };

  for (guint i = 0; i < G_N_ELEMENTS (marks); i++)
    {
      const char *at = strstr (text, marks[i]);

      if (at != NULL && at < end)
        end = at;
    }
  return end;
}

void
mg_unavailable_split (const char *message, char **name, char **reason)
{
  const char *colon = strstr (message, ": ");
  const char *rest = message;
  g_autofree char *clause = NULL;

  *name = NULL;
  /* "Energy: no RAPL: …": a name has no path in it and is short. */
  if (colon != NULL && colon > message
      && g_utf8_strlen (message, colon - message) <= NAME_MAX_CHARS
      && memchr (message, '/', (size_t) (colon - message)) == NULL)
    {
      *name = g_strndup (message, (gsize) (colon - message));
      rest = colon + 2;
    }
  clause = g_strstrip (g_strndup (rest, (gsize) (clause_end (rest) - rest)));
  if (g_utf8_strlen (clause, -1) > REASON_MAX_CHARS)
    {
      g_autofree char *cut = g_utf8_substring (clause, 0, REASON_MAX_CHARS - 1);

      *reason = g_strconcat (cut, "…", NULL);
    }
  else
    *reason = g_steal_pointer (&clause);
}

/* The display name of the group holding @source_id's metrics ("Energy",
 * a Score-P plugin's NAME), or NULL: what names the plugin when its
 * message does not. */
static const char *
group_name_of (MgProfile *profile, const char *source_id)
{
  for (guint g = 0; g < mg_profile_get_n_groups (profile); g++)
    {
      const MgMetricGroup *group = mg_profile_get_group (profile, g);

      if (group->display_name == NULL || *group->display_name == '\0')
        continue;
      for (guint r = 0; r < group->metric_refs->len; r++)
        {
          int m = mg_profile_find_metric (profile, g_ptr_array_index (group->metric_refs, r));

          if (m >= 0
              && g_strcmp0 (mg_profile_get_metric (profile, (guint) m)->source_ref, source_id) == 0)
            return group->display_name;
        }
    }
  return NULL;
}

GPtrArray *
mg_unavailable_collect (MgProfile *profile)
{
  GPtrArray *entries = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_unavailable_free);
  g_autoptr (GHashTable) by_source = g_hash_table_new (g_str_hash, g_str_equal);
  /* "<process> <source>" once counted, and once counted as failed: each
   * image of a process (an exec) reports its plugins again, so that a
   * process that exec'd once read "in 2 of 1 process". */
  g_autoptr (GHashTable) counted = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) counted_failed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                                 NULL);

  for (guint i = 0; i < mg_profile_get_n_plugin_errors (profile); i++)
    {
      const MgPluginError *e = mg_profile_get_plugin_error (profile, i);
      MgUnavailable *entry;

      /* Damaged records are errors of the run, not of a plugin. */
      if (e->source_id == NULL)
        continue;
      entry = g_hash_table_lookup (by_source, e->source_id);
      if (entry == NULL)
        {
          entry = g_new0 (MgUnavailable, 1);
          entry->source_id = g_strdup (e->source_id);
          entry->library = g_strdup (e->library);
          entry->message = g_strdup (e->message != NULL ? e->message : "");
          mg_unavailable_split (entry->message, &entry->name, &entry->reason);
          if (entry->name == NULL)
            {
              const char *group = group_name_of (profile, e->source_id);

              entry->name = g_strdup (group != NULL ? group : e->source_id);
            }
          g_ptr_array_add (entries, entry);
          g_hash_table_insert (by_source, entry->source_id, entry);
        }
      g_autofree char *key = g_strdup_printf ("%d %s", e->process, e->source_id);

      if (!g_hash_table_contains (counted, key))
        {
          entry->processes++;
          g_hash_table_add (counted, g_strdup (key));
        }
      if (e->code != 0 && !g_hash_table_contains (counted_failed, key))
        {
          entry->failed_processes++;
          g_hash_table_add (counted_failed, g_steal_pointer (&key));
        }
    }
  return entries;
}

gboolean
mg_unavailable_is_absent (const MgUnavailable *entry)
{
  return entry->failed_processes == 0;
}

gboolean
mg_plugin_error_is_absence (const MgPluginError *error)
{
  return error->source_id != NULL && error->code == 0;
}

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

void
mg_unavailable_asked_free (MgUnavailableAsked *asked)
{
  g_free (asked->asked);
  g_free (asked->message);
  g_free (asked);
}

GPtrArray *
mg_unavailable_find_asked (MgProfile *profile, MgCatalogue *catalogue,
                           const char *const *enable_ids)
{
  g_autoptr (GPtrArray) unavailable = mg_unavailable_collect (profile);
  GPtrArray *found = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_unavailable_asked_free);

  for (guint i = 0; enable_ids != NULL && enable_ids[i] != NULL && unavailable->len > 0; i++)
    {
      const char *id = mg_catalogue_resolve_id (catalogue, enable_ids[i], NULL);
      const MgUnavailable *why;
      MgUnavailableAsked *asked;

      if (id == NULL)
        continue;
      why = id_unavailable (profile, catalogue, unavailable, id);
      if (why == NULL)
        continue;
      asked = g_new0 (MgUnavailableAsked, 1);
      asked->asked = g_strdup (enable_ids[i]);
      asked->message = g_strdup (why->message);
      g_ptr_array_add (found, asked);
    }
  return found;
}
