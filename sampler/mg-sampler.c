/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sampler's process lifecycle: start in a constructor, restart in fork
 * children and after a failed exec, finish at exit or exec. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "format/mg-plan-keywords.h"
#include "format/mg-run-folder-layout.h"
#include "mg-api-internal.h"
#include "mg-high-fd.h"
#include "mg-plugin-guard.h"
#include "mg-node-folder.h"
#include "mg-node-lock.h"
#include "mg-sampler-state.h"
#include "mg-seccomp.h"
#include "mg-stacks.h"
#include "mg-scorep-host.h"
#include "mg-scorep-statics.h"

bool
mg_sampler_owns_process (void)
{
  /* A vfork child shares our memory but not our pid. */
  return (int) syscall (SYS_getpid) == mg_sampler.pid;
}

/* The first of the launcher's variables that holds a number in
 * [0, INT32_MAX], else -1. */
static int
launcher_number (const char *const *vars, size_t n_vars)
{
  for (size_t i = 0; i < n_vars; i++)
    {
      const char *v = getenv (vars[i]);
      char *end;
      if (!v || !*v)
        continue;
      long r = strtol (v, &end, 10);
      if (*end == '\0' && r >= 0 && r <= INT32_MAX)
        return (int) r;
    }
  return -1;
}

/* The rank, read by the constructor (the launcher sets it before main):
 * five lookups of the environment, once a process rather than again for
 * its record. */
static int start_rank = -1;

static int
mpi_rank (void)
{
  static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                      "SLURM_PROCID", "MV2_COMM_WORLD_RANK" };
  return launcher_number (vars, sizeof vars / sizeof vars[0]);
}

/* The job's rank count, so that the front end can name the ranks whose
 * records never arrived; 0 outside MPI. */
static int
mpi_world_size (void)
{
  static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS",
                                      "MV2_COMM_WORLD_SIZE" };
  int n = launcher_number (vars, sizeof vars / sizeof vars[0]);
  return n > 0 ? n : 0;
}

/* onePerNode election: whoever holds the host's lock is the leader until it
 * ends. Only run when some library is onePerNode-only or some metric is,
 * and only by a process about to load its plugins (a short one never
 * competes). */
void
mg_sampler_elect (MgSampler *s)
{
  bool needed = false;
  if (s->leader)
    return;
  for (size_t m = 0; m < s->plan.n_metrics; m++)
    needed |= s->plan.metrics[m].one_per_node;
  if (!needed)
    return;
  char path[4096];
  snprintf (path, sizeof path, "%s/%s.%s.node-lock", s->plan.record_dir, s->plan.run_id, s->host);
  int fd = open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      mg_log ("cannot open %s: %s", path, strerror (errno));
      return;
    }
  /* The flock alone is lost with the descriptor: a program that closed
   * it (close_range) left its leader leading without it. */
  if (flock (fd, LOCK_EX | LOCK_NB) == 0 && mg_node_lock_claim (fd))
    {
      /* Held for the process's life: out of the program's way, or by a
       * mapping of the file where a descriptor would take one of the
       * program's numbers (lock_fd -1 then). */
      s->lock_fd = mg_hold_lock (fd);
      s->leader = true;
      if (s->rec.header)
        __atomic_or_fetch (&s->rec.header->flags, MG_RECORD_FLAG_NODE_LEADER, __ATOMIC_RELEASE);
    }
  else
    close (fd);
}

/* The image's program (/proc/self/exe), read once by the constructor:
 * fork children and a failed exec run the same one. It and the plan's
 * path are kept on the heap at their length (heap_copy): as two 4 kB
 * arrays in .bss, each written at its start, they were two pages to
 * fault in in every process, and pushed the variables after them onto
 * pages of their own. */
static const char *exe_path = "";

/* A copy of text[0..len) on the heap, or "" without memory. */
static const char *
heap_copy (const char *text, size_t len)
{
  char *copy = malloc (len + 1);
  if (!copy)
    return "";
  memcpy (copy, text, len);
  copy[len] = '\0';
  return copy;
}

/* The header's fields from the process and the plan (beyond the
 * layout's). */
static void
fill_header_fields (const MgSampler *s, MgRecordHeader *h)
{
  h->ppid = (int32_t) getppid ();
  h->rank = start_rank;
  h->world_size = mpi_world_size ();
  if (s->leader)
    h->flags |= MG_RECORD_FLAG_NODE_LEADER;
  mg_record_copy_str (h->program, sizeof h->program, exe_path);
  mg_record_copy_str (h->run_id, sizeof h->run_id, s->plan.run_id);
  struct timespec rt;
  clock_gettime (CLOCK_REALTIME, &rt);
  h->start_real_ns = (int64_t) rt.tv_sec * 1000000000 + rt.tv_nsec;
  h->interval_start_ns = h->interval_ns = (uint64_t) s->plan.interval_ms * 1000000;
}

static void
fill_plugin_entry (const MgSampler *s, size_t i, MgRecordPlugin *rp)
{
  mg_record_copy_str (rp->source_id, sizeof rp->source_id, s->plan.sources[i].id);
  mg_record_copy_str (rp->library, sizeof rp->library, s->plan.sources[i].library);
}

static void
fill_metric_entry (const MgSampler *s, size_t m, MgRecordMetric *rm)
{
  const MgPlanMetric *pm = &s->plan.metrics[m];
  mg_record_copy_str (rm->id, sizeof rm->id, pm->id);
  rm->plan_index = (uint32_t) m;
  rm->plugin_index = pm->source;
  rm->flags = (pm->is_double ? MG_METRIC_FLAG_DOUBLE : 0u)
              | (pm->one_per_node ? MG_METRIC_FLAG_ONE_PER_NODE : 0u)
              | (pm->backfill ? MG_METRIC_FLAG_BACKFILL : 0u)
              | (pm->divide ? MG_METRIC_FLAG_DIVIDE : 0u)
              | (pm->percent ? MG_METRIC_FLAG_PERCENT : 0u)
              | (pm->single_value ? MG_METRIC_FLAG_SINGLE_VALUE : 0u);
}

static void
fill_tables (MgSampler *s)
{
  fill_header_fields (s, s->rec.header);
  for (size_t i = 0; i < s->plan.n_sources; i++)
    fill_plugin_entry (s, i, &s->rec.plugins[i]);
  for (size_t m = 0; m < s->plan.n_metrics; m++)
    fill_metric_entry (s, m, &s->rec.metrics[m]);
}

/* in_memory: the record becomes a file only if the process lives to its
 * first round or ends by exit (mg_sampler_materialize). */
static bool
create_record (MgSampler *s, bool in_memory)
{
  char err[512];
  s->record_failed = false;
  int rc = (in_memory ? mg_record_create_in_memory
                      : mg_record_create_with_stacks) (&s->rec, s->plan.record_dir, s->host,
                                                       s->plan.run_id, s->pid, s->start_ns,
                                                       (uint32_t) s->plan.n_sources,
                                                       (uint32_t) s->plan.n_metrics,
                                                       (uint32_t) s->plan.samples,
                                                       s->stacks_table_size, err, sizeof err);
  if (rc < 0)
    {
      mg_log ("%s; running unprofiled", err);
      return false;
    }
  fill_tables (s);
  return true;
}

/* The parent's record mapping a fork child inherited, once not needed. */
static void
drop_inherited (MgSampler *s)
{
  if (s->inherited_map)
    munmap (s->inherited_map, s->inherited_size);
  s->inherited_map = NULL;
}

/* The plan's path, as the constructor found it (heap_copy). */
static const char *plan_path = "";

/* False once the run has ended: its front end removed the plan with the
 * run folder. A record made later (a daemon that outlived the program)
 * could be made while the folder is being removed, and keep it. */
static bool
run_goes_on (MgSampler *s)
{
  if (access (plan_path, F_OK) == 0 || errno != ENOENT)
    return true;
  s->record_failed = true;
  mg_log ("the run has ended (%s is gone); no record", plan_path);
  return false;
}

bool
mg_sampler_materialize (MgSampler *s, uint32_t head_slots)
{
  char err[512];
  if (!s->rec.in_memory)
    return true;
  if (s->record_failed || !run_goes_on (s))
    return false;
  drop_inherited (s);
  if (mg_record_materialize (&s->rec, head_slots, err, sizeof err) != 0)
    {
      s->record_failed = true;
      mg_log ("%s; running unprofiled", err);
      return false;
    }
  return true;
}

/* A fork child's plugin states: its parent's at the fork (a parent record
 * that is a file changes on), but those only a leader loads (a child is
 * never the leader). */
static void
copy_parent_states (const MgSampler *s, MgRecordPlugin *plugins)
{
  /* An exec'd image's own record: no parent, its plugins not loaded yet
   * (the layout's states). */
  if (!s->pending_plugins)
    return;
  for (size_t i = 0; i < s->plan.n_sources; i++)
    {
      const MgPluginRt *p = &s->plugins[i];
      plugins[i] = s->pending_plugins[i];
      /* Its text went with a later state (a hang in the parent). */
      if (plugins[i].state != p->fork_state)
        plugins[i].error[0] = '\0';
      plugins[i].state = p->fork_state;
      plugins[i].error_code = p->fork_error_code;
      if (s->pending_was_leader && p->leader_only)
        plugins[i].state = MG_PLUGIN_STATE_NOT_LEADER;
    }
}

/* What a fork child's plugins write their states into when it has no
 * record: it ended by an exec before its first round, or its record could
 * not be laid out. Nothing of it is written out: a static header and a
 * copy of the plugin table (their stop and cleanup write their states). */
static MgRecordHeader stub_header;
static MgRecordPlugin *stub_plugins;

static void
install_stub (MgSampler *s)
{
  const MgRecordPlugin *parent = s->pending_plugins;
  memset (&stub_header, 0, sizeof stub_header);
  s->rec.header = &stub_header;
  s->rec.metrics = NULL;
  s->rec.map = NULL;
  s->rec.stacks = NULL;
  s->rec.in_memory = true;
  s->rec.plugins = NULL;
  if (s->record_pending && parent)
    {
      stub_plugins = malloc (s->plan.n_sources * sizeof *stub_plugins + 1);
      if (stub_plugins)
        copy_parent_states (s, stub_plugins);
      s->rec.plugins = stub_plugins;
    }
  s->record_pending = false;
  s->record_failed = true;
}

static void
free_stub (MgSampler *s)
{
  if (s->rec.header != &stub_header)
    return;
  free (stub_plugins);
  stub_plugins = NULL;
  memset (&s->rec, 0, sizeof s->rec);
}

/* A pending record that ends with the process's life only is never laid
 * out: install_stub takes the end's writes (the plugins' states, the end's
 * fields), and finish writes the record composed from them and the plan
 * (mg_record_write_composed), the bytes mg_sampler_ensure_record and
 * mg_record_write_out would have written. */
static bool compose_record;
static int64_t composed_slot_end_ns;

static void
compose_header (void *data, MgRecordHeader *h)
{
  const MgSampler *s = data;
  fill_header_fields (s, h);
  /* As mg_sampler_ensure_record: its parent at its start, and its start
   * on the real clock. */
  h->ppid = s->pending_ppid;
  h->start_real_ns -= mg_now_ns () - s->start_ns;
  h->flags |= stub_header.flags;
  h->end_mono_ns = stub_header.end_mono_ns;
  h->end_status = stub_header.end_status;
  h->state = stub_header.state;
}

static void
compose_plugin (void *data, uint32_t i, MgRecordPlugin *rp)
{
  /* A fork child's: its parent's states, then its own stop and cleanup. */
  if (stub_plugins)
    *rp = stub_plugins[i];
  else
    fill_plugin_entry (data, i, rp);
}

static void
compose_metric (void *data, uint32_t m, MgRecordMetric *rm)
{
  const MgSampler *s = data;
  fill_metric_entry (s, m, rm);
  if (s->metrics[m].ended_active)
    rm->flags |= MG_METRIC_FLAG_ACTIVE;
}

static void
compose_at_end (MgSampler *s)
{
  /* Written only where it changes (the table's pages untouched). */
  for (size_t m = 0; m < s->plan.n_metrics; m++)
    if (s->metrics[m].ended_active != s->metrics[m].active)
      s->metrics[m].ended_active = s->metrics[m].active;
  install_stub (s);
  compose_record = true;
  composed_slot_end_ns = 0;
}

static void
write_composed (MgSampler *s)
{
  char err[512];
  MgRecordComposer c = { compose_header, compose_plugin, compose_metric,
                         s->sampling_start_ns, composed_slot_end_ns, s };
  if (mg_record_write_composed (s->plan.record_dir, s->host, s->plan.run_id, s->pid, s->start_ns,
                                (uint32_t) s->plan.n_sources, (uint32_t) s->plan.n_metrics,
                                (uint32_t) s->plan.samples, s->rec.max_stacks, &c, err,
                                sizeof err) != 0)
    mg_log ("%s; running unprofiled", err);
}

bool
mg_sampler_ensure_record (MgSampler *s)
{
  mg_sampler_forget_leader_metrics (s);
  if (!s->record_pending)
    return s->rec.header != &stub_header;
  if (!create_record (s, true))
    {
      install_stub (s);
      return false;
    }
  s->record_pending = false;
  MgRecordHeader *h = s->rec.header;
  /* As at the fork: its parent then, and its start on the real clock. */
  h->ppid = s->pending_ppid;
  h->start_real_ns -= mg_now_ns () - s->start_ns;
  copy_parent_states (s, s->rec.plugins);
  for (size_t m = 0; m < s->plan.n_metrics; m++)
    if (s->metrics[m].active)
      s->rec.metrics[m].flags |= MG_METRIC_FLAG_ACTIVE;
  return true;
}

/* No record yet: only the writer's pointers are cleared (its 4 KB path
 * is left, a page more to touch for nothing). */
static void
clear_record (MgSampler *s)
{
  s->rec.map = NULL;
  s->rec.size = 0;
  s->rec.header = NULL;
  s->rec.plugins = NULL;
  s->rec.metrics = NULL;
  s->rec.stacks = NULL;
  s->rec.in_memory = false;
  s->rec.max_stacks = s->stacks_table_size;
  s->record_failed = false;
}

/* A descendant's record waits, as a fork child's does, for its thread's
 * first wake-up (a quarter interval in, before the plugins load) or its
 * end: one that execs before (env, nice, a shell's exec, a wrapper)
 * never lays it out, and the layout's pages (the header, the tables: ten
 * pages zeroed and written for the default plan) are not on the
 * constructor's path. Its own record: no parent's plugin states. */
static void
defer_record (MgSampler *s)
{
  clear_record (s);
  s->pending_plugins = NULL;
  s->pending_was_leader = false;
  s->pending_ppid = (int) getppid ();
  s->record_pending = true;
}

static void
start_sampling (MgSampler *s)
{
  s->sampling_start_ns = s->start_ns + (int64_t) s->plan.start_after_ms * 1000000;
  /* A record laid out later (a descendant's, a fork child's) has them set
   * by the thread at its first wake-up, before any round: one that ends
   * before ends with its life only, and its table's pages (a page or two
   * of the heap, copied in a fork child) stay untouched. */
  if (!s->record_pending)
    mg_sampling_start_spans (s);
  s->sampling_ended = false;
  s->finished = 0;
  s->rounds = 0;
  s->round_ns_total = s->round_ns_max = 0;
  mg_stacks_start (s);
  if (mg_sampling_start_thread (s) != 0)
    {
      mg_log ("cannot start the sampling thread");
      return;
    }
  s->sampling = true;
}

/* Before the first static destructor of a Score-P plugin that still runs
 * (mg-scorep-statics.h): its finalize must come first. */
static void
end_before_plugin_statics (int source)
{
  if (source >= 0 && mg_scorep_running ((size_t) source))
    mg_sampler_end_before_exit ();
}

/* A fresh process image, or the same one after a failed exec. */
static void
begin (MgSampler *s)
{
  bool deferred = mg_plugins_deferrable (s);
  if (!deferred)
    mg_sampler_elect (s);
  /* The front end's own program has its file at once (it is the one the
   * run is about, and the launcher marks it if it is killed early); its
   * descendants, often many and short, only once they live to their
   * first round or end by exit. */
  s->start_ns = mg_now_ns ();
  if (deferred)
    defer_record (s);
  else if (!create_record (s, false))
    return;
  mg_scorep_statics_set_hook (end_before_plugin_statics);
  /* The sampler thread loads the plugins before its first round: a
   * process that ends (or execs) in its first milliseconds never pays for
   * them, and its record holds its life (start, end, status) and a last
   * slot without values. */
  s->plugins_pending = true;
  s->plugins_called_off = 0;
  s->fork_child = false;
  if (!deferred)
    mg_plugins_begin (s);
  start_sampling (s);
}

/* How long a thread stopping or forking waits for the thread to let go of
 * the record, once no getter is running (it is finishing a round). */
enum { ROUND_WAIT_S = 3 };
/* The least wait for a round in progress: on a loaded machine a round of
 * quick getters can take longer than a short interval. */
enum { MIN_CALL_WAIT_MS = 100 };

static struct timespec
realtime_in_ns (int64_t ns)
{
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  ns += ts.tv_nsec;
  ts.tv_sec += (time_t) (ns / 1000000000);
  ts.tv_nsec = (long) (ns % 1000000000);
  return ts;
}

static struct timespec
realtime_in (int seconds)
{
  return realtime_in_ns ((int64_t) seconds * 1000000000);
}

/* Takes the sampling lock, waiting for a getter in progress at most one
 * interval (not at all once it has run past the hang bound), so that a
 * hung plugin delays the program's exit or fork by no more than that. */
bool
mg_sampler_lock_round (MgSampler *s)
{
  int64_t interval_ns = (int64_t) s->plan.interval_ms * 1000000;
  int64_t wait_ns = interval_ns > MIN_CALL_WAIT_MS * 1000000LL ? interval_ns
                                                               : MIN_CALL_WAIT_MS * 1000000LL;
  MgPluginCall call;
  if (mg_plugin_guard_current (&call)
      && mg_now_ns () - call.since_ns >= (int64_t) s->plan.hang_intervals * interval_ns)
    wait_ns = 0;
  struct timespec deadline = realtime_in_ns (wait_ns);
  __atomic_store_n (&s->end_waiting, 1, __ATOMIC_RELEASE);
  bool locked = pthread_mutex_timedlock (&s->lock, &deadline) == 0;
  __atomic_store_n (&s->end_waiting, 0, __ATOMIC_RELEASE);
  return locked;
}

/* The plugin states a fork child starts from (copy_parent_states), kept
 * in step with this process's record here, before each fork, and written
 * only when one has changed (rarely): the child finds them in its copy of
 * the table, where taking them itself wrote the table's page (copied) and
 * read the record's shared mapping (a fault of its own) in every child. */
static void
keep_fork_states (MgSampler *s)
{
  if (!s->sampling || s->record_pending || !s->rec.plugins || !s->plugins)
    return;
  for (size_t i = 0; i < s->plan.n_sources; i++)
    {
      MgPluginRt *p = &s->plugins[i];
      const MgRecordPlugin *rp = &s->rec.plugins[i];
      if (p->fork_state != rp->state)
        p->fork_state = rp->state;
      if (p->fork_error_code != rp->error_code)
        p->fork_error_code = rp->error_code;
    }
}

static void
atfork_prepare (void)
{
  /* Wait for the round in progress: the child then never inherits a
   * half-written slot or a lock taken inside a getter. */
  /* Once finished (a fork in a handler or destructor run after ours), the
   * end may keep the lock: nothing to wait for. */
  if (mg_sampler.sampling && mg_sampler.thread_started && mg_sampler_owns_process ()
      && !__atomic_load_n (&mg_sampler.finished, __ATOMIC_ACQUIRE))
    mg_sampler.fork_locked = mg_sampler_lock_round (&mg_sampler);
  else if (mg_sampler.fork_locked)
    mg_sampler.fork_locked = false;
  keep_fork_states (&mg_sampler);
}

static void
atfork_parent (void)
{
  if (mg_sampler.fork_locked)
    {
      pthread_mutex_unlock (&mg_sampler.lock);
      mg_sampler.fork_locked = false;
    }
}

/* The child samples into its own record: fresh samples, never the node
 * leader, its plugins as inherited (already initialised). The record is
 * laid out only when it is needed (mg_sampler_ensure_record): most fork
 * children exec at once, and the layout (a mapping, the tables, the
 * parent's plugin states: about 80 us of the child's CPU, its pages
 * copied or zeroed one by one) was for nothing. */
static void
atfork_child (void)
{
  MgSampler *s = &mg_sampler;
  s->fork_generation++;
  s->io_at_fork.bytes_read = __atomic_load_n (&mg_bytes_read, __ATOMIC_RELAXED);
  s->io_at_fork.bytes_written = __atomic_load_n (&mg_bytes_written, __ATOMIC_RELAXED);
  s->io_at_fork.read_calls = __atomic_load_n (&mg_read_calls, __ATOMIC_RELAXED);
  s->io_at_fork.write_calls = __atomic_load_n (&mg_write_calls, __ATOMIC_RELAXED);
  mg_stacks_forget_threads ();
  if (!s->sampling || s->finished || s->sampling_ended)
    {
      s->sampling = false;
      return;
    }
  int parent_pid = s->pid;
  s->thread_started = false;
  s->thread_called_off = false; /* threads are not inherited */
  s->lock_kept = false;
  s->plugins_called_off = 0;
  s->fork_child = true;
  s->sampling = false;
  s->pid = getpid ();
  if (s->lock_fd >= 0)
    close (s->lock_fd);
  s->lock_fd = -1;
  /* Forked under a seccomp filter: the child runs unprofiled, as its
   * thread and record would be made by system calls the filter may
   * forbid (sampler.md, "A seccomp filter"). */
  if (mg_seccomp_filtered ())
    return;
  bool was_leader = s->leader;
  s->leader = false;
  if (!s->record_pending)
    {
      /* Unmapped when this record is a file, or by the exec most children
       * do first (an munmap for nothing). */
      drop_inherited (s);
      s->inherited_map = s->rec.map;
      s->inherited_size = s->rec.size;
      s->pending_plugins = s->rec.plugins;
      s->pending_was_leader = was_leader;
      /* The plugins' states at the fork are in s->plugins[i].fork_state
       * already (keep_fork_states). */
      s->record_pending = true;
    }
  /* else its parent had not laid out its own yet: this one is laid out
   * from the same record, still mapped, as the parent's would have been. */
  s->pending_ppid = parent_pid;
  s->start_ns = mg_now_ns ();
  clear_record (s);
  /* Written only where it changes: the tables' pages are otherwise only
   * read in the child (not copied). */
  for (size_t i = 0; i < s->plan.n_sources; i++)
    if (was_leader && s->plugins[i].leader_only && s->plugins[i].initialised)
      s->plugins[i].initialised = false;
  /* The leader's onePerNode metrics stop in the child, before anything
   * reads them: at its thread's first wake-up or at its end
   * (mg_sampler_forget_leader_metrics). */
  s->leader_metrics_to_forget = was_leader;
  start_sampling (s);
}

void
mg_sampler_forget_leader_metrics (MgSampler *s)
{
  if (!s->leader_metrics_to_forget)
    return;
  s->leader_metrics_to_forget = false;
  for (size_t m = 0; m < s->plan.n_metrics; m++)
    if (s->metrics[m].active && s->plan.metrics[m].one_per_node)
      s->metrics[m].active = false;
}

/* A process whose plugins were never loaded, and a fork child that ends
 * before its first round, end with their life only (a slot without
 * values): no getter runs, nothing is backfilled; the plugins that were
 * initialised still get their stop and cleanup. */
static bool
life_only (const MgSampler *s)
{
  return s->plugins_pending || (s->fork_child && s->rounds == 0);
}

/* Returns false when the thread is stuck in a getter: then nothing more of
 * the plugins may be called. */
static bool
stop_thread (MgSampler *s, bool ending_now)
{
  if (!s->thread_started)
    return true;
  if (pthread_equal (pthread_self (), s->thread))
    return false; /* exit from inside a getter */
  /* Not begun yet (created moments ago, not yet scheduled): called off, it
   * returns at once whenever it runs, touching nothing, and the process
   * ends (or execs) without waiting for the scheduler to run it. */
  int not_begun = MG_THREAD_NOT_BEGUN;
  if (__atomic_compare_exchange_n (&s->thread_state, &not_begun, MG_THREAD_CALLED_OFF, false,
                                   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    {
      s->thread_called_off = true;
      s->thread_started = false;
      return true;
    }
  /* A thread still loading the plugins loads no more: the process ends
   * once the one in progress is done, not after all of them. */
  __atomic_store_n (&s->plugins_called_off, 1, __ATOMIC_RELEASE);
  if (!mg_sampler_lock_round (s))
    {
      MgPluginCall call;
      if (mg_plugin_guard_current (&call))
        mg_plugin_guard_report_hang (s, &call, mg_now_ns ());
      return false;
    }
  /* An end with its life only reads nothing the thread leaves at its end
   * (its usage, for the getters), so that it is not waited for either:
   * it would need the scheduler to run it, once more per process. */
  if (ending_now || life_only (s))
    {
      /* An exec or _exit follows, and the kernel ends the thread there:
       * blocked on the lock this keeps, it starts no round, and the end
       * need not wait for the scheduler to run it out (a failed exec lets
       * go and joins it, mg_sampler_restart). Not woken either: woken, it
       * would only run to block on the lock (a wake-up and two switches
       * more per process). */
      mg_sampling_mark_stop (s);
      s->lock_kept = true;
      return true;
    }
  mg_sampling_request_stop (s);
  pthread_mutex_unlock (&s->lock);
  struct timespec deadline = realtime_in (ROUND_WAIT_S);
  if (pthread_timedjoin_np (s->thread, NULL, &deadline) != 0)
    return false;
  s->thread_started = false;
  return true;
}

/* True when the end has a plugin function to call: an initialised plugin
 * (cleanup, and stop and getters if started) or a Score-P source. */
static bool
plugins_to_call (const MgSampler *s)
{
  for (size_t i = 0; i < s->plan.n_sources; i++)
    if (s->plugins[i].initialised || s->plan.sources[i].scorep_name)
      return true;
  return false;
}

/* A fork child that execs before its first round (a shell's command):
 * its record was never laid out, and nothing of it is written out. When
 * each of the plugins it inherited says that an exec releases all it
 * holds (the built-in ones), none of their functions is called: their
 * stop and cleanup would only close close-on-exec descriptors and reset
 * memory that the exec drops, and cost the child the pages of their code
 * and data, a copy of the plugin table and the watch's timer (about 20
 * page faults and 5 system calls; docs/sampler.md, "Cost"). */
static bool
exec_leaves_plugins (const MgSampler *s)
{
  if (!s->fork_child || s->rounds != 0 || !s->record_pending || s->plugins_pending)
    return false;
  for (size_t i = 0; i < s->plan.n_sources; i++)
    if (s->plan.sources[i].scorep_name
        || (s->plugins[i].initialised && !s->plugins[i].exec_releases_all))
      return false;
  return true;
}

static void end_stopped_plugins (MgSampler *s, bool stopped, bool final_round);

/* The thread, the last sample and the plugins' stop and cleanup, once:
 * false when the thread could not be stopped (the plugins are left). */
static bool
end_plugins (MgSampler *s, bool final_round, bool ending_now)
{
  if (__atomic_exchange_n (&s->plugins_ended, 1, __ATOMIC_ACQ_REL))
    return s->plugins_stopped;
  bool stopped = s->plugins_stopped = stop_thread (s, ending_now);
  if (stopped && !final_round && exec_leaves_plugins (s))
    {
      /* No stub either: finish finds no header and writes nothing. */
      s->plugins_left_at_exec = true;
      mg_stacks_stop (s);
      return true;
    }
  end_stopped_plugins (s, stopped, final_round);
  return stopped;
}

/* After stop_thread (stopped: the thread let go; otherwise it is stuck in
 * a getter): the record's last slot, the plugins' stop and cleanup. */
static void
end_stopped_plugins (MgSampler *s, bool stopped, bool final_round)
{
  mg_sampler_forget_leader_metrics (s);
  /* Ending before its record was laid out (a fork child before its
   * first round, an exec'd image before its thread's first wake-up): an
   * exit writes it at the end, composed (it holds its life only); an exec
   * needs none. */
  if (stopped && s->record_pending)
    {
      if (final_round && life_only (s))
        compose_at_end (s);
      else if (final_round)
        mg_sampler_ensure_record (s);
      else
        install_stub (s);
    }
  /* A process that exits before its first round with its plugins loaded:
   * its record becomes a file now, with room for the last round. One that
   * ends with its life only is written out at the very end (finish). */
  if (final_round && stopped && !life_only (s))
    mg_sampler_materialize (s, 1);
  /* Before the last round, which takes the stacks counted until now. A
   * thread stuck in a getter is not in the stacks' round. */
  mg_stacks_stop (s);
  if (stopped)
    {
      /* One watch for the last getters, stop, backfill and cleanup; none
       * (its timer's five system calls) when no plugin is to be called. */
      bool watch = plugins_to_call (s);
      if (watch)
        mg_plugin_guard_watch_begin (mg_sampling_watch_period_ns (s));
      if (final_round && life_only (s))
        {
          for (size_t m = 0; m < s->plan.n_metrics; m++)
            if (s->metrics[m].active)
              s->metrics[m].active = false;
          if (compose_record)
            composed_slot_end_ns = mg_sampling_life_end (s);
          else
            mg_sampling_life_slot (s);
        }
      else if (final_round)
        mg_sampling_final_round (s);
      else if (s->rec.header != NULL && s->rec.header->n_samples > 0)
        /* An exec takes no last round: the stack samples since the last
         * one go to its slot, as a final round less than half an interval
         * after it does, rather than nowhere (they read as "not stored",
         * which the summary blames on a full table). */
        mg_stacks_drain (s, s->rec.header->n_samples - 1);
      mg_sampling_end (s);
      mg_plugins_cleanup (s);
      if (watch)
        mg_plugin_guard_watch_end ();
    }
  else
    {
      mg_log ("a getter did not return; plugins not stopped");
      /* Stuck in a plugin's initialise or start, the thread has written
       * no slot, and asked to stop first it writes none: the process
       * still shows its life. */
      mg_sampling_request_stop (s);
      if (final_round && __atomic_load_n (&s->plugins_pending, __ATOMIC_SEQ_CST)
          && s->rec.header)
        mg_sampling_life_slot (s);
    }
}

/* The end of a process whose ending thread runs under a seccomp filter
 * (or whose sampler thread met one): the filter could kill the process
 * for any system call of ours that the program never makes (the plugin
 * watch's timer_create killed a program that exited 0 unprofiled, with
 * SIGSYS), so the end makes none. No last round, no stop or cleanup of the
 * plugins, nothing joined: the thread is told to start no round, the
 * record's end and the reason are written in its mapping. A record still
 * in memory (a fork child before its first round) is not written. */
static void
end_under_filter (MgSampler *s, MgRecordState state, int status)
{
  __atomic_store_n (&s->plugins_ended, 1, __ATOMIC_RELEASE);
  mg_sampling_mark_stop (s);
  /* An exec keeps a pending signal: a stack timer's that fired just
   * before it would end the new image, as the end without a filter
   * guards against (mg_stacks_stop). Rare (none in 500 execs of images
   * busy for 30 ms under a filter at --interval=5 without it), but its
   * system calls (timer_delete, rt_sigprocmask, rt_sigtimedwait) are ones
   * that a filter installed before an exec lets the new image make. */
  if (state == MG_RECORD_STATE_EXECED)
    mg_stacks_disarm ();
  MgRecordHeader *h = s->rec.header;
  if (h == NULL || s->rec.in_memory)
    return;
  /* Kept, not waited for: the thread starts no round after this (a
   * round in progress ends on its own; the kernel ends the thread). */
  if (!s->thread_started || pthread_mutex_trylock (&s->lock) == 0)
    mg_sampling_stop_under_filter (s);
  else
    mg_seccomp_stop_record (h);
  h->end_mono_ns = mg_now_ns ();
  h->end_status = status;
  __atomic_store_n (&h->state, (uint32_t) state, __ATOMIC_RELEASE);
}

static bool
under_filter (const MgSampler *s)
{
  return __atomic_load_n (&s->seccomp_parked, __ATOMIC_ACQUIRE) || mg_seccomp_filtered ();
}

void
mg_sampler_end_before_exit (void)
{
  MgSampler *s = &mg_sampler;
  if (s->sampling && mg_sampler_owns_process () && !__atomic_load_n (&s->finished, __ATOMIC_ACQUIRE)
      && !under_filter (s))
    end_plugins (s, true, false);
}

/* ending_now: an exec or _exit follows at once (no handler or destructor
 * of the program runs in between). */
static bool
finish (MgRecordState state, int status, bool ending_now)
{
  MgSampler *s = &mg_sampler;
  if (!s->sampling || !mg_sampler_owns_process ())
    return false;
  if (__atomic_exchange_n (&s->finished, 1, __ATOMIC_ACQ_REL))
    return false;
  if (!s->plugins_ended && under_filter (s))
    {
      s->ended_under_filter = true;
      end_under_filter (s, state, status);
      return true;
    }
  end_plugins (s, state == MG_RECORD_STATE_EXITED, ending_now);
  MgRecordHeader *h = s->rec.header;
  /* A fork child whose thread, stuck, still had its record to lay out. */
  if (!h)
    return true;
  h->end_mono_ns = mg_now_ns ();
  h->end_status = status;
  __atomic_store_n (&h->state, (uint32_t) state, __ATOMIC_RELEASE);
  if (compose_record)
    {
      compose_record = false;
      if (state == MG_RECORD_STATE_EXITED && run_goes_on (s))
        write_composed (s);
    }
  /* Still in memory at exit (it ended with its life only, or its thread
   * could not be stopped): written out whole, with its end, in five
   * system calls. An exec leaves it: the next image has its own. */
  if (s->rec.in_memory && !s->record_failed && state == MG_RECORD_STATE_EXITED
      && run_goes_on (s))
    {
      char err[512];
      if (mg_record_write_out (&s->rec, err, sizeof err) != 0)
        mg_log ("%s; running unprofiled", err);
    }
  if (s->stats)
    mg_say ("metrograph-sampler: pid %d: %llu rounds, mean %.2f us, max %.2f us, sampler thread "
         "CPU %.3f ms",
         s->pid, (unsigned long long) s->rounds,
         s->rounds ? (double) s->round_ns_total / (double) s->rounds / 1e3 : 0.0,
         (double) s->round_ns_max / 1e3, (double) s->thread_cpu_ns / 1e6);
  return true;
}

void
mg_sampler_finish (MgRecordState state, int status)
{
  finish (state, status, true);
}

bool
mg_sampler_finish_for_exec (void)
{
  return finish (MG_RECORD_STATE_EXECED, 0, true);
}

void
mg_sampler_restart (void)
{
  MgSampler *s = &mg_sampler;
  /* A failed exec under a filter: the process goes on unprofiled (a new
   * thread and record would be made by system calls it may forbid). */
  if (s->ended_under_filter)
    {
      s->sampling = false;
      return;
    }
  if (s->lock_kept)
    {
      /* Asked to stop before the exec (not woken), it ends once it has
       * the lock. */
      s->lock_kept = false;
      mg_sampling_request_stop (s);
      pthread_mutex_unlock (&s->lock);
      pthread_join (s->thread, NULL);
      s->thread_started = false;
    }
  /* What the exec would have done to them before it failed, then. */
  if (s->plugins_left_at_exec)
    {
      s->plugins_left_at_exec = false;
      end_stopped_plugins (s, true, false);
    }
  s->leader_metrics_to_forget = false; /* the table is made again */
  free_stub (s);
  mg_record_forget (&s->rec);
  s->record_pending = false;
  drop_inherited (s);
  s->sampling = false;
  s->plugins_ended = 0;
  s->pid = getpid ();
  begin (s);
}

bool
mg_sampler_pause (void)
{
  MgSampler *s = &mg_sampler;
  struct stat st;
  if (!s->sampling || !s->thread_started || s->lock_kept
      || __atomic_load_n (&s->finished, __ATOMIC_ACQUIRE)
      || pthread_equal (pthread_self (), s->thread))
    return false;
  /* Only the calling thread and the sampler's (2 + 2 links): any other
   * thread of the program makes the call fail as it would unprofiled. */
  if (stat ("/proc/self/task", &st) != 0 || st.st_nlink != 2 + 2)
    return false;
  /* Once the round in progress is done, or the plugins being loaded are:
   * each call within its limit (a hung one is abandoned there), as failing
   * the program's call would change its course. */
  int64_t wait_ms = (int64_t) s->plan.plugin_limit_ms
                    + (int64_t) s->plan.hang_intervals * s->plan.interval_ms + 1000;
  struct timespec locked_by = realtime_in_ns (wait_ms * 1000000);
  if (pthread_mutex_timedlock (&s->lock, &locked_by) != 0)
    return false;
  mg_sampling_request_stop (s);
  pthread_mutex_unlock (&s->lock);
  struct timespec ended_by = realtime_in (ROUND_WAIT_S);
  if (pthread_timedjoin_np (s->thread, NULL, &ended_by) != 0)
    return false; /* still running: the end joins it */
  s->thread_started = false;
  /* Joined once it cleared its thread id, which the kernel does before it
   * takes the thread out of the process: the call would still count it
   * (EINVAL, 1 run of /cli/processes/unshare-user in about 20 on a
   * loaded machine). At most 0.2 s more. */
  for (int i = 0; i < 2000 && stat ("/proc/self/task", &st) == 0 && st.st_nlink > 2 + 1; i++)
    {
      struct timespec nap = { 0, 100000 };
      nanosleep (&nap, NULL);
    }
  mg_log ("the sampling thread stepped aside for an unshare or setns");
  return true;
}

void
mg_sampler_resume (void)
{
  MgSampler *s = &mg_sampler;
  int rc = mg_sampling_resume_thread (s);
  if (rc != 0)
    mg_log ("cannot start the sampling thread again after an unshare or setns: %s",
            strerror (rc));
}

static void
on_exit_handler (int status, void *data)
{
  finish (MG_RECORD_STATE_EXITED, status & 0xff, false);
}

static bool
env_is_one (const char *name)
{
  const char *v = getenv (name);
  return v && strcmp (v, "1") == 0;
}

static bool
skipped (const MgPlan *plan)
{
  char path[4096];
  ssize_t n = readlink ("/proc/self/exe", path, sizeof path - 1);
  exe_path = heap_copy (path, n > 0 ? (size_t) n : 0);
  return mg_plan_skips (plan, exe_path) || mg_plan_skips (plan, program_invocation_name);
}

__attribute__((constructor)) static void
mg_sampler_constructor (void)
{
  MgSampler *s = &mg_sampler;
  char err[1024];

  mg_log_set_verbose (env_is_one (MG_SAMPLER_VERBOSE_ENV));
  s->stats = env_is_one ("METROGRAPH_SAMPLER_STATS");
  s->pid = getpid ();
  /* MemorySanitizer (clang -fsanitize=memory) checks the memory handed to
   * the C library, and what the sampler's code (not built with it) writes
   * stays "uninitialised" to it: the program ended at the plan's first
   * strrchr ("use-of-uninitialized-value in mg_plan_skips", status 1).
   * Such a program runs unprofiled, as it would without us. */
  if (dlsym (RTLD_DEFAULT, "__msan_init") != NULL)
    {
      mg_log ("the program is built with MemorySanitizer; running unprofiled");
      return;
    }
  const char *path = getenv (MG_PLAN_ENV);
  /* The program's stderr is not ours: why it runs unprofiled (a child
   * that dropped the plan, one that setuid can no longer read it) is said
   * with METROGRAPH_SAMPLER_VERBOSE=1 only; the front end says when no
   * process sampled. */
  if (!path || !*path)
    {
      mg_log ("METROGRAPH_PLAN is not set; running unprofiled");
      return;
    }
  mg_seccomp_note_start ();
  plan_path = heap_copy (path, strnlen (path, 4095));
  /* One look at the plan in the common case: a plan that can be read is
   * there, and has nothing to restore. */
  bool readable = access (path, R_OK) == 0;
  if (!readable)
    {
      mg_node_folder_restore_plan (path);
      readable = access (path, R_OK) == 0;
    }
  /* The plan's text came with the environment: parsed from there when the
   * file is still there to read (a run that has ended removed it; a
   * process that dropped its privileges may no longer read it), without
   * reading the file in every process. */
  const char *text = getenv (MG_PLAN_TEXT_ENV);
  if (text && *text && readable
        ? mg_plan_load_text (path, text, &s->plan, err, sizeof err) < 0
        : mg_plan_load (path, &s->plan, err, sizeof err) < 0)
    {
      mg_log ("%s; running unprofiled", err);
      return;
    }
  if (skipped (&s->plan))
    return;
  /* --select-ranks: the launcher's rank variables are set before main, so
   * an unselected rank runs untouched: no record, no plugins, no thread. */
  start_rank = mpi_rank ();
  if (!mg_plan_selects_rank (&s->plan, start_rank))
    {
      mg_log ("rank %d is not selected; running unprofiled", start_rank);
      mg_plan_clear (&s->plan);
      return;
    }
  if (mg_node_folder_ensure_records (s->plan.record_dir, err, sizeof err) != 0)
    {
      mg_log ("%s; running unprofiled", err);
      mg_plan_clear (&s->plan);
      return;
    }
  s->have_plan = true;
  s->stacks_table_size = mg_stacks_table_size (s);
  s->plugins = calloc (s->plan.n_sources + 1, sizeof *s->plugins);
  s->metrics = calloc (s->plan.n_metrics + 1, sizeof *s->metrics);
  if (!s->plugins || !s->metrics)
    return;
  for (size_t i = 0; i < s->plan.n_sources; i++)
    {
      bool any = false, all = true;
      for (size_t m = 0; m < s->plan.n_metrics; m++)
        if (s->plan.metrics[m].source == i)
          {
            any = true;
            all &= s->plan.metrics[m].one_per_node;
          }
      s->plugins[i].leader_only = any && all;
    }
  mg_record_host_name (s->host);

  pthread_atfork (atfork_prepare, atfork_parent, atfork_child);
  on_exit (on_exit_handler, NULL);
  mg_plugin_guard_install ();
  begin (s);
}
