/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Makes an MPI rank look as if it ran on a node of its own: a UTS and mount
 * namespace with the host name "node<rank>" and, except on rank 0, a
 * private empty tmpfs over the folder named by MG_TEST_NODE_FOLDER (the
 * run's METROGRAPH_TMPDIR), so that neither the plan nor any record file is
 * shared with the front end. Then runs the program.
 *
 * Linked statically: the sampler cannot be preloaded into it, so only the
 * program it runs is sampled. Exits 77 (skip) when namespaces or mounts
 * are not allowed. Usage: mpi-node PROGRAM [ARG...] */
#define _GNU_SOURCE
#include <errno.h>
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
  if (strcmp (rank, "0") != 0 && mount ("tmpfs", folder, "tmpfs", 0, "mode=0700") != 0)
    return fail ("mount tmpfs");
  execvp (argv[1], argv + 1);
  return fail (argv[1]);
}
