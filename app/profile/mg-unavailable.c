/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a run could not measure: the plugins that declined or failed. */
#include "mg-config.h"

#include "mg-unavailable.h"

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
      entry->processes++;
      if (e->code != 0)
        entry->failed_processes++;
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
