/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The hooks the allinea_* API calls (mg-sampler-hooks.h). */
#include <string.h>

#include "metrograph_plugin_ext.h"
#include "mg-sampler-hooks.h"
#include "mg-sampler-state.h"

void
mg_hook_plugin_error (plugin_id_t plugin, int code, const char *message)
{
  MgSampler *s = &mg_sampler;
  if (plugin == 0 || plugin > s->plan.n_sources || !s->rec.plugins)
    return;
  size_t i = plugin - 1;
  MgRecordPlugin *rp = &s->rec.plugins[i];
  rp->error_code = code;
  mg_record_copy_str (rp->error, sizeof rp->error, message);
  /* Outside initialise the spec gives it no meaning: keep the message only. */
  if (s->initialising == (int) plugin)
    s->plugins[i].failed_in_init = true;
}

void
mg_hook_metric_error (metric_id_t metric, int code, const char *message)
{
  MgSampler *s = &mg_sampler;
  if (metric == 0 || metric > s->plan.n_metrics || !s->rec.metrics)
    return;
  MgRecordMetric *rm = &s->rec.metrics[metric - 1];
  int64_t now = mg_now_ns ();
  if (rm->error_count == 0)
    {
      rm->first_error_ns = now;
      mg_record_copy_str (rm->error, sizeof rm->error, message);
    }
  rm->error_code = code;
  rm->last_error_ns = now;
  __atomic_add_fetch (&rm->error_count, 1, __ATOMIC_RELEASE);
}

const char *
mg_hook_custom_data (metric_id_t metric)
{
  MgSampler *s = &mg_sampler;
  if (metric == 0 || metric > s->plan.n_metrics)
    return "";
  return s->plan.metrics[metric - 1].custom_data;
}

const char *
mg_hook_config_env (const char *metric_id)
{
  MgSampler *s = &mg_sampler;
  if (!metric_id)
    return NULL;
  for (size_t m = 0; m < s->plan.n_metrics; m++)
    if (strcmp (s->plan.metrics[m].id, metric_id) == 0)
      return s->plan.metrics[m].config_env[0] ? s->plan.metrics[m].config_env : NULL;
  return NULL;
}

__attribute__((visibility("default"))) unsigned
metrograph_get_fork_generation (void)
{
  return __atomic_load_n (&mg_sampler.fork_generation, __ATOMIC_RELAXED);
}

__attribute__((visibility("default"))) int
metrograph_get_safe_io_counts_at_fork (struct metrograph_safe_io_counts *out)
{
  *out = mg_sampler.io_at_fork;
  return 0;
}
