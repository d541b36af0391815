/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "symbols/mg-demangle.h"

#include <stdlib.h>

/* libstdc++'s demangler (cxxabi.h), declared for C: it returns a malloc'd
 * string and status 0 on success. */
extern char *__cxa_demangle (const char *mangled, char *buffer, size_t *length, int *status);

char *
mg_demangle (const char *name)
{
  char *plain;
  char *copy;
  int status = -1;

  if (name == NULL)
    return NULL;
  /* Only Itanium-mangled names: a C function called, say, "_Zoo" would
   * fail to demangle and be kept as it is anyway. */
  if (!g_str_has_prefix (name, "_Z"))
    return g_strdup (name);
  plain = __cxa_demangle (name, NULL, NULL, &status);
  if (status != 0 || plain == NULL)
    {
      free (plain);
      return g_strdup (name);
    }
  copy = g_strdup (plain);
  free (plain);
  return copy;
}
