/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dlopen's failures explained (mg-load-error.h). glibc's dlerror texts:
 *   "FILE: cannot open shared object file: No such file or directory"
 *     (FILE is the plugin, or a library it needs)
 *   "OBJECT: undefined symbol: SYMBOL"
 * The first with another reason when the file is there but cannot be
 * opened ("Too many open files": the process's descriptor limit, as NVML's
 * 14 descriptors in the program once made it under `ulimit -Sn 16`, which
 * the summary called "cannot find"). */
#include "mg-load-error.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define MISSING_FILE ": cannot open shared object file"
#define NO_SUCH_FILE "No such file or directory"
#define UNDEFINED ": undefined symbol: "

/* Whether the first n bytes of name are a path to the same file name as
 * library. */
static bool
same_file (const char *library, const char *name, size_t n)
{
  const char *lib_base = strrchr (library, '/');
  lib_base = lib_base ? lib_base + 1 : library;
  const char *base = name;
  for (size_t i = 0; i < n; i++)
    if (name[i] == '/')
      base = name + i + 1;
  size_t base_len = n - (size_t) (base - name);
  return base_len == strlen (lib_base) && strncmp (base, lib_base, base_len) == 0;
}

void
mg_load_error_explain (const char *library, const char *detail, char *out, size_t len)
{
  const char *at;

  if (len == 0)
    return;
  if (!detail)
    detail = "";
  if ((at = strstr (detail, UNDEFINED)) != NULL)
    {
      const char *symbol = at + strlen (UNDEFINED);
      int object_len = (int) (at - detail);
      if (same_file (library, detail, (size_t) object_len))
        snprintf (out, len,
                  "uses the symbol %s, which no loaded library defines (link the plugin with "
                  "the library that has it; %s was found)",
                  symbol, library);
      else
        snprintf (out, len,
                  "uses the symbol %s through the library %.*s, and no loaded library defines "
                  "it (%s was found)",
                  symbol, object_len, detail, library);
      return;
    }
  if ((at = strstr (detail, MISSING_FILE)) != NULL)
    {
      int missing_len = (int) (at - detail);
      const char *reason = at + strlen (MISSING_FILE);
      reason += strspn (reason, ": ");
      if (*reason != '\0' && strcmp (reason, NO_SUCH_FILE) != 0)
        {
          snprintf (out, len, "cannot open %.*s: %s%s", missing_len, detail, reason,
                    strstr (reason, "Too many open files") != NULL
                      ? " (the process's descriptor limit, ulimit -n, is reached)" : "");
          return;
        }
      if (same_file (library, detail, (size_t) missing_len))
        snprintf (out, len, strchr (library, '/') ? "cannot find %s"
                                                   : "cannot find %s (is its folder on LD_LIBRARY_PATH?)",
                  library);
      else
        snprintf (out, len,
                  "needs the library %.*s, which is not found here (install it, or add its "
                  "folder to LD_LIBRARY_PATH; %s was found)",
                  missing_len, detail, library);
      return;
    }
  snprintf (out, len, "cannot load %s, %s", library, detail);
}
