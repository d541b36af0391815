/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Loading plugin libraries and calling their lifecycle functions. Runs at
 * start and end of sampling only, never in a sampling round. */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/mg-load-error.h"
#include "format/mg-plan-keywords.h"
#include "metrograph_plugin_ext.h"
#include "mg-api-internal.h"
#include "mg-plugin-guard.h"
#include "mg-sampler-state.h"
#include "mg-scorep-host.h"

/* One lifecycle function (initialise and cleanup take data, start and stop
 * do not) called under the fault guard. */
typedef struct {
  MgInitFn with_data;
  MgStartStopFn plain;
  plugin_id_t id;
} LifecycleArgs;

static int
lifecycle_call (void *data)
{
  LifecycleArgs *a = data;
  return a->with_data ? a->with_data (a->id, NULL) : a->plain (a->id);
}

/* Returns false when the function crashed (the plugin is then CRASHED) or
 * ran past the plan's plugin_limit_ms (then HUNG). */
static bool
guarded (MgSampler *s, size_t i, const char *name, MgInitFn with_data, MgStartStopFn plain,
         int *ret)
{
  MgPluginCall call = { i, name, mg_now_ns (), (int64_t) s->plan.plugin_limit_ms * 1000000 };
  LifecycleArgs args = { with_data, plain, (plugin_id_t) (i + 1) };
  int sig = mg_plugin_guard_call (&call, lifecycle_call, &args, ret);
  if (sig == MG_PLUGIN_GUARD_TIMED_OUT)
    mg_plugin_guard_timed_out (s, &call, 0);
  else if (sig != 0)
    mg_plugin_guard_disable (s, &call, sig, 0);
  return sig == 0;
}

static void
set_plugin_error (MgRecordPlugin *rp, uint32_t state, int code, const char *msg)
{
  rp->state = state;
  rp->error_code = code;
  mg_record_copy_str (rp->error, sizeof rp->error, msg);
}

/* Resolves the getters of source i; returns false (with the error set) if
 * one is missing. */
static bool
resolve_getters (MgSampler *s, size_t i, void *handle, MgRecordPlugin *rp)
{
  for (size_t m = 0; m < s->plan.n_metrics; m++)
    {
      const MgPlanMetric *pm = &s->plan.metrics[m];
      if (pm->source != i)
        continue;
      s->metrics[m].getter = dlsym (handle, pm->getter);
      if (!s->metrics[m].getter)
        {
          char msg[MG_RECORD_MSG_LEN];
          snprintf (msg, sizeof msg, "getter '%s' of metric %s not found in %s", pm->getter,
                    pm->id, s->plan.sources[i].library);
          set_plugin_error (rp, MG_PLUGIN_STATE_LOAD_FAILED, 0, msg);
          return false;
        }
    }
  return true;
}

static bool
resolve_optional (void *handle, const char *name, MgStartStopFn *out, MgRecordPlugin *rp,
                  const char *library)
{
  *out = NULL;
  if (name[0] == '\0')
    return true;
  *(void **) out = dlsym (handle, name);
  if (*out)
    return true;
  char msg[MG_RECORD_MSG_LEN];
  snprintf (msg, sizeof msg, "function '%s' not found in %s", name, library);
  set_plugin_error (rp, MG_PLUGIN_STATE_LOAD_FAILED, 0, msg);
  return false;
}

/* True when the library itself (not one it depends on) defines the mark
 * (metrograph_plugin_ext.h): METROGRAPH_PLUGIN_UNLOADABLE_SYMBOL, a
 * failed initialise leaves nothing of its code in use once its cleanup
 * has run; METROGRAPH_PLUGIN_EXEC_RELEASES_ALL_SYMBOL, an exec releases
 * all it holds. */
static bool
library_says (void *handle, const char *symbol)
{
  void *mark = dlsym (handle, symbol);
  struct link_map *lm = NULL, *owner = NULL;
  Dl_info where;

  return mark != NULL && dlinfo (handle, RTLD_DI_LINKMAP, &lm) == 0 && lm != NULL
         && dladdr1 (mark, &where, (void **) &owner, RTLD_DL_LINKMAP) != 0 && owner == lm;
}

/* A plugin whose initialise failed is called for nothing more. The spec
 * pairs cleanup with a successful load; a failed init still gets it, at
 * once, so that the plugin can release what it took (and no fork child
 * calls it again at its exec). A library that says it leaves nothing
 * behind (the built-in plugins) is then unloaded: kept, its mappings
 * (five a library) were copied by every fork of the process. Any other
 * stays loaded: a thread or a signal handler it left would run into
 * unmapped code. A cleanup that crashes or hangs leaves it loaded, as its
 * abandoned frames may still be in it. */
static void
unload_failed (MgSampler *s, size_t i)
{
  MgPluginRt *p = &s->plugins[i];
  int ret;

  if (p->cleanup && !guarded (s, i, "allinea_plugin_cleanup", p->cleanup, NULL, &ret))
    return;
  for (size_t m = 0; m < s->plan.n_metrics; m++)
    if (s->plan.metrics[m].source == i)
      s->metrics[m].getter = NULL;
  p->init = NULL;
  p->cleanup = NULL;
  p->start = NULL;
  p->stop = NULL;
  if (!library_says (p->handle, METROGRAPH_PLUGIN_UNLOADABLE_SYMBOL))
    return;
  dlclose (p->handle);
  p->handle = NULL;
}

static void
load_one (MgSampler *s, size_t i)
{
  const MgPlanSource *src = &s->plan.sources[i];
  MgPluginRt *p = &s->plugins[i];
  MgRecordPlugin *rp = &s->rec.plugins[i];

  bool has_metric = false;
  for (size_t m = 0; m < s->plan.n_metrics; m++)
    has_metric |= s->plan.metrics[m].source == i;
  if (!has_metric && !src->scorep_name)
    {
      /* Never load a library none of whose metrics is enabled. */
      rp->state = MG_PLUGIN_STATE_UNUSED;
      return;
    }
  if (p->leader_only && !s->leader)
    {
      rp->state = MG_PLUGIN_STATE_NOT_LEADER;
      return;
    }
  if (src->scorep_name)
    {
      mg_scorep_load (s, i);
      return;
    }
  void *handle = dlopen (src->library, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    {
      char why[MG_RECORD_MSG_LEN];
      mg_load_error_explain (src->library, dlerror (), why, sizeof why);
      set_plugin_error (rp, MG_PLUGIN_STATE_LOAD_FAILED, 0, why);
      mg_log ("cannot load %s: %s", src->library, rp->error);
      return;
    }
  const char *init_name = "allinea_plugin_initialize";
  *(void **) &p->init = dlsym (handle, init_name);
  if (!p->init)
    {
      init_name = "allinea_plugin_initialise";
      *(void **) &p->init = dlsym (handle, init_name);
    }
  *(void **) &p->cleanup = dlsym (handle, "allinea_plugin_cleanup");
  if (!resolve_getters (s, i, handle, rp)
      || !resolve_optional (handle, src->start_fn, &p->start, rp, src->library)
      || !resolve_optional (handle, src->stop_fn, &p->stop, rp, src->library))
    {
      mg_log ("%s", rp->error);
      dlclose (handle);
      return;
    }
  p->handle = handle;
  p->exec_releases_all = library_says (handle, METROGRAPH_PLUGIN_EXEC_RELEASES_ALL_SYMBOL);

  p->failed_in_init = false;
  s->initialising = (int) i + 1;
  int ret = 0;
  bool survived = !p->init || guarded (s, i, init_name, p->init, NULL, &ret);
  s->initialising = 0;
  if (!survived)
    return;
  if (ret != 0 || p->failed_in_init)
    {
      if (!p->failed_in_init)
        {
          char msg[MG_RECORD_MSG_LEN];
          snprintf (msg, sizeof msg, "initialise function returned %d without an error message",
                    ret);
          set_plugin_error (rp, MG_PLUGIN_STATE_INIT_FAILED, ret, msg);
        }
      rp->state = MG_PLUGIN_STATE_INIT_FAILED;
      mg_log ("%s failed to initialise: %s", src->library, rp->error);
      unload_failed (s, i);
      return;
    }
  p->initialised = true;
  rp->state = MG_PLUGIN_STATE_ACTIVE;
}

bool
mg_plugins_load (MgSampler *s)
{
  mg_system_info_warm ();
  for (size_t i = 0; i < s->plan.n_sources; i++)
    {
      if (__atomic_load_n (&s->plugins_called_off, __ATOMIC_ACQUIRE))
        return false;
      load_one (s, i);
    }
  for (size_t m = 0; m < s->plan.n_metrics; m++)
    {
      const MgPlanMetric *pm = &s->plan.metrics[m];
      bool active = s->rec.plugins[pm->source].state == MG_PLUGIN_STATE_ACTIVE
                    && (!pm->one_per_node || s->leader)
                    && (!mg_scorep_owns_metric (s, m) || mg_scorep_metric_usable (s, m));
      s->metrics[m].active = active;
      if (active)
        s->rec.metrics[m].flags |= MG_METRIC_FLAG_ACTIVE;
    }
  return true;
}

void
mg_plugins_begin (MgSampler *s)
{
  if (!s->plugins_pending)
    return;
  mg_plugin_guard_watch_begin (mg_sampling_watch_period_ns (s));
  if (mg_plugins_load (s))
    {
      mg_plugins_start (s);
      __atomic_store_n (&s->plugins_pending, false, __ATOMIC_SEQ_CST);
    }
  mg_plugin_guard_watch_end ();
}

/* True in the process the front end started itself: its parent's pid
 * ends the run id ("<stamp>-<pid>", mg-launcher.c). */
static bool
started_by_front_end (const MgSampler *s)
{
  const char *dash = strrchr (s->plan.run_id, '-');
  long pid;
  /* Not strtol: its locale tables would be touched in every process for
   * this one number (mg_plan_parse_number). */
  return dash != NULL && mg_plan_parse_number (dash + 1, 2, &pid) == 0
         && pid == (long) getppid ();
}

bool
mg_plugins_deferrable (const MgSampler *s)
{
  for (size_t i = 0; i < s->plan.n_sources; i++)
    if (s->plan.sources[i].scorep_name)
      return false;
  /* The program the front end started loads them at once: what this
   * machine cannot measure is then known even when it ends at once
   * (--enable-metrics of an unavailable metric, `metrograph --profile
   * /bin/true`); its descendants, the many short ones, defer. */
  return !started_by_front_end (s);
}

static void
call_start_stop (MgSampler *s, bool start)
{
  for (size_t i = 0; i < s->plan.n_sources; i++)
    {
      MgPluginRt *p = &s->plugins[i];
      MgStartStopFn fn = start ? p->start : p->stop;
      if (!fn || s->rec.plugins[i].state != MG_PLUGIN_STATE_ACTIVE)
        continue;
      int ret = 0;
      if (!guarded (s, i, start ? s->plan.sources[i].start_fn : s->plan.sources[i].stop_fn, NULL,
                    fn, &ret))
        continue;
      if (ret != 0 && s->rec.plugins[i].error_code == 0)
        {
          char msg[MG_RECORD_MSG_LEN];
          snprintf (msg, sizeof msg, "%s function returned %d", start ? "start" : "stop", ret);
          s->rec.plugins[i].error_code = ret;
          mg_record_copy_str (s->rec.plugins[i].error, sizeof s->rec.plugins[i].error, msg);
        }
    }
}

void
mg_plugins_start (MgSampler *s)
{
  call_start_stop (s, true);
}

void
mg_plugins_stop (MgSampler *s)
{
  if (s->plugins_pending)
    return; /* never started */
  call_start_stop (s, false);
  mg_scorep_stop (s);
}

void
mg_plugins_cleanup (MgSampler *s)
{
  for (size_t i = 0; i < s->plan.n_sources; i++)
    {
      MgPluginRt *p = &s->plugins[i];
      if (s->plan.sources[i].scorep_name)
        mg_scorep_finalize (s, i);
      if (!p->initialised)
        continue;
      p->initialised = false;
      int ret;
      if (p->cleanup)
        guarded (s, i, "allinea_plugin_cleanup", p->cleanup, NULL, &ret);
    }
}
