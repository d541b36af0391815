/* SPDX-License-Identifier: GPL-3.0-or-later */
/* memfd_create needs _GNU_SOURCE, given by meson.build. */
#include "fuzz-input.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static int fd = -1;
static char path[64];

const char *
fuzz_input_as_file (const uint8_t *data, size_t size)
{
  if (fd < 0)
    {
      fd = memfd_create ("fuzz-input", MFD_CLOEXEC);
      if (fd < 0)
        abort ();
      snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
    }
  if (ftruncate (fd, 0) != 0 || pwrite (fd, data, size, 0) != (ssize_t) size)
    abort ();
  return path;
}
