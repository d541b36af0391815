/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The MPI wrapper, linked into the sampler preloaded into the profiled
 * program (plugins/meson.build): defines the common MPI_* calls, counts
 * them into metrograph_mpi_counters and calls the real PMPI_* functions.
 *
 * Bytes sent are count x type size at the call. Bytes received are what
 * arrived, from the status (MPI_Get_count), a local one when the program
 * passes MPI_STATUS(ES)_IGNORE: a receive may post a larger buffer than the
 * message. A non-blocking receive is counted as a call when posted and its
 * bytes when it completes, in MPI_Wait/Test and their -all/-any/-some forms
 * (mpi-pending.c keeps the posted receives until then). Non-blocking
 * collectives are counted when posted, since their sizes are fixed by the
 * call.
 *
 * Time in MPI is counted as it passes: each call marks its start in
 * metrograph_mpi_counters.in_mpi (mpi-counters.h) and its end, one atomic
 * addition each, so that the plugin sees a call that has not returned (a
 * rank blocked in a barrier reads 100 % in every sample of the wait). The
 * calls and their whole durations are counted when they end. Each call
 * adds only to its kind's counters and to non-zero byte counts: with the
 * two additions for the time in flight, no call makes more atomic
 * additions than the 4 to 6 it made when calls were counted on return
 * (tests/bench/mpi-wrap-bench.c measures the cost). Each call also marks
 * its thread as in MPI and out again (metrograph_mpi_threads,
 * format/mg-mpi-threads.h: two plain stores to the thread's own slot, no
 * locked instruction after its first call), for the activity metrics; the
 * outermost call first stores there which MPI_<name> it is and its call
 * site (two more plain stores: +0.4 ns on MPI_Barrier, +0.6 ns on
 * MPI_Test in the bench), for the call stacks' MPI waits, and its frame
 * address and a count of calls, from which the sampler's thread walks
 * the caller's whole stack while the call waits (three more plain
 * stores and a frame pointer in each MPI_<name>; cost in
 * docs/sampler.md, "MPI waits").
 *
 * It is linked without libmpi and finds each PMPI_* function at its first
 * call with dlsym(RTLD_NEXT): loading it into a program that does not use
 * MPI needs no MPI library and changes nothing, since nothing calls these
 * MPI_* definitions there. So it must not refer to any libmpi symbol
 * directly, and OpenMPI's predefined handles (MPI_BYTE, MPI_COMM_WORLD,
 * MPI_REQUEST_NULL, ...) are such symbols: only plain constants
 * (MPI_SUCCESS, MPI_UNDEFINED, MPI_STATUS_IGNORE, ...) are used. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "mpi-counters.h"
#include "mpi-pending.h"
#include "format/mg-mpi-threads.h"
#include "mpi/mpi-transfer.h"

__attribute__((visibility("default")))
struct metrograph_mpi_counters metrograph_mpi_counters = {
  .version = MG_MPI_COUNTERS_VERSION,
};

/* Which threads are in a call (format/mg-mpi-threads.h), for the activity plugin. */
__attribute__((visibility("default")))
struct metrograph_mpi_threads metrograph_mpi_threads = {
  .version = MG_MPI_THREADS_VERSION,
};

/* The calling thread's slot, claimed at its first call; taken again after
 * a fork (the child's thread has another tid, the table was emptied). */
static unsigned fork_generation;
/* initial-exec, as the sampler's own thread-local flag: a preloaded
 * library's thread-local variables are in the static TLS block, and each
 * access is one load rather than a __tls_get_addr call (Isend + Wait cost
 * 9.8 ns more with the default model, 5 % over the wrapper before). */
static __thread int thread_slot __attribute__((tls_model ("initial-exec"))) = -1;
static __thread unsigned thread_slot_generation __attribute__((tls_model ("initial-exec")));

static void
threads_after_fork (void)
{
  mg_mpi_threads_forget_all (&metrograph_mpi_threads);
  __atomic_fetch_add (&fork_generation, 1, __ATOMIC_RELAXED);
}

static int
own_slot (void)
{
  static bool watching;
  unsigned generation = __atomic_load_n (&fork_generation, __ATOMIC_RELAXED);
  if (thread_slot >= 0 && thread_slot_generation == generation)
    return thread_slot;
  if (!__atomic_exchange_n (&watching, true, __ATOMIC_ACQ_REL))
    pthread_atfork (NULL, NULL, threads_after_fork);
  thread_slot = mg_mpi_threads_claim (&metrograph_mpi_threads, (pid_t) syscall (SYS_gettid));
  thread_slot_generation = generation;
  return thread_slot;
}

static void
add (uint64_t *counter, uint64_t amount)
{
  __atomic_fetch_add (counter, amount, __ATOMIC_RELAXED);
}

/* Nothing to add: no locked instruction (most calls have no bytes one way). */
static void
add_some (uint64_t *counter, uint64_t amount)
{
  if (amount != 0)
    add (counter, amount);
}

static uint64_t
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* A call starts: from now on it counts as time in MPI, and the thread's
 * slot says which call and from where (function: an address inside the
 * wrapper's MPI_<name>; site: the return address into the program;
 * frame: MPI_<name>'s frame address, from which the sampler walks the
 * caller's stack while the call is in flight). Returns its start. */
static uint64_t
enter (uint64_t function, uint64_t site, uint64_t frame)
{
  uint64_t t = now_ns ();
  mg_mpi_counters_enter (&metrograph_mpi_counters, t);
  mg_mpi_threads_enter (&metrograph_mpi_threads, own_slot (), function, site, frame);
  return t;
}

/* enter() from an MPI_<name> of this file: the address of a local label
 * names the function without a relocation (one lea), the return address
 * is the caller's call site, and the frame address makes GCC give
 * MPI_<name> a frame pointer (push rbp; mov rsp, rbp: the caller's rbp at
 * [frame], the return address at [frame + 8], the caller's stack pointer
 * frame + 16), all read in MPI_<name> itself. */
#define ENTER()                                                               \
  ({                                                                          \
    __label__ here;                                                           \
  here:                                                                       \
    enter ((uint64_t) (uintptr_t) &&here,                                     \
           (uint64_t) (uintptr_t) __builtin_return_address (0),               \
           (uint64_t) (uintptr_t) __builtin_frame_address (0));               \
  })

/* The calling thread's call ended (the process's time: the caller). */
static void
leave_thread (void)
{
  mg_mpi_threads_step (&metrograph_mpi_threads, own_slot (), -1);
}

static void *
real (const char *name)
{
  void *fn = dlsym (RTLD_NEXT, name);
  if (fn == NULL)
    {
      /* Only reachable if the program calls MPI_* without an MPI library. */
      static const char msg[] = "metrograph MPI wrapper: no MPI library provides ";
      if (write (2, msg, sizeof msg - 1) < 0 || write (2, name, __builtin_strlen (name)) < 0
          || write (2, "\n", 1) < 0)
        abort ();
      abort ();
    }
  return fn;
}

/* The real function, PMPI_<name>, looked up at the first call. mpi.h
 * declares it; __typeof__ takes its type without referring to the symbol. */
#define REAL(name)                                                \
  static __typeof__ (&P##name) real_fn;                           \
  if (real_fn == NULL)                                            \
    real_fn = (__typeof__ (&P##name)) real ("P" #name);

static uint64_t
bytes (int count, MPI_Datatype type)
{
  int size = 0;
  static __typeof__ (&PMPI_Type_size) type_size;
  if (type_size == NULL)
    type_size = (__typeof__ (&PMPI_Type_size)) real ("PMPI_Type_size");
  if (count <= 0 || type_size (type, &size) != MPI_SUCCESS || size <= 0)
    return 0;
  return (uint64_t) count * (uint64_t) size;
}

static int
comm_size (MPI_Comm comm)
{
  int size = 1;
  static __typeof__ (&PMPI_Comm_size) fn;
  if (fn == NULL)
    fn = (__typeof__ (&PMPI_Comm_size)) real ("PMPI_Comm_size");
  fn (comm, &size);
  return size;
}

static int
comm_rank (MPI_Comm comm)
{
  int rank = 0;
  static __typeof__ (&PMPI_Comm_rank) fn;
  if (fn == NULL)
    fn = (__typeof__ (&PMPI_Comm_rank)) real ("PMPI_Comm_rank");
  fn (comm, &rank);
  return rank;
}

typedef enum { OTHER, P2P, COLLECTIVE } CallKind;

static void
account (CallKind kind, uint64_t start, uint64_t sent, uint64_t received)
{
  struct metrograph_mpi_counters *c = &metrograph_mpi_counters;
  uint64_t end = now_ns ();
  mg_mpi_counters_leave (c, end);
  leave_thread ();
  add (&c->time_ns, end - start);
  if (kind == P2P)
    {
      add (&c->p2p_calls, 1);
      add_some (&c->p2p_sent, sent);
      add_some (&c->p2p_recv, received);
    }
  else if (kind == COLLECTIVE)
    {
      add (&c->collective_calls, 1);
      add_some (&c->collective_sent, sent);
      add_some (&c->collective_recv, received);
    }
  else
    add (&c->other_calls, 1);
}

/* Bytes received, for a completed receive of elements of type. */
static uint64_t
received_bytes (const MPI_Status *status, MPI_Datatype type)
{
  static __typeof__ (&PMPI_Get_count) get_count;
  static __typeof__ (&PMPI_Test_cancelled) test_cancelled;
  if (get_count == NULL)
    get_count = (__typeof__ (&PMPI_Get_count)) real ("PMPI_Get_count");
  if (test_cancelled == NULL)
    test_cancelled = (__typeof__ (&PMPI_Test_cancelled)) real ("PMPI_Test_cancelled");
  int cancelled = 0, count = 0;
  if (test_cancelled (status, &cancelled) == MPI_SUCCESS && cancelled)
    return 0;
  if (get_count (status, type, &count) == MPI_SUCCESS && count != MPI_UNDEFINED)
    return bytes (count, type);
  /* Not a whole number of elements (an erroneous program): its bytes would
   * need MPI_BYTE, a libmpi symbol in OpenMPI, which this library must not
   * refer to (see the top of this file). */
  return 0;
}

/* A receive posted earlier completed: its bytes are point-to-point bytes
 * received (the call was counted when it was posted). */
static void
account_completion (uint64_t received)
{
  add_some (&metrograph_mpi_counters.p2p_recv, received);
}

/* Point-to-point sends: Send, Ssend, Rsend, Bsend. */
#define BLOCKING_SEND(name)                                                  \
  int name (const void *buf, int count, MPI_Datatype type, int dest, int tag, \
            MPI_Comm comm)                                                   \
  {                                                                          \
    REAL (name)                                                              \
    uint64_t t = ENTER ();                                                   \
    int r = real_fn (buf, count, type, dest, tag, comm);                     \
    account (P2P, t, bytes (count, type), 0);                                \
    return r;                                                                \
  }

BLOCKING_SEND (MPI_Send)
BLOCKING_SEND (MPI_Ssend)
BLOCKING_SEND (MPI_Rsend)
BLOCKING_SEND (MPI_Bsend)

/* Non-blocking sends: Isend, Issend, Irsend, Ibsend. The request handle may
 * be one a completed receive had: forget that. */
#define NONBLOCKING_SEND(name)                                               \
  int name (const void *buf, int count, MPI_Datatype type, int dest, int tag, \
            MPI_Comm comm, MPI_Request *request)                             \
  {                                                                          \
    REAL (name)                                                              \
    uint64_t t = ENTER ();                                                   \
    int r = real_fn (buf, count, type, dest, tag, comm, request);            \
    if (r == MPI_SUCCESS)                                                    \
      mg_mpi_pending_forget (*request);                                      \
    account (P2P, t, bytes (count, type), 0);                                \
    return r;                                                                \
  }

NONBLOCKING_SEND (MPI_Isend)
NONBLOCKING_SEND (MPI_Issend)
NONBLOCKING_SEND (MPI_Irsend)
NONBLOCKING_SEND (MPI_Ibsend)

int
MPI_Recv (void *buf, int count, MPI_Datatype type, int source, int tag,
          MPI_Comm comm, MPI_Status *status)
{
  REAL (MPI_Recv)
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  uint64_t t = ENTER ();
  int r = real_fn (buf, count, type, source, tag, comm, st);
  account (P2P, t, 0, r == MPI_SUCCESS ? received_bytes (st, type) : 0);
  return r;
}

/* Counted as a call now, its bytes when it completes. */
int
MPI_Irecv (void *buf, int count, MPI_Datatype type, int source, int tag,
           MPI_Comm comm, MPI_Request *request)
{
  REAL (MPI_Irecv)
  uint64_t t = ENTER ();
  int r = real_fn (buf, count, type, source, tag, comm, request);
  uint64_t posted = 0;
  if (r == MPI_SUCCESS && !mg_mpi_pending_add (*request, type))
    posted = bytes (count, type); /* table full: the posted size, now */
  account (P2P, t, 0, posted);
  return r;
}

/* The program gives the request up: whatever it receives stays uncounted. */
int
MPI_Request_free (MPI_Request *request)
{
  REAL (MPI_Request_free)
  mg_mpi_pending_forget (*request);
  return real_fn (request);
}

int
MPI_Wait (MPI_Request *request, MPI_Status *status)
{
  REAL (MPI_Wait)
  MPI_Request handle = *request;
  MPI_Datatype type;
  bool receive = mg_mpi_pending_peek (handle, &type);
  MPI_Status local;
  MPI_Status *st = receive && status == MPI_STATUS_IGNORE ? &local : status;
  uint64_t t = ENTER ();
  int r = real_fn (request, st);
  account (OTHER, t, 0, 0);
  if (receive && r == MPI_SUCCESS && mg_mpi_pending_take (handle, &type))
    account_completion (received_bytes (st, type));
  return r;
}

int
MPI_Test (MPI_Request *request, int *flag, MPI_Status *status)
{
  REAL (MPI_Test)
  MPI_Request handle = *request;
  MPI_Datatype type;
  bool receive = mg_mpi_pending_peek (handle, &type);
  MPI_Status local;
  MPI_Status *st = receive && status == MPI_STATUS_IGNORE ? &local : status;
  uint64_t t = ENTER ();
  int r = real_fn (request, flag, st);
  account (OTHER, t, 0, 0);
  if (receive && r == MPI_SUCCESS && *flag && mg_mpi_pending_take (handle, &type))
    account_completion (received_bytes (st, type));
  return r;
}

/* The pending receives among an array of requests, noted before a
 * completion call (which sets completed requests to MPI_REQUEST_NULL), and
 * the statuses the call fills: the program's, or local ones when it
 * ignores them. Small arrays live on the stack; larger ones are allocated
 * (the wrapper runs in the program's threads, not in a signal handler). */
#define SMALL 32

typedef struct {
  int n;                       /* requests */
  int n_receives;              /* of them pending receives */
  MPI_Request *handles;        /* copies of the requests, when n_receives > 0 */
  MPI_Datatype *types;
  bool *is_receive;
  MPI_Status *statuses;        /* what to pass to the call */
  bool have_statuses;          /* statuses can be read after the call */
  int n_statuses;              /* > 0: local ones replace the program's IGNORE */
  MPI_Request small_handles[SMALL];
  MPI_Datatype small_types[SMALL];
  bool small_is_receive[SMALL];
  MPI_Status small_statuses[SMALL];
  void *heap;
} Completion;

/* n_statuses: how many statuses the call fills (n, or 1 for -any);
 * ignored: the program passed MPI_STATUS(ES)_IGNORE. */
static void
completion_begin (Completion *c, int n, MPI_Request requests[], MPI_Status *statuses,
                  int n_statuses, bool ignored)
{
  c->n = n > 0 ? n : 0;
  c->n_receives = 0;
  c->heap = NULL;
  c->statuses = statuses;
  c->have_statuses = !ignored;
  c->n_statuses = 0;
  c->handles = c->small_handles;
  c->types = c->small_types;
  c->is_receive = c->small_is_receive;
  if (c->n > SMALL)
    {
      size_t size = (sizeof (MPI_Request) + sizeof (MPI_Datatype) + sizeof (bool))
                    * (size_t) c->n;
      c->heap = malloc (size);
      if (c->heap == NULL)
        {
          c->n = 0; /* nothing counted, rather than nothing done */
          return;
        }
      c->handles = c->heap;
      c->types = (MPI_Datatype *) (c->handles + c->n);
      c->is_receive = (bool *) (c->types + c->n);
    }
  for (int i = 0; i < c->n; i++)
    {
      c->handles[i] = requests[i];
      c->is_receive[i] = mg_mpi_pending_peek (requests[i], &c->types[i]);
      c->n_receives += c->is_receive[i];
    }
  if (c->n_receives > 0 && ignored)
    {
      c->statuses = c->small_statuses;
      if (n_statuses > SMALL)
        {
          c->statuses = malloc (sizeof (MPI_Status) * (size_t) n_statuses);
          if (c->statuses == NULL)
            {
              c->statuses = statuses;
              return;
            }
        }
      c->n_statuses = n_statuses;
      c->have_statuses = true;
    }
}

/* Request i completed with status st (ok: without error). */
static void
completion_done (Completion *c, int i, const MPI_Status *st, bool ok)
{
  MPI_Datatype type;
  if (i < 0 || i >= c->n || !c->is_receive[i])
    return;
  /* Taken even when its bytes cannot be known (no statuses to read). */
  if (mg_mpi_pending_take (c->handles[i], &type) && ok && c->have_statuses)
    account_completion (received_bytes (st, type));
}

/* For -all: every request completed, or those whose status says so. */
static void
completion_all (Completion *c, int r)
{
  if (c->n_receives == 0 || (r != MPI_SUCCESS && !c->have_statuses))
    return;
  for (int i = 0; i < c->n; i++)
    {
      if (!c->is_receive[i])
        continue;
      int error = r == MPI_ERR_IN_STATUS ? c->statuses[i].MPI_ERROR : MPI_SUCCESS;
      if (r == MPI_SUCCESS || (r == MPI_ERR_IN_STATUS && error != MPI_ERR_PENDING))
        completion_done (c, i, c->have_statuses ? &c->statuses[i] : NULL,
                         error == MPI_SUCCESS);
    }
}

static void
completion_end (Completion *c)
{
  if (c->n_statuses > SMALL)
    free (c->statuses);
  free (c->heap);
}

int
MPI_Waitall (int count, MPI_Request requests[], MPI_Status *statuses)
{
  REAL (MPI_Waitall)
  Completion c;
  completion_begin (&c, count, requests, statuses, count,
                    statuses == MPI_STATUSES_IGNORE);
  uint64_t t = ENTER ();
  int r = real_fn (count, requests, c.statuses);
  account (OTHER, t, 0, 0);
  completion_all (&c, r);
  completion_end (&c);
  return r;
}

int
MPI_Testall (int count, MPI_Request requests[], int *flag, MPI_Status *statuses)
{
  REAL (MPI_Testall)
  Completion c;
  completion_begin (&c, count, requests, statuses, count,
                    statuses == MPI_STATUSES_IGNORE);
  uint64_t t = ENTER ();
  int r = real_fn (count, requests, flag, c.statuses);
  account (OTHER, t, 0, 0);
  if ((r == MPI_SUCCESS && *flag) || r == MPI_ERR_IN_STATUS)
    completion_all (&c, r);
  completion_end (&c);
  return r;
}

int
MPI_Waitany (int count, MPI_Request requests[], int *index, MPI_Status *status)
{
  REAL (MPI_Waitany)
  Completion c;
  completion_begin (&c, count, requests, status, 1, status == MPI_STATUS_IGNORE);
  uint64_t t = ENTER ();
  int r = real_fn (count, requests, index, c.statuses);
  account (OTHER, t, 0, 0);
  if (r == MPI_SUCCESS && *index != MPI_UNDEFINED)
    completion_done (&c, *index, c.statuses, true);
  completion_end (&c);
  return r;
}

int
MPI_Testany (int count, MPI_Request requests[], int *index, int *flag,
             MPI_Status *status)
{
  REAL (MPI_Testany)
  Completion c;
  completion_begin (&c, count, requests, status, 1, status == MPI_STATUS_IGNORE);
  uint64_t t = ENTER ();
  int r = real_fn (count, requests, index, flag, c.statuses);
  account (OTHER, t, 0, 0);
  if (r == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED)
    completion_done (&c, *index, c.statuses, true);
  completion_end (&c);
  return r;
}

/* -some: statuses[j] belongs to requests[indices[j]]. */
static void
completion_some (Completion *c, int r, int outcount, const int indices[])
{
  if (c->n_receives == 0 || (r != MPI_SUCCESS && r != MPI_ERR_IN_STATUS)
      || outcount == MPI_UNDEFINED || (r != MPI_SUCCESS && !c->have_statuses))
    return;
  for (int j = 0; j < outcount; j++)
    {
      int error = r == MPI_ERR_IN_STATUS ? c->statuses[j].MPI_ERROR : MPI_SUCCESS;
      completion_done (c, indices[j], c->have_statuses ? &c->statuses[j] : NULL,
                       error == MPI_SUCCESS);
    }
}

int
MPI_Waitsome (int incount, MPI_Request requests[], int *outcount, int indices[],
              MPI_Status *statuses)
{
  REAL (MPI_Waitsome)
  Completion c;
  completion_begin (&c, incount, requests, statuses, incount,
                    statuses == MPI_STATUSES_IGNORE);
  uint64_t t = ENTER ();
  int r = real_fn (incount, requests, outcount, indices, c.statuses);
  account (OTHER, t, 0, 0);
  completion_some (&c, r, *outcount, indices);
  completion_end (&c);
  return r;
}

int
MPI_Testsome (int incount, MPI_Request requests[], int *outcount, int indices[],
              MPI_Status *statuses)
{
  REAL (MPI_Testsome)
  Completion c;
  completion_begin (&c, incount, requests, statuses, incount,
                    statuses == MPI_STATUSES_IGNORE);
  uint64_t t = ENTER ();
  int r = real_fn (incount, requests, outcount, indices, c.statuses);
  account (OTHER, t, 0, 0);
  completion_some (&c, r, *outcount, indices);
  completion_end (&c);
  return r;
}

int
MPI_Sendrecv (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
              int dest, int sendtag, void *recvbuf, int recvcount,
              MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
              MPI_Status *status)
{
  REAL (MPI_Sendrecv)
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  uint64_t t = ENTER ();
  int r = real_fn (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                   recvcount, recvtype, source, recvtag, comm, st);
  account (P2P, t, bytes (sendcount, sendtype),
           r == MPI_SUCCESS ? received_bytes (st, recvtype) : 0);
  return r;
}

int
MPI_Sendrecv_replace (void *buf, int count, MPI_Datatype type, int dest,
                      int sendtag, int source, int recvtag, MPI_Comm comm,
                      MPI_Status *status)
{
  REAL (MPI_Sendrecv_replace)
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  uint64_t t = ENTER ();
  int r = real_fn (buf, count, type, dest, sendtag, source, recvtag, comm, st);
  account (P2P, t, bytes (count, type),
           r == MPI_SUCCESS ? received_bytes (st, type) : 0);
  return r;
}

/* Collectives: the root of a broadcast sends the buffer once, the others
 * receive it; reductions send their contribution and the ranks that get
 * the result receive it. The non-blocking forms count the same, when
 * posted; their requests may reuse a completed receive's handle. */
static void
bcast_bytes (int count, MPI_Datatype type, int root, MPI_Comm comm,
             uint64_t *sent, uint64_t *received)
{
  uint64_t n = bytes (count, type);
  bool is_root = comm_rank (comm) == root;
  *sent = is_root ? n : 0;
  *received = is_root ? 0 : n;
}

int
MPI_Bcast (void *buffer, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  REAL (MPI_Bcast)
  uint64_t t = ENTER (), sent, received;
  int r = real_fn (buffer, count, type, root, comm);
  bcast_bytes (count, type, root, comm, &sent, &received);
  account (COLLECTIVE, t, sent, received);
  return r;
}

int
MPI_Ibcast (void *buffer, int count, MPI_Datatype type, int root, MPI_Comm comm,
            MPI_Request *request)
{
  REAL (MPI_Ibcast)
  uint64_t t = ENTER (), sent, received;
  int r = real_fn (buffer, count, type, root, comm, request);
  if (r == MPI_SUCCESS)
    mg_mpi_pending_forget (*request);
  bcast_bytes (count, type, root, comm, &sent, &received);
  account (COLLECTIVE, t, sent, received);
  return r;
}

int
MPI_Reduce (const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
            MPI_Op op, int root, MPI_Comm comm)
{
  REAL (MPI_Reduce)
  uint64_t t = ENTER ();
  int r = real_fn (sendbuf, recvbuf, count, type, op, root, comm);
  uint64_t n = bytes (count, type);
  account (COLLECTIVE, t, n, comm_rank (comm) == root ? n : 0);
  return r;
}

int
MPI_Ireduce (const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
             MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
  REAL (MPI_Ireduce)
  uint64_t t = ENTER ();
  int r = real_fn (sendbuf, recvbuf, count, type, op, root, comm, request);
  if (r == MPI_SUCCESS)
    mg_mpi_pending_forget (*request);
  uint64_t n = bytes (count, type);
  account (COLLECTIVE, t, n, comm_rank (comm) == root ? n : 0);
  return r;
}

int
MPI_Allreduce (const void *sendbuf, void *recvbuf, int count,
               MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  REAL (MPI_Allreduce)
  uint64_t t = ENTER ();
  int r = real_fn (sendbuf, recvbuf, count, type, op, comm);
  uint64_t n = bytes (count, type);
  account (COLLECTIVE, t, n, n);
  return r;
}

int
MPI_Iallreduce (const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
  REAL (MPI_Iallreduce)
  uint64_t t = ENTER ();
  int r = real_fn (sendbuf, recvbuf, count, type, op, comm, request);
  if (r == MPI_SUCCESS)
    mg_mpi_pending_forget (*request);
  uint64_t n = bytes (count, type);
  account (COLLECTIVE, t, n, n);
  return r;
}

int
MPI_Barrier (MPI_Comm comm)
{
  REAL (MPI_Barrier)
  uint64_t t = ENTER ();
  int r = real_fn (comm);
  account (COLLECTIVE, t, 0, 0);
  return r;
}

int
MPI_Ibarrier (MPI_Comm comm, MPI_Request *request)
{
  REAL (MPI_Ibarrier)
  uint64_t t = ENTER ();
  int r = real_fn (comm, request);
  if (r == MPI_SUCCESS)
    mg_mpi_pending_forget (*request);
  account (COLLECTIVE, t, 0, 0);
  return r;
}

/* Gather's root receives count x size x ranks; Scatter's root sends it. */
static uint64_t
root_total (int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  return comm_rank (comm) == root ? bytes (count, type) * (uint64_t) comm_size (comm) : 0;
}

int
MPI_Gather (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
            void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
            MPI_Comm comm)
{
  REAL (MPI_Gather)
  uint64_t t = ENTER ();
  int r = real_fn (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm);
  account (COLLECTIVE, t, bytes (sendcount, sendtype),
           root_total (recvcount, recvtype, root, comm));
  return r;
}

int
MPI_Igather (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
             MPI_Comm comm, MPI_Request *request)
{
  REAL (MPI_Igather)
  uint64_t t = ENTER ();
  int r = real_fn (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm, request);
  if (r == MPI_SUCCESS)
    mg_mpi_pending_forget (*request);
  account (COLLECTIVE, t, bytes (sendcount, sendtype),
           root_total (recvcount, recvtype, root, comm));
  return r;
}

int
MPI_Scatter (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
             MPI_Comm comm)
{
  REAL (MPI_Scatter)
  uint64_t t = ENTER ();
  int r = real_fn (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm);
  account (COLLECTIVE, t, root_total (sendcount, sendtype, root, comm),
           bytes (recvcount, recvtype));
  return r;
}

int
MPI_Iscatter (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
              void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
              MPI_Comm comm, MPI_Request *request)
{
  REAL (MPI_Iscatter)
  uint64_t t = ENTER ();
  int r = real_fn (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm, request);
  if (r == MPI_SUCCESS)
    mg_mpi_pending_forget (*request);
  account (COLLECTIVE, t, root_total (sendcount, sendtype, root, comm),
           bytes (recvcount, recvtype));
  return r;
}

/* Allgather and Alltoall count the whole receive (and for Alltoall send)
 * buffer. */
int
MPI_Allgather (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
               void *recvbuf, int recvcount, MPI_Datatype recvtype,
               MPI_Comm comm)
{
  REAL (MPI_Allgather)
  uint64_t t = ENTER ();
  int r = real_fn (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm);
  account (COLLECTIVE, t, bytes (sendcount, sendtype),
           bytes (recvcount, recvtype) * (uint64_t) comm_size (comm));
  return r;
}

int
MPI_Iallgather (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                MPI_Comm comm, MPI_Request *request)
{
  REAL (MPI_Iallgather)
  uint64_t t = ENTER ();
  int r = real_fn (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm, request);
  if (r == MPI_SUCCESS)
    mg_mpi_pending_forget (*request);
  account (COLLECTIVE, t, bytes (sendcount, sendtype),
           bytes (recvcount, recvtype) * (uint64_t) comm_size (comm));
  return r;
}

int
MPI_Alltoall (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
              void *recvbuf, int recvcount, MPI_Datatype recvtype,
              MPI_Comm comm)
{
  REAL (MPI_Alltoall)
  uint64_t t = ENTER ();
  int r = real_fn (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm);
  uint64_t n = (uint64_t) comm_size (comm);
  account (COLLECTIVE, t, bytes (sendcount, sendtype) * n,
           bytes (recvcount, recvtype) * n);
  return r;
}

int
MPI_Ialltoall (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
               void *recvbuf, int recvcount, MPI_Datatype recvtype,
               MPI_Comm comm, MPI_Request *request)
{
  REAL (MPI_Ialltoall)
  uint64_t t = ENTER ();
  int r = real_fn (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm, request);
  if (r == MPI_SUCCESS)
    mg_mpi_pending_forget (*request);
  uint64_t n = (uint64_t) comm_size (comm);
  account (COLLECTIVE, t, bytes (sendcount, sendtype) * n,
           bytes (recvcount, recvtype) * n);
  return r;
}

/* Time in MPI, but not a call: the ranks' records travel to rank 0 first
 * (mpi/mpi-transfer.c), while MPI still works, after every rank has reached
 * here; a rank waiting for a later one reads as in MPI meanwhile. */
int
MPI_Finalize (void)
{
  REAL (MPI_Finalize)
  ENTER ();
  mg_mpi_transfer_records ();
  int r = real_fn ();
  mg_mpi_counters_leave (&metrograph_mpi_counters, now_ns ());
  leave_thread ();
  return r;
}
