/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The catalogue of metrics on the search path. */
#include "mg-config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "mg-catalogue.h"
#include "mg-definition-file.h"
#include "mg-id-suggest.h"

struct _MgCatalogue {
  GObject parent_instance;

  GPtrArray *files;          /* MgDefinitionFile*: own every def */
  GPtrArray *metrics;        /* MgCatalogueMetric* */
  GHashTable *metric_index;  /* id → index + 1 */
  GPtrArray *groups;         /* MgCatalogueGroup* (group is a merged copy) */
  GHashTable *group_index;   /* id → index + 1 */
  GPtrArray *sources;        /* const MgSourceDef* */
  GHashTable *source_reason; /* const MgSourceDef* → reason, when unusable */
  GStringChunk *strings;     /* reasons */
  GPtrArray *diagnostics;
};

G_DEFINE_TYPE (MgCatalogue, mg_catalogue, G_TYPE_OBJECT)

G_DEFINE_QUARK (mg-catalogue-error-quark, mg_catalogue_error)

static void
catalogue_group_free (MgCatalogueGroup *group)
{
  mg_metric_group_free ((MgMetricGroup *) group->group);
  g_ptr_array_unref (group->members);
  g_ptr_array_unref (group->missing_refs);
  g_free (group);
}

static void
mg_catalogue_finalize (GObject *object)
{
  MgCatalogue *self = MG_CATALOGUE (object);

  g_ptr_array_unref (self->groups);
  g_hash_table_unref (self->group_index);
  g_ptr_array_unref (self->metrics);
  g_hash_table_unref (self->metric_index);
  g_ptr_array_unref (self->sources);
  g_hash_table_unref (self->source_reason);
  g_string_chunk_free (self->strings);
  g_ptr_array_unref (self->diagnostics);
  g_ptr_array_unref (self->files);

  G_OBJECT_CLASS (mg_catalogue_parent_class)->finalize (object);
}

static void
mg_catalogue_class_init (MgCatalogueClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mg_catalogue_finalize;
}

static void
mg_catalogue_init (MgCatalogue *self)
{
  self->files = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_definition_file_free);
  self->metrics = g_ptr_array_new_with_free_func (g_free);
  self->metric_index = g_hash_table_new (g_str_hash, g_str_equal);
  self->groups = g_ptr_array_new_with_free_func ((GDestroyNotify) catalogue_group_free);
  self->group_index = g_hash_table_new (g_str_hash, g_str_equal);
  self->sources = g_ptr_array_new ();
  self->source_reason = g_hash_table_new (NULL, NULL);
  self->strings = g_string_chunk_new (1024);
  self->diagnostics = mg_diagnostic_list_new ();
}

MgCatalogue *
mg_catalogue_new (void)
{
  return g_object_new (MG_TYPE_CATALOGUE, NULL);
}

static const char *
keep (MgCatalogue *self, const char *text)
{
  return g_string_chunk_insert (self->strings, text);
}

/* ---- sources ---------------------------------------------------------- */

/* dlopen() would run the plugin's constructors in the front end, so only
 * the ELF header is checked here; the sampler reports load failures. */
static char *
check_library_usable (const char *path)
{
  unsigned char header[5] = { 0 };
  FILE *stream = fopen (path, "rb");
  size_t got;

  if (stream == NULL)
    return g_strdup_printf (_("'%s' cannot be read: %s"), path, g_strerror (errno));
  got = fread (header, 1, sizeof header, stream);
  fclose (stream);
  if (got != sizeof header || memcmp (header, "\177ELF", 4) != 0)
    return g_strdup_printf (_("'%s' is not a shared library (no ELF header)"), path);
  if (header[4] != (sizeof (void *) == 8 ? 2 : 1))
    return g_strdup_printf (_("'%s' is a %d-bit library; Metrograph runs %d-bit programs"),
                            path, header[4] == 2 ? 64 : 32, (int) sizeof (void *) * 8);
  return NULL;
}

/* Resolves one name; on failure reports it and returns the reason. */
static char *
resolve_name (MgCatalogue *self, MgSearchPath *path, const MgSourceDef *source,
              const char *what, const char *name, char **resolved)
{
  g_autoptr (GError) error = NULL;
  MgSeverity severity;

  *resolved = mg_search_path_resolve (path, source->file, name, &error);
  if (*resolved != NULL)
    return check_library_usable (*resolved);

  /* A plugin that is not built or not installed here is normal (groups
   * name metrics of other machines); a name that leaves its folder is not. */
  severity = g_error_matches (error, MG_SEARCH_PATH_ERROR, MG_SEARCH_PATH_ERROR_NOT_FOUND)
               ? MG_SEVERITY_WARNING
               : MG_SEVERITY_ERROR;
  mg_diagnostic_add (self->diagnostics, source->file, source->line, severity,
                     _("source '%s': %s %s"), source->id, what, error->message);
  /* The short form: the diagnostic carries the advice. */
  if (severity == MG_SEVERITY_WARNING)
    return g_strdup_printf (_("%s '%s' was not found"), what, name);
  return g_strdup_printf (_("%s %s"), what, error->message);
}

static void
resolve_source (MgCatalogue *self, MgSearchPath *path, MgSourceDef *source)
{
  g_autofree char *reason = NULL;

  reason = resolve_name (self, path, source, "sharedLibrary", source->shared_library,
                         &source->library_path);
  for (guint i = 0; i < source->preloads->len; i++)
    {
      char *preload_path = NULL;
      g_autofree char *preload_reason =
        resolve_name (self, path, source, "preload", g_ptr_array_index (source->preloads, i),
                      &preload_path);

      if (preload_path != NULL)
        g_ptr_array_add (source->preload_paths, preload_path);
      if (reason == NULL)
        reason = g_steal_pointer (&preload_reason);
    }
  if (reason != NULL)
    g_hash_table_insert (self->source_reason, source, (gpointer) keep (self, reason));
  g_ptr_array_add (self->sources, source);
}

/* ---- metrics ---------------------------------------------------------- */

static const MgSourceDef *
find_source (const MgDefinitionFile *file, const char *id)
{
  for (guint i = 0; i < file->sources->len; i++)
    {
      const MgSourceDef *source = g_ptr_array_index (file->sources, i);

      if (g_strcmp0 (source->id, id) == 0)
        return source;
    }
  return NULL;
}

static void
add_metric (MgCatalogue *self, const MgDefinitionFile *file, const MgMetricDef *def)
{
  MgCatalogueMetric *metric;
  gpointer earlier = g_hash_table_lookup (self->metric_index, def->id);

  if (earlier != NULL)
    {
      const MgCatalogueMetric *first =
        g_ptr_array_index (self->metrics, GPOINTER_TO_UINT (earlier) - 1);

      mg_diagnostic_add (self->diagnostics, def->file, def->line, MG_SEVERITY_NOTE,
                         _("metric '%s' is ignored here: %s:%d defines it first (the earlier "
                           "folder of the metrics path wins)"),
                         def->id, first->def->file, first->def->line);
      return;
    }

  metric = g_new0 (MgCatalogueMetric, 1);
  metric->def = def;
  metric->source = find_source (file, def->source_ref);
  if (metric->source == NULL)
    {
      mg_diagnostic_add (self->diagnostics, def->file, def->line, MG_SEVERITY_ERROR,
                         _("metric '%s' refers to source '%s', which this file does not "
                           "define; add <source id=\"%s\"> or correct the ref"),
                         def->id, def->source_ref, def->source_ref);
      metric->unavailable_reason =
        keep (self, _("its source is not defined in its definition file"));
    }
  else
    metric->unavailable_reason = g_hash_table_lookup (self->source_reason, metric->source);
  metric->available = metric->unavailable_reason == NULL;
  metric->default_on = metric->available && (def->enabled == MG_ENABLED_ALWAYS
                                              || def->enabled == MG_ENABLED_DEFAULT_YES);
  metric->enabled = metric->default_on;
  g_ptr_array_add (self->metrics, metric);
  g_hash_table_insert (self->metric_index, def->id, GUINT_TO_POINTER (self->metrics->len));
}

/* ---- groups ----------------------------------------------------------- */

static gboolean
has_ref (const MgMetricGroup *group, const char *ref)
{
  for (guint i = 0; i < group->metric_refs->len; i++)
    if (strcmp (g_ptr_array_index (group->metric_refs, i), ref) == 0)
      return TRUE;
  return FALSE;
}

/* Groups with one id are merged: the first keeps its names, later ones add
 * their metrics (MAP's "Default" group gathers metrics of many files). */
static void
add_group (MgCatalogue *self, const MgMetricGroup *group)
{
  gpointer earlier = g_hash_table_lookup (self->group_index, group->id);
  MgCatalogueGroup *entry;

  if (earlier != NULL)
    {
      MgMetricGroup *merged;

      entry = g_ptr_array_index (self->groups, GPOINTER_TO_UINT (earlier) - 1);
      merged = (MgMetricGroup *) entry->group;
      mg_diagnostic_add (self->diagnostics, group->file, group->line, MG_SEVERITY_NOTE,
                         _("group '%s' is also defined in %s:%d; its metrics are added to that "
                           "group, whose names are kept"),
                         group->id, merged->file, merged->line);
      for (guint i = 0; i < group->metric_refs->len; i++)
        if (!has_ref (merged, g_ptr_array_index (group->metric_refs, i)))
          g_ptr_array_add (merged->metric_refs,
                           g_strdup (g_ptr_array_index (group->metric_refs, i)));
      return;
    }

  entry = g_new0 (MgCatalogueGroup, 1);
  entry->group = mg_metric_group_copy (group);
  entry->members = g_ptr_array_new ();
  entry->missing_refs = g_ptr_array_new ();
  g_ptr_array_add (self->groups, entry);
  g_hash_table_insert (self->group_index, entry->group->id,
                       GUINT_TO_POINTER (self->groups->len));
}

/* After every file is loaded, since refs may name metrics of other files. */
static void
resolve_group (MgCatalogue *self, MgCatalogueGroup *entry)
{
  for (guint i = 0; i < entry->group->metric_refs->len; i++)
    {
      const char *ref = g_ptr_array_index (entry->group->metric_refs, i);
      const MgCatalogueMetric *metric = mg_catalogue_lookup_metric (self, ref);

      if (metric == NULL)
        g_ptr_array_add (entry->missing_refs, (gpointer) ref);
      else
        {
          g_ptr_array_add (entry->members, (gpointer) metric);
          entry->available |= metric->available;
        }
    }
  if (entry->available)
    return;
  if (entry->members->len == 0 && entry->missing_refs->len == 0)
    entry->unavailable_reason = keep (self, _("the group names no metrics"));
  else if (entry->members->len == 0)
    entry->unavailable_reason = keep (self, _("none of its metrics is defined on this system"));
  else
    entry->unavailable_reason = keep (self, _("none of its metrics is available on this "
                                              "system"));
}

void
mg_catalogue_load (MgCatalogue *self, MgSearchPath *path)
{
  g_autoptr (GPtrArray) paths = NULL;

  g_return_if_fail (MG_IS_CATALOGUE (self));
  g_return_if_fail (path != NULL);
  g_return_if_fail (self->files->len == 0);

  paths = mg_search_path_list_files (path, self->diagnostics);
  for (guint i = 0; i < paths->len; i++)
    {
      MgDefinitionFile *file = mg_definition_file_load (g_ptr_array_index (paths, i),
                                                        self->diagnostics);

      if (file == NULL)
        continue;
      g_ptr_array_add (self->files, file);
      for (guint j = 0; j < file->sources->len; j++)
        resolve_source (self, path, g_ptr_array_index (file->sources, j));
      for (guint j = 0; j < file->metrics->len; j++)
        add_metric (self, file, g_ptr_array_index (file->metrics, j));
      for (guint j = 0; j < file->groups->len; j++)
        add_group (self, g_ptr_array_index (file->groups, j));
    }
  for (guint i = 0; i < self->groups->len; i++)
    resolve_group (self, g_ptr_array_index (self->groups, i));
}

void
mg_catalogue_add_file (MgCatalogue *self, MgDefinitionFile *file)
{
  guint first_group = self->groups->len;

  g_return_if_fail (MG_IS_CATALOGUE (self));
  g_return_if_fail (file != NULL);

  g_ptr_array_add (self->files, file);
  for (guint j = 0; j < file->sources->len; j++)
    {
      MgSourceDef *source = g_ptr_array_index (file->sources, j);
      const char *reason = source->scorep_error != NULL ? source->scorep_error
                           : source->library_path == NULL ? _("its library was not found")
                                                          : NULL;

      if (reason != NULL)
        g_hash_table_insert (self->source_reason, source, (gpointer) keep (self, reason));
      g_ptr_array_add (self->sources, source);
    }
  for (guint j = 0; j < file->metrics->len; j++)
    add_metric (self, file, g_ptr_array_index (file->metrics, j));
  for (guint j = 0; j < file->groups->len; j++)
    add_group (self, g_ptr_array_index (file->groups, j));
  for (guint i = first_group; i < self->groups->len; i++)
    resolve_group (self, g_ptr_array_index (self->groups, i));
}

/* ---- queries ---------------------------------------------------------- */

guint
mg_catalogue_get_n_metrics (MgCatalogue *self)
{
  g_return_val_if_fail (MG_IS_CATALOGUE (self), 0);
  return self->metrics->len;
}

const MgCatalogueMetric *
mg_catalogue_get_metric (MgCatalogue *self, guint index)
{
  g_return_val_if_fail (MG_IS_CATALOGUE (self), NULL);
  g_return_val_if_fail (index < self->metrics->len, NULL);
  return g_ptr_array_index (self->metrics, index);
}

const MgCatalogueMetric *
mg_catalogue_lookup_metric (MgCatalogue *self, const char *id)
{
  guint index;

  g_return_val_if_fail (MG_IS_CATALOGUE (self), NULL);
  index = GPOINTER_TO_UINT (g_hash_table_lookup (self->metric_index, id != NULL ? id : ""));
  return index == 0 ? NULL : g_ptr_array_index (self->metrics, index - 1);
}

guint
mg_catalogue_get_n_groups (MgCatalogue *self)
{
  g_return_val_if_fail (MG_IS_CATALOGUE (self), 0);
  return self->groups->len;
}

const MgCatalogueGroup *
mg_catalogue_get_group (MgCatalogue *self, guint index)
{
  g_return_val_if_fail (MG_IS_CATALOGUE (self), NULL);
  g_return_val_if_fail (index < self->groups->len, NULL);
  return g_ptr_array_index (self->groups, index);
}

const MgCatalogueGroup *
mg_catalogue_lookup_group (MgCatalogue *self, const char *id)
{
  guint index;

  g_return_val_if_fail (MG_IS_CATALOGUE (self), NULL);
  index = GPOINTER_TO_UINT (g_hash_table_lookup (self->group_index, id != NULL ? id : ""));
  return index == 0 ? NULL : g_ptr_array_index (self->groups, index - 1);
}

GPtrArray *
mg_catalogue_get_sources (MgCatalogue *self)
{
  g_return_val_if_fail (MG_IS_CATALOGUE (self), NULL);
  return self->sources;
}

GPtrArray *
mg_catalogue_get_diagnostics (MgCatalogue *self)
{
  g_return_val_if_fail (MG_IS_CATALOGUE (self), NULL);
  return self->diagnostics;
}

guint
mg_catalogue_count_diagnostics (MgCatalogue *self, MgSeverity severity)
{
  guint count = 0;

  g_return_val_if_fail (MG_IS_CATALOGUE (self), 0);
  for (guint i = 0; i < self->diagnostics->len; i++)
    if (((MgDiagnostic *) g_ptr_array_index (self->diagnostics, i))->severity == severity)
      count++;
  return count;
}

GPtrArray *
mg_catalogue_get_enabled_metrics (MgCatalogue *self, const MgSourceDef *source)
{
  GPtrArray *enabled = g_ptr_array_new ();

  g_return_val_if_fail (MG_IS_CATALOGUE (self), enabled);
  for (guint i = 0; i < self->metrics->len; i++)
    {
      const MgCatalogueMetric *metric = g_ptr_array_index (self->metrics, i);

      if (metric->enabled && metric->available && metric->source == source)
        g_ptr_array_add (enabled, (gpointer) metric);
    }
  return enabled;
}

GPtrArray *
mg_catalogue_get_enabled_sources (MgCatalogue *self)
{
  GPtrArray *enabled = g_ptr_array_new ();

  g_return_val_if_fail (MG_IS_CATALOGUE (self), enabled);
  for (guint i = 0; i < self->sources->len; i++)
    {
      const MgSourceDef *source = g_ptr_array_index (self->sources, i);
      g_autoptr (GPtrArray) metrics = mg_catalogue_get_enabled_metrics (self, source);

      if (metrics->len > 0)
        g_ptr_array_add (enabled, (gpointer) source);
    }
  return enabled;
}

GStrv
mg_catalogue_get_preload_paths (MgCatalogue *self)
{
  g_autoptr (GPtrArray) sources = mg_catalogue_get_enabled_sources (self);
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < sources->len; i++)
    {
      const MgSourceDef *source = g_ptr_array_index (sources, i);

      for (guint j = 0; j < source->preload_paths->len; j++)
        {
          const char *preload = g_ptr_array_index (source->preload_paths, j);

          if (g_hash_table_add (seen, (gpointer) preload))
            g_strv_builder_add (builder, preload);
        }
    }
  return g_strv_builder_end (builder);
}

/* ---- toggles ---------------------------------------------------------- */

/* Every metric id, then every group id (container only). */
static GPtrArray *
known_ids (MgCatalogue *self)
{
  GPtrArray *known = g_ptr_array_new ();

  for (guint i = 0; i < self->metrics->len; i++)
    g_ptr_array_add (known, ((MgCatalogueMetric *) g_ptr_array_index (self->metrics, i))->def->id);
  for (guint i = 0; i < self->groups->len; i++)
    g_ptr_array_add (known, ((MgCatalogueGroup *) g_ptr_array_index (self->groups, i))->group->id);
  return known;
}

GStrv
mg_catalogue_suggest_ids (MgCatalogue *self, const char *id, guint max)
{
  g_autoptr (GPtrArray) known = NULL;

  g_return_val_if_fail (MG_IS_CATALOGUE (self), NULL);
  known = known_ids (self);
  return mg_id_suggest (id, known, max);
}

static void
set_unknown_error (MgCatalogue *self, const char *typed, GError **error)
{
  g_auto (GStrv) suggestions = mg_catalogue_suggest_ids (self, typed, 3);
  g_autofree char *listed = NULL;

  if (suggestions[0] == NULL)
    {
      g_set_error (error, MG_CATALOGUE_ERROR, MG_CATALOGUE_ERROR_UNKNOWN_ID,
                   _("unknown metric or group '%s'"), typed);
      return;
    }
  listed = mg_id_suggest_format ((const char *const *) suggestions);
  g_set_error (error, MG_CATALOGUE_ERROR, MG_CATALOGUE_ERROR_UNKNOWN_ID,
               _("unknown metric or group '%s'; did you mean %s?"), typed, listed);
}

const char *
mg_catalogue_resolve_id (MgCatalogue *self, const char *typed, GError **error)
{
  g_autoptr (GPtrArray) known = NULL;
  g_auto (GStrv) matches = NULL;
  g_autofree char *listed = NULL;

  g_return_val_if_fail (MG_IS_CATALOGUE (self), NULL);
  g_return_val_if_fail (typed != NULL, NULL);

  known = known_ids (self);
  matches = mg_id_match (typed, known);
  if (matches[0] != NULL && matches[1] == NULL)
    {
      /* The catalogue's own copy of the id. */
      for (guint i = 0; i < known->len; i++)
        if (strcmp (g_ptr_array_index (known, i), matches[0]) == 0)
          return g_ptr_array_index (known, i);
    }
  if (matches[0] == NULL)
    {
      set_unknown_error (self, typed, error);
      return NULL;
    }
  listed = mg_id_suggest_format ((const char *const *) matches);
  g_set_error (error, MG_CATALOGUE_ERROR, MG_CATALOGUE_ERROR_AMBIGUOUS_ID,
               _("'%s' could be %s, which differ only in case; give one of them exactly"),
               typed, listed);
  return NULL;
}

/* @ids with each replaced by the id it names; NULL on the first that names
 * none or several. */
static GStrv
resolve_ids (MgCatalogue *self, const char *const *ids, GError **error)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; ids != NULL && ids[i] != NULL; i++)
    {
      const char *id;

      if (*ids[i] == '\0')
        continue;
      id = mg_catalogue_resolve_id (self, ids[i], error);
      if (id == NULL)
        return NULL;
      g_strv_builder_add (builder, id);
    }
  return g_strv_builder_end (builder);
}

static gboolean
check_conflicts (const char *const *enable_ids, const char *const *disable_ids, GError **error)
{
  for (guint i = 0; enable_ids != NULL && enable_ids[i] != NULL; i++)
    if (*enable_ids[i] != '\0' && disable_ids != NULL
        && g_strv_contains (disable_ids, enable_ids[i]))
      {
        g_set_error (error, MG_CATALOGUE_ERROR, MG_CATALOGUE_ERROR_CONFLICT,
                     _("'%s' was given to both --enable-metrics and --disable-metrics; "
                       "name it in one of them only"), enable_ids[i]);
        return FALSE;
      }
  return TRUE;
}

static guint
index_of (MgCatalogue *self, const MgCatalogueMetric *metric)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->metric_index, metric->def->id)) - 1;
}

/* A group leaves alone the members whose state cannot change. */
static void
toggle_groups (MgCatalogue *self, const char *const *ids, gboolean on, gboolean *states)
{
  for (guint i = 0; ids != NULL && ids[i] != NULL; i++)
    {
      const MgCatalogueGroup *group = mg_catalogue_lookup_group (self, ids[i]);

      for (guint j = 0; group != NULL && j < group->members->len; j++)
        {
          const MgCatalogueMetric *metric = g_ptr_array_index (group->members, j);

          if (metric->available && metric->def->enabled != MG_ENABLED_ALWAYS
              && metric->def->enabled != MG_ENABLED_NEVER)
            states[index_of (self, metric)] = on;
        }
    }
}

/* A metric named on its own must change as asked, or it is an error. */
static gboolean
toggle_metrics (MgCatalogue *self, const char *const *ids, gboolean on, gboolean *states,
                GError **error)
{
  for (guint i = 0; ids != NULL && ids[i] != NULL; i++)
    {
      const MgCatalogueMetric *metric = mg_catalogue_lookup_metric (self, ids[i]);

      if (metric == NULL)
        continue;
      if (on && metric->def->enabled == MG_ENABLED_NEVER)
        {
          g_set_error (error, MG_CATALOGUE_ERROR, MG_CATALOGUE_ERROR_NEVER,
                       _("metric '%s' cannot be enabled: its definition (%s:%d) says "
                         "<enabled>never</enabled>"),
                       ids[i], metric->def->file, metric->def->line);
          return FALSE;
        }
      if (on && !metric->available)
        {
          g_set_error (error, MG_CATALOGUE_ERROR, MG_CATALOGUE_ERROR_UNAVAILABLE,
                       _("metric '%s' cannot be enabled: it is unavailable (%s)"), ids[i],
                       metric->unavailable_reason);
          return FALSE;
        }
      if (!on && metric->def->enabled == MG_ENABLED_ALWAYS)
        {
          g_set_error (error, MG_CATALOGUE_ERROR, MG_CATALOGUE_ERROR_ALWAYS,
                       _("metric '%s' cannot be disabled: its definition (%s:%d) says "
                         "<enabled>always</enabled>"),
                       ids[i], metric->def->file, metric->def->line);
          return FALSE;
        }
      states[index_of (self, metric)] = on;
    }
  return TRUE;
}

GStrv
mg_catalogue_split_ids (const char *const *values)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; values != NULL && values[i] != NULL; i++)
    {
      g_auto (GStrv) parts = g_strsplit (values[i], ",", -1);

      for (guint j = 0; parts[j] != NULL; j++)
        {
          g_strstrip (parts[j]);
          if (*parts[j] != '\0')
            g_strv_builder_add (builder, parts[j]);
        }
    }
  return g_strv_builder_end (builder);
}

gboolean
mg_catalogue_apply_toggles (MgCatalogue *self, const char *const *enable_ids,
                            const char *const *disable_ids, GError **error)
{
  g_autofree gboolean *states = NULL;
  g_auto (GStrv) enable = NULL;
  g_auto (GStrv) disable = NULL;

  g_return_val_if_fail (MG_IS_CATALOGUE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  enable = resolve_ids (self, enable_ids, error);
  if (enable == NULL)
    return FALSE;
  disable = resolve_ids (self, disable_ids, error);
  if (disable == NULL || !check_conflicts ((const char *const *) enable,
                                           (const char *const *) disable, error))
    return FALSE;
  enable_ids = (const char *const *) enable;
  disable_ids = (const char *const *) disable;

  /* Groups first, so a metric named on its own overrides its group. */
  states = g_new (gboolean, MAX (self->metrics->len, 1));
  for (guint i = 0; i < self->metrics->len; i++)
    states[i] = ((MgCatalogueMetric *) g_ptr_array_index (self->metrics, i))->default_on;
  toggle_groups (self, enable_ids, TRUE, states);
  toggle_groups (self, disable_ids, FALSE, states);
  if (!toggle_metrics (self, enable_ids, TRUE, states, error)
      || !toggle_metrics (self, disable_ids, FALSE, states, error))
    return FALSE;

  for (guint i = 0; i < self->metrics->len; i++)
    ((MgCatalogueMetric *) g_ptr_array_index (self->metrics, i))->enabled = states[i];
  return TRUE;
}
