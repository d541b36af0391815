/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The records' folder on a node that cannot see the front end's run folder
 * (a node-local /tmp): created by the first sampled process there, by the
 * front end's rules (format/mg-run-folder-layout.h), so that every process
 * writes its record locally. The run folder names that process as its
 * owner: once it has ended, the node's next metrograph sweeps the folder
 * (or offers to recover it). */
#include "mg-record-folder.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/mg-run-folder-layout.h"

/* Field 22 of /proc/self/stat: when this process started. */
static unsigned long long
start_time (void)
{
  char buf[1024];
  int fd = open ("/proc/self/stat", O_RDONLY | O_CLOEXEC);
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

static void
write_owner (const char *run_folder)
{
  char path[4096 + sizeof MG_RUN_FOLDER_OWNER], text[128];
  snprintf (path, sizeof path, "%s/%s", run_folder, MG_RUN_FOLDER_OWNER);
  int len = snprintf (text, sizeof text, MG_RUN_FOLDER_OWNER_FORMAT, (int) getpid (),
                      start_time ());
  int fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  if (write (fd, text, (size_t) len) != len)
    { /* a folder without an owner is only never swept */ }
  close (fd);
}

int
mg_record_folder_ensure (const char *record_dir, char *err, size_t err_len)
{
  struct stat st;
  if (stat (record_dir, &st) == 0)
    return 0;
  char run_folder[4096];
  snprintf (run_folder, sizeof run_folder, "%s", record_dir);
  char *slash = strrchr (run_folder, '/');
  if (errno != ENOENT || !slash || slash == run_folder
      || strcmp (slash + 1, MG_RUN_FOLDER_RECORDS) != 0)
    {
      snprintf (err, err_len, "record folder %s: %s", record_dir, strerror (errno));
      return -1;
    }
  *slash = '\0';
  /* Several processes of the node may start at once: whoever makes the run
   * folder owns it, the others find it made. */
  if (mkdir (run_folder, MG_RUN_FOLDER_MODE) == 0)
    write_owner (run_folder);
  else if (errno != EEXIST)
    {
      snprintf (err, err_len, "cannot create the run folder %s on this node: %s", run_folder,
                strerror (errno));
      return -1;
    }
  if (mkdir (record_dir, MG_RUN_FOLDER_MODE) != 0 && errno != EEXIST)
    {
      snprintf (err, err_len, "cannot create the record folder %s on this node: %s", record_dir,
                strerror (errno));
      return -1;
    }
  return 0;
}
