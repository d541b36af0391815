/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Opening and checking Score-P metric plugins (mg-scorep-plugin.h). */
#include "mg-scorep-plugin.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/mg-load-error.h"

static int
fail (char *err, size_t err_len, const char *what, const char *name, const char *detail)
{
  snprintf (err, err_len, "Score-P plugin %s: %s%s%s", name, what, detail ? ": " : "",
            detail ? detail : "");
  return -1;
}

static bool
name_ok (const char *name)
{
  size_t n = strlen (name);
  if (n == 0 || n > MG_SCOREP_NAME_MAX)
    return false;
  for (const char *c = name; *c; c++)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')
          || *c == '_'))
      return false;
  return true;
}

int
mg_scorep_open (MgScorepPlugin *p, const char *name, const char *library, char *err,
                size_t err_len)
{
  char file[MG_SCOREP_NAME_MAX + 8], symbol[MG_SCOREP_NAME_MAX + 40];

  memset (p, 0, sizeof *p);
  if (!name_ok (name))
    return fail (err, err_len, "the name may hold only letters, digits and '_'", name, NULL);
  snprintf (file, sizeof file, "lib%s.so", name);
  snprintf (symbol, sizeof symbol, "SCOREP_MetricPlugin_%s_get_info", name);
  p->handle = dlopen (library ? library : file, RTLD_NOW | RTLD_LOCAL);
  if (!p->handle)
    {
      char why[512];
      mg_load_error_explain (library ? library : file, dlerror (), why, sizeof why);
      return fail (err, err_len, why, name, NULL);
    }
  MgScorepGetInfoFn get_info;
  *(void **) &get_info = dlsym (p->handle, symbol);
  if (!get_info)
    {
      mg_scorep_close (p);
      return fail (err, err_len, "the library does not export its entry point", name, symbol);
    }
  Dl_info where;
  if (dladdr (*(void **) &get_info, &where) == 0 || !where.dli_fname
      || !realpath (where.dli_fname, p->library))
    snprintf (p->library, sizeof p->library, "%s", library ? library : file);
  memset (&p->got, 0, sizeof p->got);
  p->got = get_info ();
  if (mg_scorep_check (&p->got.info, err, err_len) < 0)
    {
      char why[512];
      snprintf (why, sizeof why, "%s", err);
      mg_scorep_close (p);
      return fail (err, err_len, why, name, NULL);
    }
  return 0;
}

void
mg_scorep_close (MgScorepPlugin *p)
{
  if (p->handle)
    dlclose (p->handle);
  p->handle = NULL;
}

int
mg_scorep_check (const SCOREP_Metric_Plugin_Info *info, char *err, size_t err_len)
{
  const char *missing = NULL;

  if (info->plugin_version > SCOREP_METRIC_PLUGIN_VERSION)
    {
      snprintf (err, err_len,
                "interface version %u is newer than version %d, the newest Metrograph knows",
                info->plugin_version, SCOREP_METRIC_PLUGIN_VERSION);
      return -1;
    }
  if ((unsigned) info->run_per > SCOREP_METRIC_ONCE || (unsigned) info->sync > SCOREP_METRIC_ASYNC)
    {
      snprintf (err, err_len, "run_per %d or sync %d is not a known value", (int) info->run_per,
                (int) info->sync);
      return -1;
    }
  if (info->sync == SCOREP_METRIC_STRICTLY_SYNC && info->run_per != SCOREP_METRIC_PER_THREAD)
    {
      snprintf (err, err_len, "STRICTLY_SYNC plugins must be PER_THREAD, not %s",
                mg_scorep_per_name (info->run_per));
      return -1;
    }
  if (!info->initialize)
    missing = "initialize";
  else if (!info->finalize)
    missing = "finalize";
  else if (!info->get_event_info)
    missing = "get_event_info";
  else if (!info->add_counter)
    missing = "add_counter";
  else if (info->sync == SCOREP_METRIC_STRICTLY_SYNC && !info->get_current_value)
    missing = "get_current_value";
  else if (info->sync == SCOREP_METRIC_SYNC && !info->get_optional_value)
    missing = "get_optional_value";
  else if (info->sync >= SCOREP_METRIC_ASYNC_EVENT && !info->get_all_values)
    missing = "get_all_values";
  else if (info->sync >= SCOREP_METRIC_ASYNC_EVENT && !info->set_clock_function)
    missing = "set_clock_function";
  if (missing)
    {
      snprintf (err, err_len, "a %s plugin needs %s, which it leaves NULL",
                mg_scorep_sync_name (info->sync), missing);
      return -1;
    }
  return 0;
}

bool
mg_scorep_has_synchronize (const SCOREP_Metric_Plugin_Info *info)
{
  /* Version 0 has no synchronize: the field is its reserved space. */
  return info->plugin_version >= 1 && info->synchronize != NULL;
}

double
mg_scorep_value (uint64_t bits, SCOREP_MetricValueType type)
{
  switch (type)
    {
    case SCOREP_METRIC_VALUE_INT64:
      {
        int64_t v;
        memcpy (&v, &bits, sizeof v);
        return (double) v;
      }
    case SCOREP_METRIC_VALUE_DOUBLE:
      {
        double v;
        memcpy (&v, &bits, sizeof v);
        return v;
      }
    default:
      return (double) bits;
    }
}

double
mg_scorep_scale (SCOREP_MetricBase base, int64_t exponent)
{
  double b = base == SCOREP_METRIC_BASE_BINARY ? 2.0 : 10.0;
  double scale = 1.0;
  int64_t n = exponent < 0 ? -exponent : exponent;

  /* No libm in the sampler; exponents are small. */
  for (int64_t i = 0; i < n && i < 1100; i++)
    scale *= b;
  return exponent < 0 ? 1.0 / scale : scale;
}

bool
mg_scorep_mode_is_accumulated (SCOREP_MetricMode mode)
{
  return mode <= SCOREP_METRIC_MODE_ACCUMULATED_NEXT;
}

void
mg_scorep_free_properties (SCOREP_Metric_Plugin_MetricProperties *props)
{
  if (!props)
    return;
  for (SCOREP_Metric_Plugin_MetricProperties *p = props; p->name; p++)
    free (p->name);
  free (props);
}

static const char *
name_of (const char *const *names, size_t n, int value)
{
  return value >= 0 && (size_t) value < n ? names[value] : "?";
}

const char *
mg_scorep_per_name (SCOREP_MetricPer per)
{
  static const char *const names[] = { "PER_THREAD", "PER_PROCESS", "PER_HOST", "ONCE" };
  return name_of (names, sizeof names / sizeof names[0], (int) per);
}

const char *
mg_scorep_sync_name (SCOREP_MetricSynchronicity sync)
{
  static const char *const names[] = { "STRICTLY_SYNC", "SYNC", "ASYNC_EVENT", "ASYNC" };
  return name_of (names, sizeof names / sizeof names[0], (int) sync);
}

const char *
mg_scorep_mode_name (SCOREP_MetricMode mode)
{
  static const char *const names[] = {
    "ACCUMULATED_START", "ACCUMULATED_POINT", "ACCUMULATED_LAST", "ACCUMULATED_NEXT",
    "ABSOLUTE_POINT", "ABSOLUTE_LAST", "ABSOLUTE_NEXT",
    "RELATIVE_POINT", "RELATIVE_LAST", "RELATIVE_NEXT",
  };
  return name_of (names, sizeof names / sizeof names[0], (int) mode);
}
