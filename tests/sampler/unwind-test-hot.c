/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A hot function in a library the unwinder test dlopen's and dlclose's
 * (built -O2 without frame pointers). */
#include <time.h>

__attribute__((visibility("default"), noinline)) double unwind_test_hot_spin (double seconds);

/* Spins for seconds of this thread's CPU time; the caller's frame stays
 * below (no tail call: the result is used after the loop). */
double
unwind_test_hot_spin (double seconds)
{
  struct timespec ts;
  volatile double acc = 1.0;
  double end = 0;
  for (unsigned i = 0;; i++)
    {
      acc = acc * 1.0000001 + 1e-9;
      if ((i & 1023) == 0)
        {
          clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
          double now = (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
          if (end == 0)
            end = now + seconds;
          else if (now >= end)
            break;
        }
    }
  return acc;
}
