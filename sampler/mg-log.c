/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-log.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

static bool log_verbose;

void
mg_log_set_verbose (bool verbose)
{
  log_verbose = verbose;
}

static void __attribute__((format(printf, 2, 0)))
write_stderr (const char *prefix, const char *fmt, va_list ap)
{
  char buf[1024];
  int p = snprintf (buf, sizeof buf, "%s", prefix);
  int n = vsnprintf (buf + p, sizeof buf - 1 - (size_t) p, fmt, ap);
  if (n < 0)
    return;
  n += p;
  if ((size_t) n > sizeof buf - 2)
    n = sizeof buf - 2;
  buf[n++] = '\n';
  if (write (STDERR_FILENO, buf, (size_t) n) < 0)
    { /* nowhere to report it */ }
}

void
mg_log (const char *fmt, ...)
{
  if (!log_verbose)
    return;
  va_list ap;
  va_start (ap, fmt);
  write_stderr ("metrograph-sampler: ", fmt, ap);
  va_end (ap);
}

void
mg_say (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  write_stderr ("", fmt, ap);
  va_end (ap);
}
