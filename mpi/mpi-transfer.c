/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Carries the records of the ranks to rank 0 at MPI_Finalize, over the
 * job's own MPI, for clusters whose nodes share no folder (docs/mpi.md).
 *
 * Once every rank has arrived (a rank waiting for a later one is still
 * sampled, in MPI), every rank takes a last sample and pauses its sampler
 * (format/mg-mpi-handoff.h). Rank 0 leaves a probe file in its record folder and
 * broadcasts its name: a rank that sees the probe shares rank 0's folder
 * and sends nothing. The others group by host name into nodes; each node
 * reduces its ranks' records into one node summary (mpi-node-reduce.c),
 * and its leader, the node's lowest rank, sends that file; a node whose
 * reduction fails sends its ranks' records instead, as they are. Files
 * travel in pieces of at most PIECE bytes, one rank after the other as
 * rank 0 asks; rank 0 writes each under a temporary name and renames it
 * into its folder under the file's own name, then tells the sender whether
 * its copy landed, and the ranks whose record (or node summary) landed
 * remove their local record file. Memory: one piece on rank 0, the
 * mapped summary on each leader.
 *
 * Only point-to-point and collective calls on a duplicate of
 * MPI_COMM_WORLD (and on communicators split from it) that return errors
 * instead of aborting: a failure costs the transfer, never the program.
 * Every rank must run this (the sampler, with the wrapper in it, is
 * preloaded into all of them),
 * since the calls are collective. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "format/mg-mpi-handoff.h"
#include "format/mg-plan-keywords.h"
#include "format/mg-record-format.h"
#include "mpi/mpi-node-reduce.h"
#include "mpi/mpi-transfer.h"

enum { PIECE = 1 << 20 };
enum { TAG_SIZE = 1, TAG_NAME, TAG_PIECE, TAG_LANDED, TAG_STAGED };

/* The PMPI functions, found as the counting wrappers find theirs; NULL when
 * the program has no MPI library. */
#define PMPI_FN(name) static __typeof__ (&P##name) p_##name;
PMPI_FN (MPI_Initialized)
PMPI_FN (MPI_Finalized)
PMPI_FN (MPI_Comm_dup)
PMPI_FN (MPI_Comm_free)
PMPI_FN (MPI_Comm_rank)
PMPI_FN (MPI_Comm_size)
PMPI_FN (MPI_Comm_get_errhandler)
PMPI_FN (MPI_Comm_set_errhandler)
PMPI_FN (MPI_Errhandler_free)
PMPI_FN (MPI_Bcast)
PMPI_FN (MPI_Barrier)
PMPI_FN (MPI_Send)
PMPI_FN (MPI_Recv)
PMPI_FN (MPI_Get_count)
PMPI_FN (MPI_Comm_split)

#define FIND(name) (p_##name = (__typeof__ (&P##name)) dlsym (RTLD_NEXT, "P" #name)) != NULL

static bool
find_functions (void)
{
  return FIND (MPI_Initialized) && FIND (MPI_Finalized) && FIND (MPI_Comm_dup)
         && FIND (MPI_Comm_free) && FIND (MPI_Comm_rank) && FIND (MPI_Comm_size)
         && FIND (MPI_Comm_get_errhandler) && FIND (MPI_Comm_set_errhandler)
         && FIND (MPI_Errhandler_free) && FIND (MPI_Bcast) && FIND (MPI_Barrier) && FIND (MPI_Send) && FIND (MPI_Recv) && FIND (MPI_Get_count)
         && FIND (MPI_Comm_split);
}

/* The predefined handles. Open MPI's are addresses of libmpi objects, which
 * this library must not refer to at link time (plugins/mpi-wrap.c): found by name. */
typedef struct {
  MPI_Comm world;
  MPI_Datatype byte;
  MPI_Errhandler errors_return;
} Handles;

static bool
find_handles (Handles *h)
{
#ifdef OPEN_MPI
  h->world = (MPI_Comm) dlsym (RTLD_DEFAULT, "ompi_mpi_comm_world");
  h->byte = (MPI_Datatype) dlsym (RTLD_DEFAULT, "ompi_mpi_byte");
  h->errors_return = (MPI_Errhandler) dlsym (RTLD_DEFAULT, "ompi_mpi_errors_return");
  return h->world != NULL && h->byte != NULL && h->errors_return != NULL;
#else
  h->world = MPI_COMM_WORLD;
  h->byte = MPI_BYTE;
  h->errors_return = MPI_ERRORS_RETURN;
  return true;
#endif
}

static bool
verbose (void)
{
  const char *v = getenv (MG_SAMPLER_VERBOSE_ENV);
  return v != NULL && strcmp (v, "1") == 0;
}

static void
say (const char *what, const char *detail)
{
  fprintf (stderr, "metrograph MPI wrapper: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
}

/* A duplicate of MPI_COMM_WORLD whose errors return. The program's own
 * handler stays on MPI_COMM_WORLD; during the duplication it returns too. */
static bool
private_comm (const Handles *h, MPI_Comm *comm)
{
  MPI_Errhandler old;
  if (p_MPI_Comm_get_errhandler (h->world, &old) != MPI_SUCCESS)
    return false;
  p_MPI_Comm_set_errhandler (h->world, h->errors_return);
  bool ok = p_MPI_Comm_dup (h->world, comm) == MPI_SUCCESS;
  p_MPI_Comm_set_errhandler (h->world, old);
  p_MPI_Errhandler_free (&old);
  if (ok)
    p_MPI_Comm_set_errhandler (*comm, h->errors_return);
  return ok;
}

/* Rank 0: a file only its record folder holds. */
static void
make_probe (const MgMpiHandoff *mine, char probe[MG_MPI_HANDOFF_NAME_LEN])
{
  char host[64] = "", path[4096];
  struct timespec ts;
  probe[0] = '\0';
  if (mine->record_dir == NULL)
    return;
  gethostname (host, sizeof host - 1);
  clock_gettime (CLOCK_REALTIME, &ts);
  snprintf (probe, MG_MPI_HANDOFF_NAME_LEN, ".probe.%s.%d.%lld", host, (int) getpid (),
            (long long) ts.tv_sec * 1000000000 + ts.tv_nsec);
  snprintf (path, sizeof path, "%s/%s", mine->record_dir, probe);
  int fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      say ("cannot create a file in the record folder; records stay on their nodes",
           mine->record_dir);
      probe[0] = '\0';
      return;
    }
  close (fd);
}

static void
remove_probe (const MgMpiHandoff *mine, const char *probe)
{
  char path[4096];
  if (probe[0] == '\0')
    return;
  snprintf (path, sizeof path, "%s/%s", mine->record_dir, probe);
  unlink (path);
}

static bool
sees_probe (const MgMpiHandoff *mine, const char *probe)
{
  char path[4096];
  struct stat st;
  snprintf (path, sizeof path, "%s/%s", mine->record_dir, probe);
  return stat (path, &st) == 0;
}

/* A file to send, in up to two parts (a record: its header copy and its
 * body). */
typedef struct {
  const char *name;
  const void *data[2];
  size_t len[2];
} Outgoing;

static uint64_t
outgoing_size (const Outgoing *out)
{
  return out->name != NULL ? out->len[0] + out->len[1] : 0;
}

/* A sender: the name, then each part in pieces. */
static bool
send_file (const Handles *h, MPI_Comm comm, const Outgoing *out)
{
  char name[MG_MPI_HANDOFF_NAME_LEN] = "";
  snprintf (name, sizeof name, "%s", out->name);
  if (p_MPI_Send (name, sizeof name, h->byte, 0, TAG_NAME, comm) != MPI_SUCCESS)
    return false;
  for (int i = 0; i < 2; i++)
    for (size_t at = 0; at < out->len[i]; at += PIECE)
      {
        size_t n = out->len[i] - at < PIECE ? out->len[i] - at : PIECE;
        if (p_MPI_Send ((const char *) out->data[i] + at, (int) n, h->byte, 0, TAG_PIECE, comm)
            != MPI_SUCCESS)
          return false;
      }
  return true;
}

/* Rank 0: one rank's file of size bytes into dir, under a temporary name
 * renamed when complete. Receives every piece even when writing fails, so
 * that the sender is never left waiting. */
/* Rank 0's buffer for one piece: untouched (so not resident) elsewhere. */
static char piece[PIECE];

static bool
receive_file (const Handles *h, MPI_Comm comm, int from, uint64_t size, const char *dir)
{
  char name[MG_MPI_HANDOFF_NAME_LEN], part[4096], path[4096];
  MPI_Status st;
  if (p_MPI_Recv (name, sizeof name, h->byte, from, TAG_NAME, comm, &st) != MPI_SUCCESS)
    return false;
  name[sizeof name - 1] = '\0';
  bool ok = name[0] != '.' && strchr (name, '/') == NULL;
  snprintf (part, sizeof part, "%s/.%s.part", dir, name);
  snprintf (path, sizeof path, "%s/%s", dir, name);
  int fd = ok ? open (part, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644) : -1;
  ok = fd >= 0;
  for (uint64_t got = 0; got < size;)
    {
      int n = 0;
      if (p_MPI_Recv (piece, PIECE, h->byte, from, TAG_PIECE, comm, &st) != MPI_SUCCESS
          || p_MPI_Get_count (&st, h->byte, &n) != MPI_SUCCESS || n <= 0)
        {
          ok = false;
          break;
        }
      if (ok && write (fd, piece, (size_t) n) != n)
        ok = false;
      got += (uint64_t) n;
    }
  if (fd >= 0 && close (fd) != 0)
    ok = false;
  if (ok && rename (part, path) != 0)
    ok = false;
  if (!ok)
    {
      say ("could not receive or write a rank's record or node summary", path);
      unlink (part);
    }
  else if (verbose ())
    fprintf (stderr, "metrograph MPI wrapper: rank %d sent %s (%llu bytes)\n", from, name,
             (unsigned long long) size);
  return ok;
}

/* Rank 0: asks each rank in turn for its file size, receives the file and
 * answers whether it landed. */
static void
collect (const Handles *h, MPI_Comm comm, int size, const MgMpiHandoff *mine)
{
  for (int r = 1; r < size; r++)
    {
      uint64_t bytes = 0;
      int landed = 0;
      if (p_MPI_Recv (&bytes, sizeof bytes, h->byte, r, TAG_SIZE, comm, MPI_STATUS_IGNORE)
          != MPI_SUCCESS)
        continue;
      if (bytes > 0)
        landed = receive_file (h, comm, r, bytes, mine->record_dir);
      p_MPI_Send (&landed, sizeof landed, h->byte, r, TAG_LANDED, comm);
    }
}

/* Another rank: its size (0: nothing to send), its file, and whether rank
 * 0 holds it now. */
static bool
contribute (const Handles *h, MPI_Comm comm, const Outgoing *out)
{
  uint64_t bytes = outgoing_size (out);
  int landed = 0;
  if (p_MPI_Send (&bytes, sizeof bytes, h->byte, 0, TAG_SIZE, comm) != MPI_SUCCESS)
    return false;
  if (bytes > 0 && !send_file (h, comm, out))
    say ("could not send this rank's record or node summary to rank 0", out->name);
  return p_MPI_Recv (&landed, sizeof landed, h->byte, 0, TAG_LANDED, comm, MPI_STATUS_IGNORE)
           == MPI_SUCCESS
         && bytes > 0 && landed;
}

/* This rank's record file goes: rank 0 holds a copy (later samples stay
 * here, in a file nobody collects). */
static void
remove_record (const MgMpiHandoff *mine)
{
  char path[4096];
  snprintf (path, sizeof path, "%s/%s", mine->record_dir, mine->name);
  unlink (path);
}

/* The ranks that send, grouped by host name: a node, whose lowest rank
 * leads. */
typedef struct {
  bool in_node;
  MPI_Comm comm;
  int rank;                /* in the node; 0: the leader */
  int size;
  char host[MG_RECORD_HOST_LEN];
  char staging[4096];
  bool summarized;         /* the node's summary travels instead of its records */
  char summary[MG_MPI_HANDOFF_NAME_LEN];  /* the leader: its file name */
  void *map;               /* the leader: the summary, mapped while it is sent */
  size_t map_len;
} Node;

/* A colour for MPI_Comm_split from the host name (FNV-1a): two hosts of
 * one colour find out below and send their records. */
static int
host_colour (const char *host)
{
  uint32_t hash = 2166136261u;
  for (const char *c = host; *c; c++)
    hash = (hash ^ (uint8_t) *c) * 16777619u;
  return (int) (hash & 0x7fffffff);
}

/* Collective over comm: every rank calls it, the senders find their node. */
static void
find_node (MPI_Comm comm, int rank, bool send, const MgMpiHandoff *mine, Node *node)
{
  mg_record_host_name (node->host);
  if (p_MPI_Comm_split (comm, send ? host_colour (node->host) : MPI_UNDEFINED, rank, &node->comm)
        != MPI_SUCCESS
      || !send)
    return;
  node->in_node = true;
  p_MPI_Comm_rank (node->comm, &node->rank);
  p_MPI_Comm_size (node->comm, &node->size);
  mg_mpi_node_staging (mine->record_dir, node->host, node->staging, sizeof node->staging);
}

/* The leader: whether every rank of the node staged its record. */
static bool
all_staged (const Handles *h, const Node *node, bool staged)
{
  for (int r = 1; r < node->size; r++)
    {
      char theirs = 0;
      if (p_MPI_Recv (&theirs, 1, h->byte, r, TAG_STAGED, node->comm, MPI_STATUS_IGNORE)
          != MPI_SUCCESS)
        theirs = 0;
      staged = staged && theirs;
    }
  return staged;
}

/* The node's records into its summary, on the leader; everyone learns
 * whether it worked. */
static void
reduce_node (const Handles *h, Node *node, const MgMpiHandoff *mine)
{
  char leader_host[MG_RECORD_HOST_LEN], why[MG_MPI_NODE_WHY_LEN] = "";
  int summarized = 0;
  memcpy (leader_host, node->host, sizeof leader_host);
  if (p_MPI_Bcast (leader_host, sizeof leader_host, h->byte, 0, node->comm) != MPI_SUCCESS)
    return;
  char staged = strcmp (leader_host, node->host) == 0 && mg_mpi_node_stage_record (node->staging, mine);
  if (node->rank != 0)
    p_MPI_Send (&staged, 1, h->byte, 0, TAG_STAGED, node->comm);
  else if (!all_staged (h, node, staged))
    snprintf (why, sizeof why, "a rank of the node could not copy its record into %.400s", node->staging);
  else
    summarized = mg_mpi_node_reduce (node->staging, node->summary, sizeof node->summary, why);
  if (node->rank == 0 && !summarized)
    fprintf (stderr, "metrograph MPI wrapper: node %s: no node summary (%s); its ranks send "
             "their records instead\n", node->host, why);
  if (p_MPI_Bcast (&summarized, sizeof summarized, h->byte, 0, node->comm) == MPI_SUCCESS)
    node->summarized = summarized;
}

/* The leader: its node's summary, mapped. */
static bool
map_summary (Node *node)
{
  char path[8192];
  struct stat st;
  snprintf (path, sizeof path, "%s/records/%s", node->staging, node->summary);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  if (fstat (fd, &st) == 0 && st.st_size > 0)
    {
      node->map = mmap (NULL, (size_t) st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
      node->map_len = node->map != MAP_FAILED ? (size_t) st.st_size : 0;
      if (node->map == MAP_FAILED)
        node->map = NULL;
    }
  close (fd);
  return node->map != NULL;
}

/* What this rank sends: its node's summary (the leader of a node that has
 * one), nothing (the other ranks of such a node), or its record. */
static Outgoing
outgoing (Node *node, const MgMpiHandoff *mine, bool send)
{
  Outgoing out = { 0 };
  if (!send)
    return out;
  if (!node->summarized)
    return (Outgoing) { mine->name, { mine->head, mine->body }, { mine->head_len, mine->body_len } };
  if (node->rank == 0 && map_summary (node))
    return (Outgoing) { node->summary, { node->map, NULL }, { node->map_len, 0 } };
  if (node->rank == 0)
    say ("cannot read this node's summary; the node's records stay on it", node->summary);
  return out;
}

/* After the exchange: the node's ranks learn whether its summary landed,
 * and remove their records if it did; the leader clears the staging. */
static void
finish_node (const Handles *h, Node *node, const MgMpiHandoff *mine, int landed)
{
  if (node->summarized && p_MPI_Bcast (&landed, sizeof landed, h->byte, 0, node->comm) == MPI_SUCCESS
      && landed)
    remove_record (mine);
  if (node->map != NULL)
    munmap (node->map, node->map_len);
  if (node->rank == 0)
    mg_mpi_node_clean (node->staging);
  p_MPI_Comm_free (&node->comm);
}

static void
transfer (const Handles *h, MPI_Comm comm, const MgMpiHandoff *mine, bool has_record)
{
  int rank = 0, size = 1;
  char probe[MG_MPI_HANDOFF_NAME_LEN] = "";
  Node node = { 0 };
  p_MPI_Comm_rank (comm, &rank);
  p_MPI_Comm_size (comm, &size);
  if (rank == 0)
    make_probe (mine, probe);
  if (p_MPI_Bcast (probe, sizeof probe, h->byte, 0, comm) != MPI_SUCCESS)
    return;
  probe[sizeof probe - 1] = '\0';
  /* Nowhere to write: nobody sends. */
  if (probe[0] == '\0')
    return;
  bool send = rank != 0 && has_record && !sees_probe (mine, probe);
  find_node (comm, rank, send, mine, &node);
  if (node.in_node)
    reduce_node (h, &node, mine);
  if (rank == 0)
    {
      collect (h, comm, size, mine);
      remove_probe (mine, probe);
      return;
    }
  Outgoing out = outgoing (&node, mine, send);
  int landed = contribute (h, comm, &out);
  if (landed && !node.summarized)
    remove_record (mine);
  if (node.in_node)
    finish_node (h, &node, mine, landed);
}
void
mg_mpi_transfer_records (void)
{
  MgMpiHandoffHold hold = (MgMpiHandoffHold) dlsym (RTLD_DEFAULT, MG_MPI_HANDOFF_HOLD);
  MgMpiHandoffRelease release = (MgMpiHandoffRelease) dlsym (RTLD_DEFAULT, MG_MPI_HANDOFF_RELEASE);
  Handles h;
  int initialized = 0, finalized = 0;
  if (hold == NULL || release == NULL || !find_functions () || !find_handles (&h)
      || p_MPI_Initialized (&initialized) != MPI_SUCCESS || !initialized
      || p_MPI_Finalized (&finalized) != MPI_SUCCESS || finalized)
    return;

  /* Every rank waits here for the last one to reach MPI_Finalize, still
   * sampled: the wait shows as time in MPI (the wrapper counts
   * MPI_Finalize's time), and only then is the record held. */
  MPI_Comm comm;
  bool have_comm = private_comm (&h, &comm);
  if (have_comm)
    p_MPI_Barrier (comm);
  MgMpiHandoff mine;
  bool has_record = hold (&mine) == 0;
  if (have_comm)
    {
      transfer (&h, comm, &mine, has_record);
      p_MPI_Comm_free (&comm);
    }
  else
    say ("cannot duplicate MPI_COMM_WORLD; records stay on their nodes", NULL);
  if (has_record)
    release ();
}
