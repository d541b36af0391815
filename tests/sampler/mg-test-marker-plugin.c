/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A plugin that leaves a marker file when loaded: the test checks that a
 * library with no enabled metric is never loaded. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "allinea_metric_plugin_api.h"
#include "mg-test-plugin.h"

__attribute__((constructor)) static void
leave_marker (void)
{
  const char *path = getenv ("MG_TEST_MARKER");
  if (path)
    {
      int fd = open (path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
      if (fd >= 0)
        close (fd);
    }
}

__attribute__((visibility("default"))) int
marker_value (metric_id_t id, struct timespec *t, uint64_t *out)
{
  *out = 1;
  return 0;
}
