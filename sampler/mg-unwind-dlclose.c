/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dlclose, interposed so that no handler reads a module's CFI while the
 * loader unmaps it: handlers stop reading modules (those in flight are
 * waited for), the real dlclose runs, and the next snapshot, without the
 * unloaded module, is published before handlers read modules again. The
 * program sees the real dlclose's result and errno. */
#include <dlfcn.h>
#include <errno.h>

#include "mg-unwind-internal.h"

#define MG_EXPORT __attribute__((visibility("default")))

typedef int (*DlcloseFn) (void *);

MG_EXPORT int
dlclose (void *handle)
{
  static DlcloseFn real;
  DlcloseFn fn = __atomic_load_n (&real, __ATOMIC_ACQUIRE);
  if (fn == NULL)
    {
      *(void **) &fn = dlsym (RTLD_NEXT, "dlclose");
      if (fn == NULL)
        return -1;
      __atomic_store_n (&real, fn, __ATOMIC_RELEASE);
    }
  mg_unwind_unload_begin ();
  int rc = fn (handle);
  int saved = errno;
  mg_unwind_unload_end ();
  errno = saved;
  return rc;
}
