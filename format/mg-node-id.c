/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "format/mg-node-id.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/mg-run-folder-layout.h"

bool
mg_node_id (char *buf, size_t size)
{
  char boot[64];
  struct stat mnt;
  int fd = open (MG_RUN_FOLDER_BOOT_ID_PATH, O_RDONLY | O_CLOEXEC);
  ssize_t n = fd >= 0 ? read (fd, boot, sizeof boot - 1) : -1;

  if (fd >= 0)
    close (fd);
  if (size > 0)
    buf[0] = '\0';
  if (n <= 0 || stat ("/proc/self/ns/mnt", &mnt) != 0)
    return false;
  boot[n] = '\0';
  boot[strcspn (boot, "\n")] = '\0';
  int len = snprintf (buf, size, "%s %llu", boot, (unsigned long long) mnt.st_ino);
  if (len < 0 || (size_t) len >= size)
    {
      if (size > 0)
        buf[0] = '\0';
      return false;
    }
  return true;
}

bool
mg_node_id_is_ours (const char *value)
{
  char ours[128];
  return value != NULL && mg_node_id (ours, sizeof ours) && strcmp (value, ours) == 0;
}
