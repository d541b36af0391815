/* SPDX-License-Identifier: GPL-3.0-or-later */
/* custom1: system interrupts per second, from the "intr" line of /proc/stat.
 *
 * An example metric plugin for the MAP custom metric plugin interface, as
 * implemented by Metrograph (and by Linaro MAP). Build:
 *   cc -fPIC -shared $(pkg-config --cflags metrograph-plugin) -o libcustom1.so custom1.c
 * and install with custom1.xml (see the Makefile).
 *
 * The getter may run inside a signal handler, so it only uses
 * async-signal-safe calls: the allinea_safe_* I/O functions (whose bytes the
 * profiler leaves out of its I/O metrics) and plain string handling written
 * out here (strtoull and strerror are not on the async-signal-safe list). */
#include <errno.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "allinea_metric_plugin_api.h"
#include "allinea_metric_plugin_template.h"

#define PROC_STAT "/proc/stat"

/* Error codes this plugin reports (documented for its users). */
#define ERROR_NO_PROC_STAT 1000   /* /proc/stat does not exist */
#define ERROR_NO_INTR_LINE 1001   /* /proc/stat has no "intr" line */

/* The "intr" line lists every interrupt source and can be thousands of
 * bytes long; only its first field (the total) is needed, so a short buffer
 * is enough: allinea_safe_read_line truncates and skips the rest. */
#define LINE_SIZE 256

/* The metric's value when it has none yet (first sample): the sentinel ~0
 * tells the profiler "no value", drawn as a gap rather than a zero. */
#define NO_VALUE (~(uint64_t) 0)

int sample_interrupts (metric_id_t metric_id, struct timespec *in_out_sample_time,
                       uint64_t *out_value);

static uint64_t previous;
static int have_previous;

int
allinea_plugin_initialise (plugin_id_t plugin_id, void *unused)
{
  (void) unused;
  /* Not in a signal handler here: any libc call is fine. */
  if (access (PROC_STAT, R_OK) != 0)
    {
      if (errno == ENOENT)
        allinea_set_plugin_error_messagef (plugin_id, ERROR_NO_PROC_STAT,
                                           "Not supported (no %s)", PROC_STAT);
      else
        allinea_set_plugin_error_messagef (plugin_id, errno, "Error accessing %s: %s",
                                           PROC_STAT, strerror (errno));
      return -1;
    }
  return 0;
}

int
allinea_plugin_cleanup (plugin_id_t plugin_id, void *unused)
{
  (void) plugin_id;
  (void) unused;
  return 0;
}

/* Parses the decimal number at the start of text; -1 when there is none. */
static int
parse_total (const char *text, uint64_t *out)
{
  uint64_t value = 0;
  const char *p = text;
  while (*p >= '0' && *p <= '9')
    value = value * 10 + (uint64_t) (*p++ - '0');
  if (p == text)
    return -1;
  *out = value;
  return 0;
}

int
sample_interrupts (metric_id_t metric_id, struct timespec *in_out_sample_time,
                   uint64_t *out_value)
{
  char line[LINE_SIZE];
  /* Stamp the sample as close as possible to the read. */
  *in_out_sample_time = allinea_get_current_time ();
  const int fd = allinea_safe_open (PROC_STAT, O_RDONLY);
  if (fd == -1)
    {
      allinea_set_metric_error_messagef (metric_id, errno, "Error opening %s (errno %d)",
                                         PROC_STAT, errno);
      return -1;
    }
  int result = -1;
  int read_failed = 0;
  for (;;)
    {
      const ssize_t length = allinea_safe_read_line (fd, line, sizeof line);
      if (length < 0)
        {
          allinea_set_metric_error_messagef (metric_id, errno, "Error reading %s (errno %d)",
                                             PROC_STAT, errno);
          read_failed = 1;
          break;
        }
      if (length == 0)
        {
          /* /proc/stat has no blank lines: 0 is the end of the file. */
          break;
        }
      /* The line is "intr <total> <source 1 count> <source 2 count> ...". */
      uint64_t current;
      if (strncmp (line, "intr ", 5) == 0 && parse_total (line + 5, &current) == 0)
        {
          /* divideBySampleTime="true": return the increase since the last
           * sample; the profiler divides it by the elapsed time. */
          *out_value = have_previous ? current - previous : NO_VALUE;
          previous = current;
          have_previous = 1;
          result = 0;
          break;
        }
    }
  if (result != 0 && !read_failed)
    allinea_set_metric_error_message (metric_id, ERROR_NO_INTR_LINE,
                                      "No \"intr\" line in " PROC_STAT);
  allinea_safe_close (fd);
  return result;
}
