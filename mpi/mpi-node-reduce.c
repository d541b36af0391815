/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A node's records reduced into its summary at MPI_Finalize (docs/mpi.md).
 *
 * The ranks' records are still open then (their processes go on after
 * MPI_Finalize), so the node's ranks first copy their held records, the
 * header marked as a copy, into a staging run folder of their own; copies
 * never change, so `metrograph --merge-node` takes them although their
 * processes still run. The reduction runs in a child process: the wrapper
 * stays libc only, and a crash of the reduction costs the summary, never
 * the program. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "format/mg-record-format.h"
#include "format/mg-run-folder-layout.h"
#include "mpi/mpi-node-reduce.h"

extern char **environ;

#define STAGING_PREFIX ".finalize."
#define LOG_NAME "merge-node.log"
/* A reduction still running after this long is given up (killed). */
enum { REDUCE_TIMEOUT_S = 300 };

void
mg_mpi_node_staging (const char *record_dir, const char *host, char *out, size_t len)
{
  snprintf (out, len, "%s/" STAGING_PREFIX "%s", record_dir, host);
}

static bool
make_dir (const char *path)
{
  return mkdir (path, MG_RUN_FOLDER_MODE) == 0 || errno == EEXIST;
}

static bool
write_all (int fd, const void *data, size_t len)
{
  const char *p = data;
  while (len > 0)
    {
      ssize_t n = write (fd, p, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return false;
      p += n;
      len -= (size_t) n;
    }
  return true;
}

bool
mg_mpi_node_stage_record (const char *staging, const MgMpiHandoff *mine)
{
  char records[4096], path[4096 + MG_MPI_HANDOFF_NAME_LEN];
  snprintf (records, sizeof records, "%s/" MG_RUN_FOLDER_RECORDS, staging);
  snprintf (path, sizeof path, "%s/%s", records, mine->name);
  if (!make_dir (staging) || !make_dir (records))
    return false;
  int fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return false;
  bool ok = write_all (fd, mine->head, mine->head_len) && write_all (fd, mine->body, mine->body_len);
  if (close (fd) != 0)
    ok = false;
  if (!ok)
    unlink (path);
  return ok;
}

/* The environment of the reduction: ours without the sampler and its plan,
 * so that the child is not sampled into the run. */
static char **
child_environment (void)
{
  static const char *const dropped[] = { "LD_PRELOAD=", MG_PLAN_ENV "=", MG_PLAN_TEXT_ENV "=" };
  size_t n = 0, kept = 0;
  while (environ[n] != NULL)
    n++;
  char **env = calloc (n + 1, sizeof *env);
  if (env == NULL)
    return NULL;
  for (size_t i = 0; i < n; i++)
    {
      bool drop = false;
      for (size_t d = 0; d < sizeof dropped / sizeof *dropped; d++)
        drop = drop || strncmp (environ[i], dropped[d], strlen (dropped[d])) == 0;
      if (!drop)
        env[kept++] = environ[i];
    }
  return env;
}

/* The reduction's first line of output, for the message. */
static void
first_line (const char *log, char *out, size_t len)
{
  out[0] = '\0';
  int fd = open (log, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  ssize_t n = read (fd, out, len - 1);
  close (fd);
  out[n > 0 ? n : 0] = '\0';
  out[strcspn (out, "\n")] = '\0';
}

/* Waits for the child, killing it after REDUCE_TIMEOUT_S. */
static int
wait_child (pid_t pid, bool *timed_out)
{
  struct timespec tick = { 0, 10 * 1000 * 1000 };
  int status = 0;
  *timed_out = false;
  for (long waited = 0;; waited++)
    {
      pid_t r = waitpid (pid, &status, WNOHANG);
      if (r == pid || (r < 0 && errno != EINTR))
        return status;
      if (waited >= REDUCE_TIMEOUT_S * 100L)
        {
          *timed_out = true;
          kill (pid, SIGKILL);
          waitpid (pid, &status, 0);
          return status;
        }
      nanosleep (&tick, NULL);
    }
}

/* Runs program --merge-node staging, its output into the log. */
static bool
run_reduction (const char *program, const char *staging, const char *log, char why[MG_MPI_NODE_WHY_LEN])
{
  char *argv[] = { (char *) program, "--merge-node", (char *) staging, NULL };
  char **env = child_environment ();
  posix_spawn_file_actions_t actions;
  char line[256];
  bool timed_out;
  pid_t pid;

  if (env == NULL)
    {
      snprintf (why, MG_MPI_NODE_WHY_LEN, "out of memory");
      return false;
    }
  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_addopen (&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen (&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2 (&actions, 1, 2);
  int rc = posix_spawn (&pid, program, &actions, NULL, argv, env);
  posix_spawn_file_actions_destroy (&actions);
  free (env);
  if (rc != 0)
    {
      snprintf (why, MG_MPI_NODE_WHY_LEN, "cannot run %s: %s", program, strerror (rc));
      return false;
    }
  int status = wait_child (pid, &timed_out);
  first_line (log, line, sizeof line);
  if (timed_out)
    snprintf (why, MG_MPI_NODE_WHY_LEN, "%s --merge-node ran for more than %d s and was stopped",
              program, REDUCE_TIMEOUT_S);
  else if (WIFSIGNALED (status))
    snprintf (why, MG_MPI_NODE_WHY_LEN, "%s --merge-node ended on signal %d", program, WTERMSIG (status));
  else if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    snprintf (why, MG_MPI_NODE_WHY_LEN, "%s --merge-node failed (exit status %d)%s%s", program,
              WEXITSTATUS (status), line[0] ? ": " : "", line);
  else
    return true;
  return false;
}

static bool
has_suffix (const char *name, const char *suffix)
{
  size_t n = strlen (name), s = strlen (suffix);
  return n > s && strcmp (name + n - s, suffix) == 0;
}

/* What the reduction left in the staging records: its summary, and no
 * record. */
static bool
find_summary (const char *staging, char *summary_name, size_t name_len, char why[MG_MPI_NODE_WHY_LEN])
{
  char records[4096];
  unsigned n_summaries = 0, n_records = 0;
  struct dirent *e;
  snprintf (records, sizeof records, "%s/" MG_RUN_FOLDER_RECORDS, staging);
  DIR *dir = opendir (records);
  if (dir == NULL)
    {
      snprintf (why, MG_MPI_NODE_WHY_LEN, "cannot read %.400s: %s", records, strerror (errno));
      return false;
    }
  while ((e = readdir (dir)) != NULL)
    if (has_suffix (e->d_name, MG_NODE_SUMMARY_SUFFIX) && n_summaries++ == 0)
      snprintf (summary_name, name_len, "%s", e->d_name);
    else if (has_suffix (e->d_name, MG_RECORD_SUFFIX))
      n_records++;
  closedir (dir);
  if (n_summaries == 1 && n_records == 0)
    return true;
  snprintf (why, MG_MPI_NODE_WHY_LEN, "the reduction left %u summaries and %u records in %.400s",
            n_summaries, n_records, records);
  return false;
}

bool
mg_mpi_node_reduce (const char *staging, char *summary_name, size_t name_len,
                    char why[MG_MPI_NODE_WHY_LEN])
{
  const char *program = getenv (MG_MPI_MERGE_NODE_ENV);
  char log[4096];
  if (program == NULL || program[0] == '\0')
    {
      snprintf (why, MG_MPI_NODE_WHY_LEN,
                MG_MPI_MERGE_NODE_ENV " is not set (the launcher passes it: with your own "
                "mpirun, add -x " MG_MPI_MERGE_NODE_ENV ")");
      return false;
    }
  snprintf (log, sizeof log, "%s/" LOG_NAME, staging);
  return run_reduction (program, staging, log, why) && find_summary (staging, summary_name, name_len, why);
}

/* Every file in dir, then dir. */
static void
remove_folder (const char *dir_path)
{
  char path[4096 + 256];
  struct dirent *e;
  DIR *dir = opendir (dir_path);
  if (dir != NULL)
    {
      while ((e = readdir (dir)) != NULL)
        if (strcmp (e->d_name, ".") != 0 && strcmp (e->d_name, "..") != 0)
          {
            snprintf (path, sizeof path, "%s/%s", dir_path, e->d_name);
            unlink (path);
          }
      closedir (dir);
    }
  rmdir (dir_path);
}

void
mg_mpi_node_clean (const char *staging)
{
  char records[4096];
  snprintf (records, sizeof records, "%s/" MG_RUN_FOLDER_RECORDS, staging);
  remove_folder (records);
  remove_folder (staging);
}
