/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the activity metrics (plugins/activity.c) cost a sampling round, by
 * the number of the program's threads: this process starts THREADS - 1
 * threads blocked in pthread_cond_wait (a futex) besides its main thread,
 * which waits in pthread_join, loads the plugin and calls its 12 getters
 * once per round, 20 ms of sample time apart, from one more thread (as
 * the sampler's).
 * Usage: activity-bench [ROUNDS [THREADS...]] (default 1, 4, 64 and 128
 * threads; MG_BUILD_ROOT names the build tree). Prints the median of 10
 * batches per thread count, and checks the classes: the blocked threads
 * read as waiting (lock). */
#include <glib.h>
#include <pthread.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>

#include "plugins-test-support.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static gboolean done;
static int waiting;

static void *
wait_until_done (void *data)
{
  pthread_mutex_lock (&lock);
  waiting++;
  while (!done)
    pthread_cond_wait (&cond, &lock);
  pthread_mutex_unlock (&lock);
  return NULL;
}

static const char *const getters[] = {
  "mg_activity_main_computing", "mg_activity_main_mpi", "mg_activity_main_io",
  "mg_activity_main_sleep", "mg_activity_main_lock", "mg_activity_main_other",
  "mg_activity_all_computing", "mg_activity_all_mpi", "mg_activity_all_io",
  "mg_activity_all_sleep", "mg_activity_all_lock", "mg_activity_all_other",
};

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* One round at sample time t; the all-threads lock share in *lock_share. */
static void
round_at (PluginsTestDoubleGetter *fns, struct timespec t, double *lock_share)
{
  for (guint i = 0; i < G_N_ELEMENTS (getters); i++)
    {
      struct timespec ts = t;
      double v;
      g_assert_cmpint (fns[i] (i, &ts, &v), ==, 0);
      if (i == 10)
        *lock_share = v;
    }
}

static guint base_fds;

static guint
open_descriptors (void)
{
  g_autoptr (GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  guint n = 0;
  while (g_dir_read_name (dir))
    n++;
  return n;
}

static double
bench (PluginsTestDoubleGetter *fns, int rounds, int threads, struct timespec *t)
{
  pthread_t *tids = g_new (pthread_t, threads);
  done = FALSE;
  waiting = 0;
  for (int i = 1; i < threads; i++)
    g_assert_cmpint (pthread_create (&tids[i], NULL, wait_until_done, NULL), ==, 0);
  /* All blocked: on a loaded machine a new thread may wait a while for
   * its first turn on a core, runnable (computing) meanwhile. */
  for (;;)
    {
      pthread_mutex_lock (&lock);
      gboolean all = waiting == threads - 1;
      pthread_mutex_unlock (&lock);
      if (all)
        break;
      g_usleep (10000);
    }
  g_usleep (100000);
  double batch_us[10], lock_share = 0;
  int per_batch = MAX (rounds / 10, 1);
  /* Warm up: every thread classed and its files opened once. */
  for (int r = 0; r < 8; r++)
    {
      t->tv_sec++;
      round_at (fns, *t, &lock_share);
    }
  for (int b = 0; b < 10; b++)
    {
      gint64 start = g_get_monotonic_time ();
      for (int r = 0; r < per_batch; r++)
        {
          t->tv_nsec += 20000000;
          if (t->tv_nsec >= 1000000000)
            t->tv_sec++, t->tv_nsec -= 1000000000;
          round_at (fns, *t, &lock_share);
        }
      batch_us[b] = (double) (g_get_monotonic_time () - start) / per_batch;
    }
  /* One kept descriptor per thread, 64 at most (and the task folder). */
  guint fds = open_descriptors ();
  g_assert_cmpuint (fds, <=, base_fds + 1 + MIN (threads + 1, 64));
  pthread_mutex_lock (&lock);
  done = TRUE;
  pthread_cond_broadcast (&cond);
  pthread_mutex_unlock (&lock);
  for (int i = 1; i < threads; i++)
    pthread_join (tids[i], NULL);
  g_free (tids);
  qsort (batch_us, 10, sizeof batch_us[0], compare_doubles);
  /* The main thread waits for this one in pthread_join, the others in
   * pthread_cond_wait: all but this one (computing) wait on a lock. */
  double expected = 100.0 * threads / (threads + 1);
  printf ("activity: %3d threads: %7.2f us per round (median of 10 batches of %d; best %.2f); "
          "waiting (lock) %.1f %% (expected %.1f %%); %u descriptors (%u before)\n",
          threads, (batch_us[4] + batch_us[5]) / 2, per_batch, batch_us[0], lock_share, expected,
          fds, base_fds);
  if (fabs (lock_share - expected) > 0.01)
    for (guint i = 6; i < G_N_ELEMENTS (getters); i++)
      {
        struct timespec ts = *t;
        double v;
        fns[i] (i, &ts, &v);
        printf ("  %s %.1f %%\n", getters[i], v);
      }
  g_assert_cmpfloat (lock_share, >=, expected - 0.01);
  g_assert_cmpfloat (lock_share, <=, expected + 0.01);
  return (batch_us[4] + batch_us[5]) / 2;
}

typedef struct {
  int argc;
  char **argv;
} Args;

static void *run (void *data);

/* The getters run on a thread of their own, as on the sampler's: the main
 * thread is then one of those read (it waits in pthread_join). Under
 * Metrograph's sampler its thread is left out; here it is one of the
 * process's, read as computing. */
int
main (int argc, char **argv)
{
  Args args = { argc, argv };
  pthread_t reader;
  g_assert_cmpint (pthread_create (&reader, NULL, run, &args), ==, 0);
  pthread_join (reader, NULL);
  return 0;
}

static void *
run (void *data)
{
  int argc = ((Args *) data)->argc;
  char **argv = ((Args *) data)->argv;
  int rounds = argc > 1 ? atoi (argv[1]) : 5000;
  base_fds = open_descriptors ();
  void *plugin = plugins_test_load_plugin ("metrograph-activity");
  g_assert_cmpint (plugins_test_init_plugin (plugin, 0), ==, 0);
  PluginsTestDoubleGetter fns[G_N_ELEMENTS (getters)];
  for (guint i = 0; i < G_N_ELEMENTS (getters); i++)
    fns[i] = (PluginsTestDoubleGetter) plugins_test_symbol (plugin, getters[i]);
  struct timespec t = plugins_test_now ();
  if (argc > 2)
    for (int i = 2; i < argc; i++)
      bench (fns, rounds, atoi (argv[i]), &t);
  else
    {
      bench (fns, rounds, 1, &t);
      bench (fns, rounds, 4, &t);
      bench (fns, rounds, 64, &t);
      bench (fns, rounds, 128, &t); /* past the 64 threads whose files stay open */
    }
  return NULL;
}
