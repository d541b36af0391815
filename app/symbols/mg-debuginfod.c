/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "symbols/mg-debuginfod-internal.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

/* libdebuginfod's query (elfutils/debuginfod.h, a stable ABI): a build-id
 * given as hex when its length is 0; a file descriptor, or -errno. */
typedef int (*FindDebuginfo) (debuginfod_client *client,
                              const unsigned char *build_id,
                              int build_id_len,
                              char **path);

int
mg_debuginfod_find_debuginfo (Dwfl *dwfl, const char *hex, char **path)
{
  debuginfod_client *client = dwfl_get_debuginfod_client (dwfl);
  void *library;
  FindDebuginfo find;
  char *found = NULL;
  int fd = -1;

  if (client == NULL)
    return -1;
  /* libdw has loaded libdebuginfod to make the client (it is loaded, not
   * linked, so that it stays optional); this takes the same copy. */
  library = dlopen ("libdebuginfod.so.1", RTLD_LAZY);
  if (library == NULL)
    return -1;
  find = (FindDebuginfo) dlsym (library, "debuginfod_find_debuginfo");
  if (find != NULL)
    fd = find (client, (const unsigned char *) hex, 0, &found);
  dlclose (library);
  if (fd < 0)
    {
      free (found);
      return -1;
    }
  *path = g_strdup (found);
  free (found);
  return fd;
}
