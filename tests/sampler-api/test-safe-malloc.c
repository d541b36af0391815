/* SPDX-License-Identifier: GPL-3.0-or-later */
/* allinea_safe_malloc & co: concurrency with a signal handler, contents,
 * zeroing, overflow and exhaustion. */
#include <glib.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>

#include "allinea_safe_malloc.h"
#include "mg-api-internal.h"

#define THREADS 4
#define LIVE 64

/* The pattern depends on a per-block tag, not the address, so that it
 * survives realloc moving the block. */
static unsigned char
pattern_byte (size_t i, unsigned tag)
{
  return (unsigned char) ((i * 7u + tag * 31u) ^ (i >> 8));
}

static void
fill (unsigned char *p, size_t n, unsigned seed)
{
  for (size_t i = 0; i < n; i++)
    p[i] = pattern_byte (i, seed);
}

static int
check (const unsigned char *p, size_t n, unsigned seed)
{
  for (size_t i = 0; i < n; i++)
    if (p[i] != pattern_byte (i, seed))
      return 0;
  return 1;
}

static volatile sig_atomic_t handler_runs;
static volatile sig_atomic_t handler_failures;

static void
on_alarm (int signo)
{
  /* Allocates in the middle of whatever a thread was doing, maybe while it
   * holds the allocator's lock. */
  size_t sizes[] = { 24, 200, 5000, 70000 };
  size_t size = sizes[handler_runs % 4];
  unsigned char *p = allinea_safe_malloc (size);
  fill (p, size, 99);
  p = allinea_safe_realloc (p, size * 2);
  if (!check (p, size, 99))
    handler_failures++;
  allinea_safe_free (p);
  handler_runs++;
}

typedef struct {
  unsigned seed;
  int failures;
} Worker;

static gpointer
worker_main (gpointer data)
{
  Worker *w = data;
  unsigned char *blocks[LIVE] = { 0 };
  size_t sizes[LIVE] = { 0 };
  unsigned tags[LIVE] = { 0 };
  GRand *rand = g_rand_new_with_seed (w->seed);
  for (int iter = 0; iter < 25000; iter++)
    {
      int slot = g_rand_int_range (rand, 0, LIVE);
      if (blocks[slot])
        {
          if (!check (blocks[slot], sizes[slot], tags[slot]))
            w->failures++;
          if (g_rand_boolean (rand))
            {
              allinea_safe_free (blocks[slot]);
              blocks[slot] = NULL;
              continue;
            }
          /* realloc keeps the common prefix */
          size_t new_size = (size_t) g_rand_int_range (rand, 1, 3000);
          blocks[slot] = allinea_safe_realloc (blocks[slot], new_size);
          size_t keep = MIN (new_size, sizes[slot]);
          if (!check (blocks[slot], keep, tags[slot]))
            w->failures++;
          sizes[slot] = new_size;
          tags[slot] = w->seed * 1000u + (unsigned) iter;
          fill (blocks[slot], new_size, tags[slot]);
          continue;
        }
      size_t size = iter % 97 == 0 ? (size_t) g_rand_int_range (rand, 65536, 300000)
                                   : (size_t) g_rand_int_range (rand, 0, 2048);
      blocks[slot] = allinea_safe_malloc (size);
      if (((uintptr_t) blocks[slot] & 15) != 0)
        w->failures++;
      sizes[slot] = size;
      tags[slot] = w->seed * 1000u + (unsigned) iter;
      fill (blocks[slot], size, tags[slot]);
    }
  for (int i = 0; i < LIVE; i++)
    {
      if (blocks[i] && !check (blocks[i], sizes[i], tags[i]))
        w->failures++;
      allinea_safe_free (blocks[i]);
    }
  g_rand_free (rand);
  return NULL;
}

static void
test_threads_and_signals (void)
{
  struct sigaction sa = { 0 };
  sa.sa_handler = on_alarm;
  sa.sa_flags = SA_RESTART;
  sigemptyset (&sa.sa_mask);
  g_assert_cmpint (sigaction (SIGALRM, &sa, NULL), ==, 0);
  struct itimerval every = { { 0, 300 }, { 0, 300 } };
  g_assert_cmpint (setitimer (ITIMER_REAL, &every, NULL), ==, 0);

  gint64 start = g_get_monotonic_time ();
  Worker workers[THREADS];
  GThread *threads[THREADS];
  for (int i = 0; i < THREADS; i++)
    {
      workers[i] = (Worker) { .seed = 17u + (unsigned) i };
      threads[i] = g_thread_new ("alloc", worker_main, &workers[i]);
    }
  for (int i = 0; i < THREADS; i++)
    g_thread_join (threads[i]);
  struct itimerval off = { { 0, 0 }, { 0, 0 } };
  setitimer (ITIMER_REAL, &off, NULL);
  gint64 elapsed_ms = (g_get_monotonic_time () - start) / 1000;

  for (int i = 0; i < THREADS; i++)
    g_assert_cmpint (workers[i].failures, ==, 0);
  g_assert_cmpint (handler_failures, ==, 0);
  g_assert_cmpint (handler_runs, >, 10);
  g_assert_cmpint (elapsed_ms, <, 60000);
  g_test_message ("4 threads x 25000 operations + %d signal allocations: %" G_GINT64_FORMAT " ms",
                  (int) handler_runs, elapsed_ms);
}

static void
test_realloc_preserves (void)
{
  unsigned char *p = allinea_safe_realloc (NULL, 10);
  for (int i = 0; i < 10; i++)
    p[i] = (unsigned char) (i * 13);
  size_t sizes[] = { 100, 5000, 70000, 1 << 20, 300, 5 };
  size_t filled = 10;
  for (size_t k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      p = allinea_safe_realloc (p, sizes[k]);
      size_t keep = MIN (filled, sizes[k]);
      for (size_t i = 0; i < keep; i++)
        g_assert_cmpint (p[i], ==, (unsigned char) (i * 13));
      for (size_t i = 0; i < sizes[k]; i++)
        p[i] = (unsigned char) (i * 13);
      filled = sizes[k];
    }
  allinea_safe_free (p);
  allinea_safe_free (NULL);
}

static void
test_calloc_zeroes (void)
{
  /* A recycled block must come back zeroed. */
  for (int round = 0; round < 3; round++)
    {
      size_t n = round == 2 ? 40000 : 100;
      unsigned char *dirty = allinea_safe_malloc (n * 4);
      memset (dirty, 0xAA, n * 4);
      allinea_safe_free (dirty);
      unsigned int *z = allinea_safe_calloc (n, 4);
      for (size_t i = 0; i < n; i++)
        g_assert_cmpuint (z[i], ==, 0);
      allinea_safe_free (z);
    }
  void *empty = allinea_safe_calloc (0, 8);
  g_assert_nonnull (empty);
  allinea_safe_free (empty);
}

static void
test_calloc_overflow (void)
{
  if (g_test_subprocess ())
    {
      allinea_safe_calloc (SIZE_MAX / 2, 3);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*allinea_safe_calloc: nmemb * size overflows; aborting*");
}

static void
test_exhaustion_aborts (void)
{
  if (g_test_subprocess ())
    {
      /* 128 TiB: the whole of the 47-bit address space a mapping gets
       * without a hint, so it fails whatever the overcommit setting (64 TiB
       * was mapped where vm.overcommit_memory is 1). */
      allinea_safe_malloc ((size_t) 1 << 47);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*allinea_safe_malloc: out of memory*");
}

static void
test_double_free_detected (void)
{
  if (g_test_subprocess ())
    {
      void *p = allinea_safe_malloc (40);
      allinea_safe_free (p);
      allinea_safe_free (p);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*freed twice*");
}

/* What a signal handler sees when it interrupts its own thread inside the
 * allocator: the lock is held by "itself". It must neither wait nor corrupt
 * the lists. */
static void
test_reentry_fallbacks (void)
{
  void *small = allinea_safe_malloc (100);
  memset (small, 1, 100);
  mg_safe_malloc_hold_lock_for_test (1);
  void *fallback = allinea_safe_malloc (100);   /* mapped privately */
  memset (fallback, 2, 100);
  allinea_safe_free (small);                    /* deferred */
  allinea_safe_free (fallback);                 /* unmapped */
  void *grown = allinea_safe_realloc (NULL, 50);
  allinea_safe_free (grown);
  mg_safe_malloc_hold_lock_for_test (0);
  /* The deferred block is filed on the next locked call and reused. */
  void *again = allinea_safe_malloc (100);
  g_assert_true (again == small);
  allinea_safe_free (again);
}

static MgLock test_lock = MG_LOCK_INIT;
static volatile int handler_acquired = -1;

static void
on_usr2 (int signo)
{
  handler_acquired = mg_lock_acquire (&test_lock);
}

static gpointer
other_thread_acquires (gpointer data)
{
  int got = mg_lock_acquire (&test_lock);
  mg_lock_release (&test_lock);
  return GINT_TO_POINTER (got);
}

static void
test_lock_owner (void)
{
  signal (SIGUSR2, on_usr2);
  g_assert_cmpint (mg_lock_acquire (&test_lock), ==, 1);
  raise (SIGUSR2);   /* the handler runs on this thread, inside the lock */
  g_assert_cmpint (handler_acquired, ==, 0);
  GThread *other = g_thread_new ("other", other_thread_acquires, NULL);
  g_usleep (50000);   /* the other thread waits meanwhile */
  mg_lock_release (&test_lock);
  g_assert_cmpint (GPOINTER_TO_INT (g_thread_join (other)), ==, 1);
  g_assert_cmpint (mg_lock_acquire (&test_lock), ==, 1);
  mg_lock_release (&test_lock);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/safe-malloc/threads-and-signals", test_threads_and_signals);
  g_test_add_func ("/safe-malloc/realloc-preserves", test_realloc_preserves);
  g_test_add_func ("/safe-malloc/calloc-zeroes", test_calloc_zeroes);
  g_test_add_func ("/safe-malloc/calloc-overflow", test_calloc_overflow);
  g_test_add_func ("/safe-malloc/exhaustion-aborts", test_exhaustion_aborts);
  g_test_add_func ("/safe-malloc/double-free-detected", test_double_free_detected);
  g_test_add_func ("/safe-malloc/reentry-fallbacks", test_reentry_fallbacks);
  g_test_add_func ("/safe-malloc/lock-owner", test_lock_owner);
  return g_test_run ();
}
