/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The region the GPU plugin (gpu-nvml.c, in the program) and its reader
 * process (gpu-reader.c, where every NVML call is made) share: a memfd
 * the plugin makes and maps, and the reader finds at descriptor
 * MG_GPU_SHARED_FD. A header (state, the decline message, the GPU count),
 * the readings under a sequence lock, the refusals as messages the plugin
 * says once. libc only, header-only. */
#ifndef MG_GPU_SHARED_H
#define MG_GPU_SHARED_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define MG_GPU_SHARED_MAGIC 0x4d474755u /* "MGGU" */
#define MG_GPU_SHARED_VERSION 1u
#define MG_GPU_SHARED_FD 3 /* the region's descriptor in the reader */
#define MG_GPU_READER_NAME "metrograph-gpu-reader"
/* Its command as the kernel keeps it (15 bytes), set before the exec too:
 * what the launcher reaps (app/session/mg-launcher.c). */
#define MG_GPU_READER_COMM "metrograph-gpu-"

#define MG_GPU_MAX 16        /* GPUs followed per node */
#define MG_GPU_MAX_PROCS 64  /* running processes listed per GPU */
#define MG_GPU_MESSAGE_MAX 480

typedef enum {
  MG_GPU_STARTING,
  MG_GPU_READY,
  MG_GPU_DECLINED, /* message and code say why */
  MG_GPU_EXEC_FAILED, /* set by the clone's child: the exec failed with code */
} MgGpuState;

/* What one NVML call reads, for all GPUs at once. */
typedef enum {
  MG_GPU_Q_UTILIZATION, /* GPU and memory-bus utilisation: one call */
  MG_GPU_Q_MEMORY,
  MG_GPU_Q_POWER,
  MG_GPU_Q_TEMPERATURE,
  MG_GPU_Q_CLOCK,
  MG_GPU_Q_PROCESSES,
  MG_GPU_N_QUANTITIES
} MgGpuQuantity;

/* One GPU's latest readings. */
typedef struct {
  bool lost;
  bool off[MG_GPU_N_QUANTITIES];  /* refused on this GPU */
  bool have[MG_GPU_N_QUANTITIES]; /* holds a reading */
  unsigned int utilization, memory_utilization, temperature, clock_mhz;
  uint64_t memory_used, memory_total, program_memory;
  bool used_by_program;
  double power_w, energy_j;
  int64_t power_ns; /* the reader's time of power_w */
} MgGpuValues;

typedef struct {
  unsigned int n_gpus;
  MgGpuValues gpus[MG_GPU_MAX];
} MgGpuReadings;

/* A refusal the reader met: said once by the plugin, as a metric error of
 * the first metric of that quantity that reads after it (count changes). */
typedef struct {
  _Atomic uint32_t count;
  int32_t code;
  char text[160];
} MgGpuRefusal;

typedef struct {
  uint32_t magic, version;
  _Atomic uint32_t state; /* MgGpuState */
  _Atomic uint32_t stop;  /* set by the plugin's cleanup: the reader ends */
  int32_t decline_code;
  char message[MG_GPU_MESSAGE_MAX];
  _Atomic uint32_t seq; /* odd while the readings are written */
  MgGpuReadings readings;
  MgGpuRefusal refusals[MG_GPU_MAX][MG_GPU_N_QUANTITIES];
} MgGpuShared;

/* The writer's side of the sequence lock (one writer: the reader). */
static inline void
mg_gpu_shared_publish (MgGpuShared *s, const MgGpuReadings *r)
{
  uint32_t seq = atomic_load_explicit (&s->seq, memory_order_relaxed);
  atomic_store_explicit (&s->seq, seq + 1, memory_order_relaxed);
  atomic_thread_fence (memory_order_release);
  memcpy (&s->readings, r, sizeof *r);
  atomic_store_explicit (&s->seq, seq + 2, memory_order_release);
}

/* The latest consistent readings into *out, in at most a few tries, with
 * their sequence number in *seq (it changes at every publication); false
 * (out not to be used) when the writer kept it busy throughout. */
static inline bool
mg_gpu_shared_snapshot (const MgGpuShared *s, MgGpuReadings *out, uint32_t *seq)
{
  for (int tries = 0; tries < 4; tries++)
    {
      uint32_t before = atomic_load_explicit ((_Atomic uint32_t *) &s->seq, memory_order_acquire);
      if (before & 1)
        continue;
      memcpy (out, &s->readings, sizeof *out);
      atomic_thread_fence (memory_order_acquire);
      if (atomic_load_explicit ((_Atomic uint32_t *) &s->seq, memory_order_relaxed) == before)
        {
          *seq = before;
          return true;
        }
    }
  return false;
}

#endif /* MG_GPU_SHARED_H */
