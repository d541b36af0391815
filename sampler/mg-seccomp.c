/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A seccomp filter that the program installed (mg-seccomp.h). */
#include "mg-seccomp.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The process started under a filter: its own image inherited it (a
 * container's, a service manager's, the front end's, or its parent
 * program's); then no later one can be told from it by prctl. */
static bool start_filtered;

static bool
filtered_now (void)
{
  int saved = errno;
  /* 0: none; 2: filter mode. A filter that refuses prctl itself answers
   * with its errno (EINVAL is a kernel without seccomp); strict mode
   * allows no prctl at all (SIGKILL, as for any other call of ours). */
  long mode = syscall (SYS_prctl, PR_GET_SECCOMP, 0L, 0L, 0L, 0L);
  bool filtered = mode == SECCOMP_MODE_FILTER || mode == SECCOMP_MODE_STRICT
                  || (mode < 0 && errno != EINVAL);
  errno = saved;
  return filtered;
}

void
mg_seccomp_note_start (void)
{
  start_filtered = filtered_now ();
}

bool
mg_seccomp_filtered (void)
{
  return !start_filtered && filtered_now ();
}

void
mg_seccomp_stop_record (MgRecordHeader *h)
{
  if (__atomic_load_n (&h->flags, __ATOMIC_ACQUIRE) & MG_RECORD_FLAG_STOPPED)
    return;
  h->record_error_code = EPERM;
  mg_record_copy_str (h->record_error, sizeof h->record_error,
                      "the program installed a seccomp filter, which could kill the process "
                      "for a system call of the sampler's: sampling stopped there (no last "
                      "sample, no plugin end); its samples until then are kept");
  __atomic_or_fetch (&h->flags, MG_RECORD_FLAG_STOPPED, __ATOMIC_RELEASE);
}
