/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Carries the records of the ranks to rank 0 at MPI_Finalize, over the
 * job's own MPI, for clusters whose nodes share no folder (docs/mpi.md).
 *
 * Every rank takes a last sample and pauses its sampler (format/
 * mg-mpi-handoff.h). Rank 0 leaves a probe file in its record folder and
 * broadcasts its name: a rank that sees the probe shares rank 0's folder
 * and sends nothing. The others send their record in pieces of at most
 * PIECE bytes, one rank after the other as rank 0 asks; rank 0 writes each
 * under a temporary name and renames it into its folder under the record's
 * own name, then tells the sender whether its copy landed, and a sender
 * whose copy did removes its local file. Memory: one piece on rank 0.
 *
 * Only point-to-point and collective calls on a duplicate of
 * MPI_COMM_WORLD that returns errors instead of aborting: a failure costs
 * the transfer, never the program. Every rank must run this (the wrapper is
 * preloaded into all of them), since the calls are collective. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "format/mg-mpi-handoff.h"
#include "mpi-transfer.h"

enum { PIECE = 1 << 20 };
enum { TAG_SIZE = 1, TAG_NAME, TAG_PIECE, TAG_LANDED };

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
PMPI_FN (MPI_Send)
PMPI_FN (MPI_Recv)
PMPI_FN (MPI_Get_count)

#define FIND(name) (p_##name = (__typeof__ (&P##name)) dlsym (RTLD_NEXT, "P" #name)) != NULL

static bool
find_functions (void)
{
  return FIND (MPI_Initialized) && FIND (MPI_Finalized) && FIND (MPI_Comm_dup)
         && FIND (MPI_Comm_free) && FIND (MPI_Comm_rank) && FIND (MPI_Comm_size)
         && FIND (MPI_Comm_get_errhandler) && FIND (MPI_Comm_set_errhandler)
         && FIND (MPI_Errhandler_free) && FIND (MPI_Bcast) && FIND (MPI_Send) && FIND (MPI_Recv) && FIND (MPI_Get_count);
}

/* The predefined handles. Open MPI's are addresses of libmpi objects, which
 * this library must not refer to at link time (mpi-wrap.c): found by name. */
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

/* A sender: the name, then the header copy, then the body in pieces. */
static bool
send_record (const Handles *h, MPI_Comm comm, const MgMpiHandoff *mine)
{
  char name[MG_MPI_HANDOFF_NAME_LEN] = "";
  snprintf (name, sizeof name, "%s", mine->name);
  if (p_MPI_Send (name, sizeof name, h->byte, 0, TAG_NAME, comm) != MPI_SUCCESS
      || p_MPI_Send (mine->head, (int) mine->head_len, h->byte, 0, TAG_PIECE, comm) != MPI_SUCCESS)
    return false;
  for (size_t at = 0; at < mine->body_len; at += PIECE)
    {
      size_t n = mine->body_len - at < PIECE ? mine->body_len - at : PIECE;
      if (p_MPI_Send ((const char *) mine->body + at, (int) n, h->byte, 0, TAG_PIECE, comm)
          != MPI_SUCCESS)
        return false;
    }
  return true;
}

/* Rank 0: one rank's record of size bytes into dir, under a temporary name
 * renamed when complete. Receives every piece even when writing fails, so
 * that the sender is never left waiting. */
/* Rank 0's buffer for one piece: untouched (so not resident) elsewhere. */
static char piece[PIECE];

static bool
receive_record (const Handles *h, MPI_Comm comm, int from, uint64_t size, const char *dir)
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
      say ("could not receive or write a rank's record", path);
      unlink (part);
    }
  return ok;
}

/* Rank 0: asks each rank in turn for its record size, receives the record
 * and answers whether it landed. */
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
        landed = receive_record (h, comm, r, bytes, mine->record_dir);
      p_MPI_Send (&landed, sizeof landed, h->byte, r, TAG_LANDED, comm);
    }
}

/* Another rank: its size (0: nothing to send), its record, and, when rank 0
 * holds it now, removes the local file (later samples stay here). */
static void
contribute (const Handles *h, MPI_Comm comm, const MgMpiHandoff *mine, bool send)
{
  uint64_t bytes = send ? mine->head_len + mine->body_len : 0;
  int landed = 0;
  if (p_MPI_Send (&bytes, sizeof bytes, h->byte, 0, TAG_SIZE, comm) != MPI_SUCCESS)
    return;
  if (bytes > 0 && !send_record (h, comm, mine))
    say ("could not send this rank's record to rank 0", mine->name);
  if (p_MPI_Recv (&landed, sizeof landed, h->byte, 0, TAG_LANDED, comm, MPI_STATUS_IGNORE)
        == MPI_SUCCESS
      && bytes > 0 && landed)
    {
      char path[4096];
      snprintf (path, sizeof path, "%s/%s", mine->record_dir, mine->name);
      unlink (path);
    }
}

static void
transfer (const Handles *h, MPI_Comm comm, const MgMpiHandoff *mine, bool has_record)
{
  int rank = 0, size = 1;
  char probe[MG_MPI_HANDOFF_NAME_LEN] = "";
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
  if (rank == 0)
    {
      collect (h, comm, size, mine);
      remove_probe (mine, probe);
    }
  else
    contribute (h, comm, mine, has_record && !sees_probe (mine, probe));
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

  MgMpiHandoff mine;
  bool has_record = hold (&mine) == 0;
  MPI_Comm comm;
  if (private_comm (&h, &comm))
    {
      transfer (&h, comm, &mine, has_record);
      p_MPI_Comm_free (&comm);
    }
  else
    say ("cannot duplicate MPI_COMM_WORLD; records stay on their nodes", NULL);
  if (has_record)
    release ();
}
