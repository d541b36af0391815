/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dlopen's failures explained (mg-load-error.h). glibc's dlerror texts:
 *   "FILE: cannot open shared object file: No such file or directory"
 *     (FILE is the plugin, or a library it needs; another reason than
 *     "No such file…" when the file is there and cannot be opened, e.g.
 *     "Too many open files", which the loader itself writes "Error 24")
 *   "OBJECT: undefined symbol: SYMBOL" */
#include "mg-load-error.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define MISSING_FILE ": cannot open shared object file"
#define NOT_THERE ": No such file or directory"
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

/* A file that is there but cannot be opened: @dependency (its first @n
 * bytes) is the library it needs, NULL for the plugin's own file. Out of
 * descriptors is said as such: a "cannot find" blamed a file that was
 * there (the program held every number below its RLIMIT_NOFILE). */
static void
explain_unopenable (const char *library, const char *dependency, int n, const char *reason,
                    char *out, size_t len)
{
  bool no_fd = strcmp (reason, "Too many open files") == 0 || strcmp (reason, "Error 24") == 0;
  const char *why = no_fd ? "the process has no free file descriptor: its limit (ulimit -n) is "
                            "reached"
                          : reason;

  if (dependency)
    snprintf (out, len, "cannot open the library %.*s that %s needs: %s", n, dependency, library,
              why);
  else
    snprintf (out, len, "cannot open %s: %s", library, why);
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
      bool own = same_file (library, detail, (size_t) missing_len);
      if (strcmp (reason, NOT_THERE) != 0 && *reason == ':')
        explain_unopenable (library, own ? NULL : detail, missing_len, reason + 2, out, len);
      else if (own)
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
