/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include <errno.h>
#include <unistd.h>

#include "mg-pread.h"

gsize
mg_pread_full (int fd, void *buf, gsize len, guint64 offset)
{
  guchar *p = buf;
  gsize got = 0;

  while (got < len)
    {
      gssize n = pread (fd, p + got, len - got, (off_t) (offset + got));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (n == 0)
            errno = 0;
          break;
        }
      got += (gsize) n;
    }
  return got;
}
