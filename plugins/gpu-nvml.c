/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Built-in metric plugin "GPU": NVIDIA GPUs through NVML, the management
 * library installed with the driver (libnvidia-ml.so.1), loaded with
 * dlopen at initialisation so that nothing depends on it where there is
 * no driver: the plugin then declines ("GPU: no NVIDIA driver: …", code
 * 0), which the summary lists under "not available here".
 *
 * The environment variable METROGRAPH_NVML_LIBRARY names another library
 * to load in its place (the tests' fake NVML, tests/plugins/fake-nvml.c).
 *
 * Read per node (onePerNode). Every GPU's readings are kept; the node's
 * metrics aggregate them (memory, power and energy summed, utilisation and
 * clock averaged, temperature the hottest), and the per-GPU metrics
 * (customData: the GPU's index) show one GPU each. Each quantity is read
 * once a round for all GPUs, by the first getter that needs it; memory
 * (60-75 us a call on an H100) at most every 100 ms of sample time, the
 * running-process list (100-270 us a call) at most every second, never
 * in the round that reads memory. NVML's
 * total energy (3-16 ms a call) is never read: energy is power integrated
 * over the rounds. A reading refused with NOT_SUPPORTED (or
 * NO_PERMISSION) switches that quantity off on that GPU, GPU_IS_LOST
 * switches the whole GPU off, each said once as a metric error; the other
 * GPUs carry on. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mg-metric-util.h"

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

#define MG_GPU_MAX 16        /* GPUs followed per node */
#define MG_GPU_MAX_PROCS 64  /* running processes listed per GPU */
#define MEMORY_EVERY_NS 100000000LL
#define PROCESSES_EVERY_NS 1000000000LL

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

/* What one NVML call reads, for all GPUs at once. */
typedef enum {
  Q_UTILIZATION, /* GPU and memory-bus utilisation: one call */
  Q_MEMORY,
  Q_POWER,
  Q_TEMPERATURE,
  Q_CLOCK,
  Q_PROCESSES,
  N_QUANTITIES
} Quantity;

static const char *const quantity_names[N_QUANTITIES] = {
  "utilisation", "memory", "power", "temperature", "SM clock", "running processes",
};

typedef struct {
  nvmlDevice_t device;
  bool lost;
  bool off[N_QUANTITIES];  /* refused on this GPU */
  bool have[N_QUANTITIES]; /* holds a reading */
  unsigned int utilization, memory_utilization, temperature, clock_mhz;
  uint64_t memory_used, memory_total, program_memory;
  bool used_by_program;
  double power_w, energy_j;
  int64_t power_ns; /* sample time of power_w */
} Gpu;

static void *library;
static Nvml nvml;
static bool initialised; /* nvml.init succeeded */
static Gpu gpus[MG_GPU_MAX];
static unsigned int n_gpus;
static int64_t read_ns[N_QUANTITIES]; /* sample time of the last read */
static pid_t session;                 /* the program's session */
static int16_t metric_gpu[256];       /* per-GPU metrics' GPU index + 1; 0: not parsed */

static void
unload (void)
{
  if (initialised && nvml.shutdown != NULL)
    nvml.shutdown ();
  initialised = false;
  if (library != NULL)
    dlclose (library);
  library = NULL;
  n_gpus = 0;
  memset (&nvml, 0, sizeof nvml);
  memset (gpus, 0, sizeof gpus);
  memset (read_ns, 0, sizeof read_ns);
  memset (metric_gpu, 0, sizeof metric_gpu);
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

static const char *
library_name (void)
{
  const char *name = getenv ("METROGRAPH_NVML_LIBRARY");
  return name != NULL && *name != '\0' ? name : "libnvidia-ml.so.1";
}

MG_PLUGIN_EXPORT int allinea_plugin_initialize (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int allinea_plugin_cleanup (plugin_id_t plugin_id, void *data);

int
allinea_plugin_initialize (plugin_id_t plugin_id, void *data)
{
  const char *name = library_name ();
  const char *missing;
  unsigned int count = 0;
  nvmlReturn_t r;

  unload ();
  library = dlopen (name, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL)
    {
      /* No driver here: the plugin declines (code 0), nothing went wrong. */
      allinea_set_plugin_error_messagef (plugin_id, 0,
                                         "GPU: no NVIDIA driver: %s cannot be loaded (%s)",
                                         name, dlerror ());
      return -1;
    }
  if (!resolve_all (&missing))
    {
      allinea_set_plugin_error_messagef (plugin_id, ENOSYS,
                                         "GPU: NVML too old: %s has no %s (update the "
                                         "NVIDIA driver)", name, missing);
      unload ();
      return -1;
    }
  r = nvml.init ();
  if (r != NVML_SUCCESS)
    {
      allinea_set_plugin_error_messagef (plugin_id, 0,
                                         "GPU: no NVIDIA driver: %s loaded, but NVML did not "
                                         "start: %s (error %d)", name, nvml_error (r), r);
      unload ();
      return -1;
    }
  initialised = true;
  r = nvml.count (&count);
  if (r != NVML_SUCCESS || count == 0)
    {
      allinea_set_plugin_error_messagef (plugin_id, 0,
                                         "GPU: no NVIDIA GPU: NVML sees none (%s)",
                                         r != NVML_SUCCESS ? nvml_error (r) : "0 devices");
      unload ();
      return -1;
    }
  for (unsigned int i = 0; i < count && n_gpus < MG_GPU_MAX; i++)
    {
      Gpu *g = &gpus[n_gpus++];
      r = nvml.handle (i, &g->device);
      /* A GPU NVML cannot open is followed as lost, so that the indices
       * of the others stay NVML's. */
      g->lost = r != NVML_SUCCESS;
    }
  session = getsid (0);
  return 0;
}

int
allinea_plugin_cleanup (plugin_id_t plugin_id, void *data)
{
  unload ();
  return 0;
}

/* Says once why a quantity (or a whole GPU) is no longer read. */
static void
refuse (metric_id_t id, unsigned int index, Quantity q, nvmlReturn_t r)
{
  Gpu *g = &gpus[index];
  if (r == NVML_ERROR_GPU_IS_LOST)
    {
      g->lost = true;
      allinea_set_metric_error_messagef (id, r,
                                         "GPU %u lost (%s): no longer read; the other GPUs "
                                         "carry on", index, nvml_error (r));
    }
  else if (r == NVML_ERROR_NOT_SUPPORTED || r == NVML_ERROR_NO_PERMISSION)
    {
      g->off[q] = true;
      allinea_set_metric_error_messagef (id, r, "GPU %u: %s: %s: no longer read on this GPU",
                                         index, quantity_names[q], nvml_error (r));
    }
  else
    allinea_set_metric_error_messagef (id, r, "GPU %u: %s: %s (error %d)", index,
                                       quantity_names[q], nvml_error (r), r);
  g->have[q] = false;
}

/* The program's processes on g, from NVML's list of running compute
 * processes: those in this process's session (the program's tree). */
static nvmlReturn_t
read_processes (Gpu *g)
{
  nvmlProcessInfo_t procs[MG_GPU_MAX_PROCS];
  unsigned int n = MG_GPU_MAX_PROCS;
  nvmlReturn_t r = nvml.processes (g->device, &n, procs);
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
      if (procs[i].pid != (unsigned int) getpid () && getsid ((pid_t) procs[i].pid) != session)
        continue;
      g->used_by_program = true;
      if (procs[i].usedGpuMemory != NVML_VALUE_NOT_AVAILABLE_ULL)
        g->program_memory += procs[i].usedGpuMemory;
    }
  return NVML_SUCCESS;
}

static nvmlReturn_t
read_one (Gpu *g, Quantity q, int64_t now_ns)
{
  nvmlReturn_t r = NVML_SUCCESS;
  switch (q)
    {
    case Q_UTILIZATION:
      {
        nvmlUtilization_t u;
        if ((r = nvml.utilization (g->device, &u)) == NVML_SUCCESS)
          g->utilization = u.gpu, g->memory_utilization = u.memory;
        break;
      }
    case Q_MEMORY:
      {
        nvmlMemory_t m;
        if ((r = nvml.memory (g->device, &m)) == NVML_SUCCESS)
          g->memory_used = m.used, g->memory_total = m.total;
        break;
      }
    case Q_POWER:
      {
        unsigned int mw;
        if ((r = nvml.power (g->device, &mw)) != NVML_SUCCESS)
          break;
        double w = mw / 1000.0;
        /* Energy: the power integrated over the rounds (trapezoids). */
        if (g->have[Q_POWER] && now_ns > g->power_ns)
          g->energy_j += (g->power_w + w) / 2 * (double) (now_ns - g->power_ns) / 1e9;
        g->power_w = w;
        g->power_ns = now_ns;
        break;
      }
    case Q_TEMPERATURE:
      r = nvml.temperature (g->device, NVML_TEMPERATURE_GPU, &g->temperature);
      break;
    case Q_CLOCK:
      r = nvml.clock (g->device, NVML_CLOCK_SM, &g->clock_mhz);
      break;
    case Q_PROCESSES:
      r = read_processes (g);
      break;
    case N_QUANTITIES:
      break;
    }
  return r;
}

/* How long a reading of q stands for. */
static int64_t
quantity_period_ns (Quantity q)
{
  if (q == Q_MEMORY)
    return MEMORY_EVERY_NS;
  if (q == Q_PROCESSES)
    return PROCESSES_EVERY_NS;
  return MG_ROUND_SLACK_NS;
}

/* Reads q on every GPU still followed, once a round (or period). */
static void
refresh (metric_id_t id, Quantity q, const struct timespec *t)
{
  int64_t now = mg_timespec_ns (t);
  int64_t d = now - read_ns[q];
  if (read_ns[q] != 0 && d < quantity_period_ns (q) && d > -MG_ROUND_SLACK_NS)
    return;
  /* The two slow readings never in one round: the processes wait for the
   * next round after memory's. */
  if (q == Q_PROCESSES && read_ns[Q_MEMORY] != 0
      && now - read_ns[Q_MEMORY] < MG_ROUND_SLACK_NS && now - read_ns[Q_MEMORY] > -MG_ROUND_SLACK_NS)
    return;
  read_ns[q] = now;
  for (unsigned int i = 0; i < n_gpus; i++)
    {
      Gpu *g = &gpus[i];
      if (g->lost || g->off[q])
        continue;
      nvmlReturn_t r = read_one (g, q, now);
      if (r == NVML_SUCCESS)
        g->have[q] = true;
      else
        refuse (id, i, q, r);
    }
}

typedef enum { SUM, MEAN, MAX } Combine;

typedef double (*Field) (const Gpu *g);

/* The node's value: field over the GPUs that have a reading of q; NaN
 * (no value) when none has. */
static int
node_value (metric_id_t id, struct timespec *t, Quantity q, Field field, Combine how,
            double *out)
{
  double sum = 0, max = -INFINITY;
  unsigned int n = 0;
  refresh (id, q, t);
  for (unsigned int i = 0; i < n_gpus; i++)
    {
      if (gpus[i].lost || !gpus[i].have[q])
        continue;
      double v = field (&gpus[i]);
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
device_value (metric_id_t id, struct timespec *t, Quantity q, Field field, double *out)
{
  int index = gpu_of_metric (id);
  refresh (id, q, t);
  *out = NAN;
  if (index >= 0 && (unsigned int) index < n_gpus && !gpus[index].lost && gpus[index].have[q])
    *out = field (&gpus[index]);
  return 0;
}

static double f_utilization (const Gpu *g) { return g->utilization; }
static double f_memory_utilization (const Gpu *g) { return g->memory_utilization; }
static double f_memory_used (const Gpu *g) { return (double) g->memory_used; }
static double f_memory_total (const Gpu *g) { return (double) g->memory_total; }
static double f_power (const Gpu *g) { return g->power_w; }
static double f_energy (const Gpu *g) { return g->energy_j; }
static double f_temperature (const Gpu *g) { return g->temperature; }
static double f_clock (const Gpu *g) { return g->clock_mhz * 1e6; }
static double f_program_memory (const Gpu *g) { return (double) g->program_memory; }
static double f_used (const Gpu *g) { return g->used_by_program ? 1 : 0; }

#define GETTER(name) \
  MG_PLUGIN_EXPORT int name (metric_id_t id, struct timespec *t, double *out); \
  int name (metric_id_t id, struct timespec *t, double *out)

GETTER (mg_gpu_utilization) { return node_value (id, t, Q_UTILIZATION, f_utilization, MEAN, out); }
GETTER (mg_gpu_memory_utilization)
{
  return node_value (id, t, Q_UTILIZATION, f_memory_utilization, MEAN, out);
}
GETTER (mg_gpu_memory_used) { return node_value (id, t, Q_MEMORY, f_memory_used, SUM, out); }
GETTER (mg_gpu_memory_percent)
{
  double used, total;
  node_value (id, t, Q_MEMORY, f_memory_used, SUM, &used);
  node_value (id, t, Q_MEMORY, f_memory_total, SUM, &total);
  *out = total > 0 ? 100.0 * used / total : NAN;
  return 0;
}
GETTER (mg_gpu_power) { return node_value (id, t, Q_POWER, f_power, SUM, out); }
GETTER (mg_gpu_energy) { return node_value (id, t, Q_POWER, f_energy, SUM, out); }
GETTER (mg_gpu_temperature) { return node_value (id, t, Q_TEMPERATURE, f_temperature, MAX, out); }
GETTER (mg_gpu_sm_clock) { return node_value (id, t, Q_CLOCK, f_clock, MEAN, out); }
GETTER (mg_gpu_program_memory)
{
  return node_value (id, t, Q_PROCESSES, f_program_memory, SUM, out);
}
GETTER (mg_gpu_devices_used) { return node_value (id, t, Q_PROCESSES, f_used, SUM, out); }

GETTER (mg_gpu_device_utilization) { return device_value (id, t, Q_UTILIZATION, f_utilization, out); }
GETTER (mg_gpu_device_memory_used) { return device_value (id, t, Q_MEMORY, f_memory_used, out); }
GETTER (mg_gpu_device_power) { return device_value (id, t, Q_POWER, f_power, out); }
GETTER (mg_gpu_device_temperature) { return device_value (id, t, Q_TEMPERATURE, f_temperature, out); }
GETTER (mg_gpu_device_program_memory)
{
  return device_value (id, t, Q_PROCESSES, f_program_memory, out);
}
