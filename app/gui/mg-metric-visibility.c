/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Which metric rows the window shows, as stateful actions. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-metric-visibility.h"

#include <math.h>
#include <string.h>

#include "plot/mg-activity-series.h"
#include "session/mg-scorep-defs.h"

#define OTHER_ACTION "show-other-metrics"

struct _MgMetricVisibility
{
  GObject parent_instance;

  MgProfile *profile;
  GSettings *settings;
  GPtrArray *sections;     /* MgMetricSection* */
  GPtrArray *unavailable;  /* MgUnavailableGroup* */
  int default_section;
  gboolean mpi_run;        /* a process has an MPI rank */
  const char *key_prefix;  /* the settings keys of this kind of run: "" or "mpi-" */
  gboolean *section_shown;
  gboolean *metric_shown;  /* per profile metric */
  char *preset;
  GArray *undo_stack;      /* guint: metrics hidden by hide-metric, last on top */
  GActionMap *map;         /* where the actions live, not owned */
};

G_DEFINE_FINAL_TYPE (MgMetricVisibility, mg_metric_visibility, G_TYPE_OBJECT)

enum { SIGNAL_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
section_free (gpointer data)
{
  MgMetricSection *section = data;

  g_free (section->id);
  g_free (section->title);
  g_free (section->description);
  g_array_unref (section->metrics);
  g_free (section->action_name);
  g_free (section);
}

static void
unavailable_free (gpointer data)
{
  MgUnavailableGroup *group = data;

  g_free (group->id);
  g_free (group->title);
  g_free (group->reason);
  g_free (group);
}

char *
mg_metric_visibility_action_name (const char *prefix, const char *id)
{
  GString *name = g_string_new (prefix);

  g_string_append_c (name, '.');
  for (const char *p = id; *p != '\0'; p++)
    {
      if (g_ascii_isalnum (*p) || *p == '.')
        g_string_append_c (name, *p);
      else
        g_string_append_printf (name, "-%02X", (guint) (guchar) *p);
    }
  return g_string_free (name, FALSE);
}

static gboolean
is_time_metric (MgProfile *profile, int metric)
{
  return metric >= 0 && mg_profile_get_series (profile, (guint) metric) != NULL;
}

/* Whether any process had a value of the metric in any window: a metric
 * whose plugin failed everywhere has a series of gaps only. */
static gboolean
has_values (MgProfile *profile, int metric)
{
  const MgSeries *series = metric >= 0 ? mg_profile_get_series (profile, (guint) metric) : NULL;
  guint n = mg_profile_get_n_windows (profile);

  for (guint w = 0; series != NULL && w < n; w++)
    if (!isnan (series->means[w]))
      return TRUE;
  return FALSE;
}

/* The message of the first error that explains why a metric has no values:
 * one naming the metric itself, else one of the plugin (source) behind it. */
static const char *
error_for_metric (MgProfile *profile, const char *id)
{
  int metric = mg_profile_find_metric (profile, id);
  const char *source = metric >= 0 ? mg_profile_get_metric (profile, (guint) metric)->source_ref : NULL;

  for (guint e = 0; e < mg_profile_get_n_metric_errors (profile); e++)
    {
      const MgMetricError *error = mg_profile_get_metric_error (profile, e);

      if (g_strcmp0 (error->metric_id, id) == 0 && error->message != NULL)
        return error->message;
    }
  for (guint e = 0; source != NULL && e < mg_profile_get_n_plugin_errors (profile); e++)
    {
      const MgPluginError *error = mg_profile_get_plugin_error (profile, e);

      if (g_strcmp0 (error->source_id, source) == 0 && error->message != NULL)
        return error->message;
    }
  return NULL;
}

/* Why a group has no graphs: an error naming one of its metrics or their
 * plugin says it best; else its metrics had no values, were single values
 * or were not recorded at all. */
static char *
unavailable_reason (MgProfile *profile, const MgMetricGroup *group)
{
  gboolean any_single = FALSE, any_series = FALSE;

  for (guint r = 0; r < group->metric_refs->len; r++)
    {
      const char *ref = g_ptr_array_index (group->metric_refs, r);
      const char *message = error_for_metric (profile, ref);
      int metric = mg_profile_find_metric (profile, ref);

      if (message != NULL)
        return g_strdup (message);
      if (is_time_metric (profile, metric))
        any_series = TRUE;
      else if (metric >= 0)
        any_single = TRUE;
    }
  if (any_series)
    return g_strdup (_("no process recorded a value"));
  if (any_single)
    return g_strdup (_("only single values, shown in the run details"));
  return g_strdup (_("not recorded in this run"));
}

static void
build_sections (MgMetricVisibility *self)
{
  MgProfile *profile = self->profile;
  guint n_metrics = mg_profile_get_n_metrics (profile);
  g_autofree gboolean *grouped = g_new0 (gboolean, n_metrics);
  MgMetricSection *other;

  for (guint g = 0; g < mg_profile_get_n_groups (profile); g++)
    {
      const MgMetricGroup *group = mg_profile_get_group (profile, g);
      MgMetricSection *section = g_new0 (MgMetricSection, 1);

      section->metrics = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint r = 0; r < group->metric_refs->len; r++)
        {
          int metric = mg_profile_find_metric (profile, g_ptr_array_index (group->metric_refs, r));
          gboolean seen = FALSE;

          if (metric < 0)
            continue;
          grouped[metric] = TRUE;
          if (!is_time_metric (profile, metric))
            continue;
          for (guint i = 0; i < section->metrics->len; i++)
            seen |= g_array_index (section->metrics, guint, i) == (guint) metric;
          if (!seen)
            g_array_append_val (section->metrics, metric);
        }

      /* A group whose metrics all have no value (their plugin failed
       * everywhere) is unavailable, not a set of empty graphs. */
      gboolean any_values = FALSE;

      for (guint i = 0; i < section->metrics->len && !any_values; i++)
        any_values = has_values (profile, (int) g_array_index (section->metrics, guint, i));
      if (!any_values)
        {
          MgUnavailableGroup *unavailable = g_new0 (MgUnavailableGroup, 1);

          unavailable->id = g_strdup (group->id);
          unavailable->title = g_strdup (group->display_name ? group->display_name : group->id);
          unavailable->reason = unavailable_reason (profile, group);
          g_ptr_array_add (self->unavailable, unavailable);
          section_free (section);
          continue;
        }

      section->id = g_strdup (group->id);
      section->title = g_strdup (group->display_name ? group->display_name : group->id);
      section->description = g_strdup (group->description);
      section->action_name = mg_metric_visibility_action_name ("show-group", group->id);
      /* MAP's Default group comes first, as its preset does. */
      if (self->default_section < 0 && g_strcmp0 (section->title, "Default") == 0)
        {
          g_ptr_array_insert (self->sections, 0, section);
          self->default_section = 0;
        }
      else
        g_ptr_array_add (self->sections, section);
    }

  other = g_new0 (MgMetricSection, 1);
  other->metrics = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint m = 0; m < n_metrics; m++)
    if (!grouped[m] && is_time_metric (profile, (int) m))
      g_array_append_val (other->metrics, m);
  if (other->metrics->len > 0)
    {
      other->title = g_strdup (_("Other metrics"));
      other->description = g_strdup (_("Metrics that belong to no metric group"));
      other->action_name = g_strdup (OTHER_ACTION);
      g_ptr_array_add (self->sections, other);
    }
  else
    section_free (other);
}

/* The choice is remembered per kind of run (MPI or not): the key for this
 * one. The names are few and fixed, so they are interned. */
static const char *
key (MgMetricVisibility *self, const char *name)
{
  g_autofree char *full = g_strconcat (self->key_prefix, name, NULL);

  return g_intern_string (full);
}

static void
save_settings (MgMetricVisibility *self)
{
  g_autoptr (GPtrArray) hidden_groups = g_ptr_array_new ();
  g_autoptr (GPtrArray) hidden_metrics = g_ptr_array_new ();

  if (self->settings == NULL)
    return;
  for (guint s = 0; s < self->sections->len; s++)
    {
      const MgMetricSection *section = g_ptr_array_index (self->sections, s);

      if (!self->section_shown[s] && section->id != NULL)
        g_ptr_array_add (hidden_groups, section->id);
    }
  g_ptr_array_add (hidden_groups, NULL);
  for (guint m = 0; m < mg_profile_get_n_metrics (self->profile); m++)
    if (!self->metric_shown[m] && is_time_metric (self->profile, (int) m))
      g_ptr_array_add (hidden_metrics, mg_profile_get_metric (self->profile, m)->id);
  g_ptr_array_add (hidden_metrics, NULL);

  g_settings_delay (self->settings);
  g_settings_set_string (self->settings, key (self, "preset"), self->preset);
  g_settings_set_strv (self->settings, key (self, "hidden-groups"),
                       (const char *const *) hidden_groups->pdata);
  g_settings_set_strv (self->settings, key (self, "hidden-metrics"),
                       (const char *const *) hidden_metrics->pdata);
  g_settings_apply (self->settings);
}

static int
find_section (MgMetricVisibility *self, const char *group_id)
{
  for (guint s = 0; s < self->sections->len; s++)
    {
      const MgMetricSection *section = g_ptr_array_index (self->sections, s);

      if (g_strcmp0 (section->id, group_id) == 0)
        return (int) s;
    }
  return -1;
}

/* Mirrors the shown flags into the actions' states (when added) and tells
 * the window. */
static void
sync_actions (MgMetricVisibility *self)
{
  if (self->map != NULL)
    {
      GAction *preset = g_action_map_lookup_action (self->map, "preset");
      GAction *undo = g_action_map_lookup_action (self->map, "undo-hide");

      g_simple_action_set_state (G_SIMPLE_ACTION (preset), g_variant_new_string (self->preset));
      g_simple_action_set_enabled (G_SIMPLE_ACTION (undo), self->undo_stack->len > 0);
      for (guint s = 0; s < self->sections->len; s++)
        {
          const MgMetricSection *section = g_ptr_array_index (self->sections, s);
          GAction *action = g_action_map_lookup_action (self->map, section->action_name);

          g_simple_action_set_state (G_SIMPLE_ACTION (action),
                                     g_variant_new_boolean (self->section_shown[s]));
        }
      for (guint m = 0; m < mg_profile_get_n_metrics (self->profile); m++)
        {
          g_autofree char *name = NULL;
          GAction *action;

          if (!is_time_metric (self->profile, (int) m))
            continue;
          name = mg_metric_visibility_action_name ("show-metric",
                                                   mg_profile_get_metric (self->profile, m)->id);
          action = g_action_map_lookup_action (self->map, name);
          g_simple_action_set_state (G_SIMPLE_ACTION (action),
                                     g_variant_new_boolean (self->metric_shown[m]));
        }
    }
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
set_all (MgMetricVisibility *self, gboolean shown)
{
  for (guint s = 0; s < self->sections->len; s++)
    self->section_shown[s] = shown;
  for (guint m = 0; m < mg_profile_get_n_metrics (self->profile); m++)
    self->metric_shown[m] = shown;
}

/* A section of MPI metrics only (the MPI group). */
static gboolean
is_mpi_section (MgMetricVisibility *self, const MgMetricSection *section)
{
  for (guint i = 0; i < section->metrics->len; i++)
    if (mg_profile_get_metric (self->profile, g_array_index (section->metrics, guint, i))->type
        != MG_METRIC_TYPE_MPI)
      return FALSE;
  return section->id != NULL && section->metrics->len > 0;
}

/* A Score-P plugin's group: the run chose that plugin by name. */
static gboolean
is_scorep_section (const MgMetricSection *section)
{
  return section->id != NULL && g_str_has_prefix (section->id, MG_SCOREP_ID_PREFIX)
         && section->metrics->len > 0;
}

static void
show_section (MgMetricVisibility *self, guint s)
{
  const MgMetricSection *section = g_ptr_array_index (self->sections, s);

  self->section_shown[s] = TRUE;
  for (guint i = 0; i < section->metrics->len; i++)
    self->metric_shown[g_array_index (section->metrics, guint, i)] = TRUE;
}

/* An activity group of scope (or a group of its metrics alone). */
static gboolean
is_activity_section (MgMetricVisibility *self, const MgMetricSection *section,
                     MgActivityScope scope)
{
  for (guint i = 0; i < section->metrics->len; i++)
    if (!mg_activity_is_metric (self->profile, g_array_index (section->metrics, guint, i), scope))
      return FALSE;
  return section->metrics->len > 0;
}

/* What a profile opens with, from its content: the Default group, in
 * an MPI run the MPI groups (as MAP's default view of an MPI program), and
 * the groups of the Score-P plugins the run hosted, with, in an MPI or
 * multi-threaded run, the main thread's activity (drawn first,
 * mg-metric-rows.c), and all threads' in a multi-threaded one; everything
 * when there is none of them. FALSE when none of them is here. */
static gboolean
apply_default (MgMetricVisibility *self)
{
  gboolean any = FALSE;

  set_all (self, FALSE);
  for (guint s = 0; s < self->sections->len; s++)
    if ((int) s == self->default_section
        || (self->mpi_run && is_mpi_section (self, g_ptr_array_index (self->sections, s)))
        || is_scorep_section (g_ptr_array_index (self->sections, s)))
      {
        show_section (self, s);
        any = TRUE;
      }
  /* Beside those (alone they would hide the rest of a profile that has no
   * Default group, where everything is shown): the main thread's activity
   * in an MPI or multi-threaded run, and all threads' against it in a
   * multi-threaded one (the record has no series per thread). */
  if (any)
    {
      gboolean threads = mg_activity_profile_is_multithreaded (self->profile);

      for (guint s = 0; s < self->sections->len; s++)
        {
          const MgMetricSection *section = g_ptr_array_index (self->sections, s);

          if (((self->mpi_run || threads)
               && is_activity_section (self, section, MG_ACTIVITY_MAIN_THREAD))
              || (threads && is_activity_section (self, section, MG_ACTIVITY_ALL_THREADS)))
            show_section (self, s);
        }
    }
  return any;
}

/* "all", "group:<id>", or "default" (apply_default, else all). Returns
 * FALSE for a group this profile lacks. */
static gboolean
apply_preset (MgMetricVisibility *self, const char *preset)
{
  int section = -1;
  const MgMetricSection *chosen;

  if (g_str_equal (preset, "default") && apply_default (self))
    {
      g_free (self->preset);
      self->preset = g_strdup ("default");
      return TRUE;
    }
  if (g_str_has_prefix (preset, "group:"))
    {
      section = find_section (self, preset + strlen ("group:"));
      if (section < 0)
        return FALSE;
    }
  else if (!g_str_equal (preset, "all") && !g_str_equal (preset, "default"))
    return FALSE;

  if (section < 0)
    {
      set_all (self, TRUE);
      g_free (self->preset);
      self->preset = g_strdup ("all");
      return TRUE;
    }

  set_all (self, FALSE);
  show_section (self, (guint) section);
  chosen = g_ptr_array_index (self->sections, section);
  g_free (self->preset);
  self->preset = g_strconcat ("group:", chosen->id, NULL);
  return TRUE;
}

static void
apply_settings (MgMetricVisibility *self)
{
  g_autofree char *preset = NULL;
  g_auto (GStrv) hidden_groups = NULL;
  g_auto (GStrv) hidden_metrics = NULL;

  if (self->settings == NULL)
    {
      apply_preset (self, "default");
      return;
    }
  preset = g_settings_get_string (self->settings, key (self, "preset"));
  /* A preset this profile lacks falls back to the default one. */
  if (preset[0] != '\0')
    {
      if (!apply_preset (self, preset))
        apply_preset (self, "default");
      return;
    }
  /* Chosen metric by metric: everything but what was hidden. */
  set_all (self, TRUE);
  g_free (self->preset);
  self->preset = g_strdup ("");
  hidden_groups = g_settings_get_strv (self->settings, key (self, "hidden-groups"));
  hidden_metrics = g_settings_get_strv (self->settings, key (self, "hidden-metrics"));
  for (guint i = 0; hidden_groups[i] != NULL; i++)
    {
      int section = find_section (self, hidden_groups[i]);

      if (section >= 0)
        self->section_shown[section] = FALSE;
    }
  for (guint i = 0; hidden_metrics[i] != NULL; i++)
    {
      int metric = mg_profile_find_metric (self->profile, hidden_metrics[i]);

      if (metric >= 0)
        self->metric_shown[metric] = FALSE;
    }
}

static void
changed_by_hand (MgMetricVisibility *self)
{
  g_free (self->preset);
  self->preset = g_strdup ("");
  save_settings (self);
  sync_actions (self);
}

gboolean
mg_metric_visibility_set_preset (MgMetricVisibility *self, const char *preset)
{
  if (!apply_preset (self, preset))
    return FALSE;
  g_array_set_size (self->undo_stack, 0);
  save_settings (self);
  sync_actions (self);
  return TRUE;
}

static void
on_preset (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  mg_metric_visibility_set_preset (user_data, g_variant_get_string (parameter, NULL));
}

static void
on_show_section (GSimpleAction *action, GVariant *value, gpointer user_data)
{
  MgMetricVisibility *self = user_data;
  const char *name = g_action_get_name (G_ACTION (action));

  for (guint s = 0; s < self->sections->len; s++)
    {
      const MgMetricSection *section = g_ptr_array_index (self->sections, s);

      if (g_str_equal (section->action_name, name))
        self->section_shown[s] = g_variant_get_boolean (value);
    }
  changed_by_hand (self);
}

static int
metric_of_action (MgMetricVisibility *self, const char *name)
{
  for (guint m = 0; m < mg_profile_get_n_metrics (self->profile); m++)
    {
      g_autofree char *candidate =
        mg_metric_visibility_action_name ("show-metric", mg_profile_get_metric (self->profile, m)->id);

      if (g_str_equal (candidate, name))
        return (int) m;
    }
  return -1;
}

static void
on_show_metric (GSimpleAction *action, GVariant *value, gpointer user_data)
{
  MgMetricVisibility *self = user_data;
  int metric = metric_of_action (self, g_action_get_name (G_ACTION (action)));

  if (metric < 0)
    return;
  self->metric_shown[metric] = g_variant_get_boolean (value);
  changed_by_hand (self);
}

static void
on_hide_metric (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  MgMetricVisibility *self = user_data;
  int metric = mg_profile_find_metric (self->profile, g_variant_get_string (parameter, NULL));
  guint index;

  if (metric < 0 || !self->metric_shown[metric])
    return;
  index = (guint) metric;
  self->metric_shown[metric] = FALSE;
  g_array_append_val (self->undo_stack, index);
  changed_by_hand (self);
}

static void
on_undo_hide (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  MgMetricVisibility *self = user_data;
  guint metric;

  if (self->undo_stack->len == 0)
    return;
  metric = g_array_index (self->undo_stack, guint, self->undo_stack->len - 1);
  g_array_set_size (self->undo_stack, self->undo_stack->len - 1);
  self->metric_shown[metric] = TRUE;
  changed_by_hand (self);
}

static void
add_action (GActionMap *map, GSimpleAction *action)
{
  g_action_map_add_action (map, G_ACTION (action));
  g_object_unref (action);
}

void
mg_metric_visibility_add_actions (MgMetricVisibility *self, GActionMap *map)
{
  GSimpleAction *action;

  g_return_if_fail (self->map == NULL);
  self->map = map;

  action = g_simple_action_new_stateful ("preset", G_VARIANT_TYPE_STRING,
                                         g_variant_new_string (self->preset));
  g_signal_connect_object (action, "activate", G_CALLBACK (on_preset), self, 0);
  add_action (map, action);

  action = g_simple_action_new ("hide-metric", G_VARIANT_TYPE_STRING);
  g_signal_connect_object (action, "activate", G_CALLBACK (on_hide_metric), self, 0);
  add_action (map, action);

  action = g_simple_action_new ("undo-hide", NULL);
  g_signal_connect_object (action, "activate", G_CALLBACK (on_undo_hide), self, 0);
  add_action (map, action);

  for (guint s = 0; s < self->sections->len; s++)
    {
      const MgMetricSection *section = g_ptr_array_index (self->sections, s);

      action = g_simple_action_new_stateful (section->action_name, NULL,
                                             g_variant_new_boolean (self->section_shown[s]));
      g_signal_connect_object (action, "change-state", G_CALLBACK (on_show_section), self, 0);
      add_action (map, action);
    }
  for (guint m = 0; m < mg_profile_get_n_metrics (self->profile); m++)
    {
      g_autofree char *name = NULL;

      if (!is_time_metric (self->profile, (int) m))
        continue;
      name = mg_metric_visibility_action_name ("show-metric",
                                               mg_profile_get_metric (self->profile, m)->id);
      action = g_simple_action_new_stateful (name, NULL,
                                             g_variant_new_boolean (self->metric_shown[m]));
      g_signal_connect_object (action, "change-state", G_CALLBACK (on_show_metric), self, 0);
      add_action (map, action);
    }
  sync_actions (self);
}

void
mg_metric_visibility_remove_actions (MgMetricVisibility *self, GActionMap *map)
{
  g_return_if_fail (self->map == map);

  g_action_map_remove_action (map, "preset");
  g_action_map_remove_action (map, "hide-metric");
  g_action_map_remove_action (map, "undo-hide");
  for (guint s = 0; s < self->sections->len; s++)
    g_action_map_remove_action (map, ((MgMetricSection *) g_ptr_array_index (self->sections, s))->action_name);
  for (guint m = 0; m < mg_profile_get_n_metrics (self->profile); m++)
    {
      g_autofree char *name =
        mg_metric_visibility_action_name ("show-metric", mg_profile_get_metric (self->profile, m)->id);

      g_action_map_remove_action (map, name);
    }
  self->map = NULL;
}

static void
mg_metric_visibility_finalize (GObject *object)
{
  MgMetricVisibility *self = MG_METRIC_VISIBILITY (object);

  g_clear_object (&self->profile);
  g_clear_object (&self->settings);
  g_ptr_array_unref (self->sections);
  g_ptr_array_unref (self->unavailable);
  g_free (self->section_shown);
  g_free (self->metric_shown);
  g_free (self->preset);
  g_array_unref (self->undo_stack);
  G_OBJECT_CLASS (mg_metric_visibility_parent_class)->finalize (object);
}

static void
mg_metric_visibility_class_init (MgMetricVisibilityClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mg_metric_visibility_finalize;
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 0);
}

static void
mg_metric_visibility_init (MgMetricVisibility *self)
{
  self->sections = g_ptr_array_new_with_free_func (section_free);
  self->unavailable = g_ptr_array_new_with_free_func (unavailable_free);
  self->default_section = -1;
  self->preset = g_strdup ("");
  self->undo_stack = g_array_new (FALSE, FALSE, sizeof (guint));
}

MgMetricVisibility *
mg_metric_visibility_new (MgProfile *profile, GSettings *settings)
{
  MgMetricVisibility *self = g_object_new (MG_TYPE_METRIC_VISIBILITY, NULL);

  self->profile = g_object_ref (profile);
  self->settings = settings != NULL ? g_object_ref (settings) : NULL;
  for (guint p = 0; p < mg_profile_get_n_processes (profile) && !self->mpi_run; p++)
    self->mpi_run = mg_profile_get_process (profile, p)->rank >= 0;
  self->key_prefix = self->mpi_run ? "mpi-" : "";
  build_sections (self);
  self->section_shown = g_new0 (gboolean, MAX (self->sections->len, 1));
  self->metric_shown = g_new0 (gboolean, MAX (mg_profile_get_n_metrics (profile), 1));
  apply_settings (self);
  return self;
}

MgProfile *
mg_metric_visibility_get_profile (MgMetricVisibility *self)
{
  return self->profile;
}

guint
mg_metric_visibility_get_n_sections (MgMetricVisibility *self)
{
  return self->sections->len;
}

const MgMetricSection *
mg_metric_visibility_get_section (MgMetricVisibility *self, guint i)
{
  g_return_val_if_fail (i < self->sections->len, NULL);
  return g_ptr_array_index (self->sections, i);
}

int
mg_metric_visibility_get_default_section (MgMetricVisibility *self)
{
  return self->default_section;
}

guint
mg_metric_visibility_get_n_unavailable (MgMetricVisibility *self)
{
  return self->unavailable->len;
}

const MgUnavailableGroup *
mg_metric_visibility_get_unavailable (MgMetricVisibility *self, guint i)
{
  g_return_val_if_fail (i < self->unavailable->len, NULL);
  return g_ptr_array_index (self->unavailable, i);
}

gboolean
mg_metric_visibility_get_section_shown (MgMetricVisibility *self, guint section)
{
  g_return_val_if_fail (section < self->sections->len, FALSE);
  return self->section_shown[section];
}

gboolean
mg_metric_visibility_get_metric_shown (MgMetricVisibility *self, guint metric)
{
  g_return_val_if_fail (metric < mg_profile_get_n_metrics (self->profile), FALSE);
  return self->metric_shown[metric];
}

gboolean
mg_metric_visibility_is_row_visible (MgMetricVisibility *self, guint section, guint metric)
{
  return mg_metric_visibility_get_section_shown (self, section) &&
         mg_metric_visibility_get_metric_shown (self, metric);
}

gboolean
mg_metric_visibility_is_mpi_run (MgMetricVisibility *self)
{
  return self->mpi_run;
}

const char *
mg_metric_visibility_get_preset (MgMetricVisibility *self)
{
  return self->preset;
}

char **
mg_metric_visibility_dup_visible_ids (MgMetricVisibility *self)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  guint n_metrics = mg_profile_get_n_metrics (self->profile);
  g_autofree gboolean *listed = g_new0 (gboolean, MAX (n_metrics, 1));

  for (guint s = 0; s < self->sections->len; s++)
    {
      const MgMetricSection *section = g_ptr_array_index (self->sections, s);

      for (guint i = 0; i < section->metrics->len; i++)
        {
          guint metric = g_array_index (section->metrics, guint, i);

          if (listed[metric] || !mg_metric_visibility_is_row_visible (self, s, metric))
            continue;
          listed[metric] = TRUE;
          g_strv_builder_add (builder, mg_profile_get_metric (self->profile, metric)->id);
        }
    }
  return g_strv_builder_end (builder);
}
