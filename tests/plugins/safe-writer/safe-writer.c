/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A test plugin for the end-to-end I/O tests: at every sample it writes
 * 512 KiB to /dev/null through allinea_safe_write, as a plugin may write
 * its own files, and reports how much it has written. The IO plugin must
 * leave these writes out of the program's wchar. Built without sanitizers,
 * linked against nothing (the API resolves from the sampler). */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>

#include "allinea_metric_plugin_api.h"

#define CHUNK (512 * 1024)

static int fd = -1;
static uint64_t written;
static char chunk[CHUNK];

__attribute__((visibility("default"))) int allinea_plugin_initialize (plugin_id_t plugin_id, void *data);
__attribute__((visibility("default"))) int allinea_plugin_cleanup (plugin_id_t plugin_id, void *data);
__attribute__((visibility("default"))) int mg_test_safe_written (metric_id_t id, struct timespec *t, uint64_t *out);

int
allinea_plugin_initialize (plugin_id_t plugin_id, void *data)
{
  fd = allinea_safe_open ("/dev/null", O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    {
      allinea_set_plugin_error_message (plugin_id, 1, "safe-writer: cannot open /dev/null");
      return -1;
    }
  memset (chunk, 'x', sizeof chunk);
  return 0;
}

int
allinea_plugin_cleanup (plugin_id_t plugin_id, void *data)
{
  if (fd >= 0)
    allinea_safe_close (fd);
  fd = -1;
  return 0;
}

/* Bytes written through allinea_safe_write so far, this sample's included. */
int
mg_test_safe_written (metric_id_t id, struct timespec *t, uint64_t *out)
{
  if (allinea_safe_write (fd, chunk, sizeof chunk) != (ssize_t) sizeof chunk)
    {
      allinea_set_metric_error_message (id, 1, "safe-writer: write failed");
      return -1;
    }
  written += sizeof chunk;
  *out = written;
  return 0;
}
