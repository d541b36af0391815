/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GPU reader's work (gpu-reader-core.c): NVML loaded with dlopen, its
 * GPUs read a round at a time into the shared region (gpu-shared.h).
 * libc + libdl only: it runs in metrograph-gpu-reader, and the tests drive
 * it in-process with sample times of their own. */
#ifndef MG_GPU_READER_CORE_H
#define MG_GPU_READER_CORE_H

#include <stdint.h>
#include <sys/types.h>

#include "gpu-shared.h"

/* Loads NVML (library: METROGRAPH_NVML_LIBRARY's value, or NULL for the
 * driver's), starts it and lists the GPUs; the region's state becomes
 * MG_GPU_READY, or MG_GPU_DECLINED with the message and code the plugin
 * declines with. The program's processes are those of program's session. */
void mg_gpu_reader_open (MgGpuShared *shared, const char *library, pid_t program);

/* Reads every quantity due at now_ns (the cadences: memory every 100 ms,
 * the processes every second, never in memory's round) on every GPU still
 * followed, and publishes the readings. */
void mg_gpu_reader_round (MgGpuShared *shared, int64_t now_ns);

/* Stops NVML and unloads it. */
void mg_gpu_reader_close (void);

#endif /* MG_GPU_READER_CORE_H */
