/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Metrograph extensions to the MAP metric plugin API. Optional: a plugin that
 * must also run under other profilers looks these up at run time with
 * dlsym(RTLD_DEFAULT, "metrograph_get_safe_io_counts") instead of linking
 * them, and does without when they are absent. */
#ifndef METROGRAPH_PLUGIN_EXT_H
#define METROGRAPH_PLUGIN_EXT_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* I/O done through the allinea_safe_* functions (by plugins and by the
 * sampler itself) in this process, so that I/O metrics can leave it out. */
struct metrograph_safe_io_counts {
  uint64_t bytes_read;
  uint64_t bytes_written;
  uint64_t read_calls;   /* read(2)-family system calls made */
  uint64_t write_calls;
};

/* Fills *out; async-signal-safe. Returns 0. */
int metrograph_get_safe_io_counts (struct metrograph_safe_io_counts *out);
typedef int (*metrograph_get_safe_io_counts_fn) (struct metrograph_safe_io_counts *out);

/* The same counts as they were at the fork that made this process (noted
 * by the sampler's own pthread_atfork child handler; all 0 in a process
 * no fork made since the sampler started): a plugin that works per
 * process subtracts them once it sees the fork count change
 * (metrograph_get_fork_generation), with no atfork handler of its own. */
int metrograph_get_safe_io_counts_at_fork (struct metrograph_safe_io_counts *out);

/* pread(2) through the same accounting as allinea_safe_read: one system
 * call where lseek and read take two, for files re-read from offset 0 each
 * round (/proc files kept open). Async-signal-safe. */
ssize_t metrograph_safe_pread (int fd, void *buf, size_t count, off_t offset);

/* What the sampler's own thread in this process has cost so far, so that
 * CPU metrics can leave it out of the program's figures (the built-in CPU
 * Time plugin) and report it (Sampler overhead). */
struct metrograph_sampler_thread_usage {
  pid_t tid;            /* the thread's id while it runs, else 0 */
  uint64_t cpu_ns;      /* its CPU clock (CLOCK_THREAD_CPUTIME_ID): exact */
  uint64_t user_ns;     /* getrusage(RUSAGE_THREAD)'s split of its time */
  uint64_t system_ns;
  uint64_t voluntary;   /* its context switches */
  uint64_t involuntary;
};

/* Fills *out with the sampler thread's usage so far: all 0 before it
 * starts, its final figures once it has ended (its time stays in the
 * process's). Works on the sampler thread (where getters run), after it
 * ended, and on another thread while it runs (a round taken there, as at
 * MPI_Finalize): its clock read then, the split and switches as last read
 * on it. Returns -1 when its clock cannot be read, else 0.
 * Async-signal-safe. */
int metrograph_get_sampler_thread_usage (struct metrograph_sampler_thread_usage *out);
typedef int (*metrograph_get_sampler_thread_usage_fn) (struct metrograph_sampler_thread_usage *out);

/* The process's getrusage(RUSAGE_SELF) and the sampler thread's usage (as
 * above) at the round whose sample time is *round (the time the getter was
 * given): read once a round on the sampler thread and shared by every
 * plugin that asks, rather than one system call each. round NULL, or
 * another thread than the sampler's: read now. Either pointer may be NULL;
 * *sampler_thread is all 0 when it cannot be read from this thread.
 * Returns -1 with errno set when getrusage fails. Async-signal-safe. */
int metrograph_get_round_usage (const struct timespec *round, struct rusage *process,
                                struct metrograph_sampler_thread_usage *sampler_thread);

/* The number of threads of the process (the sampler's own included) at
 * the round whose sample time is *round: one fstat of /proc/self/task a
 * round on the sampler thread, shared by every plugin that asks. round
 * NULL: read now; another thread than the sampler's: read now, opening the
 * folder for it. Returns -1 with errno set when it cannot be read.
 * Async-signal-safe. */
int metrograph_get_round_thread_count (const struct timespec *round, uint64_t *threads);

/* Moves a descriptor the plugin keeps open (a /proc file read each round)
 * out of the program's way, as the sampler's own: close-on-exec, at a
 * number the program does not reach and that does not count against its
 * RLIMIT_NOFILE (at or above the soft limit when the hard one allows,
 * else from FD_SETSIZE, or in the top 64 numbers below a tighter limit,
 * or at the highest free number below a limit too tight for those).
 * Closes fd and returns the new descriptor, or returns fd when it cannot
 * be moved. Not async-signal-safe (it may change RLIMIT_NOFILE for the
 * moment of a dup): call it where the descriptor is opened. */
int metrograph_keep_fd (int fd);
typedef int (*metrograph_keep_fd_fn) (int fd);

/* As metrograph_keep_fd, for a descriptor the plugin can open again each
 * time it needs it (a /proc or /sys file): returns the moved descriptor
 * (fd closed), or -1 with errno EMFILE, fd left open as it was, when it
 * is not kept because it would take one of the numbers the program may
 * use: the hard RLIMIT_NOFILE leaves no room above the soft one (it is
 * not above both the soft one and 512), and the soft one is below
 * FD_SETSIZE + 64 (`ulimit -n 16`). The plugin then
 * reads fd this once, closes it, and opens the file again at its next
 * reading. Not async-signal-safe, as metrograph_keep_fd. */
int metrograph_keep_fd_if_free (int fd);
typedef int (*metrograph_keep_fd_if_free_fn) (int fd);

/* A plugin whose failed initialise leaves nothing of its own behind once
 * its cleanup has run (no thread, signal handler, atexit or other
 * callback into its code) may say so with METROGRAPH_PLUGIN_UNLOADABLE at
 * file scope: the sampler then closes its library (dlclose) after that
 * cleanup, so that no fork of the process copies its mappings. Without
 * it, a plugin whose initialise fails gets its cleanup at once and its
 * library stays loaded, as under MAP. */
#define METROGRAPH_PLUGIN_UNLOADABLE_SYMBOL "metrograph_plugin_unloadable"
#ifdef __cplusplus
#define METROGRAPH_PLUGIN_UNLOADABLE_LINKAGE extern "C"
#else
#define METROGRAPH_PLUGIN_UNLOADABLE_LINKAGE
#endif
#define METROGRAPH_PLUGIN_UNLOADABLE \
  METROGRAPH_PLUGIN_UNLOADABLE_LINKAGE __attribute__((visibility("default"), used)) \
  const int metrograph_plugin_unloadable = 1

/* A plugin all of whose hold on the process goes with an exec (memory,
 * close-on-exec descriptors, mappings; no file to flush or remove, nothing
 * outside the process to undo) may say so with
 * METROGRAPH_PLUGIN_EXEC_RELEASES_ALL at file scope: a fork child that
 * execs before its first round then calls neither its stop nor its
 * cleanup (most fork children: a shell's commands), whose pages it would
 * otherwise fault in for nothing. Without it, as for any plugin under
 * MAP, the child calls both before the exec. */
#define METROGRAPH_PLUGIN_EXEC_RELEASES_ALL_SYMBOL "metrograph_plugin_exec_releases_all"
#define METROGRAPH_PLUGIN_EXEC_RELEASES_ALL \
  METROGRAPH_PLUGIN_UNLOADABLE_LINKAGE __attribute__((visibility("default"), used)) \
  const int metrograph_plugin_exec_releases_all = 1

/* How many times the process or its ancestors forked since the sampler
 * started (pthread_atfork child handler of the sampler's own): changes in
 * every fork child. Compared with the value kept with a per-process
 * resource, it tells a plugin that it runs in a fork child without a
 * pthread_atfork handler of its own, whose page would be written (copied)
 * in every fork child. */
unsigned metrograph_get_fork_generation (void);
typedef unsigned (*metrograph_get_fork_generation_fn) (void);

/* What the sampler's own thread has caused in this process beyond its CPU
 * time, so that metrics leave it out of the program's figures and Sampler
 * overhead reports it. Counts so far, kept once the thread has ended (as
 * the process's totals keep them). */
struct metrograph_sampler_thread_activity {
  uint64_t threads;             /* Metrograph's threads running in the process:
                                   1 while the sampler's runs, else 0 */
  uint64_t minor_faults;        /* its page faults (getrusage RUSAGE_THREAD) */
  uint64_t major_faults;
  uint64_t storage_read_bytes;  /* read_bytes and write_bytes of its
                                   /proc/thread-self/io: the record's pages it */
  uint64_t storage_write_bytes; /* writes through the record's mapping count here */
  uint64_t record_resident_bytes; /* the record's pages in the process's memory
                                     (in its RSS): always filled */
  uint64_t main_thread_exited;    /* 1 once the main thread has called
                                     pthread_exit: it stays listed in
                                     /proc/self/task until the process ends */
};

/* Parts to read (others are left 0). */
#define METROGRAPH_ACTIVITY_FAULTS 1u
#define METROGRAPH_ACTIVITY_STORAGE 2u

/* Fills *out with the parts in what, read once a round (round: the
 * getter's sample time; NULL: now) on the sampler thread; from another
 * thread while it runs, the figures it last read. Returns -1 with errno
 * set when a part cannot be read (that part is then the last figures).
 * Async-signal-safe. */
int metrograph_get_sampler_thread_activity (const struct timespec *round, unsigned what,
                                            struct metrograph_sampler_thread_activity *out);
typedef int (*metrograph_get_sampler_thread_activity_fn) (
    const struct timespec *round, unsigned what, struct metrograph_sampler_thread_activity *out);

#ifdef __cplusplus
}
#endif

#endif /* METROGRAPH_PLUGIN_EXT_H */
