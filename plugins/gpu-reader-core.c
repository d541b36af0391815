/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GPU reader's work: NVIDIA GPUs through NVML, the management library
 * installed with the driver (libnvidia-ml.so.1), loaded with dlopen so
 * that nothing depends on it where there is no driver: the region then
 * says "declined" ("GPU: no NVIDIA driver: …", code 0), which the plugin
 * passes on and the summary lists under "not available here".
 *
 * Each quantity is read once a round for all GPUs; memory (60-75 us a
 * call on an H100) at most every 100 ms, the running-process list
 * (100-270 us a call) at most every second, never in the round that reads
 * memory. NVML's total energy (3-16 ms a call) is never read: energy is
 * power integrated over the rounds. A reading refused with NOT_SUPPORTED
 * (or NO_PERMISSION) switches that quantity off on that GPU, GPU_IS_LOST
 * switches the whole GPU off; each is written as a refusal the plugin
 * says once as a metric error; the other GPUs carry on. */
#include "gpu-reader-core.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The part of NVML's C ABI used here, as nvml.h documents it. */
typedef int nvmlReturn_t;
typedef struct nvmlDevice_st *nvmlDevice_t;
typedef struct {
  unsigned int gpu;    /* % of the last period a kernel ran */
  unsigned int memory; /* % of the last period device memory was read or written */
} nvmlUtilization_t;
typedef struct {
  unsigned long long total, free, used; /* bytes */
} nvmlMemory_t;
/* nvmlProcessInfo_t of nvmlDeviceGetComputeRunningProcesses_v2 and _v3. */
typedef struct {
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
} nvmlProcessInfo_t;

#define NVML_SUCCESS 0
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_NO_PERMISSION 4
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define NVML_ERROR_GPU_IS_LOST 15
#define NVML_TEMPERATURE_GPU 0
#define NVML_CLOCK_SM 1
#define NVML_VALUE_NOT_AVAILABLE_ULL (~0ULL)

#define MEMORY_EVERY_NS 100000000LL
#define PROCESSES_EVERY_NS 1000000000LL
/* Two readings closer than this are one round's. */
#define ROUND_SLACK_NS 500000LL

typedef struct {
  nvmlReturn_t (*init) (void);
  nvmlReturn_t (*shutdown) (void);
  const char *(*error_string) (nvmlReturn_t);
  nvmlReturn_t (*count) (unsigned int *);
  nvmlReturn_t (*handle) (unsigned int, nvmlDevice_t *);
  nvmlReturn_t (*utilization) (nvmlDevice_t, nvmlUtilization_t *);
  nvmlReturn_t (*memory) (nvmlDevice_t, nvmlMemory_t *);
  nvmlReturn_t (*power) (nvmlDevice_t, unsigned int *);
  nvmlReturn_t (*temperature) (nvmlDevice_t, int, unsigned int *);
  nvmlReturn_t (*clock) (nvmlDevice_t, int, unsigned int *);
  nvmlReturn_t (*processes) (nvmlDevice_t, unsigned int *, nvmlProcessInfo_t *);
} Nvml;

static const char *const quantity_names[MG_GPU_N_QUANTITIES] = {
  "utilisation", "memory", "power", "temperature", "SM clock", "running processes",
};

static void *library;
static Nvml nvml;
static bool initialised; /* nvml.init succeeded */
static nvmlDevice_t devices[MG_GPU_MAX];
static MgGpuReadings work; /* this reader's copy, published each round */
static int64_t read_ns[MG_GPU_N_QUANTITIES];
static pid_t program; /* the program's process */
static pid_t session; /* and its session */

void
mg_gpu_reader_close (void)
{
  if (initialised && nvml.shutdown != NULL)
    nvml.shutdown ();
  initialised = false;
  if (library != NULL)
    dlclose (library);
  library = NULL;
  memset (&nvml, 0, sizeof nvml);
  memset (devices, 0, sizeof devices);
  memset (&work, 0, sizeof work);
  memset (read_ns, 0, sizeof read_ns);
}

static const char *
nvml_error (nvmlReturn_t r)
{
  const char *s = nvml.error_string != NULL ? nvml.error_string (r) : NULL;
  return s != NULL ? s : "unknown NVML error";
}

/* The first of names that the library has (newer versions first). */
static void *
resolve (const char *const *names, const char **missing)
{
  for (const char *const *n = names; *n != NULL; n++)
    {
      void *f = dlsym (library, *n);
      if (f != NULL)
        return f;
    }
  *missing = names[0];
  return NULL;
}

#define RESOLVE(field, ...)                                                                    \
  (nvml.field = resolve ((const char *const[]) { __VA_ARGS__, NULL }, &missing))

static bool
resolve_all (const char **missing_out)
{
  const char *missing = NULL;
  RESOLVE (init, "nvmlInit_v2", "nvmlInit");
  RESOLVE (shutdown, "nvmlShutdown");
  RESOLVE (error_string, "nvmlErrorString");
  RESOLVE (count, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount");
  RESOLVE (handle, "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex");
  RESOLVE (utilization, "nvmlDeviceGetUtilizationRates");
  RESOLVE (memory, "nvmlDeviceGetMemoryInfo");
  RESOLVE (power, "nvmlDeviceGetPowerUsage");
  RESOLVE (temperature, "nvmlDeviceGetTemperature");
  RESOLVE (clock, "nvmlDeviceGetClockInfo");
  /* The unversioned function takes a shorter structure: not used. */
  RESOLVE (processes, "nvmlDeviceGetComputeRunningProcesses_v3",
           "nvmlDeviceGetComputeRunningProcesses_v2");
  *missing_out = missing;
  return missing == NULL;
}

static void
decline (MgGpuShared *shared, int code, const char *format, ...)
  __attribute__ ((format (printf, 3, 4)));

#include <stdarg.h>

static void
decline (MgGpuShared *shared, int code, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  vsnprintf (shared->message, sizeof shared->message, format, args);
  va_end (args);
  shared->decline_code = code;
  mg_gpu_reader_close ();
  atomic_store_explicit (&shared->state, MG_GPU_DECLINED, memory_order_release);
}

void
mg_gpu_reader_open (MgGpuShared *shared, const char *name, pid_t program_pid)
{
  const char *missing;
  unsigned int count = 0;
  nvmlReturn_t r;

  mg_gpu_reader_close ();
  if (name == NULL || *name == '\0')
    name = "libnvidia-ml.so.1";
  library = dlopen (name, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL)
    {
      /* No driver here: the plugin declines (code 0), nothing went wrong. */
      decline (shared, 0, "GPU: no NVIDIA driver: %s cannot be loaded (%s)", name, dlerror ());
      return;
    }
  if (!resolve_all (&missing))
    {
      decline (shared, 38 /* ENOSYS */,
               "GPU: NVML too old: %s has no %s (update the NVIDIA driver)", name, missing);
      return;
    }
  r = nvml.init ();
  if (r != NVML_SUCCESS)
    {
      decline (shared, 0, "GPU: no NVIDIA driver: %s loaded, but NVML did not start: %s "
               "(error %d)", name, nvml_error (r), r);
      return;
    }
  initialised = true;
  r = nvml.count (&count);
  if (r != NVML_SUCCESS || count == 0)
    {
      decline (shared, 0, "GPU: no NVIDIA GPU: NVML sees none (%s)",
               r != NVML_SUCCESS ? nvml_error (r) : "0 devices");
      return;
    }
  for (unsigned int i = 0; i < count && work.n_gpus < MG_GPU_MAX; i++)
    {
      unsigned int n = work.n_gpus++;
      r = nvml.handle (i, &devices[n]);
      /* A GPU NVML cannot open is followed as lost, so that the indices
       * of the others stay NVML's. */
      work.gpus[n].lost = r != NVML_SUCCESS;
    }
  program = program_pid;
  /* The program's tree: its session, which this reader (cloned from the
   * program) shares, as the plugin's test in the program did. */
  session = getsid (program_pid);
  mg_gpu_shared_publish (shared, &work);
  atomic_store_explicit (&shared->state, MG_GPU_READY, memory_order_release);
}

/* Writes why a quantity (or a whole GPU) is no longer read, for the
 * plugin to say once. */
static void
refuse (MgGpuShared *shared, unsigned int index, MgGpuQuantity q, nvmlReturn_t r)
{
  MgGpuValues *g = &work.gpus[index];
  MgGpuRefusal *refusal = &shared->refusals[index][q];
  if (r == NVML_ERROR_GPU_IS_LOST)
    {
      g->lost = true;
      snprintf (refusal->text, sizeof refusal->text,
                "GPU %u lost (%s): no longer read; the other GPUs carry on", index,
                nvml_error (r));
    }
  else if (r == NVML_ERROR_NOT_SUPPORTED || r == NVML_ERROR_NO_PERMISSION)
    {
      g->off[q] = true;
      snprintf (refusal->text, sizeof refusal->text,
                "GPU %u: %s: %s: no longer read on this GPU", index, quantity_names[q],
                nvml_error (r));
    }
  else
    snprintf (refusal->text, sizeof refusal->text, "GPU %u: %s: %s (error %d)", index,
              quantity_names[q], nvml_error (r), r);
  refusal->code = r;
  atomic_fetch_add_explicit (&refusal->count, 1, memory_order_release);
  g->have[q] = false;
}

/* The program's processes on the GPU, from NVML's list of running compute
 * processes: the program and those in its session (its tree). */
static nvmlReturn_t
read_processes (nvmlDevice_t device, MgGpuValues *g)
{
  nvmlProcessInfo_t procs[MG_GPU_MAX_PROCS];
  unsigned int n = MG_GPU_MAX_PROCS;
  nvmlReturn_t r = nvml.processes (device, &n, procs);
  if (r == NVML_ERROR_INSUFFICIENT_SIZE)
    n = MG_GPU_MAX_PROCS; /* more than we list: the first ones count */
  else if (r != NVML_SUCCESS)
    return r;
  if (n > MG_GPU_MAX_PROCS)
    n = MG_GPU_MAX_PROCS;
  g->program_memory = 0;
  g->used_by_program = false;
  for (unsigned int i = 0; i < n; i++)
    {
      pid_t pid = (pid_t) procs[i].pid;
      if (pid != program && getsid (pid) != session)
        continue;
      g->used_by_program = true;
      if (procs[i].usedGpuMemory != NVML_VALUE_NOT_AVAILABLE_ULL)
        g->program_memory += procs[i].usedGpuMemory;
    }
  return NVML_SUCCESS;
}

static nvmlReturn_t
read_one (unsigned int index, MgGpuQuantity q, int64_t now_ns)
{
  nvmlDevice_t device = devices[index];
  MgGpuValues *g = &work.gpus[index];
  nvmlReturn_t r = NVML_SUCCESS;
  switch (q)
    {
    case MG_GPU_Q_UTILIZATION:
      {
        nvmlUtilization_t u;
        if ((r = nvml.utilization (device, &u)) == NVML_SUCCESS)
          g->utilization = u.gpu, g->memory_utilization = u.memory;
        break;
      }
    case MG_GPU_Q_MEMORY:
      {
        nvmlMemory_t m;
        if ((r = nvml.memory (device, &m)) == NVML_SUCCESS)
          g->memory_used = m.used, g->memory_total = m.total;
        break;
      }
    case MG_GPU_Q_POWER:
      {
        unsigned int mw;
        if ((r = nvml.power (device, &mw)) != NVML_SUCCESS)
          break;
        double w = mw / 1000.0;
        /* Energy: the power integrated over the rounds (trapezoids). */
        if (g->have[MG_GPU_Q_POWER] && now_ns > g->power_ns)
          g->energy_j += (g->power_w + w) / 2 * (double) (now_ns - g->power_ns) / 1e9;
        g->power_w = w;
        g->power_ns = now_ns;
        break;
      }
    case MG_GPU_Q_TEMPERATURE:
      r = nvml.temperature (device, NVML_TEMPERATURE_GPU, &g->temperature);
      break;
    case MG_GPU_Q_CLOCK:
      r = nvml.clock (device, NVML_CLOCK_SM, &g->clock_mhz);
      break;
    case MG_GPU_Q_PROCESSES:
      r = read_processes (device, g);
      break;
    case MG_GPU_N_QUANTITIES:
      break;
    }
  return r;
}

/* How long a reading of q stands for. */
static int64_t
quantity_period_ns (MgGpuQuantity q)
{
  if (q == MG_GPU_Q_MEMORY)
    return MEMORY_EVERY_NS;
  if (q == MG_GPU_Q_PROCESSES)
    return PROCESSES_EVERY_NS;
  return ROUND_SLACK_NS;
}

static bool
same_round (int64_t a, int64_t b)
{
  return a - b < ROUND_SLACK_NS && a - b > -ROUND_SLACK_NS;
}

/* Whether q is read in the round at now. */
static bool
due (MgGpuQuantity q, int64_t now)
{
  int64_t d = now - read_ns[q];
  if (read_ns[q] != 0 && d < quantity_period_ns (q) && d > -ROUND_SLACK_NS)
    return false;
  /* The two slow readings never in one round: the processes wait for the
   * next round after memory's. */
  return q != MG_GPU_Q_PROCESSES || read_ns[MG_GPU_Q_MEMORY] == 0
         || !same_round (now, read_ns[MG_GPU_Q_MEMORY]);
}

void
mg_gpu_reader_round (MgGpuShared *shared, int64_t now)
{
  for (MgGpuQuantity q = 0; q < MG_GPU_N_QUANTITIES; q++)
    {
      if (!due (q, now))
        continue;
      read_ns[q] = now;
      for (unsigned int i = 0; i < work.n_gpus; i++)
        {
          MgGpuValues *g = &work.gpus[i];
          if (g->lost || g->off[q])
            continue;
          nvmlReturn_t r = read_one (i, q, now);
          if (r == NVML_SUCCESS)
            g->have[q] = true;
          else
            refuse (shared, i, q, r);
        }
    }
  mg_gpu_shared_publish (shared, &work);
}
