/* SPDX-License-Identifier: GPL-3.0-or-later */
/* allinea_read_config_file: looks a variable up in a metric's configuration
 * file. Initialisation only (uses getenv); no libc allocation either way.
 *
 * The file is the one named by the environment variable the metric's
 * <configFile env="…"/> declares; when that variable is unset:
 * ${ALLINEA_CONFIG_DIR:-$HOME/.allinea}/map/metrics/<metricId>.conf.
 * Syntax: lines "name = value" (spaces around '=' optional, surrounding
 * spaces and tabs trimmed); lines whose first non-blank is '#' and blank
 * lines are ignored. The first matching name wins. */
#include "mg-api-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "allinea_metric_plugin_api.h"
#include "mg-safe-format.h"
#include "mg-sampler-hooks.h"

static int
mg_is_blank (char c)
{
  return c == ' ' || c == '\t' || c == '\r';
}

/* Builds the file name into path (PATH_MAX bytes); -1 when too long. */
static int
mg_config_path (const char *metric_id, char *path)
{
  const char *env_name = mg_hook_config_env (metric_id);
  if (env_name == NULL)
    return -3;
  const char *named = getenv (env_name);
  int n;
  if (named != NULL && named[0] != '\0')
    n = mg_safe_snprintf (path, PATH_MAX, "%s", named);
  else
    {
      const char *dir = getenv ("ALLINEA_CONFIG_DIR");
      if (dir != NULL && dir[0] != '\0')
        n = mg_safe_snprintf (path, PATH_MAX, "%s/map/metrics/%s.conf", dir, metric_id);
      else
        {
          const char *home = getenv ("HOME");
          if (home == NULL)
            return -2;
          n = mg_safe_snprintf (path, PATH_MAX, "%s/.allinea/map/metrics/%s.conf", home, metric_id);
        }
    }
  return n >= PATH_MAX ? -1 : 0;
}

/* Looks for variable in one line (modified in place). 1 found, 0 other
 * name or comment, -1 the name matches but the line has no '='. */
static int
mg_config_match (char *line, const char *variable, char **value)
{
  while (mg_is_blank (*line))
    line++;
  if (*line == '\0' || *line == '#')
    return 0;
  char *equals = strchr (line, '=');
  char *name_end = equals ? equals : line + strlen (line);
  while (name_end > line && mg_is_blank (name_end[-1]))
    name_end--;
  size_t name_len = (size_t) (name_end - line);
  if (name_len != strlen (variable) || memcmp (line, variable, name_len) != 0)
    return 0;
  if (equals == NULL)
    return -1;
  char *v = equals + 1;
  while (mg_is_blank (*v))
    v++;
  char *end = v + strlen (v);
  while (end > v && mg_is_blank (end[-1]))
    end--;
  *end = '\0';
  *value = v;
  return 1;
}

MG_API int
allinea_read_config_file (const char *variable, const char *metricId,
                          char *value, int length)
{
  if (variable == NULL || metricId == NULL || variable[0] == '\0')
    return -3;
  char path[PATH_MAX];
  int status = mg_config_path (metricId, path);
  if (status != 0)
    return status;
  int fd = allinea_safe_open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return errno == ENAMETOOLONG ? -1 : -2;
  void *contents = NULL;
  size_t allocated = 0;
  ssize_t size = allinea_safe_read_all_with_alloc (fd, &contents, &allocated);
  allinea_safe_close (fd);
  if (size < 0)
    return -2;
  int result = -3;
  char *line = contents;
  while (line != NULL && result == -3)
    {
      char *newline = strchr (line, '\n');
      if (newline)
        *newline = '\0';
      char *found = NULL;
      int match = mg_config_match (line, variable, &found);
      if (match < 0)
        break;   /* "name" without "= value": badly declared */
      if (match > 0)
        {
          if (value != NULL && length > 0)
            {
              size_t len = strlen (found);
              if (len > (size_t) length - 1)
                len = (size_t) length - 1;
              memcpy (value, found, len);
              value[len] = '\0';
            }
          result = 0;
        }
      line = newline ? newline + 1 : NULL;
    }
  allinea_safe_free (contents);
  return result;
}
