/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A fake NVML (libnvidia-ml.so.1) for the GPU plugin's tests on machines
 * without a GPU: our own implementation of the NVML functions the plugin
 * calls, loaded through the plugin's usual lookup (METROGRAPH_NVML_LIBRARY).
 * What it answers comes from the script file named by
 * METROGRAPH_FAKE_NVML, read at every nvmlInit_v2, one statement a line:
 *
 *   # a comment
 *   init ERROR            nvmlInit_v2 fails with ERROR (default: success)
 *   gpus N                N GPUs (at most 16)
 *   GPU FIELD V1 V2 ...   the values of FIELD on GPU (an index): the Nth
 *                         call gets VN, the last one is repeated (a later
 *                         line for the same GPU and FIELD replaces it)
 *
 * FIELD is util, memutil (one call: nvmlDeviceGetUtilizationRates, counted
 * by util's list), used, total (nvmlDeviceGetMemoryInfo, by used's list),
 * power_mw, temp, sm_mhz, or procs, whose values are comma-separated
 * PID:BYTES lists ("self" is the calling process, "none" an empty list). A
 * value may instead be an error: NOT_SUPPORTED, NO_PERMISSION,
 * GPU_IS_LOST (from then on every call on that GPU fails so, as NVML's
 * do) or UNKNOWN, or hang: the call sleeps for an hour (NVML's calls can
 * block). A field not given answers NOT_SUPPORTED. Without the variable,
 * nvmlInit_v2 answers DRIVER_NOT_LOADED.
 *
 * As the real NVML does (driver 580 on an H100 opened 14 descriptors and
 * started a thread), a successful nvmlInit_v2 leaves behind three
 * descriptors (/dev/null, at the lowest free numbers, not close-on-exec)
 * and a thread that sleeps for ever; nvmlShutdown keeps both. */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__ ((visibility ("default")))

enum {
  SUCCESS = 0,
  ERROR_INVALID_ARGUMENT = 2,
  ERROR_NOT_SUPPORTED = 3,
  ERROR_NO_PERMISSION = 4,
  ERROR_INSUFFICIENT_SIZE = 7,
  ERROR_DRIVER_NOT_LOADED = 9,
  ERROR_GPU_IS_LOST = 15,
  ERROR_UNKNOWN = 999,
};

typedef struct {
  unsigned int gpu, memory;
} Utilization;
typedef struct {
  unsigned long long total, free, used;
} Memory;
typedef struct {
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId, computeInstanceId;
} ProcessInfo;

enum { F_UTIL, F_MEMUTIL, F_USED, F_TOTAL, F_POWER, F_TEMP, F_SM, F_PROCS, N_FIELDS };
static const char *const field_names[N_FIELDS] = {
  "util", "memutil", "used", "total", "power_mw", "temp", "sm_mhz", "procs",
};

#define MAX_GPUS 16
#define MAX_VALUES 64

typedef struct {
  char *values[MAX_VALUES];
  int n;
} Script;

typedef struct {
  Script fields[N_FIELDS];
  unsigned calls[N_FIELDS];
  int lost;
} FakeGpu;

static FakeGpu gpus[MAX_GPUS];
static unsigned n_gpus;
static int init_error;

static int
error_of (const char *token)
{
  static const struct { const char *name; int code; } errors[] = {
    { "NOT_SUPPORTED", ERROR_NOT_SUPPORTED }, { "NO_PERMISSION", ERROR_NO_PERMISSION },
    { "GPU_IS_LOST", ERROR_GPU_IS_LOST },     { "UNKNOWN", ERROR_UNKNOWN },
    { "DRIVER_NOT_LOADED", ERROR_DRIVER_NOT_LOADED },
  };
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
    if (strcmp (token, errors[i].name) == 0)
      return errors[i].code;
  return SUCCESS;
}

static void
clear_script (void)
{
  for (unsigned i = 0; i < MAX_GPUS; i++)
    for (int k = 0; k < N_FIELDS; k++)
      for (int v = 0; v < gpus[i].fields[k].n; v++)
        free (gpus[i].fields[k].values[v]);
  memset (gpus, 0, sizeof gpus);
  n_gpus = 0;
}

static void
load_script (void)
{
  const char *path = getenv ("METROGRAPH_FAKE_NVML");
  char line[4096];
  FILE *f;

  clear_script ();
  init_error = ERROR_DRIVER_NOT_LOADED;
  if (path == NULL || (f = fopen (path, "r")) == NULL)
    return;
  init_error = SUCCESS;
  while (fgets (line, sizeof line, f) != NULL)
    {
      char *save = NULL;
      char *word = strtok_r (line, " \t\n", &save);
      if (word == NULL || word[0] == '#')
        continue;
      if (strcmp (word, "init") == 0)
        {
          char *e = strtok_r (NULL, " \t\n", &save);
          init_error = e != NULL ? error_of (e) : SUCCESS;
          continue;
        }
      if (strcmp (word, "gpus") == 0)
        {
          char *n = strtok_r (NULL, " \t\n", &save);
          n_gpus = n != NULL ? (unsigned) atoi (n) : 0;
          n_gpus = n_gpus > MAX_GPUS ? MAX_GPUS : n_gpus;
          continue;
        }
      unsigned gpu = (unsigned) atoi (word);
      char *field = strtok_r (NULL, " \t\n", &save);
      if (gpu >= MAX_GPUS || field == NULL)
        continue;
      for (int k = 0; k < N_FIELDS; k++)
        if (strcmp (field, field_names[k]) == 0)
          {
            Script *s = &gpus[gpu].fields[k];
            char *v;
            /* A later line replaces an earlier one's values. */
            for (int old = 0; old < s->n; old++)
              free (s->values[old]);
            s->n = 0;
            while ((v = strtok_r (NULL, " \t\n", &save)) != NULL && s->n < MAX_VALUES)
              s->values[s->n++] = strdup (v);
          }
    }
  fclose (f);
}

/* The token of field's next call on the GPU behind device (counted when
 * count is set), or NULL with *error set. */
static const char *
next (const void *device, int field, int count, int *error)
{
  uintptr_t index = (uintptr_t) device;
  if (index == 0 || index > n_gpus)
    {
      *error = ERROR_INVALID_ARGUMENT;
      return NULL;
    }
  FakeGpu *g = &gpus[index - 1];
  Script *s = &g->fields[field];
  if (g->lost)
    {
      *error = ERROR_GPU_IS_LOST;
      return NULL;
    }
  if (s->n == 0)
    {
      *error = ERROR_NOT_SUPPORTED;
      return NULL;
    }
  unsigned call = g->calls[field];
  if (count)
    g->calls[field]++;
  const char *token = s->values[call < (unsigned) s->n ? call : (unsigned) s->n - 1];
  if (strcmp (token, "hang") == 0)
    {
      sleep (3600);
      *error = ERROR_UNKNOWN;
      return NULL;
    }
  *error = error_of (token);
  if (*error == ERROR_GPU_IS_LOST)
    g->lost = 1;
  return *error == SUCCESS ? token : NULL;
}

/* The value of field's next call, counted or not. */
static int
value (const void *device, int field, int count, unsigned long long *out)
{
  int error;
  const char *token = next (device, field, count, &error);
  if (token != NULL)
    *out = strtoull (token, NULL, 10);
  return error;
}

static void *
driver_thread (void *data)
{
  for (;;)
    pause ();
  return NULL;
}

/* What the real library leaves in its caller's process at a start. */
static void
leave_traces (void)
{
  pthread_t thread;
  for (int i = 0; i < 3; i++)
    open ("/dev/null", O_RDWR);
  if (pthread_create (&thread, NULL, driver_thread, NULL) == 0)
    pthread_detach (thread);
}

EXPORT int nvmlInit_v2 (void);
int
nvmlInit_v2 (void)
{
  load_script (); /* afresh at every start */
  if (init_error == SUCCESS)
    leave_traces ();
  return init_error;
}

EXPORT int nvmlShutdown (void);
int
nvmlShutdown (void)
{
  clear_script ();
  return SUCCESS;
}

EXPORT const char *nvmlErrorString (int result);
const char *
nvmlErrorString (int result)
{
  switch (result)
    {
    case SUCCESS: return "Success";
    case ERROR_NOT_SUPPORTED: return "Not Supported";
    case ERROR_NO_PERMISSION: return "Insufficient Permissions";
    case ERROR_GPU_IS_LOST: return "GPU is lost";
    case ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
    case ERROR_INSUFFICIENT_SIZE: return "Insufficient Size";
    case ERROR_INVALID_ARGUMENT: return "Invalid Argument";
    default: return "Unknown Error";
    }
}

EXPORT int nvmlDeviceGetCount_v2 (unsigned int *count);
int
nvmlDeviceGetCount_v2 (unsigned int *count)
{
  *count = n_gpus;
  return SUCCESS;
}

EXPORT int nvmlDeviceGetHandleByIndex_v2 (unsigned int index, void **device);
int
nvmlDeviceGetHandleByIndex_v2 (unsigned int index, void **device)
{
  if (index >= n_gpus)
    return ERROR_INVALID_ARGUMENT;
  *device = (void *) (uintptr_t) (index + 1);
  return SUCCESS;
}

EXPORT int nvmlDeviceGetUtilizationRates (void *device, Utilization *u);
int
nvmlDeviceGetUtilizationRates (void *device, Utilization *u)
{
  unsigned long long gpu = 0, memory = 0;
  int r = value (device, F_MEMUTIL, 0, &memory);
  if (r == SUCCESS)
    r = value (device, F_UTIL, 1, &gpu);
  uintptr_t i = (uintptr_t) device;
  /* memutil's calls follow util's */
  if (i >= 1 && i <= n_gpus)
    gpus[i - 1].calls[F_MEMUTIL] = gpus[i - 1].calls[F_UTIL];
  u->gpu = (unsigned) gpu;
  u->memory = (unsigned) memory;
  return r;
}

EXPORT int nvmlDeviceGetMemoryInfo (void *device, Memory *m);
int
nvmlDeviceGetMemoryInfo (void *device, Memory *m)
{
  unsigned long long used = 0, total = 0;
  int r = value (device, F_TOTAL, 0, &total);
  if (r == SUCCESS)
    r = value (device, F_USED, 1, &used);
  uintptr_t i = (uintptr_t) device;
  if (i >= 1 && i <= n_gpus)
    gpus[i - 1].calls[F_TOTAL] = gpus[i - 1].calls[F_USED];
  m->used = used;
  m->total = total;
  m->free = total > used ? total - used : 0;
  return r;
}

static int
unsigned_value (void *device, int field, unsigned int *out)
{
  unsigned long long v = 0;
  int r = value (device, field, 1, &v);
  if (r == SUCCESS)
    *out = (unsigned) v;
  return r;
}

EXPORT int nvmlDeviceGetPowerUsage (void *device, unsigned int *mw);
int
nvmlDeviceGetPowerUsage (void *device, unsigned int *mw)
{
  return unsigned_value (device, F_POWER, mw);
}

EXPORT int nvmlDeviceGetTemperature (void *device, int sensor, unsigned int *c);
int
nvmlDeviceGetTemperature (void *device, int sensor, unsigned int *c)
{
  return sensor == 0 ? unsigned_value (device, F_TEMP, c) : ERROR_INVALID_ARGUMENT;
}

EXPORT int nvmlDeviceGetClockInfo (void *device, int type, unsigned int *mhz);
int
nvmlDeviceGetClockInfo (void *device, int type, unsigned int *mhz)
{
  return type == 1 ? unsigned_value (device, F_SM, mhz) : ERROR_INVALID_ARGUMENT;
}

EXPORT int nvmlDeviceGetComputeRunningProcesses_v3 (void *device, unsigned int *count,
                                                    ProcessInfo *infos);
int
nvmlDeviceGetComputeRunningProcesses_v3 (void *device, unsigned int *count, ProcessInfo *infos)
{
  int error;
  const char *token = next (device, F_PROCS, 1, &error);
  unsigned n = 0;
  if (token == NULL)
    return error;
  if (strcmp (token, "none") != 0)
    for (const char *p = token; *p != '\0';)
      {
        ProcessInfo info = { 0 };
        if (strncmp (p, "self", 4) == 0)
          info.pid = (unsigned) getpid (), p += 4;
        else
          info.pid = (unsigned) strtoul (p, (char **) &p, 10);
        if (*p == ':')
          info.usedGpuMemory = strtoull (p + 1, (char **) &p, 10);
        if (n < *count)
          infos[n] = info;
        n++;
        if (*p == ',')
          p++;
        else
          break;
      }
  error = n > *count ? ERROR_INSUFFICIENT_SIZE : SUCCESS;
  *count = n;
  return error;
}
