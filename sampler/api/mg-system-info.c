/* SPDX-License-Identifier: GPL-3.0-or-later */
/* allinea_get_logical_core_count / allinea_get_physical_core_count, from
 * sysfs, computed once and cached (racing first callers compute the same
 * value). Logical: the kernel's online CPU list
 * (/sys/devices/system/cpu/online, like sysconf(_SC_NPROCESSORS_ONLN));
 * physical: distinct (physical_package_id, core_id) pairs of those CPUs. */
#include "mg-api-internal.h"

#include <fcntl.h>
#include <stddef.h>

#include "allinea_metric_plugin_api.h"
#include "mg-safe-format.h"

#define MG_SYSFS_CPU "/sys/devices/system/cpu"
#define MG_MAX_CPUS 4096

static int mg_logical_cached = -2;    /* -2: not computed yet */
static int mg_physical_cached = -2;

/* Reads a small sysfs file into buf (NUL-terminated); -1 on failure. */
static int
mg_read_small_file (const char *path, char *buf, size_t size)
{
  int fd = allinea_safe_open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  ssize_t n = allinea_safe_read_all (fd, buf, size - 1);
  allinea_safe_close (fd);
  if (n < 0)
    return -1;
  buf[n] = '\0';
  return 0;
}

static const char *
mg_parse_uint (const char *p, long *out)
{
  if (*p < '0' || *p > '9')
    return NULL;
  long v = 0;
  while (*p >= '0' && *p <= '9')
    {
      if (v < 100000000)
        v = v * 10 + (*p - '0');
      p++;
    }
  *out = v;
  return p;
}

/* Calls visit(cpu, user) for each CPU of a list such as "0-3,8,10-11".
 * Returns the number of CPUs, or -1 if the list is malformed. */
static int
mg_for_each_cpu (const char *list, void (*visit) (long cpu, void *user), void *user)
{
  const char *p = list;
  int count = 0;
  while (*p && *p != '\n')
    {
      long first, last;
      p = mg_parse_uint (p, &first);
      if (p == NULL)
        return -1;
      last = first;
      if (*p == '-')
        {
          p = mg_parse_uint (p + 1, &last);
          if (p == NULL || last < first)
            return -1;
        }
      for (long cpu = first; cpu <= last && count < MG_MAX_CPUS; cpu++, count++)
        if (visit)
          visit (cpu, user);
      if (*p == ',')
        p++;
      else if (*p && *p != '\n')
        return -1;
    }
  return count > 0 ? count : -1;
}

typedef struct {
  long package[MG_MAX_CPUS];
  long core[MG_MAX_CPUS];
  int distinct;
  int failed;
} MgCoreSet;

static void
mg_visit_cpu (long cpu, void *user)
{
  MgCoreSet *set = user;
  char path[128], text[32];
  long package, core;
  mg_safe_snprintf (path, sizeof path, MG_SYSFS_CPU "/cpu%ld/topology/physical_package_id", cpu);
  if (mg_read_small_file (path, text, sizeof text) != 0 || mg_parse_uint (text, &package) == NULL)
    {
      set->failed = 1;
      return;
    }
  mg_safe_snprintf (path, sizeof path, MG_SYSFS_CPU "/cpu%ld/topology/core_id", cpu);
  if (mg_read_small_file (path, text, sizeof text) != 0 || mg_parse_uint (text, &core) == NULL)
    {
      set->failed = 1;
      return;
    }
  for (int i = 0; i < set->distinct; i++)
    if (set->package[i] == package && set->core[i] == core)
      return;
  set->package[set->distinct] = package;
  set->core[set->distinct] = core;
  set->distinct++;
}

MG_API int
allinea_get_logical_core_count (void)
{
  int cached = __atomic_load_n (&mg_logical_cached, __ATOMIC_RELAXED);
  if (cached != -2)
    return cached;
  char list[4096];
  int count = -1;
  if (mg_read_small_file (MG_SYSFS_CPU "/online", list, sizeof list) == 0)
    count = mg_for_each_cpu (list, NULL, NULL);
  __atomic_store_n (&mg_logical_cached, count, __ATOMIC_RELAXED);
  return count;
}

MG_API int
allinea_get_physical_core_count (void)
{
  int cached = __atomic_load_n (&mg_physical_cached, __ATOMIC_RELAXED);
  if (cached != -2)
    return cached;
  /* About 64 KiB: static rather than on a getter's stack; the first call
   * is serialised by this flag, later calls only read the cache. */
  static MgCoreSet set;
  static int busy;
  int count = -1;
  if (__atomic_exchange_n (&busy, 1, __ATOMIC_ACQUIRE))
    return -1;   /* another thread is computing it right now */
  char list[4096];
  set.distinct = 0;
  set.failed = 0;
  if (mg_read_small_file (MG_SYSFS_CPU "/online", list, sizeof list) == 0
      && mg_for_each_cpu (list, mg_visit_cpu, &set) > 0 && !set.failed)
    count = set.distinct;
  __atomic_store_n (&mg_physical_cached, count, __ATOMIC_RELAXED);
  __atomic_store_n (&busy, 0, __ATOMIC_RELEASE);
  return count;
}

/* Both caches warmed before any plugin runs, so getters only ever read
 * them. */
void
mg_system_info_warm (void)
{
  allinea_get_logical_core_count ();
  allinea_get_physical_core_count ();
}
