/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Score-P metric plugins in the sampler (mg-scorep-host.h). The lifecycle
 * follows Score-P's order; the clock given to the plugins is the sampler's
 * monotonic clock in nanoseconds, so their timestamps and delta_t are in
 * the record's time base. */
#include "mg-scorep-host.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "format/mg-plan-keywords.h"
#include "mg-high-fd.h"
#include "mg-node-lock.h"
#include "mg-sampler-hooks.h"
#include "mg-scorep-plugin.h"
#include "mg-scorep-statics.h"

/* A get_event_info answer, kept until finalize has returned. */
typedef struct Answer {
  struct Answer *next;
  SCOREP_Metric_Plugin_MetricProperties *props;
} Answer;

typedef struct {
  MgScorepPlugin plugin;
  Answer *answers;
  bool running;        /* initialize returned 0: finalize is owed */
  bool synchronized;   /* synchronize (BEGIN) was called */
  bool ended;          /* the measurement ended (mg_scorep_stop): no more reads */
  bool ending;         /* it ends in this mg_scorep_stop: its last values */
  int once_fd;         /* the ONCE election's lock, -1 if none */
  int64_t begin_ns;    /* when synchronize (BEGIN) was called */
} MgScorepSource;

typedef struct {
  bool counted;        /* add_counter gave an id */
  int32_t id;
  SCOREP_MetricMode mode;
  SCOREP_MetricValueType type;
  double scale;
  bool have_prev;      /* ACCUMULATED: prev holds the last total */
  double prev;
  int64_t prev_ts;     /* ASYNC ACCUMULATED: when prev was taken */
  int64_t last_read_ns;/* SYNC: the last call, for delta_t */
  int64_t last_ts;     /* ASYNC: the newest timestamp already placed */
} MgScorepMetric;

static MgScorepSource *sources;
static MgScorepMetric *metrics;

static uint64_t
clock_ns (void)
{
  return (uint64_t) mg_now_ns ();
}

bool
mg_scorep_owns_metric (const MgSampler *s, size_t m)
{
  return s->plan.sources[s->plan.metrics[m].source].scorep_name != NULL;
}

static void
plugin_error (MgSampler *s, size_t i, uint32_t state, int code, const char *msg)
{
  MgRecordPlugin *rp = &s->rec.plugins[i];
  rp->state = state;
  rp->error_code = code;
  mg_record_copy_str (rp->error, sizeof rp->error, msg);
  mg_log ("%s", msg);
}

static bool
allocate (MgSampler *s)
{
  if (sources)
    return true;
  sources = calloc (s->plan.n_sources + 1, sizeof *sources);
  metrics = calloc (s->plan.n_metrics + 1, sizeof *metrics);
  return sources && metrics;
}

/* ONCE: one process of the whole run reads the plugin, whoever takes the
 * run's lock for it first. */
static bool
elected_once (MgSampler *s, size_t i)
{
  char path[4096];
  snprintf (path, sizeof path, "%s/%s.scorep-once.%s.lock", s->plan.record_dir, s->plan.run_id,
            s->plan.sources[i].scorep_name);
  int fd = open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return false;
  /* Its winner's program may have closed the descriptor (mg-node-lock.h). */
  if (flock (fd, LOCK_EX | LOCK_NB) != 0 || !mg_node_lock_claim (fd))
    {
      close (fd);
      return false;
    }
  sources[i].once_fd = mg_hold_lock (fd); /* -1: held by a mapping */
  return true;
}

/* Which metric of the plan is called name (the plugin's own name) in
 * source i, or n_metrics. */
static size_t
planned_metric (MgSampler *s, size_t i, const char *name)
{
  for (size_t m = 0; m < s->plan.n_metrics; m++)
    if (s->plan.metrics[m].source == i && strcmp (s->plan.metrics[m].getter, name) == 0)
      return m;
  return s->plan.n_metrics;
}

/* get_event_info for every token; keeps the properties of the planned
 * metrics (mode, type, scale). */
static void
describe_metrics (MgSampler *s, size_t i)
{
  SCOREP_Metric_Plugin_Info *info = &sources[i].plugin.got.info;
  char *tokens = s->plan.sources[i].scorep_tokens;
  char *token = tokens;

  while (token && *token)
    {
      char *end = strchr (token, MG_PLAN_SCOREP_TOKEN_SEPARATOR);
      if (end)
        *end = '\0';
      /* The plugin may cut its token up (strtok): it gets a copy. */
      char copy[MG_PLAN_MAX_LINE + 1];
      snprintf (copy, sizeof copy, "%s", token);
      SCOREP_Metric_Plugin_MetricProperties *props = info->get_event_info (copy);
      Answer *answer = malloc (sizeof *answer);
      if (answer) /* else props leaks: no way to keep it */
        {
          *answer = (Answer) { sources[i].answers, props };
          sources[i].answers = answer;
        }
      for (SCOREP_Metric_Plugin_MetricProperties *p = props; p && p->name; p++)
        {
          size_t m = planned_metric (s, i, p->name);
          if (m == s->plan.n_metrics)
            continue;
          metrics[m].mode = p->mode;
          metrics[m].type = p->value_type;
          metrics[m].scale = mg_scorep_scale (p->base, p->exponent);
          metrics[m].counted = true; /* described; add_counter decides */
        }
      if (end)
        *end = MG_PLAN_SCOREP_TOKEN_SEPARATOR;
      token = end ? end + 1 : NULL;
    }
}

static void
add_counters (MgSampler *s, size_t i)
{
  SCOREP_Metric_Plugin_Info *info = &sources[i].plugin.got.info;
  char msg[MG_RECORD_MSG_LEN];

  for (size_t m = 0; m < s->plan.n_metrics; m++)
    {
      const MgPlanMetric *pm = &s->plan.metrics[m];
      MgScorepMetric *sm = &metrics[m];
      if (pm->source != i)
        continue;
      if (!sm->counted)
        {
          snprintf (msg, sizeof msg, "plugin %s offers no metric '%s' for its tokens here",
                    s->plan.sources[i].scorep_name, pm->getter);
          mg_hook_metric_error ((metric_id_t) (m + 1), EINVAL, msg);
          continue;
        }
      int32_t id = info->add_counter (pm->getter);
      if (id < 0)
        {
          sm->counted = false;
          snprintf (msg, sizeof msg, "add_counter (\"%s\") returned %d", pm->getter, (int) id);
          mg_hook_metric_error ((metric_id_t) (m + 1), id, msg);
          continue;
        }
      sm->id = id;
    }
}

static void
load (MgSampler *s, size_t i)
{
  const MgPlanSource *src = &s->plan.sources[i];
  char err[MG_RECORD_MSG_LEN];

  if (!allocate (s))
    {
      plugin_error (s, i, MG_PLUGIN_STATE_LOAD_FAILED, ENOMEM, "out of memory");
      return;
    }
  MgScorepSource *ss = &sources[i];
  ss->once_fd = -1;
  mg_record_copy_str (s->rec.plugins[i].library, sizeof s->rec.plugins[i].library,
                      src->library);
  if (src->scorep_error[0] != '\0')
    {
      /* The front end could not list it: never run it inside the program.
       * The plan has no path for it: the file it was looked for as. */
      snprintf (s->rec.plugins[i].library, sizeof s->rec.plugins[i].library, "lib%s.so",
                src->scorep_name);
      plugin_error (s, i, MG_PLUGIN_STATE_LOAD_FAILED, 0, src->scorep_error);
      return;
    }
  if (mg_scorep_open (&ss->plugin, src->scorep_name, src->library, err, sizeof err) < 0)
    {
      plugin_error (s, i, MG_PLUGIN_STATE_LOAD_FAILED, 0, err);
      return;
    }
  SCOREP_Metric_Plugin_Info *info = &ss->plugin.got.info;
  if (info->run_per == SCOREP_METRIC_ONCE && !elected_once (s, i))
    {
      s->rec.plugins[i].state = MG_PLUGIN_STATE_NOT_LEADER;
      mg_scorep_close (&ss->plugin);
      return;
    }
  if (info->set_clock_function)
    info->set_clock_function (clock_ns);
  int32_t rc = info->initialize ();
  if (rc != 0)
    {
      snprintf (err, sizeof err, "Score-P plugin %s: initialize returned %d; skipped",
                src->scorep_name, (int) rc);
      plugin_error (s, i, MG_PLUGIN_STATE_INIT_FAILED, rc, err);
      return; /* left loaded: a failed plugin may have started threads */
    }
  ss->running = true;
  describe_metrics (s, i);
  add_counters (s, i);
  ss->begin_ns = mg_now_ns ();
  for (size_t m = 0; m < s->plan.n_metrics; m++)
    if (s->plan.metrics[m].source == i)
      {
        metrics[m].prev_ts = ss->begin_ns;
        /* ACCUMULATED_START counts from the start: its first total is an
         * increase from 0. */
        metrics[m].have_prev = metrics[m].mode == SCOREP_METRIC_MODE_ACCUMULATED_START;
        metrics[m].prev = 0;
      }
  if (mg_scorep_has_synchronize (info))
    {
      /* As Score-P in a multi-process (MPI) measurement: BEGIN_MPP in
       * place of BEGIN. The process is responsible: a PER_HOST or ONCE
       * plugin is loaded only in the process that reads it. */
      info->synchronize (true, s->rec.header->rank >= 0
                                 ? SCOREP_METRIC_SYNCHRONIZATION_MODE_BEGIN_MPP
                                 : SCOREP_METRIC_SYNCHRONIZATION_MODE_BEGIN);
      ss->synchronized = true;
    }
  s->rec.plugins[i].state = MG_PLUGIN_STATE_ACTIVE;
}

void
mg_scorep_load (MgSampler *s, size_t i)
{
  /* What the plugin's library and the libraries it brings register while
   * it loads and starts, then what its library registers later. */
  mg_scorep_statics_loading ((int) i);
  load (s, i);
  mg_scorep_statics_loading (-1);
  if (sources && sources[i].running)
    mg_scorep_statics_library ((int) i, (const void *) sources[i].plugin.got.info.finalize);
}

bool
mg_scorep_running (size_t i)
{
  return sources && __atomic_load_n (&sources[i].running, __ATOMIC_ACQUIRE);
}

bool
mg_scorep_metric_usable (const MgSampler *s, size_t m)
{
  return metrics && sources[s->plan.metrics[m].source].running && metrics[m].counted;
}

static bool
is_async (const SCOREP_Metric_Plugin_Info *info)
{
  return info->sync == SCOREP_METRIC_ASYNC_EVENT || info->sync == SCOREP_METRIC_ASYNC;
}

/* A total into its increase since the previous one (ACCUMULATED), else
 * the value itself. False for a first total, the baseline. */
static bool
to_shown (MgScorepMetric *sm, double *v)
{
  if (!mg_scorep_mode_is_accumulated (sm->mode))
    return true;
  double total = *v;
  bool had = sm->have_prev;
  *v = total - sm->prev;
  sm->prev = total;
  sm->have_prev = true;
  return had;
}

bool
mg_scorep_read (MgSampler *s, size_t m, int64_t now_ns, double *out)
{
  MgScorepMetric *sm = &metrics[m];
  MgScorepSource *ss = &sources[s->plan.metrics[m].source];
  SCOREP_Metric_Plugin_Info *info = &ss->plugin.got.info;
  uint64_t bits;

  if (!ss->running || !sm->counted || is_async (info))
    return false;
  if (info->sync == SCOREP_METRIC_STRICTLY_SYNC)
    bits = info->get_current_value (sm->id);
  else
    {
      if (info->delta_t > 0 && sm->last_read_ns != 0
          && (uint64_t) (now_ns - sm->last_read_ns) < info->delta_t)
        return false;
      sm->last_read_ns = now_ns;
      if (!info->get_optional_value (sm->id, &bits))
        return false;
    }
  *out = mg_scorep_value (bits, sm->type) * sm->scale;
  return to_shown (sm, out);
}

static void
add_value (MgRecordValue *v, double x)
{
  if (v->count == 0)
    {
      *v = (MgRecordValue) { x, x, x, 1, 0 };
      return;
    }
  if (x < v->min)
    v->min = x;
  if (x > v->max)
    v->max = x;
  v->count++;
  v->mean += (x - v->mean) / v->count;
}

/* Where one value goes: the open slot (index n, may be NULL at the end)
 * when it is newer than the committed ones, else the committed slot whose
 * window holds it; values before the first window are dropped, and at
 * the end those after the last window go into it when they were taken
 * before the measurement ended (end_ns), else they are dropped too. */
typedef struct {
  MgRecordSample *open;
  uint32_t n;
  bool rewriting;
  int64_t end_ns;      /* at the end: when synchronize (END) was called */
} Placement;

static MgRecordValue *
slot_for (MgSampler *s, Placement *pl, size_t m, int64_t ts)
{
  MgRecordWriter *w = &s->rec;
  int64_t committed_end = pl->n ? mg_record_slot (w, pl->n - 1)->t_end_ns : s->sampling_start_ns;

  if (ts > committed_end && !pl->open && pl->n > 0 && ts <= pl->end_ns)
    ts = committed_end; /* taken between the last sample and END */
  if (ts > committed_end)
    {
      if (!pl->open)
        return NULL;
      if (ts > pl->open->t_end_ns) /* taken while this round ran */
        pl->open->t_end_ns = ts;
      return &mg_record_slot_values (pl->open)[m];
    }
  if (ts <= s->sampling_start_ns || pl->n == 0)
    return NULL;
  uint32_t lo = 0, hi = pl->n - 1;
  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;
      if (mg_record_slot (w, mid)->t_end_ns < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (!pl->rewriting)
    {
      mg_record_begin_rewrite (w);
      pl->rewriting = true;
    }
  return &mg_record_slot_values (mg_record_slot (w, lo))[m];
}

static void
collect_metric (MgSampler *s, size_t m, Placement *pl)
{
  MgScorepMetric *sm = &metrics[m];
  SCOREP_Metric_Plugin_Info *info = &sources[s->plan.metrics[m].source].plugin.got.info;
  SCOREP_MetricTimeValuePair *list = NULL;

  uint64_t count = info->get_all_values (sm->id, &list);
  for (uint64_t k = 0; list && k < count; k++)
    {
      int64_t ts = (int64_t) list[k].timestamp;
      /* A plugin may hand out every value each time: the new ones count. */
      if (ts <= sm->last_ts)
        continue;
      sm->last_ts = ts;
      double v = mg_scorep_value (list[k].value, sm->type) * sm->scale;
      int64_t prev_ts = sm->prev_ts;
      sm->prev_ts = ts;
      if (!to_shown (sm, &v))
        continue;
      if (mg_scorep_mode_is_accumulated (sm->mode))
        {
          if (ts <= prev_ts)
            continue;
          v /= (double) (ts - prev_ts) / 1e9;
        }
      MgRecordValue *slot = slot_for (s, pl, m, ts);
      if (slot)
        add_value (slot, v);
    }
  free (list);
}

/* The asynchronous metrics' values: during the run (at_end false) those
 * of ASYNC_EVENT plugins, which Score-P writes at events; at the end of
 * the measurement those of every asynchronous plugin whose measurement
 * ends now (ending), ASYNC ones only then: Score-P collects them
 * once, at the very end, and a plugin may stop its own sampling in that
 * one call. */
static void
collect (MgSampler *s, Placement *pl, bool at_end)
{
  for (size_t m = 0; m < s->plan.n_metrics; m++)
    {
      if (!mg_scorep_owns_metric (s, m) || !s->metrics[m].active || !metrics[m].counted)
        continue;
      MgScorepSource *ss = &sources[s->plan.metrics[m].source];
      if (!ss->running || !is_async (&ss->plugin.got.info))
        continue;
      if (at_end ? ss->ending : !ss->ended && ss->plugin.got.info.sync == SCOREP_METRIC_ASYNC_EVENT)
        collect_metric (s, m, pl);
    }
  if (pl->rewriting)
    mg_record_end_rewrite (&s->rec);
}

void
mg_scorep_collect (MgSampler *s, MgRecordSample *slot, uint32_t n)
{
  if (!metrics)
    return;
  Placement pl = { slot, n, false, 0 };
  collect (s, &pl, false);
}

void
mg_scorep_stop (MgSampler *s)
{
  if (!sources)
    return;
  /* Once per source: the MPI hand-over ends the measurement at
   * MPI_Finalize, and the process's end comes later. */
  int64_t end_ns = mg_now_ns ();
  for (size_t i = 0; i < s->plan.n_sources; i++)
    {
      sources[i].ending = !sources[i].ended;
      sources[i].ended = true;
      if (sources[i].ending && sources[i].synchronized)
        {
          sources[i].synchronized = false;
          sources[i].plugin.got.info.synchronize (true, SCOREP_METRIC_SYNCHRONIZATION_MODE_END);
        }
    }
  Placement pl = { NULL, s->rec.header->n_samples, false, end_ns };
  collect (s, &pl, true);
  for (size_t i = 0; i < s->plan.n_sources; i++)
    sources[i].ending = false;
}

void
mg_scorep_finalize (MgSampler *s, size_t i)
{
  if (!sources || !sources[i].running)
    return;
  __atomic_store_n (&sources[i].running, false, __ATOMIC_RELEASE);
  sources[i].plugin.got.info.finalize ();
  for (Answer *a = sources[i].answers, *next; a; a = next)
    {
      next = a->next;
      mg_scorep_free_properties (a->props);
      free (a);
    }
  sources[i].answers = NULL;
  /* Left mapped: a plugin's threads may outlive finalize. */
}
