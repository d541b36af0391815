/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-settings.h"

#include <glib/gi18n.h>
#include <string.h>

#include "format/mg-plan-keywords.h"

struct _MgRunSettings
{
  GObject parent_instance;

  char *program;
  char *arguments;
  char *working_folder;
  GStrv env_set;
  GStrv env_unset;
  guint n_processes;
  guint interval_ms;
  guint max_samples;
  double start_after;
  double stop_after;
  GStrv enable_metrics;
  GStrv disable_metrics;
  GStrv scorep_plugins;
  GStrv scorep_metrics;
  GStrv metrics_path;
  char *output;
  char *report;
  char *select_ranks;
  MgProcessPrecision process_precision;
  gboolean no_stacks;
};

G_DEFINE_FINAL_TYPE (MgRunSettings, mg_run_settings, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PROGRAM,
  PROP_ARGUMENTS,
  PROP_WORKING_FOLDER,
  PROP_ENV_SET,
  PROP_ENV_UNSET,
  PROP_N_PROCESSES,
  PROP_INTERVAL_MS,
  PROP_MAX_SAMPLES,
  PROP_START_AFTER,
  PROP_STOP_AFTER,
  PROP_ENABLE_METRICS,
  PROP_DISABLE_METRICS,
  PROP_SCOREP_PLUGINS,
  PROP_SCOREP_METRICS,
  PROP_METRICS_PATH,
  PROP_OUTPUT,
  PROP_SELECT_RANKS,
  PROP_REPORT,
  PROP_PROCESS_PRECISION,
  PROP_NO_STACKS,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

/* Empty strings mean "not set": kept as NULL so that equality is simple. */
static gboolean
replace_string (char **field, const char *value)
{
  if (value != NULL && *value == '\0')
    value = NULL;
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (value);
  return TRUE;
}

static gboolean
strv_equal0 (const char *const *a, const char *const *b)
{
  static const char *const empty[] = { NULL };

  return g_strv_equal (a != NULL ? a : empty, b != NULL ? b : empty);
}

static gboolean
replace_strv (GStrv *field, const char *const *value)
{
  if (strv_equal0 ((const char *const *) *field, value))
    return FALSE;
  g_strfreev (*field);
  *field = value != NULL ? g_strdupv ((char **) value) : g_new0 (char *, 1);
  return TRUE;
}

static void
mg_run_settings_finalize (GObject *object)
{
  MgRunSettings *self = MG_RUN_SETTINGS (object);

  g_free (self->program);
  g_free (self->arguments);
  g_free (self->working_folder);
  g_strfreev (self->env_set);
  g_strfreev (self->env_unset);
  g_strfreev (self->enable_metrics);
  g_strfreev (self->disable_metrics);
  g_strfreev (self->scorep_plugins);
  g_strfreev (self->scorep_metrics);
  g_strfreev (self->metrics_path);
  g_free (self->output);
  g_free (self->report);
  g_free (self->select_ranks);
  G_OBJECT_CLASS (mg_run_settings_parent_class)->finalize (object);
}

static void
mg_run_settings_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  MgRunSettings *self = MG_RUN_SETTINGS (object);

  switch (prop_id)
    {
    case PROP_PROGRAM: g_value_set_string (value, self->program); break;
    case PROP_ARGUMENTS: g_value_set_string (value, self->arguments); break;
    case PROP_WORKING_FOLDER: g_value_set_string (value, self->working_folder); break;
    case PROP_ENV_SET: g_value_set_boxed (value, self->env_set); break;
    case PROP_ENV_UNSET: g_value_set_boxed (value, self->env_unset); break;
    case PROP_N_PROCESSES: g_value_set_uint (value, self->n_processes); break;
    case PROP_INTERVAL_MS: g_value_set_uint (value, self->interval_ms); break;
    case PROP_MAX_SAMPLES: g_value_set_uint (value, self->max_samples); break;
    case PROP_START_AFTER: g_value_set_double (value, self->start_after); break;
    case PROP_STOP_AFTER: g_value_set_double (value, self->stop_after); break;
    case PROP_ENABLE_METRICS: g_value_set_boxed (value, self->enable_metrics); break;
    case PROP_DISABLE_METRICS: g_value_set_boxed (value, self->disable_metrics); break;
    case PROP_SCOREP_PLUGINS: g_value_set_boxed (value, self->scorep_plugins); break;
    case PROP_SCOREP_METRICS: g_value_set_boxed (value, self->scorep_metrics); break;
    case PROP_METRICS_PATH: g_value_set_boxed (value, self->metrics_path); break;
    case PROP_OUTPUT: g_value_set_string (value, self->output); break;
    case PROP_SELECT_RANKS: g_value_set_string (value, self->select_ranks); break;
    case PROP_REPORT: g_value_set_string (value, self->report); break;
    case PROP_PROCESS_PRECISION: g_value_set_uint (value, self->process_precision); break;
    case PROP_NO_STACKS: g_value_set_boolean (value, self->no_stacks); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_run_settings_set_property (GObject *object, guint prop_id, const GValue *value,
                              GParamSpec *pspec)
{
  MgRunSettings *self = MG_RUN_SETTINGS (object);

  switch (prop_id)
    {
    case PROP_PROGRAM: mg_run_settings_set_program (self, g_value_get_string (value)); break;
    case PROP_ARGUMENTS: mg_run_settings_set_arguments (self, g_value_get_string (value)); break;
    case PROP_WORKING_FOLDER: mg_run_settings_set_working_folder (self, g_value_get_string (value)); break;
    case PROP_ENV_SET: mg_run_settings_set_env_set (self, g_value_get_boxed (value)); break;
    case PROP_ENV_UNSET: mg_run_settings_set_env_unset (self, g_value_get_boxed (value)); break;
    case PROP_N_PROCESSES: mg_run_settings_set_n_processes (self, g_value_get_uint (value)); break;
    case PROP_INTERVAL_MS: mg_run_settings_set_interval_ms (self, g_value_get_uint (value)); break;
    case PROP_MAX_SAMPLES: mg_run_settings_set_max_samples (self, g_value_get_uint (value)); break;
    case PROP_START_AFTER: mg_run_settings_set_start_after (self, g_value_get_double (value)); break;
    case PROP_STOP_AFTER: mg_run_settings_set_stop_after (self, g_value_get_double (value)); break;
    case PROP_ENABLE_METRICS: mg_run_settings_set_enable_metrics (self, g_value_get_boxed (value)); break;
    case PROP_DISABLE_METRICS: mg_run_settings_set_disable_metrics (self, g_value_get_boxed (value)); break;
    case PROP_SCOREP_PLUGINS: mg_run_settings_set_scorep_plugins (self, g_value_get_boxed (value)); break;
    case PROP_SCOREP_METRICS: mg_run_settings_set_scorep_metrics (self, g_value_get_boxed (value)); break;
    case PROP_METRICS_PATH: mg_run_settings_set_metrics_path (self, g_value_get_boxed (value)); break;
    case PROP_OUTPUT: mg_run_settings_set_output (self, g_value_get_string (value)); break;
    case PROP_SELECT_RANKS: mg_run_settings_set_select_ranks (self, g_value_get_string (value)); break;
    case PROP_REPORT: mg_run_settings_set_report (self, g_value_get_string (value)); break;
    case PROP_PROCESS_PRECISION: mg_run_settings_set_process_precision (self, g_value_get_uint (value)); break;
    case PROP_NO_STACKS: mg_run_settings_set_no_stacks (self, g_value_get_boolean (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static GParamSpec *
string_prop (const char *name)
{
  return g_param_spec_string (name, NULL, NULL, NULL,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
}

static GParamSpec *
strv_prop (const char *name)
{
  return g_param_spec_boxed (name, NULL, NULL, G_TYPE_STRV,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
}

static GParamSpec *
uint_prop (const char *name)
{
  return g_param_spec_uint (name, NULL, NULL, 0, G_MAXINT, 0,
                            G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
}

static GParamSpec *
seconds_prop (const char *name)
{
  return g_param_spec_double (name, NULL, NULL, 0, G_MAXDOUBLE, 0,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
}

static void
mg_run_settings_class_init (MgRunSettingsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mg_run_settings_finalize;
  object_class->get_property = mg_run_settings_get_property;
  object_class->set_property = mg_run_settings_set_property;

  props[PROP_PROGRAM] = string_prop ("program");
  props[PROP_ARGUMENTS] = string_prop ("arguments");
  props[PROP_WORKING_FOLDER] = string_prop ("working-folder");
  props[PROP_ENV_SET] = strv_prop ("env-set");
  props[PROP_ENV_UNSET] = strv_prop ("env-unset");
  props[PROP_N_PROCESSES] = uint_prop ("n-processes");
  props[PROP_INTERVAL_MS] = uint_prop ("interval-ms");
  props[PROP_MAX_SAMPLES] = uint_prop ("max-samples");
  props[PROP_START_AFTER] = seconds_prop ("start-after");
  props[PROP_STOP_AFTER] = seconds_prop ("stop-after");
  props[PROP_ENABLE_METRICS] = strv_prop ("enable-metrics");
  props[PROP_DISABLE_METRICS] = strv_prop ("disable-metrics");
  props[PROP_SCOREP_PLUGINS] = strv_prop ("scorep-plugins");
  props[PROP_SCOREP_METRICS] = strv_prop ("scorep-metrics");
  props[PROP_METRICS_PATH] = strv_prop ("metrics-path");
  props[PROP_OUTPUT] = string_prop ("output");
  props[PROP_SELECT_RANKS] = string_prop ("select-ranks");
  props[PROP_REPORT] = string_prop ("report");
  props[PROP_PROCESS_PRECISION] = g_param_spec_uint ("process-precision", NULL, NULL, 0,
                                                     MG_PROCESS_PRECISION_LAST,
                                                     MG_PROCESS_PRECISION_DEFAULT,
                                                     G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                     | G_PARAM_STATIC_STRINGS);
  props[PROP_NO_STACKS] = g_param_spec_boolean ("no-stacks", NULL, NULL, FALSE,
                                                G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
mg_run_settings_init (MgRunSettings *self)
{
  self->env_set = g_new0 (char *, 1);
  self->env_unset = g_new0 (char *, 1);
  self->enable_metrics = g_new0 (char *, 1);
  self->disable_metrics = g_new0 (char *, 1);
  self->scorep_plugins = g_new0 (char *, 1);
  self->scorep_metrics = g_new0 (char *, 1);
  self->metrics_path = g_new0 (char *, 1);
}

MgRunSettings *
mg_run_settings_new (void)
{
  return g_object_new (MG_TYPE_RUN_SETTINGS, NULL);
}

void
mg_run_settings_assign (MgRunSettings *self, MgRunSettings *other)
{
  g_object_freeze_notify (G_OBJECT (self));
  for (guint i = 1; i < N_PROPS; i++)
    {
      g_auto (GValue) value = G_VALUE_INIT;

      g_object_get_property (G_OBJECT (other), props[i]->name, &value);
      g_object_set_property (G_OBJECT (self), props[i]->name, &value);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

MgRunSettings *
mg_run_settings_copy (MgRunSettings *self)
{
  MgRunSettings *copy = mg_run_settings_new ();

  mg_run_settings_assign (copy, self);
  return copy;
}

gboolean
mg_run_settings_equal (MgRunSettings *a, MgRunSettings *b)
{
  return g_strcmp0 (a->program, b->program) == 0
         && g_strcmp0 (a->arguments, b->arguments) == 0
         && g_strcmp0 (a->working_folder, b->working_folder) == 0
         && strv_equal0 ((const char *const *) a->env_set, (const char *const *) b->env_set)
         && strv_equal0 ((const char *const *) a->env_unset, (const char *const *) b->env_unset)
         && a->n_processes == b->n_processes && a->interval_ms == b->interval_ms
         && a->max_samples == b->max_samples && a->start_after == b->start_after
         && a->stop_after == b->stop_after
         && strv_equal0 ((const char *const *) a->enable_metrics, (const char *const *) b->enable_metrics)
         && strv_equal0 ((const char *const *) a->disable_metrics, (const char *const *) b->disable_metrics)
         && strv_equal0 ((const char *const *) a->scorep_plugins, (const char *const *) b->scorep_plugins)
         && strv_equal0 ((const char *const *) a->scorep_metrics, (const char *const *) b->scorep_metrics)
         && strv_equal0 ((const char *const *) a->metrics_path, (const char *const *) b->metrics_path)
         && g_strcmp0 (a->output, b->output) == 0
         && g_strcmp0 (a->select_ranks, b->select_ranks) == 0
         && g_strcmp0 (a->report, b->report) == 0
         && a->process_precision == b->process_precision && a->no_stacks == b->no_stacks;
}

#define STRING_ACCESSORS(field, PROP)                                              \
  const char *mg_run_settings_get_##field (MgRunSettings *self)                    \
  {                                                                                \
    return self->field;                                                            \
  }                                                                                \
  void mg_run_settings_set_##field (MgRunSettings *self, const char *value)        \
  {                                                                                \
    if (replace_string (&self->field, value))                                      \
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP]);                     \
  }

#define STRV_ACCESSORS(field, PROP)                                                \
  const char *const *mg_run_settings_get_##field (MgRunSettings *self)             \
  {                                                                                \
    return (const char *const *) self->field;                                      \
  }                                                                                \
  void mg_run_settings_set_##field (MgRunSettings *self, const char *const *value) \
  {                                                                                \
    if (replace_strv (&self->field, value))                                        \
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP]);                     \
  }

#define NUMBER_ACCESSORS(type, field, PROP)                                        \
  type mg_run_settings_get_##field (MgRunSettings *self)                           \
  {                                                                                \
    return self->field;                                                            \
  }                                                                                \
  void mg_run_settings_set_##field (MgRunSettings *self, type value)               \
  {                                                                                \
    if (self->field != value)                                                      \
      {                                                                            \
        self->field = value;                                                       \
        g_object_notify_by_pspec (G_OBJECT (self), props[PROP]);                   \
      }                                                                            \
  }

STRING_ACCESSORS (program, PROP_PROGRAM)
STRING_ACCESSORS (arguments, PROP_ARGUMENTS)
STRING_ACCESSORS (working_folder, PROP_WORKING_FOLDER)
STRING_ACCESSORS (output, PROP_OUTPUT)
STRING_ACCESSORS (select_ranks, PROP_SELECT_RANKS)

const char *
mg_run_settings_get_report (MgRunSettings *self)
{
  return self->report;
}

/* Unlike the other strings, "" is a value of its own here: the reports
 * beside the profile. */
void
mg_run_settings_set_report (MgRunSettings *self, const char *report)
{
  if (g_strcmp0 (self->report, report) == 0)
    return;
  g_free (self->report);
  self->report = g_strdup (report);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_REPORT]);
}

STRV_ACCESSORS (env_set, PROP_ENV_SET)
STRV_ACCESSORS (env_unset, PROP_ENV_UNSET)
STRV_ACCESSORS (enable_metrics, PROP_ENABLE_METRICS)
STRV_ACCESSORS (disable_metrics, PROP_DISABLE_METRICS)
STRV_ACCESSORS (scorep_plugins, PROP_SCOREP_PLUGINS)
STRV_ACCESSORS (scorep_metrics, PROP_SCOREP_METRICS)
STRV_ACCESSORS (metrics_path, PROP_METRICS_PATH)
NUMBER_ACCESSORS (guint, n_processes, PROP_N_PROCESSES)
NUMBER_ACCESSORS (guint, interval_ms, PROP_INTERVAL_MS)
NUMBER_ACCESSORS (guint, max_samples, PROP_MAX_SAMPLES)
NUMBER_ACCESSORS (double, start_after, PROP_START_AFTER)
NUMBER_ACCESSORS (double, stop_after, PROP_STOP_AFTER)
NUMBER_ACCESSORS (MgProcessPrecision, process_precision, PROP_PROCESS_PRECISION)
NUMBER_ACCESSORS (gboolean, no_stacks, PROP_NO_STACKS)

GStrv
mg_run_settings_dup_argv (MgRunSettings *self, GError **error)
{
  g_autofree char *stripped = g_strstrip (g_strdup (self->arguments != NULL ? self->arguments : ""));
  GStrv argv = NULL;

  if (*stripped == '\0')
    return g_new0 (char *, 1);
  if (!g_shell_parse_argv (stripped, NULL, &argv, error))
    return NULL;
  return argv;
}

GStrv
mg_run_settings_build_environment (MgRunSettings *self, const char *const *base)
{
  GStrv env = base != NULL ? g_strdupv ((char **) base) : g_get_environ ();

  for (guint i = 0; self->env_unset[i] != NULL; i++)
    env = g_environ_unsetenv (env, self->env_unset[i]);
  for (guint i = 0; self->env_set[i] != NULL; i++)
    {
      const char *eq = strchr (self->env_set[i], '=');
      g_autofree char *name = NULL;

      if (eq == NULL || eq == self->env_set[i])
        continue;
      name = g_strndup (self->env_set[i], eq - self->env_set[i]);
      env = g_environ_setenv (env, name, eq + 1, TRUE);
    }
  return env;
}

static const char *
lookup_environ (const char *name, void *env)
{
  return g_environ_getenv (env, name);
}

/* As the sampler reads it, from the program's environment. */
static guint
sampler_default (MgRunSettings *self, MgPlanKey key)
{
  g_auto (GStrv) env = mg_run_settings_build_environment (self, NULL);

  return (guint) CLAMP (mg_plan_number_default (key, lookup_environ, env), 0, G_MAXINT);
}

guint
mg_run_settings_get_default_interval_ms (MgRunSettings *self)
{
  return sampler_default (self, MG_PLAN_KEY_INTERVAL_MS);
}

guint
mg_run_settings_get_default_max_samples (MgRunSettings *self)
{
  return sampler_default (self, MG_PLAN_KEY_SAMPLES);
}
