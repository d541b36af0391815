/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sampler engine's process-wide state, shared by its files. Everything
 * here is allocated before sampling starts; the sampling round only reads
 * and writes preallocated memory. */
#ifndef MG_SAMPLER_STATE_H
#define MG_SAMPLER_STATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

#include "allinea_metric_plugin_types.h"
#include "metrograph_plugin_ext.h"
#include "mg-clock.h"
#include "mg-log.h"
#include "mg-plan.h"
#include "format/mg-record-writer.h"

#define MG_INTERNAL __attribute__((visibility("hidden")))

typedef int (*MgInitFn) (plugin_id_t plugin, void *data);
typedef int (*MgStartStopFn) (plugin_id_t plugin);
typedef int (*MgU64Getter) (metric_id_t id, struct timespec *t, uint64_t *out);
typedef int (*MgDoubleGetter) (metric_id_t id, struct timespec *t, double *out);

typedef struct {
  void *handle;
  MgInitFn init;
  MgInitFn cleanup;
  MgStartStopFn start;
  MgStartStopFn stop;
  bool leader_only;   /* every metric of it is onePerNode */
  bool initialised;   /* init returned 0 and cleanup is owed */
  bool failed_in_init;/* a plugin error was set during its init */
  /* Its library says an exec releases all it holds
   * (METROGRAPH_PLUGIN_EXEC_RELEASES_ALL): a fork child that execs before
   * its first round calls neither its stop nor its cleanup. */
  bool exec_releases_all;
  /* Its state and error code in a fork child's parent record at the fork
   * (the record laid out later takes these: mg_sampler_ensure_record),
   * kept in step by the parent before each fork (keep_fork_states). */
  uint32_t fork_state;
  int32_t fork_error_code;
} MgPluginRt;

typedef struct {
  void *getter;
  bool active;        /* sampled (or backfilled) by this process */
  int64_t prev_ns;    /* where its previous sample's span ended (divide) */
  int64_t read_ns;    /* when this round's value was read (divide) */
  bool ended_active;  /* active when a record composed at the end was
                         begun (mg-sampler.c, compose_at_end) */
} MgMetricRt;

enum {
  MG_THREAD_NOT_BEGUN,
  MG_THREAD_RUNNING,
  MG_THREAD_CALLED_OFF,
};

typedef struct {
  MgPlan plan;
  bool have_plan;
  bool sampling;      /* a record exists and the thread runs or ran */
  int pid;
  char host[MG_RECORD_HOST_LEN];
  int64_t start_ns;   /* sampler start (CLOCK_MONOTONIC), the record's name */
  int64_t sampling_start_ns; /* previous time of every metric's first sample */
  MgPluginRt *plugins;
  MgMetricRt *metrics;
  int lock_fd;        /* onePerNode election, -1 if none */
  bool leader;
  int initialising;   /* plugin index + 1 while its init runs */
  /* The plugins are still to be loaded, initialised and started for this
   * record: by the sampler thread before its first round (off the
   * program's path), or by nobody when the process ends before that. */
  bool plugins_pending;
  /* Set by the process's end (exit, exec) while the plugins may still be
   * loading: the thread loads no more of them, and the process ends with
   * its life only, instead of waiting for them all to initialise. */
  int plugins_called_off;
  /* A fork child sampling with the plugins it inherited: if it ends
   * before its first round (most exec or exit at once), its last slot
   * holds its life only, without calling every getter for it. */
  bool fork_child;

  /* The record is still in memory (mg_record_create_in_memory): the
   * thread makes it a file at its first round, the end at exit; a process
   * that execs first leaves none (its next image has its own). */
  bool record_failed; /* making it a file failed: not tried again */
  /* A fork child's mapping of its parent's record, dropped once its own
   * record is a file (an exec drops it for nothing). */
  void *inherited_map;
  size_t inherited_size;
  /* A fork child's record is not laid out at the fork (most exec at
   * once, and need none): mg_sampler_ensure_record lays it out from its
   * parent's (pending_plugins, still mapped: inherited_map) at its first
   * round, its exit, or before it forks in turn. */
  bool record_pending;
  bool pending_was_leader;
  int pending_ppid;
  const MgRecordPlugin *pending_plugins; /* the parent's table, mapped */

  pthread_t thread;
  bool thread_started;
  /* The thread was started on its creator's CPU; thread_cpus: the mask it
   * takes back when it wakes for its work (mg-sampling.c). */
  bool thread_pinned;
  cpu_set_t thread_cpus;
  /* MG_THREAD_* : a thread the process's end finds not yet begun (a short
   * process on a loaded machine) is called off, not waited for. */
  int thread_state;
  bool thread_called_off; /* s->thread was called off and not yet joined */
  bool lock_kept;      /* the end (exec, _exit) holds s->lock until the
                         kernel ends the thread; a failed exec joins it */
  pthread_mutex_t lock;
  /* The atfork prepare handler took the lock (the parent lets go of it
   * after the fork): beside it, so that the parent writes one page of
   * the sampler's after each fork for both, where fork_locked had a page
   * of .bss of its own (a fault in the shell at every command). */
  bool fork_locked;
  /* An exit, exec or fork waits for the lock (mg_sampler_lock_round): the
   * thread takes it for no new round meanwhile. */
  int end_waiting;
  bool stop_requested;
  uint32_t stop_word; /* futex the thread sleeps on: non-zero once asked to stop */
  bool sampling_ended;/* stop functions and backfill done */
  int finished;       /* record closed (exit, exec) */
  bool round_late;    /* a getter of this round was abandoned at the bound */
  bool main_exited;   /* the main thread called pthread_exit: the thread
                         watches for the program's last thread to end */

  /* The fork children's count (metrograph_get_fork_generation), written
   * by the atfork child handler with the rest of this struct. */
  unsigned fork_generation;
  /* A fork child's exec before its first round left its inherited plugins
   * uncalled (mg-sampler.c, exec_leaves_plugins): a failed exec ends them
   * then, before the plugins are loaded again. */
  bool plugins_left_at_exec;
  /* A fork child of the node leader: its onePerNode metrics, active in
   * the table it inherited, are to be turned off before anything reads
   * the table (mg_sampler_forget_leader_metrics); done at the fork, it
   * wrote the table's page (copied) in every child. */
  bool leader_metrics_to_forget;
  /* A sampler thread was started in this process or its parent: the
   * thread figures (usage, activity, round threads) are to be reset
   * before the next one starts (mg_sampling_start_thread). */
  bool thread_figures_used;
  /* The safe I/O counts at the fork that made this process
   * (metrograph_get_safe_io_counts_at_fork), all 0 in a new image. */
  struct metrograph_safe_io_counts io_at_fork;

  bool stats;
  uint64_t rounds;
  /* Deadlines passed over since the last round (the sampler thread woke
   * later than an interval): the round stands for 1 + these. */
  uint32_t rounds_skipped;
  int64_t round_ns_total;
  int64_t round_ns_max;
  int64_t thread_cpu_ns;

  /* Read once by the constructor: the call-stack table's size
   * (mg_stacks_table_size), which every record of the process takes.
   * Looked up again in each fork child, it was a getenv there: in a
   * shell, the shell's own, through its variables' tables (five pages of
   * its code and data faulted in every command's fork child). */
  uint32_t stacks_table_size;
  /* end_plugins ran for this record (reset by mg_sampler_restart), and
   * its result: here, on the page a fork child writes anyway. */
  int plugins_ended;
  /* The sampler thread found itself under a seccomp filter that the
   * program installed after the image started (with
   * SECCOMP_FILTER_FLAG_TSYNC, or on the thread that made it): it makes
   * no more rounds (mg-seccomp.h). */
  bool seccomp_parked;
  bool ended_under_filter; /* the end made no system call (a filter) */
  bool plugins_stopped;
  /* Last, after every field a fork child or a new image writes: its 4 KB
   * path, written only when a record is made, would otherwise put them on
   * two pages (two faults in every fork child instead of one). */
  MgRecordWriter rec;
} MgSampler;

MG_INTERNAL extern MgSampler mg_sampler;


/* mg-plugin-loader.c */
/* False when called off (s->plugins_called_off) before every plugin was
 * loaded: then no metric is active. */
MG_INTERNAL bool mg_plugins_load (MgSampler *s);
MG_INTERNAL void mg_plugins_start (MgSampler *s);
/* Loads, initialises and starts the plugins if they are pending (under
 * one watch for their time limits); on the constructor's thread or the
 * sampler thread, which holds s->lock. Called off by the process's end,
 * they stay pending: none is started, those initialised get their
 * cleanup. */
MG_INTERNAL void mg_plugins_begin (MgSampler *s);
/* True when the sampler thread may load the plugins: not in the program
 * the front end started itself, nor with a Score-P source (their statics
 * and finalize are tied to the loading thread's order of exit). */
MG_INTERNAL bool mg_plugins_deferrable (const MgSampler *s);
MG_INTERNAL void mg_plugins_stop (MgSampler *s);
MG_INTERNAL void mg_plugins_cleanup (MgSampler *s);

/* mg-sampling.c */
/* A getter running this long is hung and abandoned: hang_intervals
 * intervals. */
MG_INTERNAL int64_t mg_sampling_hang_bound_ns (const MgSampler *s);
/* The tick of the plugin calls' watch (mg-plugin-guard.h). */
MG_INTERNAL int64_t mg_sampling_watch_period_ns (const MgSampler *s);
MG_INTERNAL void mg_sampling_round (MgSampler *s, int64_t now_ns);
MG_INTERNAL void mg_sampling_final_round (MgSampler *s);
/* The last slot of a process that ends with its life only: from the last
 * slot's end (or the start) to now, without values, no getter called.
 * Safe while the thread is still loading the plugins (it writes no slot
 * before it is done); none before start_after_ms or after stop_after_ms. */
MG_INTERNAL void mg_sampling_life_slot (MgSampler *s);
/* Where that slot of a record not laid out yet would end: now, or 0 when
 * it would have none. */
MG_INTERNAL int64_t mg_sampling_life_end (const MgSampler *s);
MG_INTERNAL void mg_sampling_backfill (MgSampler *s);
MG_INTERNAL int mg_sampling_start_thread (MgSampler *s);
/* Starts a thread that takes over from one that ended in this process
 * (mg_sampler_pause): same record, its usage and activity carried on. */
MG_INTERNAL int mg_sampling_resume_thread (MgSampler *s);
/* Every metric's previous span ends where sampling starts: before the
 * first round, on the thread or by the process's start. */
MG_INTERNAL void mg_sampling_start_spans (MgSampler *s);
/* Asks the thread to stop and wakes it; the caller holds s->lock. */
MG_INTERNAL void mg_sampling_request_stop (MgSampler *s);
/* Asks it to stop without waking it: it sees the request when its sleep
 * ends, or never (the caller keeps s->lock until an exec or exit ends
 * the thread). */
MG_INTERNAL void mg_sampling_mark_stop (MgSampler *s);
/* Ends sampling (stop functions, backfill) once; called by the thread at
 * stop_after_ms or by the lifecycle at the end. */
MG_INTERNAL void mg_sampling_end (MgSampler *s);

/* mg-thread-usage.c: the sampler thread's usage for the built-in plugins.
 * Reset before the thread starts; begin and end are called on it. */
MG_INTERNAL void mg_thread_usage_reset (void);
/* Before a thread that takes over from an ended one in the same process
 * (mg_sampler_resume): its figures add to the ended one's. */
MG_INTERNAL void mg_thread_usage_carry (void);
MG_INTERNAL void mg_thread_usage_begin (void);
MG_INTERNAL void mg_thread_usage_end (void);
/* True on the sampler thread. */
MG_INTERNAL bool mg_thread_usage_on_sampler_thread (void);
/* The sampler thread's faults as of the round's process usage (round: the
 * sample time), read with it; false off the sampler thread or unread. */
MG_INTERNAL bool mg_thread_usage_round_faults (const struct timespec *round, uint64_t *minor,
                                               uint64_t *major);

/* mg-thread-activity.c: the sampler thread's faults and storage I/O for
 * the built-in plugins. Reset before the thread starts; begin and end are
 * called on it. */
MG_INTERNAL void mg_thread_activity_reset (void);
MG_INTERNAL void mg_thread_activity_carry (void);
MG_INTERNAL void mg_thread_activity_begin (void);
MG_INTERNAL void mg_thread_activity_end (void);

/* mg-round-threads.c: the thread count once a round for the built-in
 * plugins. Reset before the thread starts (a forked child reopens). */
MG_INTERNAL void mg_round_threads_reset (void);
/* The task folder it keeps open (checked, st filled in), on the sampler
 * thread: what lists the threads after a chroot into a root without
 * /proc (the thread shares the process's root). -1 when none is kept. */
MG_INTERNAL int mg_round_threads_dir (struct stat *st);

/* mg-sampler.c: the process lifecycle */
/* Takes part in the onePerNode election if some metric needs it, once it
 * is to load plugins (the constructor, or the thread); the leader's
 * record says so. */
MG_INTERNAL void mg_sampler_elect (MgSampler *s);
/* Makes an in-memory record its file with blocks for head_slots slots
 * (mg_record_materialize), under s->lock or with the thread stopped;
 * false when it is not a file (the reason logged). */
MG_INTERNAL bool mg_sampler_materialize (MgSampler *s, uint32_t head_slots);
/* Lays out a fork child's pending record (record_pending), under s->lock
 * or with the thread stopped; false when it has none (then s->rec is a
 * stub in memory, record_failed set: nothing is written out). */
MG_INTERNAL bool mg_sampler_ensure_record (MgSampler *s);
MG_INTERNAL void mg_sampler_forget_leader_metrics (MgSampler *s);
/* At exit, before a Score-P plugin's statics are destroyed: stops the
 * thread, takes the last sample and stops and cleans up the plugins, once;
 * the record is closed later, by the exit handler that knows the status. */
MG_INTERNAL void mg_sampler_end_before_exit (void);
/* Closes the record in state (EXITED, EXECED) with status, at _exit or
 * _Exit: the process ends at once after it (the thread is not joined). */
MG_INTERNAL void mg_sampler_finish (MgRecordState state, int status);
/* Before an exec: closes the record as EXECED; false if this process was
 * not sampling (mg-interpose.c). */
MG_INTERNAL bool mg_sampler_finish_for_exec (void);
/* After a failed exec: sample again into a new record. */
MG_INTERNAL void mg_sampler_restart (void);
/* Around a system call that the kernel refuses to a process with more
 * than one thread (unshare of a user namespace, setns into a user or
 * mount namespace): ends the sampler thread (true) when the program has
 * no other thread; resume starts a new one on the same record. */
MG_INTERNAL bool mg_sampler_pause (void);
MG_INTERNAL void mg_sampler_resume (void);
/* True when the caller is the process that owns the sampler state (not a
 * vfork child sharing its memory). */
MG_INTERNAL bool mg_sampler_owns_process (void);
/* Takes the sampling lock once the round in progress is done, waiting at
 * most about an interval (not for a hung getter). */
MG_INTERNAL bool mg_sampler_lock_round (MgSampler *s);
/* The record's end under a seccomp filter (mg-seccomp.h): its life in a
 * first slot if it has none, and why it stopped; memory only. */
MG_INTERNAL void mg_sampling_stop_under_filter (MgSampler *s);

#endif /* MG_SAMPLER_STATE_H */
