/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The node leader's identity in its lock file (mg-node-lock.h). */
#include "mg-node-lock.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

unsigned long long
mg_node_lock_start_time (pid_t pid)
{
  char path[64], buf[1024];
  snprintf (path, sizeof path, "/proc/%d/stat", (int) pid);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  ssize_t n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  /* The name (field 2) may hold spaces: count from after its last ')'. */
  char *p = strrchr (buf, ')');
  for (int field = 2; p && field < 22; field++)
    p = strchr (p + 1, ' ');
  return p ? strtoull (p + 1, NULL, 10) : 0;
}

bool
mg_node_lock_claim (int fd)
{
  char text[64];
  pid_t self = getpid ();
  int pid = 0;
  unsigned long long start = 0;
  ssize_t n = pread (fd, text, sizeof text - 1, 0);
  text[n > 0 ? n : 0] = '\0';
  /* Another process named there that lives (same pid, same start: not a
   * reused pid) leads still, its flock gone with its descriptor. The
   * same pid is this process before an exec (its image changed, not its
   * start), whose lock the exec closed. */
  if (sscanf (text, "%d %llu", &pid, &start) == 2 && pid > 0 && pid != self && start != 0
      && mg_node_lock_start_time (pid) == start)
    return false;
  /* Fixed width: it overwrites any earlier line whole. */
  int len = snprintf (text, sizeof text, "%11d %20llu\n", (int) self, mg_node_lock_start_time (self));
  ssize_t written = pwrite (fd, text, (size_t) len, 0);
  (void) written; /* unwritten, it leads all the same (as before the file said who) */
  return true;
}
