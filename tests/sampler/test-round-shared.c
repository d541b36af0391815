/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the sampler reads once a round and shares among the built-in
 * plugins (include/metrograph_plugin_ext.h): metrograph_get_round_usage and
 * metrograph_get_round_thread_count, from the sampler's mg-thread-usage.c
 * and mg-round-threads.c linked in. A thread of the test stands for the
 * sampler's own: getters of one round get the same figures however much
 * happens between them, the next round gets new ones, and the sampler
 * thread's usage (read without its clock) matches its clock. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "metrograph_plugin_ext.h"
#include "mg-sampler-state.h"

#define ROUND_NS 20000000
#define TOUCHED_PAGES 256

static uint64_t
tv_ns (const struct timeval *tv)
{
  return (uint64_t) tv->tv_sec * 1000000000u + (uint64_t) tv->tv_usec * 1000u;
}

static uint64_t
thread_clock_ns (void)
{
  struct timespec ts;
  g_assert_cmpint (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts), ==, 0);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* Burns about ns of this thread's CPU. */
static void
burn (uint64_t ns)
{
  volatile uint64_t x = 1;
  uint64_t until = thread_clock_ns () + ns;
  while (thread_clock_ns () < until)
    for (int i = 0; i < 1000; i++)
      x = x * 6364136223846793005u + 1;
}

/* Faults in pages of fresh memory (kept mapped until the test ends). */
static void
touch_pages (void)
{
  long page = sysconf (_SC_PAGESIZE);
  char *p = mmap (NULL, (size_t) page * TOUCHED_PAGES, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert_true (p != MAP_FAILED);
  for (int i = 0; i < TOUCHED_PAGES; i++)
    p[(size_t) i * (size_t) page] = 1;
}

static void
assert_same_rusage (const struct rusage *a, const struct rusage *b)
{
  g_assert_cmpuint (tv_ns (&a->ru_utime), ==, tv_ns (&b->ru_utime));
  g_assert_cmpuint (tv_ns (&a->ru_stime), ==, tv_ns (&b->ru_stime));
  g_assert_cmpint (a->ru_minflt, ==, b->ru_minflt);
  g_assert_cmpint (a->ru_majflt, ==, b->ru_majflt);
  g_assert_cmpint (a->ru_nvcsw, ==, b->ru_nvcsw);
  g_assert_cmpint (a->ru_nivcsw, ==, b->ru_nivcsw);
}

static void
assert_same_thread (const struct metrograph_sampler_thread_usage *a,
                    const struct metrograph_sampler_thread_usage *b)
{
  g_assert_cmpint (a->tid, ==, b->tid);
  g_assert_cmpuint (a->cpu_ns, ==, b->cpu_ns);
  g_assert_cmpuint (a->user_ns, ==, b->user_ns);
  g_assert_cmpuint (a->system_ns, ==, b->system_ns);
  g_assert_cmpuint (a->voluntary, ==, b->voluntary);
  g_assert_cmpuint (a->involuntary, ==, b->involuntary);
}

static struct timespec
round_time (int i)
{
  struct timespec base;
  g_assert_cmpint (clock_gettime (CLOCK_MONOTONIC, &base), ==, 0);
  static int64_t first;
  if (first == 0)
    first = (int64_t) base.tv_sec * 1000000000 + base.tv_nsec;
  int64_t ns = first + (int64_t) i * ROUND_NS;
  struct timespec t = { (time_t) (ns / 1000000000), (long) (ns % 1000000000) };
  return t;
}

typedef struct {
  struct rusage first, again, next;
  struct metrograph_sampler_thread_usage first_thread, again_thread, next_thread;
  uint64_t clock_before, clock_after; /* the stand-in's clock around the first reading */
  pid_t tid;
} UsageRounds;

static gpointer
usage_sampler_thread (gpointer data)
{
  UsageRounds *u = data;
  struct timespec r1 = round_time (1), r2 = round_time (2);
  mg_thread_usage_begin ();
  u->tid = (pid_t) syscall (SYS_gettid);
  burn (2000000);
  u->clock_before = thread_clock_ns ();
  g_assert_cmpint (metrograph_get_round_usage (&r1, &u->first, &u->first_thread), ==, 0);
  u->clock_after = thread_clock_ns ();
  /* Between two getters of the same round: CPU, page faults, a sleep. */
  burn (5000000);
  touch_pages ();
  g_usleep (1000);
  g_assert_cmpint (metrograph_get_round_usage (&r1, &u->again, &u->again_thread), ==, 0);
  g_assert_cmpint (metrograph_get_round_usage (&r2, &u->next, &u->next_thread), ==, 0);
  mg_thread_usage_end ();
  return NULL;
}

/* Two getters in one round get the same figures; the next round new ones:
 * the process's CPU, faults and switches, and the sampler thread's. */
static void
test_round_usage (void)
{
  UsageRounds u = { 0 };
  mg_thread_usage_reset ();
  g_thread_join (g_thread_new ("stand-in-sampler", usage_sampler_thread, &u));

  assert_same_rusage (&u.first, &u.again);
  assert_same_thread (&u.first_thread, &u.again_thread);

  g_assert_cmpint (u.first_thread.tid, ==, u.tid);
  g_assert_cmpint (u.next_thread.tid, ==, u.tid);
  /* Without its clock, the thread's time is its clock's to the two
   * microseconds that the timevals drop. */
  g_assert_cmpuint (u.first_thread.cpu_ns + 2000, >=, u.clock_before);
  g_assert_cmpuint (u.first_thread.cpu_ns, <=, u.clock_after);
  g_assert_cmpuint (u.first_thread.cpu_ns, ==, u.first_thread.user_ns + u.first_thread.system_ns);

  /* The next round sees the 5 ms burnt, the pages touched and the sleep. */
  uint64_t process_before = tv_ns (&u.first.ru_utime) + tv_ns (&u.first.ru_stime);
  uint64_t process_after = tv_ns (&u.next.ru_utime) + tv_ns (&u.next.ru_stime);
  g_assert_cmpuint (process_after, >=, process_before + 5000000 - 2000);
  g_assert_cmpuint (u.next_thread.cpu_ns, >=, u.first_thread.cpu_ns + 5000000 - 2000);
  g_assert_cmpint (u.next.ru_minflt, >=, u.first.ru_minflt + TOUCHED_PAGES);
  g_assert_cmpuint (u.next_thread.voluntary, >, u.first_thread.voluntary);
  g_assert_cmpint (u.next.ru_nvcsw, >, u.first.ru_nvcsw);

  /* From another thread, once the sampler's has ended: read now, with the
   * thread's final figures (no tid), not the last round's. */
  struct timespec r2 = round_time (2);
  struct rusage now;
  struct metrograph_sampler_thread_usage ended;
  burn (3000000);
  g_assert_cmpint (metrograph_get_round_usage (&r2, &now, &ended), ==, 0);
  g_assert_cmpuint (tv_ns (&now.ru_utime) + tv_ns (&now.ru_stime), >=,
                    process_after + 3000000 - 2000);
  g_assert_cmpint (ended.tid, ==, 0);
  g_assert_cmpuint (ended.cpu_ns, >=, u.next_thread.cpu_ns);
  mg_thread_usage_reset ();
}

typedef struct {
  uint64_t first, again, next, later;
  GMutex lock;
  GCond cond;
  gboolean release;
} ThreadRounds;

static gpointer
idle_thread (gpointer data)
{
  ThreadRounds *r = data;
  g_mutex_lock (&r->lock);
  while (!r->release)
    g_cond_wait (&r->cond, &r->lock);
  g_mutex_unlock (&r->lock);
  return NULL;
}

/* A joined thread can still be in the thread group for a moment (its id
 * is cleared before the kernel unlinks it): waits until /proc/self/task
 * lists n threads. */
static void
wait_for_threads (uint64_t n)
{
  for (int i = 0; i < 1000; i++)
    {
      GStatBuf st;
      g_assert_cmpint (g_stat ("/proc/self/task", &st), ==, 0);
      if ((uint64_t) st.st_nlink - 2 == n)
        return;
      g_usleep (1000);
    }
  g_assert_not_reached ();
}

static gpointer
count_sampler_thread (gpointer data)
{
  ThreadRounds *r = data;
  struct timespec r1 = round_time (11), r2 = round_time (12), r3 = round_time (13);
  mg_thread_usage_begin ();
  g_assert_cmpint (metrograph_get_round_thread_count (&r1, &r->first), ==, 0);
  GThread *extra = g_thread_new ("idle", idle_thread, r);
  g_assert_cmpint (metrograph_get_round_thread_count (&r1, &r->again), ==, 0);
  g_assert_cmpint (metrograph_get_round_thread_count (&r2, &r->next), ==, 0);
  g_mutex_lock (&r->lock);
  r->release = TRUE;
  g_cond_signal (&r->cond);
  g_mutex_unlock (&r->lock);
  g_thread_join (extra);
  wait_for_threads (r->first);
  g_assert_cmpint (metrograph_get_round_thread_count (&r3, &r->later), ==, 0);
  mg_thread_usage_end ();
  return NULL;
}

/* A thread started within a round counts from the next round on, and one
 * that ended is gone from the round after. */
static void
test_round_thread_count (void)
{
  ThreadRounds r = { 0 };
  g_mutex_init (&r.lock);
  g_cond_init (&r.cond);
  mg_thread_usage_reset ();
  mg_round_threads_reset ();
  g_thread_join (g_thread_new ("stand-in-sampler", count_sampler_thread, &r));
  wait_for_threads (r.first - 1);
  g_test_message ("threads: %" G_GUINT64_FORMAT " in the round, %" G_GUINT64_FORMAT
                  " the next, %" G_GUINT64_FORMAT " after", r.first, r.next, r.later);
  g_assert_cmpuint (r.first, >=, 2); /* the main thread and the stand-in */
  g_assert_cmpuint (r.again, ==, r.first);
  g_assert_cmpuint (r.next, ==, r.first + 1);
  g_assert_cmpuint (r.later, ==, r.first);

  /* From another thread: read now, the stand-in gone. */
  struct timespec r3 = round_time (13);
  uint64_t now;
  g_assert_cmpint (metrograph_get_round_thread_count (&r3, &now), ==, 0);
  g_assert_cmpuint (now, ==, r.first - 1);
  mg_round_threads_reset ();
  g_mutex_clear (&r.lock);
  g_cond_clear (&r.cond);
}

typedef struct {
  GMutex lock;
  GCond cond;
  gboolean waiting, release;
  pid_t tid;
  uint64_t clock_waiting; /* the stand-in's clock as it waits */
} HeldSampler;

/* A stand-in sampler thread that burns 30 ms in rounds, then waits between
 * rounds as the real one does while MPI_Finalize takes its round. */
static gpointer
held_sampler_thread (gpointer data)
{
  HeldSampler *h = data;
  mg_thread_usage_begin ();
  for (int i = 0; i < 3; i++)
    {
      struct timespec r = round_time (21 + i);
      struct rusage process;
      struct metrograph_sampler_thread_usage own;
      burn (10000000);
      g_assert_cmpint (metrograph_get_round_usage (&r, &process, &own), ==, 0);
    }
  g_mutex_lock (&h->lock);
  h->tid = (pid_t) syscall (SYS_gettid);
  h->clock_waiting = thread_clock_ns ();
  h->waiting = TRUE;
  g_cond_signal (&h->cond);
  while (!h->release)
    g_cond_wait (&h->cond, &h->lock);
  g_mutex_unlock (&h->lock);
  mg_thread_usage_end ();
  return NULL;
}

/* A round taken on another thread while the sampler's runs (MPI_Finalize's
 * last sample, sampler/mg-mpi-handoff.c): the sampler thread's usage is
 * still known, its id and clock, so that CPU Time leaves it out. It read
 * all 0 there, and the round charged the thread's whole CPU time to the
 * program: a LULESH run's last sample before MPI_Finalize read 1224 %
 * with 3 threads. */
static void
test_round_usage_elsewhere (void)
{
  HeldSampler h = { 0 };
  g_mutex_init (&h.lock);
  g_cond_init (&h.cond);
  mg_thread_usage_reset ();
  GThread *thread = g_thread_new ("stand-in-sampler", held_sampler_thread, &h);
  g_mutex_lock (&h.lock);
  while (!h.waiting)
    g_cond_wait (&h.cond, &h.lock);
  g_mutex_unlock (&h.lock);

  struct timespec r = round_time (24);
  struct rusage process;
  struct metrograph_sampler_thread_usage round_thread, direct;
  g_assert_cmpint (metrograph_get_round_usage (&r, &process, &round_thread), ==, 0);
  g_assert_cmpint (metrograph_get_sampler_thread_usage (&direct), ==, 0);
  uint64_t process_ns = tv_ns (&process.ru_utime) + tv_ns (&process.ru_stime);
  g_test_message ("stand-in: clock %" G_GUINT64_FORMAT " ns, read elsewhere %" G_GUINT64_FORMAT
                  " ns (tid %d), process %" G_GUINT64_FORMAT " ns", h.clock_waiting,
                  round_thread.cpu_ns, (int) round_thread.tid, process_ns);
  for (int i = 0; i < 2; i++)
    {
      const struct metrograph_sampler_thread_usage *u = i ? &direct : &round_thread;
      g_assert_cmpint (u->tid, ==, h.tid);
      /* Its clock now: what it used up to its wait, and the moment the
       * wait took to begin. */
      g_assert_cmpuint (u->cpu_ns, >=, h.clock_waiting);
      g_assert_cmpuint (u->cpu_ns, <=, h.clock_waiting + 2000000);
      g_assert_cmpuint (u->cpu_ns, <=, process_ns);
      /* Its split as last read on it, in its last round. */
      g_assert_cmpuint (u->user_ns + u->system_ns, >=, 30000000 - 2000);
      g_assert_cmpuint (u->user_ns + u->system_ns, <=, u->cpu_ns);
    }

  g_mutex_lock (&h.lock);
  h.release = TRUE;
  g_cond_signal (&h.cond);
  g_mutex_unlock (&h.lock);
  g_thread_join (thread);
  mg_thread_usage_reset ();
  g_mutex_clear (&h.lock);
  g_cond_clear (&h.cond);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sampler/round/usage", test_round_usage);
  g_test_add_func ("/sampler/round/thread-count", test_round_thread_count);
  g_test_add_func ("/sampler/round/usage-elsewhere", test_round_usage_elsewhere);
  return g_test_run ();
}
