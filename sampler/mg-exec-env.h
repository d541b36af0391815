/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The environment an exec passes on (mg-exec-env.c). */
#ifndef MG_EXEC_ENV_H
#define MG_EXEC_ENV_H

#include <stdbool.h>

#include "mg-sampler-state.h"

/* Entries of an environment the exec can pass on changed; past that, it
 * passes the program's unchanged. */
#define MG_EXEC_ENV_MAX 512
/* Room for LD_PRELOAD's rewritten value. */
#define MG_EXEC_PRELOAD_MAX 4096

typedef struct {
  char *envp[MG_EXEC_ENV_MAX + 1];
  char preload[MG_EXEC_PRELOAD_MAX];
} MgExecEnv;

/* The process's root or mounts may have moved (chroot, unshare or setns
 * of a mount namespace): the next exec checks that the sampler can still
 * be reached. */
MG_INTERNAL void mg_exec_env_root_moved (void);
/* Whether the new image could not reach the sampler library (ld.so
 * would print "object … cannot be preloaded" on its stderr): only once
 * the root may have moved. */
MG_INTERNAL bool mg_exec_env_unreachable (void);
/* A copy of @envp in @buf whose LD_PRELOAD names no sampler library, or
 * @envp where it does not fit. No allocation. */
MG_INTERNAL char *const *mg_exec_env_strip (char *const envp[], MgExecEnv *buf);

#endif /* MG_EXEC_ENV_H */
