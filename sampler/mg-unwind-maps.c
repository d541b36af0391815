/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The readable mappings of the process, from /proc/self/maps, for the
 * handler's stack bounds (mg-unwind-internal.h). */

#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "mg-unwind-internal.h"

/* In the sampler, the plugin API's read, whose calls the I/O metrics leave
 * out (the maps are read when a thread starts: 7 reads in a round read as
 * the program's 370 read calls/s); plain read where the unwinder is built
 * alone (its tests and bench). */
extern ssize_t allinea_safe_read (int fd, void *buf, size_t count) __attribute__ ((weak));

static ssize_t
read_maps (int fd, void *buf, size_t count)
{
  return allinea_safe_read != NULL ? allinea_safe_read (fd, buf, count) : read (fd, buf, count);
}

static bool
parse_hex (const char **p, const char *end, uint64_t *v)
{
  const char *s = *p;
  *v = 0;
  while (s < end)
    {
      char c = *s;
      unsigned d;
      if (c >= '0' && c <= '9')
        d = (unsigned) (c - '0');
      else if (c >= 'a' && c <= 'f')
        d = (unsigned) (c - 'a' + 10);
      else
        break;
      *v = *v << 4 | d;
      s++;
    }
  bool ok = s > *p;
  *p = s;
  return ok;
}

/* "lo-hi perms ...": adds [lo, hi) when perms start with 'r'. */
static void
parse_line (const char *line, const char *end, struct mg_unwind_range *ranges, uint32_t max, uint32_t *n)
{
  uint64_t lo, hi;
  const char *p = line;
  if (!parse_hex (&p, end, &lo) || p >= end || *p++ != '-' || !parse_hex (&p, end, &hi) || p + 2 > end
      || *p++ != ' ' || *p != 'r' || hi <= lo || *n == max)
    return;
  ranges[(*n)++] = (struct mg_unwind_range){ lo, hi };
}

uint32_t
mg_unwind_maps_read (struct mg_unwind_range *ranges, uint32_t max, char *buf, size_t buf_size)
{
  int fd = open ("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  uint32_t n = 0;
  size_t have = 0;
  for (;;)
    {
      ssize_t got = read_maps (fd, buf + have, buf_size - have);
      if (got < 0)
        {
          n = 0;
          break;
        }
      have += (size_t) got;
      const char *line = buf;
      const char *end = buf + have;
      const char *nl;
      while ((nl = memchr (line, '\n', (size_t) (end - line))) != NULL)
        {
          parse_line (line, nl, ranges, max, &n);
          line = nl + 1;
        }
      have = (size_t) (end - line);
      if (have == buf_size) /* a line longer than the buffer: its start is enough */
        {
          parse_line (buf, buf + have, ranges, max, &n);
          have = 0;
        }
      memmove (buf, line, have);
      if (got == 0)
        break;
    }
  close (fd);
  return n;
}
