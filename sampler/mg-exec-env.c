/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The environment an exec passes on: the program's, unless the process
 * moved to a root where the sampler library is not (a chroot, a mount
 * namespace of its own: containers, sandboxes). There ld.so would find
 * LD_PRELOAD naming a file it cannot open and print "ERROR: ld.so: object
 * … from LD_PRELOAD cannot be preloaded … ignored." on the stderr of every
 * image from then on: the exec passes LD_PRELOAD without the sampler's
 * entries instead (those images are not profiled either way). Checked
 * only once the root may have moved (chroot, unshare and setns are
 * interposed): an exec otherwise costs nothing more. A raw pivot_root or
 * exec system call is not seen. */
#include "mg-exec-env.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#define PRELOAD_VAR "LD_PRELOAD="
#define SAMPLER_NAME "libmetrograph-sampler.so"

static bool root_moved;
static char own_path[PATH_MAX];

/* Where the library was loaded from (as the loader keeps it: no file
 * is read), found when the root moves, outside any exec: not in every
 * process's constructor. */
void
mg_exec_env_root_moved (void)
{
  Dl_info info;
  if (own_path[0] == '\0' && dladdr ((void *) mg_exec_env_root_moved, &info)
      && info.dli_fname != NULL && strlen (info.dli_fname) < sizeof own_path)
    strcpy (own_path, info.dli_fname);
  root_moved = true;
}

bool
mg_exec_env_unreachable (void)
{
  return root_moved && own_path[0] != '\0' && access (own_path, R_OK) != 0;
}

static bool
is_sampler_entry (const char *entry, size_t len)
{
  size_t name_len = sizeof SAMPLER_NAME - 1;
  return len >= name_len && memcmp (entry + len - name_len, SAMPLER_NAME, name_len) == 0
         && (len == name_len || entry[len - name_len - 1] == '/');
}

/* LD_PRELOAD's value without the sampler's entries, into @out; false when
 * it does not fit. Entries are separated by spaces or colons (ld.so). */
static bool
strip_preload (const char *value, char *out, size_t size)
{
  size_t n = 0;
  const char *p = value;
  while (*p != '\0')
    {
      size_t len = strcspn (p, " :");
      if (len > 0 && !is_sampler_entry (p, len))
        {
          if (n + len + 2 > size)
            return false;
          if (n > 0)
            out[n++] = ' ';
          memcpy (out + n, p, len);
          n += len;
        }
      p += len;
      p += strspn (p, " :");
    }
  out[n] = '\0';
  return true;
}

char *const *
mg_exec_env_strip (char *const envp[], MgExecEnv *buf)
{
  if (envp == NULL)
    return envp;
  size_t n = 0;
  for (size_t i = 0; envp[i] != NULL; i++)
    {
      if (n == MG_EXEC_ENV_MAX)
        return envp;
      if (strncmp (envp[i], PRELOAD_VAR, sizeof PRELOAD_VAR - 1) != 0)
        {
          buf->envp[n++] = envp[i];
          continue;
        }
      memcpy (buf->preload, PRELOAD_VAR, sizeof PRELOAD_VAR - 1);
      char *value = buf->preload + sizeof PRELOAD_VAR - 1;
      if (!strip_preload (envp[i] + sizeof PRELOAD_VAR - 1, value,
                          sizeof buf->preload - (sizeof PRELOAD_VAR - 1)))
        return envp;
      if (*value != '\0')
        buf->envp[n++] = buf->preload;
    }
  buf->envp[n] = NULL;
  return buf->envp;
}
