/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Makes an MPI rank look as if it ran on a node of its own: a UTS and mount
 * namespace with the host name "node<rank>" and, except on rank 0, a
 * private empty tmpfs over the folder named by MG_TEST_NODE_FOLDER (the
 * run's METROGRAPH_TMPDIR), so that no record file is shared with the
 * front end. The plan is copied into the private folder first, as a site
 * makes it readable on every node. Then runs the program.
 *
 * Linked statically: the sampler cannot be preloaded into it, so only the
 * program it runs is sampled. Exits 77 (skip) when namespaces or mounts
 * are not allowed. Usage: mpi-node PROGRAM [ARG...] */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

static int
fail (const char *what)
{
  fprintf (stderr, "mpi-node: %s: %s\n", what, strerror (errno));
  return 77;
}

/* The plan's text, read before the folder that holds it is covered. */
static char plan[1 << 20];

static int
copy_plan (const char *folder)
{
  const char *path = getenv ("METROGRAPH_PLAN");
  int fd = path ? open (path, O_RDONLY) : -1;
  ssize_t n = fd >= 0 ? read (fd, plan, sizeof plan) : -1;
  if (fd >= 0)
    close (fd);
  if (n <= 0)
    return fail ("cannot read METROGRAPH_PLAN");
  if (mount ("tmpfs", folder, "tmpfs", 0, "mode=0700") != 0)
    return fail ("mount tmpfs");
  static char copy[4096];
  snprintf (copy, sizeof copy, "%s/node.plan", folder);
  fd = open (copy, O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0 || write (fd, plan, (size_t) n) != n || close (fd) != 0)
    return fail ("cannot write the plan's copy");
  setenv ("METROGRAPH_PLAN", copy, 1);
  return 0;
}

int
main (int argc, char **argv)
{
  const char *rank = getenv ("OMPI_COMM_WORLD_RANK");
  const char *folder = getenv ("MG_TEST_NODE_FOLDER");
  char host[64];
  if (argc < 2 || !rank || !folder)
    {
      fprintf (stderr, "usage: mpi-node PROGRAM [ARG...] under mpirun, with MG_TEST_NODE_FOLDER\n");
      return 2;
    }
  if (unshare (CLONE_NEWUTS | CLONE_NEWNS) != 0)
    return fail ("unshare");
  if (mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
    return fail ("make / private");
  snprintf (host, sizeof host, "node%s", rank);
  if (sethostname (host, strlen (host)) != 0)
    return fail ("sethostname");
  if (strcmp (rank, "0") != 0)
    {
      int r = copy_plan (folder);
      if (r != 0)
        return r;
    }
  execvp (argv[1], argv + 1);
  return fail (argv[1]);
}
