/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Opening a Score-P metric plugin and checking what it declares, as Score-P
 * does (docs/scorep-plugins.md): shared by the sampler, which hosts the
 * plugins, and metrograph-scorep-probe, which lists their metrics for the
 * front end. libc only, no allocation beyond dlopen's. */
#ifndef MG_SCOREP_PLUGIN_H
#define MG_SCOREP_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <scorep/SCOREP_MetricPlugins.h>

/* get_info's answer is received into this: larger than both the version 1
 * layout (832 bytes on x86-64) and the version 0 one (888 bytes), so that
 * an old plugin cannot write past it. */
typedef struct {
  SCOREP_Metric_Plugin_Info info;
  uint64_t room[200];
} MgScorepInfo;

typedef MgScorepInfo (*MgScorepGetInfoFn) (void);

typedef struct {
  void *handle;
  MgScorepInfo got;
  char library[4096];   /* the library's absolute path once open */
} MgScorepPlugin;

/* Longest plugin name accepted (it becomes part of symbol and file names). */
enum { MG_SCOREP_NAME_MAX = 96 };

/* dlopens library (NULL: lib<name>.so on the library search path), calls
 * SCOREP_MetricPlugin_<name>_get_info and checks the answer
 * (mg_scorep_check). Returns 0, or -1 with the reason in err and nothing
 * left open. */
int mg_scorep_open (MgScorepPlugin *p, const char *name, const char *library, char *err,
                    size_t err_len);
void mg_scorep_close (MgScorepPlugin *p);

/* What Score-P refuses: an interface version newer than this header's,
 * run_per or sync out of range, a STRICTLY_SYNC plugin that is not
 * PER_THREAD, and a function the plugin's sync needs left NULL. Returns 0
 * or -1 with the reason in err. */
int mg_scorep_check (const SCOREP_Metric_Plugin_Info *info, char *err, size_t err_len);

/* True for plugins that have synchronize (version >= 1). */
bool mg_scorep_has_synchronize (const SCOREP_Metric_Plugin_Info *info);

/* A value's bits read as its type. */
double mg_scorep_value (uint64_t bits, SCOREP_MetricValueType type);
/* base^exponent (2 or 10). */
double mg_scorep_scale (SCOREP_MetricBase base, int64_t exponent);
/* ACCUMULATED_*: shown as a rate per second. */
bool mg_scorep_mode_is_accumulated (SCOREP_MetricMode mode);

/* Frees a get_event_info answer as Score-P does, once finalize has
 * returned (a plugin may keep using the names until then): the names and
 * the array. Descriptions and units stay the plugin's: some free them in
 * finalize (scorep_plugin_fileparser does). NULL is allowed. */
void mg_scorep_free_properties (SCOREP_Metric_Plugin_MetricProperties *props);

/* The names of the enumerations, as the docs and the probe write them
 * ("PER_HOST", "ASYNC", "ACCUMULATED_START"); "?" when out of range. */
const char *mg_scorep_per_name (SCOREP_MetricPer per);
const char *mg_scorep_sync_name (SCOREP_MetricSynchronicity sync);
const char *mg_scorep_mode_name (SCOREP_MetricMode mode);

#endif /* MG_SCOREP_PLUGIN_H */
