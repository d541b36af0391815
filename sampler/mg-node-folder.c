/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run folder on a node that cannot see the front end's (a node-local
 * /tmp): made by the first sampled process there, by the front end's rules
 * (format/mg-run-folder-layout.h), with the plan written in from the
 * environment and a records' folder, so that every process reads the plan
 * and writes its record locally. The run folder names that process as its
 * owner: once it has ended, the node's next metrograph sweeps the folder
 * (or offers to recover it). */
#include "mg-node-folder.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/mg-node-id.h"
#include "format/mg-run-folder-layout.h"
#include "mg-node-lock.h"

/* The kernel's boot id, without its newline ("" when unknown). */
static void
boot_id (char *buf, size_t size)
{
  buf[0] = '\0';
  int fd = open (MG_RUN_FOLDER_BOOT_ID_PATH, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  ssize_t n = read (fd, buf, size - 1);
  close (fd);
  buf[n > 0 ? n : 0] = '\0';
  buf[strcspn (buf, "\n")] = '\0';
}

/* The folder names this process (pid, start, boot, PID namespace, host);
 * it holds no lock: other processes of the node write there after it
 * ends, and a lock would cost the program a descriptor for its life. */
static void
write_owner (const char *run_folder)
{
  char path[4096 + sizeof MG_RUN_FOLDER_OWNER], text[512], boot[64], host[256];
  struct stat ns;
  if (stat (MG_RUN_FOLDER_PIDNS_PATH, &ns) != 0)
    ns.st_ino = 0;
  boot_id (boot, sizeof boot);
  if (gethostname (host, sizeof host) != 0)
    host[0] = '\0';
  host[sizeof host - 1] = '\0';
  host[strcspn (host, "\n")] = '\0';
  snprintf (path, sizeof path, "%s/%s", run_folder, MG_RUN_FOLDER_OWNER);
  int len = snprintf (text, sizeof text, MG_RUN_FOLDER_OWNER_FORMAT, (int) getpid (),
                      mg_node_lock_start_time (getpid ()), boot, (unsigned long long) ns.st_ino, host, 0);
  if (len < 0 || (size_t) len >= sizeof text)
    return;
  int fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  if (write (fd, text, (size_t) len) != len)
    { /* a folder without an owner is only never swept */ }
  close (fd);
}

/* Makes folder (one level) unless it exists; its maker owns it. */
static int
make_run_folder (const char *folder)
{
  if (mkdir (folder, MG_RUN_FOLDER_MODE) == 0)
    write_owner (folder);
  else if (errno != EEXIST)
    return -1;
  return 0;
}

/* The folder part of path, in buf; false when path has none. */
static bool
parent_of (const char *path, char *buf, size_t size)
{
  snprintf (buf, size, "%s", path);
  char *slash = strrchr (buf, '/');
  if (!slash || slash == buf)
    return false;
  *slash = '\0';
  return true;
}

void
mg_node_folder_restore_plan (const char *plan_path)
{
  const char *text = getenv (MG_PLAN_TEXT_ENV);
  char folder[4096], part[4096 + 32];
  /* On the node metrograph runs on, a plan that is gone means the run
   * has ended and its folder was merged and removed: a daemon that
   * outlived the program must not make it again (it would be a folder
   * that no metrograph ends). Its processes then run unprofiled. */
  if (!text || access (plan_path, F_OK) == 0 || errno != ENOENT
      || mg_node_id_is_ours (getenv (MG_LAUNCH_NODE_ENV))
      || !parent_of (plan_path, folder, sizeof folder) || make_run_folder (folder) != 0)
    return;
  /* The node's processes may all arrive at once: each writes its own
   * temporary file and renames it over the others' (the same text). */
  snprintf (part, sizeof part, "%s.%d.part", plan_path, (int) getpid ());
  int fd = open (part, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return;
  size_t len = strlen (text);
  bool ok = write (fd, text, len) == (ssize_t) len;
  ok &= close (fd) == 0;
  if (!ok || rename (part, plan_path) != 0)
    unlink (part);
}

int
mg_node_folder_ensure_records (const char *record_dir, char *err, size_t err_len)
{
  struct stat st;
  char run_folder[4096];
  if (stat (record_dir, &st) == 0)
    return 0;
  if (errno != ENOENT || !parent_of (record_dir, run_folder, sizeof run_folder))
    {
      snprintf (err, err_len, "record folder %s: %s", record_dir, strerror (errno));
      return -1;
    }
  if (make_run_folder (run_folder) != 0)
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
