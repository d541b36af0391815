/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a metric definition file says: metrics, groups and sources, as plain
 * data shared by the parser, the catalogue, the profile and the viewer.
 * GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  double r, g, b, a; /* 0..1 */
} MgRgba;

typedef enum {
  MG_ENABLED_ALWAYS,
  MG_ENABLED_DEFAULT_YES, /* also the spec's "enabled", and a missing element */
  MG_ENABLED_DEFAULT_NO,
  MG_ENABLED_NEVER,
} MgEnabled;

typedef enum {
  MG_DATA_TYPE_UINT64,
  MG_DATA_TYPE_DOUBLE,
} MgDataType;

typedef enum {
  MG_DOMAIN_TIME,
  MG_DOMAIN_SINGLE_VALUE, /* one value for the run: a fact, not a graph */
} MgDomain;

typedef enum {
  MG_METRIC_TYPE_CPU_TIME,
  MG_METRIC_TYPE_ENERGY,
  MG_METRIC_TYPE_INSTRUCTIONS,
  MG_METRIC_TYPE_IO,
  MG_METRIC_TYPE_MEMORY,
  MG_METRIC_TYPE_MPI,
  MG_METRIC_TYPE_OTHER, /* and every type outside the documented list */
} MgMetricType;

typedef struct {
  char *id;
  MgEnabled enabled;
  char *units;             /* may be "" */
  MgDataType data_type;
  MgDomain domain;
  gboolean one_per_node;
  gboolean backfill;
  gboolean sparse;

  /* <source ref functionName divideBySampleTime customData/> */
  char *source_ref;
  char *function_name;
  gboolean divide_by_sample_time;
  char *custom_data;       /* NULL when absent */
  char *config_env;        /* <configFile env="…"/>, NULL when absent */

  /* <display> */
  char *display_name;
  char *description;       /* may hold HTML from CDATA */
  char *type_name;         /* as written, e.g. "interrupts" */
  MgMetricType type;
  char *colour_spec;       /* as written, NULL when absent */
  gboolean has_colour;     /* colour_spec parsed; else use the type's colour */
  MgRgba colour;
  double display_factor;   /* 1.0 unless given */
  char *display_units;     /* NULL: use units */
  int decimal_places;      /* -1 unless given */
  gboolean auto_display_factor;
  gboolean accumulate;
  gboolean normalize_percentages;
  gboolean clamp_percentages;

  char *integral_name;     /* <rel type="integral" name="…"/>, NULL when absent */

  char *file;              /* definition file it came from */
  int line;
} MgMetricDef;

typedef struct {
  char *id;
  char *display_name;
  char *description;
  GPtrArray *metric_refs;  /* char*, in file order */
  char *file;
  int line;
} MgMetricGroup;

typedef struct {
  char *id;
  char *shared_library;    /* as written */
  char *library_path;      /* resolved absolute path, NULL if not found */
  GPtrArray *preloads;     /* char*, as written */
  GPtrArray *preload_paths;/* char*, resolved absolute paths (same order) */
  char *start_function;    /* NULL when absent */
  char *stop_function;
  /* A Score-P metric plugin (app/session/mg-scorep-defs.c), else NULL. */
  char *scorep_plugin;     /* its name */
  GStrv scorep_tokens;     /* the tokens its metrics came from */
  char *scorep_error;      /* why its metrics could not be listed */
  char *file;
  int line;
} MgSourceDef;

MgMetricDef *mg_metric_def_new (void);
MgMetricDef *mg_metric_def_copy (const MgMetricDef *def);
void mg_metric_def_free (MgMetricDef *def);

MgMetricGroup *mg_metric_group_new (void);
MgMetricGroup *mg_metric_group_copy (const MgMetricGroup *group);
void mg_metric_group_free (MgMetricGroup *group);

MgSourceDef *mg_source_def_new (void);
void mg_source_def_free (MgSourceDef *source);

const char *mg_metric_type_to_string (MgMetricType type);
MgMetricType mg_metric_type_from_string (const char *name);
const char *mg_enabled_to_string (MgEnabled enabled);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgMetricDef, mg_metric_def_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgMetricGroup, mg_metric_group_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgSourceDef, mg_source_def_free)

G_END_DECLS
