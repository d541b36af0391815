/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Makes an MPI rank look as if it ran on a node of its own: a UTS and mount
 * namespace with the host name "node<rank>" and, except on rank 0, a
 * private empty tmpfs over the folder named by MG_TEST_NODE_FOLDER (the
 * run's METROGRAPH_TMPDIR), so that neither the plan nor any record file is
 * shared with the front end. Then runs the program.
 *
 * With MG_TEST_RANKS_PER_NODE=K, K ranks in a row make a node: host name
 * "node<rank / K>", and the ranks of node n > 0 share the folder
 * MG_TEST_NODE_FOLDER.node<n> (which must exist), bound over
 * MG_TEST_NODE_FOLDER, as their node-local folder.
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
  const char *per_node = getenv ("MG_TEST_RANKS_PER_NODE");
  int k = per_node ? atoi (per_node) : 1;
  int node = atoi (rank) / (k > 0 ? k : 1);
  snprintf (host, sizeof host, "node%d", node);
  if (sethostname (host, strlen (host)) != 0)
    return fail ("sethostname");
  if (node != 0 && k <= 1 && mount ("tmpfs", folder, "tmpfs", 0, "mode=0700") != 0)
    return fail ("mount tmpfs");
  if (node != 0 && k > 1)
    {
      char shared[4096];
      snprintf (shared, sizeof shared, "%s.%s", folder, host);
      if (mount (shared, folder, NULL, MS_BIND, NULL) != 0)
        return fail ("bind the node's folder");
    }
  execvp (argv[1], argv + 1);
  return fail (argv[1]);
}
