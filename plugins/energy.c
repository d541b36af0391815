/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Built-in metric plugin "Energy": the node's CPU package energy from the
 * kernel's powercap (RAPL) interface, /sys/class/powercap/intel-rapl:N/
 * energy_uj for every package domain N (sub-domains such as intel-rapl:0:0
 * are parts of their package and are not added again). A top-level zone
 * named "psys" (the zone's name file) is the whole platform (SoC, memory,
 * and on laptops more), which already includes the packages: it is not
 * added either.
 *
 * The environment variable METROGRAPH_POWERCAP_DIR replaces
 * /sys/class/powercap (for tests, or a copy of another machine's tree).
 * Each energy_uj file is kept open and re-read once per sampling round,
 * shared by both metrics. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mg-metric-util.h"

#define MAX_PACKAGES 16
#define PATH_LEN 512

typedef struct {
  char path[PATH_LEN];   /* .../energy_uj */
  MgProcFile file;       /* path, kept open */
  uint64_t max_range_uj; /* the counter wraps past this */
  uint64_t last_uj;
} Package;

static Package packages[MAX_PACKAGES];
static int n_packages;
static uint64_t total_uj;      /* since sampling start */
static uint64_t power_prev_uj; /* total_uj at the previous rapl_power call */
static int64_t cur_round;
static struct timespec read_time; /* of the current round's counters */

static void
close_packages (void)
{
  for (int i = 0; i < n_packages; i++)
    mg_proc_file_close (&packages[i].file);
  n_packages = 0;
}

/* A package domain directory: "intel-rapl:N" with no second colon. */
static bool
is_package_domain (const char *name)
{
  if (strncmp (name, "intel-rapl:", 11) != 0 || name[11] == '\0')
    return false;
  return strchr (name + 11, ':') == NULL;
}

/* The platform zone ("psys"), read from the zone's name file; a zone
 * without a readable name is taken for a package. */
static bool
is_platform_zone (const char *root, const char *zone)
{
  char path[PATH_LEN], name[64];
  snprintf (path, sizeof path, "%s/%s/name", root, zone);
  if (mg_read_file (path, name, sizeof name) < 0)
    return false;
  name[strcspn (name, "\n")] = '\0';
  return strcmp (name, "psys") == 0;
}

static int
fail (plugin_id_t plugin_id, int code, const char *path)
{
  if (code == EACCES || code == EPERM)
    allinea_set_plugin_error_messagef (
        plugin_id, code,
        "Energy: RAPL readable only by root: %s (Linux 5.10 and later restrict "
        "RAPL counters): run as root, or as root run "
        "'chmod a+r /sys/class/powercap/intel-rapl:*/energy_uj'", path);
  else if (code == ENOENT)
    /* No RAPL here: the plugin declines (code 0), nothing went wrong. */
    allinea_set_plugin_error_messagef (
        plugin_id, 0,
        "Energy: no RAPL: %s does not exist, so this machine has no RAPL "
        "powercap interface (virtual machines usually have none; on an Intel "
        "or AMD host load it with 'modprobe intel_rapl_common')", path);
  else
    allinea_set_plugin_error_messagef (plugin_id, code,
                                       "Energy: cannot read %s: %s", path,
                                       strerror (code));
  return -1;
}

MG_PLUGIN_EXPORT int allinea_plugin_initialize (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int allinea_plugin_cleanup (plugin_id_t plugin_id, void *data);

int
allinea_plugin_initialize (plugin_id_t plugin_id, void *data)
{
  const char *root = getenv ("METROGRAPH_POWERCAP_DIR");
  if (root == NULL || *root == '\0')
    root = "/sys/class/powercap";
  mg_watch_forks ();
  close_packages ();
  total_uj = power_prev_uj = 0;
  cur_round = 0;

  DIR *dir = opendir (root);
  if (dir == NULL)
    return fail (plugin_id, errno, root);
  struct dirent *entry;
  int first_error = 0;
  char error_path[PATH_LEN] = "";
  while ((entry = readdir (dir)) != NULL && n_packages < MAX_PACKAGES)
    {
      if (!is_package_domain (entry->d_name)
          || is_platform_zone (root, entry->d_name))
        continue;
      Package *pkg = &packages[n_packages];
      char range_path[PATH_LEN];
      snprintf (pkg->path, sizeof pkg->path, "%s/%s/energy_uj", root,
                entry->d_name);
      snprintf (range_path, sizeof range_path, "%s/%s/max_energy_range_uj",
                root, entry->d_name);
      if (mg_read_u64_file (pkg->path, &pkg->last_uj) != 0)
        {
          if (first_error == 0)
            {
              first_error = errno;
              snprintf (error_path, sizeof error_path, "%s", pkg->path);
            }
          continue;
        }
      if (mg_read_u64_file (range_path, &pkg->max_range_uj) != 0)
        pkg->max_range_uj = 0;
      pkg->file = (MgProcFile) MG_PROC_FILE (pkg->path);
      n_packages++;
    }
  closedir (dir);

  if (n_packages > 0)
    return 0;
  if (first_error != 0)
    return fail (plugin_id, first_error, error_path);
  char pattern[PATH_LEN];
  snprintf (pattern, sizeof pattern, "%s/intel-rapl:*", root);
  return fail (plugin_id, ENOENT, pattern);
}

int
allinea_plugin_cleanup (plugin_id_t plugin_id, void *data)
{
  close_packages ();
  return 0;
}

static int
refresh (metric_id_t id, const struct timespec *now)
{
  if (mg_same_round (now, &cur_round))
    return 0;
  for (int i = 0; i < n_packages; i++)
    {
      Package *pkg = &packages[i];
      uint64_t uj;
      if (mg_proc_file_read_u64 (&pkg->file, &uj) != 0)
        {
          cur_round = 0;
          allinea_set_metric_error_messagef (id, errno,
                                             "cannot read %s (errno %d)",
                                             pkg->path, errno);
          return -1;
        }
      if (uj >= pkg->last_uj)
        total_uj += uj - pkg->last_uj;
      else if (pkg->max_range_uj > pkg->last_uj)
        total_uj += pkg->max_range_uj - pkg->last_uj + uj; /* wrapped */
      pkg->last_uj = uj;
    }
  read_time = allinea_get_current_time ();
  return 0;
}

/* Joules since the previous call; the sampler divides by the sample time. */
MG_PLUGIN_EXPORT int mg_energy_power (metric_id_t id, struct timespec *t, double *out);
int
mg_energy_power (metric_id_t id, struct timespec *t, double *out)
{
  if (refresh (id, t) != 0)
    return -1;
  *out = (double) (total_uj - power_prev_uj) / 1e6;
  power_prev_uj = total_uj;
  mg_report_read_time (t, &read_time);
  return 0;
}

/* Joules since sampling started. */
MG_PLUGIN_EXPORT int mg_energy_total (metric_id_t id, struct timespec *t, double *out);
int
mg_energy_total (metric_id_t id, struct timespec *t, double *out)
{
  if (refresh (id, t) != 0)
    return -1;
  *out = (double) total_uj / 1e6;
  return 0;
}
