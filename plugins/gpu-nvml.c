/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Built-in metric plugin "GPU": NVIDIA GPUs through NVML, read by a
 * helper process, metrograph-gpu-reader (gpu-reader.c), never in the
 * program's process: NVML's start opens descriptors at the lowest free
 * numbers (14 on an H100, driver 580), starts a thread, and its shutdown
 * closes only some of the descriptors, all of which the program would see
 * (its first open, its thread count, unshare(CLONE_NEWUSER) refused).
 *
 * initialise (on the sampler thread) makes the shared region (gpu-shared.h,
 * a memfd), starts the reader from beside this library as the program's
 * sibling (clone with CLONE_PARENT: the program's wait() never sees it;
 * the kernel gives such a child its caller's exit signal, SIGCHLD, which
 * goes to the parent they share, the launcher, which reaps it by its pid,
 * app/session/mg-launcher.c) and waits up to 2 s for it to say ready or
 * why it declines ("GPU: no NVIDIA driver: …", code 0, which the summary
 * lists under "not available here"). Without /dev/nvidiactl and
 * /proc/driver/nvidia (no NVIDIA kernel module, or a container given no
 * GPU; NVML opens /dev/nvidiactl) it declines so at once, starting
 * nothing. The
 * reader ends with the program's process (its pidfd) or when cleanup sets
 * the stop flag, as it does at exec: the exec'd image's sampler starts its
 * own reader.
 *
 * The environment variable METROGRAPH_NVML_LIBRARY names another library
 * for the reader to load in NVML's place (the tests' fake NVML,
 * tests/plugins/fake-nvml.c).
 *
 * Read per node (onePerNode). The getters take the latest consistent
 * readings once a round (a sequence lock: no system call, no waiting) and
 * aggregate them: memory, power and energy summed, utilisation and clock
 * averaged, temperature the hottest; the per-GPU metrics (customData: the
 * GPU's index) show one GPU each. What the reader was refused (a quantity
 * NOT_SUPPORTED on a GPU, a GPU lost) is said once as a metric error of
 * the first metric of that quantity to read it. */
#define _GNU_SOURCE /* clone, dladdr, memfd_create */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "gpu-shared.h"
#include "mg-metric-util.h"

#define READY_WAIT_NS 2000000000LL
#define DEFAULT_PERIOD_NS 20000000LL
/* The reader publishes every round: readings older than this (of sample
 * time) are its last before it stopped (a hung NVML call, or it died). */
#define STALE_NS 2000000000LL

extern char **environ;

static MgGpuShared *shared;
static pid_t owner;                    /* the process whose cleanup stops the reader */
static MgGpuReadings snapshots[2];     /* the current one and the next one's room */
static int current;
static int64_t snapshot_round_ns = -1; /* the round current was taken for */
static uint32_t refusals_now[MG_GPU_MAX][MG_GPU_N_QUANTITIES]; /* counts at the snapshot */
static uint32_t refusals_said[MG_GPU_MAX][MG_GPU_N_QUANTITIES];
static uint32_t published;        /* the sequence number of current */
static int64_t published_round_ns; /* the round it was first seen in */
static bool stale, stale_said;
static const MgGpuReadings no_readings; /* what stale readings give: no GPU */
static int16_t metric_gpu[256]; /* per-GPU metrics' GPU index + 1; 0: not parsed */

static void
unmap (void)
{
  if (shared != NULL)
    munmap (shared, sizeof *shared);
  shared = NULL;
  memset (snapshots, 0, sizeof snapshots);
  current = 0;
  snapshot_round_ns = -1;
  memset (refusals_now, 0, sizeof refusals_now);
  memset (refusals_said, 0, sizeof refusals_said);
  memset (metric_gpu, 0, sizeof metric_gpu);
  published = 0;
  published_round_ns = 0;
  stale = stale_said = false;
}

MG_PLUGIN_EXPORT int allinea_plugin_initialize (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int allinea_plugin_cleanup (plugin_id_t plugin_id, void *data);

/* The reader beside this library, in out. */
static bool
reader_path (char *out, size_t size)
{
  Dl_info self;
  if (!dladdr ((void *) allinea_plugin_initialize, &self) || self.dli_fname == NULL)
    return false;
  const char *slash = strrchr (self.dli_fname, '/');
  int dir = slash != NULL ? (int) (slash - self.dli_fname) : 1;
  int n = snprintf (out, size, "%.*s/%s", dir, slash != NULL ? self.dli_fname : ".",
                    MG_GPU_READER_NAME);
  return n > 0 && (size_t) n < size;
}

/* The run's sampling interval, from the plan's text the launcher passes;
 * the sampler's default without one. */
static int64_t
period_ns (void)
{
  const char *plan = getenv ("METROGRAPH_PLAN_TEXT");
  for (const char *p = plan; p != NULL && *p != '\0'; p = strchr (p, '\n'), p = p ? p + 1 : NULL)
    if (strncmp (p, "interval_ms ", 12) == 0)
      {
        const char *v = p + 12;
        uint64_t ms = mg_parse_u64 (&v);
        if (ms > 0)
          return (int64_t) ms * 1000000LL;
      }
  return DEFAULT_PERIOD_NS;
}

/* The sampler's own entries of an LD_PRELOAD list (ours: libmetrograph*)
 * left out, so that the sampler never loads into the reader. */
static char *
preload_without_ours (const char *value)
{
  size_t len = strlen (value);
  char *out = malloc (len + sizeof "LD_PRELOAD=");
  char *o;
  if (out == NULL)
    return NULL;
  o = stpcpy (out, "LD_PRELOAD=");
  for (const char *p = value; *p != '\0';)
    {
      size_t n = strcspn (p, ": ");
      const char *base = memrchr (p, '/', n);
      base = base != NULL ? base + 1 : p;
      bool ours = n > 0 && strncmp (base, "libmetrograph", 13) == 0;
      if (n > 0 && !ours)
        {
          if (o[-1] != '=')
            *o++ = ':';
          memcpy (o, p, n);
          o += n;
        }
      p += n;
      if (*p != '\0')
        p++;
    }
  *o = '\0';
  return out;
}

/* The reader's environment: the program's, without the run's variables
 * and the sampler's preload. NULL when out of memory. */
static char **
reader_environment (void)
{
  static const char *const dropped[] = { "METROGRAPH_PLAN=", "METROGRAPH_PLAN_TEXT=",
                                         "METROGRAPH_LAUNCH_NODE=", "METROGRAPH_MERGE_NODE=",
                                         NULL };
  size_t n = 0;
  while (environ[n] != NULL)
    n++;
  char **env = calloc (n + 1, sizeof *env);
  size_t k = 0;
  if (env == NULL)
    return NULL;
  for (size_t i = 0; i < n; i++)
    {
      bool drop = false;
      for (const char *const *d = dropped; *d != NULL; d++)
        drop = drop || strncmp (environ[i], *d, strlen (*d)) == 0;
      if (drop)
        continue;
      if (strncmp (environ[i], "LD_PRELOAD=", 11) == 0)
        env[k++] = preload_without_ours (environ[i] + 11);
      else
        env[k++] = strdup (environ[i]);
      if (env[k - 1] == NULL)
        k--;
    }
  return env;
}

static void
free_environment (char **env)
{
  for (size_t i = 0; env != NULL && env[i] != NULL; i++)
    free (env[i]);
  free (env);
}

/* What the clone's child needs, all made before it. */
typedef struct {
  const char *path;
  char *const *argv;
  char *const *envp;
  int memfd;
} Spawn;

/* The clone's child, a copy of this process until execve: raw system calls
 * only, none of them a library function that a sanitizer intercepts or
 * that the sampler interposes (glibc's clone() ran TSan's interceptor,
 * whose CHECK ended a -fsanitize=thread program with status 66). Every
 * signal stays blocked, as on the sampler thread, until the reader unblocks
 * them after the exec (which has set the handlers back to the default), so
 * no handler of the program runs here. Named as the reader before the exec,
 * so that the launcher reaps it even when the exec fails; that failure is
 * told through the shared region. */
static _Noreturn void
reader_child (const Spawn *s)
{
  syscall (SYS_prctl, PR_SET_NAME, (unsigned long) MG_GPU_READER_COMM, 0UL, 0UL, 0UL);
  if ((s->memfd == MG_GPU_SHARED_FD ? syscall (SYS_fcntl, s->memfd, F_SETFD, 0)
                                    : syscall (SYS_dup3, s->memfd, MG_GPU_SHARED_FD, 0)) >= 0)
    syscall (SYS_execve, s->path, s->argv, s->envp);
  shared->decline_code = errno;
  atomic_store (&shared->state, MG_GPU_EXEC_FAILED);
  syscall (SYS_exit_group, 127);
  for (;;)
    ;
}

/* Starts the reader on the region at memfd; 0, or an errno with the
 * message set. */
static int
spawn_reader (plugin_id_t plugin_id, const char *path, int memfd)
{
  char period[32], pid[32];
  snprintf (period, sizeof period, "%lld", (long long) period_ns ());
  snprintf (pid, sizeof pid, "%d", (int) getpid ());
  char *argv[] = { (char *) path, period, pid, NULL };
  char **envp = reader_environment ();
  Spawn s = { path, argv, envp, memfd };
  int error = 0;

  if (envp == NULL)
    {
      error = ENOMEM;
      allinea_set_plugin_error_messagef (plugin_id, error,
                                         "GPU: cannot start the GPU reader: out of memory");
      free_environment (envp);
      return error;
    }
  /* The program's sibling, never its child: refused in a namespace's init
   * (EINVAL), where the plugin declines. A fork (no CLONE_VM: the child
   * runs on a copy of this stack) that this thread waits for until the
   * exec (CLONE_VFORK); the process is young here, its page tables few. */
  long child = syscall (SYS_clone, (unsigned long) (CLONE_PARENT | CLONE_VFORK | SIGCHLD), 0UL,
                        NULL, NULL, 0UL);
  if (child == 0)
    reader_child (&s);
  if (child < 0)
    {
      error = errno;
      allinea_set_plugin_error_messagef (plugin_id, error,
                                         "GPU: cannot start the GPU reader beside the program "
                                         "(%s): not read here, the program is not affected",
                                         strerror (error));
    }
  else if (atomic_load (&shared->state) == MG_GPU_EXEC_FAILED)
    {
      error = shared->decline_code;
      allinea_set_plugin_error_messagef (plugin_id, error,
                                         "GPU: cannot start the GPU reader %s: %s (reinstall "
                                         "Metrograph)", path, strerror (error));
    }
  free_environment (envp);
  return error;
}

/* Waits for the reader's answer; 0 when it reads, else -1 with the
 * message set. */
static int
await_reader (plugin_id_t plugin_id, const char *path)
{
  struct timespec tick = { 0, 1000000 };
  for (int64_t waited = 0; waited < READY_WAIT_NS; waited += tick.tv_nsec)
    {
      uint32_t state = atomic_load_explicit (&shared->state, memory_order_acquire);
      if (state == MG_GPU_READY)
        return 0;
      if (state == MG_GPU_DECLINED)
        {
          allinea_set_plugin_error_messagef (plugin_id, shared->decline_code, "%.*s",
                                             (int) sizeof shared->message, shared->message);
          return -1;
        }
      nanosleep (&tick, NULL);
    }
  allinea_set_plugin_error_messagef (plugin_id, ETIMEDOUT,
                                     "GPU: the GPU reader %s did not answer within %lld s "
                                     "(NVML's start hangs?): not read here", path,
                                     READY_WAIT_NS / 1000000000LL);
  return -1;
}

int
allinea_plugin_initialize (plugin_id_t plugin_id, void *data)
{
  char path[4096];
  int memfd, error;

  if (shared != NULL) /* started again without a cleanup: the old reader ends */
    atomic_store (&shared->stop, 1);
  unmap ();
  /* Nothing to start where the driver's kernel module is not loaded or
   * no GPU device is given to us, unless a library is named (the tests'
   * fake). Either file will do: a container may show one without the
   * other. */
  const char *named = getenv ("METROGRAPH_NVML_LIBRARY");
  if ((named == NULL || *named == '\0') && access ("/dev/nvidiactl", F_OK) != 0
      && access ("/proc/driver/nvidia", F_OK) != 0)
    {
      allinea_set_plugin_error_messagef (plugin_id, 0,
                                         "GPU: no NVIDIA driver: neither /dev/nvidiactl nor "
                                         "/proc/driver/nvidia is there (the nvidia kernel module "
                                         "is not loaded, or no GPU is given to this container)");
      return -1;
    }
  if (!reader_path (path, sizeof path) || access (path, X_OK) != 0)
    {
      allinea_set_plugin_error_messagef (plugin_id, ENOENT,
                                         "GPU: the GPU reader %s is missing (reinstall "
                                         "Metrograph)", path);
      return -1;
    }
  memfd = memfd_create ("metrograph-gpu", MFD_CLOEXEC);
  if (memfd < 0 || ftruncate (memfd, sizeof *shared) < 0
      || (shared = mmap (NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0))
           == MAP_FAILED)
    {
      error = errno;
      shared = NULL;
      if (memfd >= 0)
        close (memfd);
      allinea_set_plugin_error_messagef (plugin_id, error,
                                         "GPU: cannot share memory with the GPU reader: %s",
                                         strerror (error));
      return -1;
    }
  shared->magic = MG_GPU_SHARED_MAGIC;
  shared->version = MG_GPU_SHARED_VERSION;
  atomic_store (&shared->state, MG_GPU_STARTING);
  error = spawn_reader (plugin_id, path, memfd);
  close (memfd); /* the reader has its own; the mapping stays */
  if (error != 0 || await_reader (plugin_id, path) != 0)
    {
      atomic_store (&shared->stop, 1);
      unmap ();
      return -1;
    }
  owner = getpid ();
  return 0;
}

int
allinea_plugin_cleanup (plugin_id_t plugin_id, void *data)
{
  /* A forked process's copy of the plugin leaves its parent's reader be. */
  if (shared != NULL && getpid () == owner)
    atomic_store_explicit (&shared->stop, 1, memory_order_release);
  unmap ();
  return 0;
}

/* The readings for the round at t: taken once a round, so that every
 * metric of a round sees the same ones; none once the reader has
 * published nothing for STALE_NS. */
static const MgGpuReadings *
readings (const struct timespec *t)
{
  int64_t round = mg_timespec_ns (t);
  if (shared != NULL && round != snapshot_round_ns)
    {
      uint32_t seq = 0;
      if (mg_gpu_shared_snapshot (shared, &snapshots[!current], &seq))
        current = !current;
      if (seq != 0 && (seq != published || published_round_ns == 0))
        {
          published = seq;
          published_round_ns = round;
        }
      stale = published_round_ns != 0 && round - published_round_ns > STALE_NS;
      snapshot_round_ns = round;
      for (unsigned int i = 0; i < snapshots[current].n_gpus && i < MG_GPU_MAX; i++)
        for (int q = 0; q < MG_GPU_N_QUANTITIES; q++)
          refusals_now[i][q] = atomic_load_explicit (&shared->refusals[i][q].count,
                                                     memory_order_acquire);
    }
  return stale ? &no_readings : &snapshots[current];
}

/* Says once that the reader stopped publishing. */
static void
say_stale (metric_id_t id)
{
  if (!stale || stale_said)
    return;
  stale_said = true;
  allinea_set_metric_error_messagef (id, ETIMEDOUT,
                                     "GPU: the GPU reader has published nothing for %lld s (an "
                                     "NVML call that does not return?): no GPU values from then "
                                     "on", STALE_NS / 1000000000LL);
}

/* Says once each refusal of q the reader met by this round. */
static void
say_refusals (metric_id_t id, const MgGpuReadings *r, MgGpuQuantity q)
{
  for (unsigned int i = 0; i < r->n_gpus && i < MG_GPU_MAX; i++)
    if (refusals_now[i][q] != refusals_said[i][q])
      {
        const MgGpuRefusal *refusal = &shared->refusals[i][q];
        refusals_said[i][q] = refusals_now[i][q];
        allinea_set_metric_error_messagef (id, refusal->code, "%.*s",
                                           (int) sizeof refusal->text, refusal->text);
      }
}

typedef enum { SUM, MEAN, MAX } Combine;

typedef double (*Field) (const MgGpuValues *g);

/* The node's value: field over the GPUs that have a reading of q; NaN
 * (no value) when none has. */
static int
node_value (metric_id_t id, struct timespec *t, MgGpuQuantity q, Field field, Combine how,
            double *out)
{
  const MgGpuReadings *r = readings (t);
  double sum = 0, max = -INFINITY;
  unsigned int n = 0;
  say_stale (id);
  say_refusals (id, r, q);
  for (unsigned int i = 0; i < r->n_gpus && i < MG_GPU_MAX; i++)
    {
      if (r->gpus[i].lost || !r->gpus[i].have[q])
        continue;
      double v = field (&r->gpus[i]);
      sum += v;
      max = v > max ? v : max;
      n++;
    }
  if (n == 0)
    *out = NAN;
  else
    *out = how == SUM ? sum : how == MEAN ? sum / n : max;
  return 0;
}

/* The GPU index a per-GPU metric's customData names; -1 when none. The
 * text is parsed once per metric id. */
static int
gpu_of_metric (metric_id_t id)
{
  const size_t n_cached = sizeof metric_gpu / sizeof metric_gpu[0];
  if (id < n_cached && metric_gpu[id] != 0)
    return metric_gpu[id] - 1;
  const char *text = allinea_get_custom_data (id);
  int index = -1;
  if (text != NULL && *text >= '0' && *text <= '9')
    {
      const char *p = text;
      uint64_t v = mg_parse_u64 (&p);
      index = v < MG_GPU_MAX ? (int) v : -1;
    }
  if (id < n_cached)
    metric_gpu[id] = (int16_t) (index + 1);
  return index;
}

/* One GPU's value (the metric's customData); NaN (no value) when that GPU
 * is not there or gives no reading. */
static int
device_value (metric_id_t id, struct timespec *t, MgGpuQuantity q, Field field, double *out)
{
  int index = gpu_of_metric (id);
  const MgGpuReadings *r = readings (t);
  say_stale (id);
  say_refusals (id, r, q);
  *out = NAN;
  if (index >= 0 && (unsigned int) index < r->n_gpus && !r->gpus[index].lost
      && r->gpus[index].have[q])
    *out = field (&r->gpus[index]);
  return 0;
}

static double f_utilization (const MgGpuValues *g) { return g->utilization; }
static double f_memory_utilization (const MgGpuValues *g) { return g->memory_utilization; }
static double f_memory_used (const MgGpuValues *g) { return (double) g->memory_used; }
static double f_memory_total (const MgGpuValues *g) { return (double) g->memory_total; }
static double f_power (const MgGpuValues *g) { return g->power_w; }
static double f_energy (const MgGpuValues *g) { return g->energy_j; }
static double f_temperature (const MgGpuValues *g) { return g->temperature; }
static double f_clock (const MgGpuValues *g) { return g->clock_mhz * 1e6; }
static double f_program_memory (const MgGpuValues *g) { return (double) g->program_memory; }
static double f_used (const MgGpuValues *g) { return g->used_by_program ? 1 : 0; }

#define Q(name) MG_GPU_Q_##name
#define GETTER(name) \
  MG_PLUGIN_EXPORT int name (metric_id_t id, struct timespec *t, double *out); \
  int name (metric_id_t id, struct timespec *t, double *out)

GETTER (mg_gpu_utilization) { return node_value (id, t, Q (UTILIZATION), f_utilization, MEAN, out); }
GETTER (mg_gpu_memory_utilization)
{
  return node_value (id, t, Q (UTILIZATION), f_memory_utilization, MEAN, out);
}
GETTER (mg_gpu_memory_used) { return node_value (id, t, Q (MEMORY), f_memory_used, SUM, out); }
GETTER (mg_gpu_memory_percent)
{
  double used, total;
  node_value (id, t, Q (MEMORY), f_memory_used, SUM, &used);
  node_value (id, t, Q (MEMORY), f_memory_total, SUM, &total);
  *out = total > 0 ? 100.0 * used / total : NAN;
  return 0;
}
GETTER (mg_gpu_power) { return node_value (id, t, Q (POWER), f_power, SUM, out); }
GETTER (mg_gpu_energy) { return node_value (id, t, Q (POWER), f_energy, SUM, out); }
GETTER (mg_gpu_temperature)
{
  return node_value (id, t, Q (TEMPERATURE), f_temperature, MAX, out);
}
GETTER (mg_gpu_sm_clock) { return node_value (id, t, Q (CLOCK), f_clock, MEAN, out); }
GETTER (mg_gpu_program_memory)
{
  return node_value (id, t, Q (PROCESSES), f_program_memory, SUM, out);
}
GETTER (mg_gpu_devices_used) { return node_value (id, t, Q (PROCESSES), f_used, SUM, out); }

GETTER (mg_gpu_device_utilization)
{
  return device_value (id, t, Q (UTILIZATION), f_utilization, out);
}
GETTER (mg_gpu_device_memory_used) { return device_value (id, t, Q (MEMORY), f_memory_used, out); }
GETTER (mg_gpu_device_power) { return device_value (id, t, Q (POWER), f_power, out); }
GETTER (mg_gpu_device_temperature)
{
  return device_value (id, t, Q (TEMPERATURE), f_temperature, out);
}
GETTER (mg_gpu_device_program_memory)
{
  return device_value (id, t, Q (PROCESSES), f_program_memory, out);
}
