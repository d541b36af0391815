/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The MPI wrapper's table of pending receives (see mpi-pending.h): linear
 * probing, deletion by shifting the following entries back (no tombstones,
 * so the table never fills up with deleted entries). */
#include "mpi-pending.h"

#include <stdint.h>
#include <string.h>

#define MASK (MG_MPI_PENDING_CAPACITY - 1)

typedef struct {
  bool used;
  MPI_Request request;
  MPI_Datatype type;
} Entry;

static Entry table[MG_MPI_PENDING_CAPACITY];
static int n_used;
static char lock;

static void
acquire (void)
{
  while (__atomic_test_and_set (&lock, __ATOMIC_ACQUIRE))
    {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause ();
#endif
    }
}

static void
release (void)
{
  __atomic_clear (&lock, __ATOMIC_RELEASE);
}

/* A handle is a pointer (OpenMPI) or an integer (MPICH): hash its bytes. */
static unsigned
slot_of (MPI_Request request)
{
  uint64_t key = 0;
  memcpy (&key, &request, sizeof request < sizeof key ? sizeof request : sizeof key);
  key ^= key >> 33;
  key *= UINT64_C (0xff51afd7ed558ccd);
  key ^= key >> 33;
  return (unsigned) key & MASK;
}

/* The slot holding request, or -1. Called with the lock held. */
static int
find (MPI_Request request)
{
  for (unsigned i = slot_of (request), probes = 0; probes < MG_MPI_PENDING_CAPACITY;
       i = (i + 1) & MASK, probes++)
    {
      if (!table[i].used)
        return -1;
      if (table[i].request == request)
        return (int) i;
    }
  return -1;
}

/* Empties slot i and moves back the entries of its probe run that would no
 * longer be found. Called with the lock held. */
static void
remove_at (unsigned i)
{
  table[i].used = false;
  n_used--;
  for (unsigned j = (i + 1) & MASK; table[j].used; j = (j + 1) & MASK)
    {
      unsigned home = slot_of (table[j].request);
      /* Entry j may move to the hole i unless its home lies cyclically in
       * (i, j]. */
      bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
      if (stays)
        continue;
      table[i] = table[j];
      table[j].used = false;
      i = j;
    }
}

bool
mg_mpi_pending_add (MPI_Request request, MPI_Datatype type)
{
  bool added = false;
  acquire ();
  int at = find (request);
  if (at >= 0)
    {
      table[at].type = type; /* a reused handle: the newer receive */
      added = true;
    }
  else if (n_used < MG_MPI_PENDING_CAPACITY - 1)
    {
      unsigned i = slot_of (request);
      while (table[i].used)
        i = (i + 1) & MASK;
      table[i] = (Entry) { .used = true, .request = request, .type = type };
      n_used++;
      added = true;
    }
  release ();
  return added;
}

bool
mg_mpi_pending_take (MPI_Request request, MPI_Datatype *type)
{
  acquire ();
  int at = n_used > 0 ? find (request) : -1;
  if (at >= 0)
    {
      *type = table[at].type;
      remove_at ((unsigned) at);
    }
  release ();
  return at >= 0;
}

bool
mg_mpi_pending_peek (MPI_Request request, MPI_Datatype *type)
{
  acquire ();
  int at = n_used > 0 ? find (request) : -1;
  if (at >= 0)
    *type = table[at].type;
  release ();
  return at >= 0;
}

void
mg_mpi_pending_forget (MPI_Request request)
{
  acquire ();
  int at = n_used > 0 ? find (request) : -1;
  if (at >= 0)
    remove_at ((unsigned) at);
  release ();
}
