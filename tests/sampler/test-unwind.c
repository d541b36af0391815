/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The in-process unwinder (sampler/mg-unwind.h), driven as the capture
 * side drives it: a SIGPROF handler (CPU-time timer) walks the interrupted
 * stack into preallocated slots; afterwards, outside the handler, frames
 * are named with dladdr (the test is linked -rdynamic, so its global
 * functions are named) and checked against known call chains. Built -O2
 * without frame pointers (sampler-unwind) and with them (sampler-unwind-fp). */
#include <dlfcn.h>
#include <fcntl.h>
#include <glib.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <link.h>
#include <sys/mman.h>

#include "format/mg-mpi-threads.h"
#include "mg-eh-frame.h"
#include "mg-unwind.h"

#define MAX_SAMPLES 4096
#define NOINLINE __attribute__((noinline, noclone, used))

/* The call chains' functions: global (so that dladdr names them), never
 * inlined, cloned or tail-called. */
double unwind_test_c (double seconds);
double unwind_test_b (double seconds);
double unwind_test_a (double seconds);
double unwind_test_recurse (int depth, double seconds);
double unwind_test_garbage_rbp (double seconds);
double unwind_test_corrupt_return (double seconds);
double unwind_test_handler_spin (double seconds);
void unwind_test_on_usr1 (int sig);
double unwind_test_interrupted (void);
double unwind_test_thread_spin (double seconds);
double unwind_test_stale_rbp (double seconds);
void *unwind_test_stale_thread_main (void *data);
void *unwind_test_thread_main (void *data);
void unwind_test_waiting (void);
void unwind_test_wait_mid (void);
void *unwind_test_wait_thread (void *data);
void unwind_test_race_call (uint64_t function);
void unwind_test_race_a (void);
void unwind_test_race_b2 (void);
void unwind_test_race_b (void);
void unwind_test_race_scribble (void);
void *unwind_test_race_thread (void *data);

typedef struct
{
  unsigned n, flags, n_fp, fp_flags;
  int module;
  pid_t tid;
  uint64_t pcs[MG_UNWIND_MAX_FRAMES];
  uint64_t fp_pcs[MG_UNWIND_MAX_FRAMES];
} Sample;

static Sample samples[MAX_SAMPLES];
static unsigned n_samples;
static volatile int sampling;

static void
on_prof (int sig, siginfo_t *info, void *uc)
{
  (void) sig;
  (void) info;
  if (!sampling)
    return;
  unsigned i = __atomic_fetch_add (&n_samples, 1, __ATOMIC_RELAXED);
  if (i >= MAX_SAMPLES)
    return;
  Sample *s = &samples[i];
  s->n = mg_unwind_context (uc, s->pcs, MG_UNWIND_MAX_FRAMES, &s->flags);
  s->n_fp = mg_unwind_context_fp (uc, s->fp_pcs, MG_UNWIND_MAX_FRAMES, &s->fp_flags);
  s->module = mg_unwind_module_at (s->pcs[0]);
  s->tid = (pid_t) syscall (SYS_gettid);
}

static void
sampling_start (void)
{
  memset (samples, 0, sizeof samples);
  n_samples = 0;
  sampling = 1;
  struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
  g_assert_no_errno (setitimer (ITIMER_PROF, &it, NULL));
}

static unsigned
sampling_stop (void)
{
  struct itimerval off = { { 0, 0 }, { 0, 0 } };
  g_assert_no_errno (setitimer (ITIMER_PROF, &off, NULL));
  sampling = 0;
  return MIN (__atomic_load_n (&n_samples, __ATOMIC_RELAXED), MAX_SAMPLES);
}

static double
thread_cpu_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* The function named by dladdr for frame i (return addresses: pc - 1). */
static const char *
frame_name (const uint64_t *pcs, unsigned i)
{
  Dl_info info;
  if (dladdr ((void *) (uintptr_t) (pcs[i] - (i > 0)), &info) == 0 || info.dli_sname == NULL)
    return "?";
  return info.dli_sname;
}

/* Whether names appear in pcs[0..n) in this order (others may lie between). */
static gboolean
has_chain (const uint64_t *pcs, unsigned n, const char *const *names)
{
  unsigned k = 0;
  for (unsigned i = 0; i < n && names[k] != NULL; i++)
    if (strcmp (frame_name (pcs, i), names[k]) == 0)
      k++;
  return names[k] == NULL;
}

static char *
describe (const uint64_t *pcs, unsigned n, unsigned flags)
{
  GString *s = g_string_new (NULL);
  for (unsigned i = 0; i < n; i++)
    g_string_append_printf (s, "%s%s", i ? " <- " : "", frame_name (pcs, i));
  g_string_append_printf (s, " [flags %u]", flags);
  return g_string_free (s, FALSE);
}

/* The kernel checks CPU-time timers at its tick: at 100 Hz, a spin of
 * 0.3 s of CPU gets about 30 samples, whatever the 1 ms asked for; the
 * counts asserted below are well under that. */

/* ---- main -> a -> b -> c, spinning in c ---- */

static volatile double sink;

NOINLINE double
unwind_test_c (double seconds)
{
  double end = thread_cpu_now () + seconds, acc = 1;
  while (thread_cpu_now () < end)
    for (int i = 0; i < 1000; i++)
      acc = acc * 1.0000001 + 1e-9;
  return acc;
}

NOINLINE double
unwind_test_b (double seconds)
{
  return unwind_test_c (seconds) * 2 + sink;
}

NOINLINE double
unwind_test_a (double seconds)
{
  return unwind_test_b (seconds) * 3 + sink;
}

static void
test_chain (void)
{
  sampling_start ();
  sink = unwind_test_a (0.4);
  unsigned n = sampling_stop ();
  static const char *const chain[] = { "unwind_test_c", "unwind_test_b", "unwind_test_a", "main", NULL };
  unsigned in_c = 0, whole = 0;
  for (unsigned i = 0; i < n; i++)
    {
      const Sample *s = &samples[i];
      if (!has_chain (s->pcs, s->n, chain))
        {
          g_autofree char *d = describe (s->pcs, s->n, s->flags);
          g_test_message ("sample %u: %s", i, d);
          continue;
        }
      in_c++;
      whole += s->flags == 0; /* ended cleanly at _start */
    }
  g_test_message ("%u samples, %u with c <- b <- a <- main, %u of them complete", n, in_c, whole);
  if (n > 0)
    {
      g_autofree char *first = describe (samples[0].pcs, samples[0].n, samples[0].flags);
      g_test_message ("first: %s", first);
    }
  g_assert_cmpuint (n, >=, 15);
  g_assert_cmpuint (in_c * 10, >=, n * 9);
  g_assert_cmpuint (whole * 10, >=, in_c * 9);
}

/* ---- recursion deeper than the limit ---- */

NOINLINE double
unwind_test_recurse (int depth, double seconds)
{
  if (depth == 0)
    return unwind_test_c (seconds);
  return unwind_test_recurse (depth - 1, seconds) + sink + depth;
}

static void
test_truncated (void)
{
  sampling_start ();
  sink = unwind_test_recurse (200, 0.3);
  unsigned n = sampling_stop ();
  unsigned truncated = 0;
  for (unsigned i = 0; i < n; i++)
    if (samples[i].flags == MG_UNWIND_TRUNCATED && samples[i].n == MG_UNWIND_MAX_FRAMES
        && strcmp (frame_name (samples[i].pcs, MG_UNWIND_MAX_FRAMES - 1), "unwind_test_recurse") == 0)
      truncated++;
  g_test_message ("%u samples, %u truncated at %u frames", n, truncated, MG_UNWIND_MAX_FRAMES);
  g_assert_cmpuint (n, >=, 12);
  g_assert_cmpuint (truncated * 10, >=, n * 9);
}

/* ---- garbage in rbp: a stack buffer of garbage, rbp pointing into it ---- */

NOINLINE double
unwind_test_garbage_rbp (double seconds)
{
  uint64_t garbage[64];
  for (unsigned i = 0; i < G_N_ELEMENTS (garbage); i++)
    garbage[i] = (i % 3 == 0) ? (uint64_t) (uintptr_t) &garbage[(i * 7) % 64]  /* into the buffer */
                 : (i % 3 == 1) ? 0xdead00000000beefu + i                      /* non-canonical */
                                : 0x10000u + i;                                /* unmapped */
  double end = thread_cpu_now () + seconds;
  while (thread_cpu_now () < end)
    {
      long spins = 1000000;
      __asm__ volatile ("mov %%rbp, %%r11\n\t"
                        "mov %1, %%rbp\n\t"
                        "1: sub $1, %0\n\t"
                        "jnz 1b\n\t"
                        "mov %%r11, %%rbp"
                        : "+r"(spins)
                        : "r"(&garbage[4])
                        : "r11", "cc", "memory");
    }
  return (double) garbage[5] + sink;
}

static void
test_garbage_rbp (void)
{
  sampling_start ();
  sink = unwind_test_garbage_rbp (0.3);
  unsigned n = sampling_stop ();
  static const char *const chain[] = { "unwind_test_garbage_rbp", "main", NULL };
  unsigned in_loop = 0, full = 0, fp_unknown = 0, cfi_unknown = 0;
  for (unsigned i = 0; i < n; i++)
    {
      const Sample *s = &samples[i];
      if (strcmp (frame_name (s->pcs, 0), "unwind_test_garbage_rbp") != 0)
        continue;
      in_loop++;
      full += has_chain (s->pcs, s->n, chain) && s->flags == 0;
      fp_unknown += (s->fp_flags & MG_UNWIND_UNKNOWN_FRAME) != 0 && s->n_fp <= 2;
      /* with frame pointers the CFA is rbp + 16: the return address read is garbage */
      cfi_unknown += (s->flags & MG_UNWIND_UNKNOWN_FRAME) != 0 && s->n <= 2;
    }
  g_test_message ("%u samples, %u in the loop, %u unwound to main, %u stopped, %u frame-pointer walks stopped",
                  n, in_loop, full, cfi_unknown, fp_unknown);
  g_assert_cmpuint (in_loop, >=, 12);
  g_assert_cmpuint (fp_unknown * 10, >=, in_loop * 9);
  if (UNWIND_TEST_FRAME_POINTERS)
    g_assert_cmpuint (cfi_unknown * 10, >=, in_loop * 9);
  else
    g_assert_cmpuint (full * 10, >=, in_loop * 9); /* CFI does not need rbp */
}

/* ---- a corrupt return address ---- */

static uint64_t bogus_return[4];

NOINLINE double
unwind_test_corrupt_return (double seconds)
{
  void **slot = (void **) __builtin_frame_address (0) + 1;
  void *saved = *slot;
  g_assert_true (saved == __builtin_return_address (0));
  *(void *volatile *) slot = &bogus_return; /* in the program, but in its data, not its code */
  double acc = unwind_test_c (seconds);
  *(void *volatile *) slot = (void *) (uintptr_t) 0x10000;
  acc += unwind_test_c (seconds);
  *(void *volatile *) slot = saved;
  return acc;
}

static void
test_corrupt_return (void)
{
  sampling_start ();
  sink = unwind_test_corrupt_return (0.2);
  unsigned n = sampling_stop ();
  unsigned seen = 0, stopped = 0;
  for (unsigned i = 0; i < n; i++)
    {
      const Sample *s = &samples[i];
      for (unsigned k = 0; k < s->n; k++)
        if (strcmp (frame_name (s->pcs, k), "unwind_test_corrupt_return") == 0)
          {
            seen++;
            /* the frame above it is the corrupt address, in no module's code:
             * the walk stops there */
            if (k + 2 >= s->n && (s->flags & MG_UNWIND_UNKNOWN_FRAME) && !has_chain (s->pcs, s->n,
                (const char *const[]){ "unwind_test_corrupt_return", "main", NULL }))
              stopped++;
            break;
          }
    }
  g_test_message ("%u samples, %u in the corrupt frame, %u stopped there", n, seen, stopped);
  g_assert_cmpuint (seen, >=, 15);
  g_assert_cmpuint (stopped, ==, seen);
}

/* ---- a library loaded with dlopen, then unloaded ---- */

static void
test_dlopen (void)
{
  void *lib = dlopen (UNWIND_TEST_HOT_LIB, RTLD_NOW | RTLD_LOCAL);
  g_assert_nonnull (lib);
  double (*spin) (double) = (double (*) (double)) dlsym (lib, "unwind_test_hot_spin");
  g_assert_nonnull (spin);

  /* before a refresh, its code is in no known module: a marked stop */
  sampling_start ();
  sink = spin (0.15);
  unsigned n = sampling_stop ();
  unsigned unknown = 0, in_lib = 0;
  for (unsigned i = 0; i < n; i++)
    if (strcmp (frame_name (samples[i].pcs, 0), "unwind_test_hot_spin") == 0)
      {
        in_lib++;
        unknown += samples[i].n == 1 && samples[i].flags == MG_UNWIND_UNKNOWN_FRAME && samples[i].module == -1;
      }
  g_test_message ("before refresh: %u samples, %u in the library, %u stopped there", n, in_lib, unknown);
  g_assert_cmpuint (in_lib, >=, 5);
  g_assert_cmpuint (unknown, ==, in_lib);

  mg_unwind_refresh ();
  sampling_start ();
  sink = spin (0.3);
  n = sampling_stop ();
  int module = -1;
  unsigned whole = 0;
  in_lib = 0;
  for (unsigned i = 0; i < n; i++)
    {
      const Sample *s = &samples[i];
      if (strcmp (frame_name (s->pcs, 0), "unwind_test_hot_spin") != 0
          && !(s->n > 1 && strcmp (frame_name (s->pcs, 1), "unwind_test_hot_spin") == 0))
        continue;
      in_lib++;
      if (strcmp (frame_name (s->pcs, 0), "unwind_test_hot_spin") == 0)
        module = s->module;
      whole += has_chain (s->pcs, s->n, (const char *const[]){ "unwind_test_hot_spin", "main", NULL })
               && s->flags == 0;
    }
  g_test_message ("after refresh: %u samples, %u in the library, %u unwound to main", n, in_lib, whole);
  g_assert_cmpuint (in_lib, >=, 12);
  g_assert_cmpuint (whole * 10, >=, in_lib * 9);
  g_assert_cmpint (module, >=, 0);
  const struct mg_unwind_module *m = mg_unwind_module ((unsigned) module);
  g_assert_true (g_str_has_suffix (m->path, "libunwind-test-hot.so"));
  g_assert_cmpuint (m->build_id_len, >, 0);
  g_assert_true (mg_unwind_module_loaded ((unsigned) module));
  uint64_t addr = (uint64_t) (uintptr_t) spin;
  g_assert_cmpint (mg_unwind_module_at (addr), ==, module);

  /* dlclose (interposed) publishes a table without it at once; the list
   * keeps it, marked unloaded, for symbolisation */
  g_assert_cmpint (dlclose (lib), ==, 0);
  g_assert_cmpint (mg_unwind_module_at (addr), ==, -1);
  g_assert_false (mg_unwind_module_loaded ((unsigned) module));
  g_assert_true (mg_unwind_module ((unsigned) module) == m);
  g_assert_true (g_str_has_suffix (m->path, "libunwind-test-hot.so"));

  /* loaded again: where it was, its entry back (a plugin loaded and
   * unloaded in a loop does not fill the list); elsewhere, a new entry */
  lib = dlopen (UNWIND_TEST_HOT_LIB, RTLD_NOW | RTLD_LOCAL);
  g_assert_nonnull (lib);
  mg_unwind_refresh ();
  uint64_t addr_again = (uint64_t) (uintptr_t) dlsym (lib, "unwind_test_hot_spin");
  int again = mg_unwind_module_at (addr_again);
  g_assert_cmpint (again, >=, 0);
  g_test_message ("loaded again %s", addr_again == addr ? "at the same place" : "elsewhere");
  if (addr_again == addr)
    g_assert_cmpint (again, ==, module);
  else
    g_assert_cmpint (again, !=, module);
  g_assert_true (mg_unwind_module_loaded ((unsigned) again));
  unsigned listed = mg_unwind_module_count ();
  g_assert_cmpint (dlclose (lib), ==, 0);
  g_assert_false (mg_unwind_module_loaded ((unsigned) again));

  /* a hundred loads and unloads more: the list grows by one at most
   * (the library placed elsewhere once), not by a hundred */
  for (int i = 0; i < 100; i++)
    {
      lib = dlopen (UNWIND_TEST_HOT_LIB, RTLD_NOW | RTLD_LOCAL);
      g_assert_nonnull (lib);
      mg_unwind_refresh ();
      g_assert_cmpint (mg_unwind_module_at ((uint64_t) (uintptr_t) dlsym (lib, "unwind_test_hot_spin")), >=, 0);
      g_assert_cmpint (dlclose (lib), ==, 0);
    }
  g_test_message ("module list: %u before the loop, %u after", listed, mg_unwind_module_count ());
  g_assert_cmpuint (mg_unwind_module_count (), <=, listed + 1);
}

/* glibc unloads some libraries itself, not through dlclose (iconv's
 * gconv modules: 572 unloads in 0.3 s of an iconv_open/iconv_close
 * loop), so the snapshot kept a module for up to a round after it was
 * gone; code mapped in its place meanwhile (a module loaded there, JIT
 * code) was walked with the old module's tables, read where nothing was
 * mapped any more: the program died of SIGSEGV (rc 139 in 1 of 3
 * profiled runs of such a loop). A module loaded after the first
 * snapshot is checked before its tables are read: its .eh_frame_hdr
 * still holds the bytes it held. */
static void
test_unloaded_behind (void)
{
  mg_unwind_refresh ();
  void *lib = dlopen (UNWIND_TEST_HOT_LIB, RTLD_NOW | RTLD_LOCAL);
  g_assert_nonnull (lib);
  uint64_t spin = (uint64_t) (uintptr_t) dlsym (lib, "unwind_test_hot_spin");
  mg_unwind_refresh ();
  g_assert_cmpint (mg_unwind_module_at (spin), >=, 0);

  /* the loader's own unload: the interposed dlclose is not called */
  int (*real_dlclose) (void *) = (int (*) (void *)) dlsym (RTLD_NEXT, "dlclose");
  g_assert_nonnull (real_dlclose);
  g_assert_cmpint (real_dlclose (lib), ==, 0);
  g_assert_cmpint (mg_unwind_module_at (spin), >=, 0); /* the stale snapshot */

  /* code in its place: one page where its code was, its tables gone */
  long page = sysconf (_SC_PAGESIZE);
  void *at = (void *) (uintptr_t) (spin / (uint64_t) page * (uint64_t) page);
  void *code = mmap (at, (size_t) page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
                     -1, 0);
  if (code != at)
    {
      if (code != MAP_FAILED)
        munmap (code, (size_t) page);
      mg_unwind_refresh ();
      g_test_skip ("the unloaded library's code page was mapped again by something else");
      return;
    }
  memset (code, 0xc3, (size_t) page);
  g_assert_cmpint (mprotect (code, (size_t) page, PROT_READ | PROT_EXEC), ==, 0);
  ucontext_t uc;
  memset (&uc, 0, sizeof uc);
  uint64_t stack[8] = { 0 };
  uc.uc_mcontext.gregs[REG_RIP] = (greg_t) spin;
  uc.uc_mcontext.gregs[REG_RSP] = (greg_t) (uintptr_t) stack;
  uint64_t pcs[8];
  unsigned flags;
  unsigned n = mg_unwind_context (&uc, pcs, G_N_ELEMENTS (pcs), &flags);
  g_test_message ("code where the unloaded library was: %u frames, flags %u", n, flags);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmphex (pcs[0], ==, spin);
  g_assert_cmpuint (flags, ==, MG_UNWIND_UNKNOWN_FRAME);
  munmap (code, (size_t) page);
  mg_unwind_refresh ();
  g_assert_cmpint (mg_unwind_module_at (spin), ==, -1);
}

/* ---- a module's unwind tables mapped, and counted, when first seen ---- */

typedef struct
{
  const char *suffix;
  uint64_t hdr, seg_lo, seg_hi;
} EhFind;

static int
find_eh (struct dl_phdr_info *info, size_t size, void *data)
{
  EhFind *f = data;
  if (!g_str_has_suffix (info->dlpi_name, f->suffix))
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME)
      f->hdr = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      uint64_t lo = info->dlpi_addr + ph->p_vaddr;
      if (ph->p_type == PT_LOAD && f->hdr >= lo && f->hdr < lo + ph->p_memsz)
        {
          f->seg_lo = lo;
          f->seg_hi = lo + ph->p_memsz;
        }
    }
  return 1;
}

/* Pages of [lo, hi) mapped in this process, from /proc/self/pagemap. */
static uint64_t
unwind_test_present_pages (uint64_t lo, uint64_t hi, uint64_t page)
{
  int fd = open ("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  uint64_t n = 0;
  for (uint64_t at = lo; at < hi; at += page)
    {
      uint64_t entry = 0;
      g_assert_cmpint (pread (fd, &entry, sizeof entry, (off_t) (at / page * sizeof entry)), ==, sizeof entry);
      n += (entry >> 63) & 1;
    }
  close (fd);
  return n;
}

/* The handlers read a module's .eh_frame_hdr and .eh_frame through its
 * file mapping, where the first read of a page maps up to 64 KiB around it
 * (fault-around): RSS rose by such steps during a run, unaccounted. The
 * unwinder maps them when it first sees the module, outside handlers, and
 * counts what that added, until the module is unloaded. */
static void
test_tables_mapped (void)
{
  void *lib = dlopen (UNWIND_TEST_HOT_LIB, RTLD_NOW | RTLD_LOCAL);
  g_assert_nonnull (lib);
  EhFind f = { "libunwind-test-hot.so", 0, 0, 0 };
  dl_iterate_phdr (find_eh, &f);
  g_assert_cmpuint (f.hdr, !=, 0);
  g_assert_cmpuint (f.seg_hi, >, f.seg_lo);
  uint64_t page = (uint64_t) sysconf (_SC_PAGESIZE);
  uint64_t lo = MAX (f.seg_lo / page * page, f.hdr / (64 * 1024) * (64 * 1024));
  uint64_t hi = (f.seg_hi + page - 1) / page * page;
  uint64_t pages = (hi - lo) / page;
  uint64_t before = unwind_test_present_pages (lo, hi, page);
  uint64_t counted = mg_unwind_tables_resident ();

  mg_unwind_refresh ();
  uint64_t after = unwind_test_present_pages (lo, hi, page);
  uint64_t added = mg_unwind_tables_resident () - counted;
  g_test_message ("tables %#llx-%#llx: %llu pages, %llu mapped before, %llu after; %llu bytes counted",
                  (unsigned long long) lo, (unsigned long long) hi, (unsigned long long) pages,
                  (unsigned long long) before, (unsigned long long) after, (unsigned long long) added);
  g_assert_cmpuint (after, ==, pages);
  g_assert_cmpuint (before, <, pages); /* the loader reads none of them */
  g_assert_cmpuint (added, ==, (after - before) * page);

  /* walks in the library map nothing more there */
  double (*spin) (double) = (double (*) (double)) dlsym (lib, "unwind_test_hot_spin");
  g_assert_nonnull (spin);
  sampling_start ();
  sink = spin (0.1);
  g_assert_cmpuint (sampling_stop (), >=, 3);
  g_assert_cmpuint (mg_unwind_tables_resident () - counted, ==, added);

  /* unloaded: no longer counted */
  g_assert_cmpint (dlclose (lib), ==, 0);
  g_assert_cmpuint (mg_unwind_tables_resident (), ==, counted);
}

/* ---- a sample in a signal handler, through the signal frame ---- */

static volatile int handler_ran;

NOINLINE double
unwind_test_handler_spin (double seconds)
{
  return unwind_test_c (seconds) + sink;
}

NOINLINE void
unwind_test_on_usr1 (int sig)
{
  (void) sig;
  sink = unwind_test_handler_spin (0.3) + 1;
  handler_ran = 1;
}

NOINLINE double
unwind_test_interrupted (void)
{
  double acc = 0;
  while (!handler_ran) /* the timer's signal lands in this loop */
    acc += 1;
  return acc + sink;
}

static void
test_signal_frame (void)
{
  struct sigaction sa = { .sa_handler = unwind_test_on_usr1 };
  sigemptyset (&sa.sa_mask);
  struct sigaction old;
  g_assert_no_errno (sigaction (SIGUSR1, &sa, &old));
  handler_ran = 0;
  timer_t timer;
  struct sigevent ev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGUSR1 };
  ev._sigev_un._tid = (pid_t) syscall (SYS_gettid);
  g_assert_no_errno (timer_create (CLOCK_MONOTONIC, &ev, &timer));
  struct itimerspec once = { .it_value = { 0, 20 * 1000 * 1000 } };
  sampling_start ();
  g_assert_no_errno (timer_settime (timer, 0, &once, NULL));
  sink = unwind_test_interrupted ();
  unsigned n = sampling_stop ();
  timer_delete (timer);
  sigaction (SIGUSR1, &old, NULL);

  static const char *const chain[] = { "unwind_test_handler_spin", "unwind_test_on_usr1",
                                       "unwind_test_interrupted", "main", NULL };
  unsigned in_handler = 0, through = 0;
  for (unsigned i = 0; i < n; i++)
    {
      const Sample *s = &samples[i];
      if (!has_chain (s->pcs, s->n, (const char *const[]){ "unwind_test_handler_spin", NULL }))
        continue;
      in_handler++;
      if (has_chain (s->pcs, s->n, chain) && s->flags == 0)
        through++;
      else
        {
          g_autofree char *d = describe (s->pcs, s->n, s->flags);
          g_test_message ("sample %u: %s", i, d);
        }
    }
  g_test_message ("%u samples, %u in the handler, %u through the signal frame to main", n, in_handler, through);
  g_assert_cmpuint (in_handler, >=, 12);
  g_assert_cmpuint (through * 10, >=, in_handler * 9);
}

/* ---- 16 threads at once ---- */

#define N_THREADS 16
static pthread_barrier_t start_barrier;
static double thread_seconds; /* of CPU time, each */

NOINLINE double
unwind_test_thread_spin (double seconds)
{
  return unwind_test_c (seconds) + sink;
}

NOINLINE void *
unwind_test_thread_main (void *data)
{
  (void) data;
  pthread_barrier_wait (&start_barrier);
  sink = unwind_test_thread_spin (thread_seconds);
  return NULL;
}

static void
test_threads (void)
{
  pthread_t threads[N_THREADS];
  thread_seconds = 0.06;
  pthread_barrier_init (&start_barrier, NULL, N_THREADS + 1);
  for (unsigned i = 0; i < N_THREADS; i++)
    g_assert_cmpint (pthread_create (&threads[i], NULL, unwind_test_thread_main, NULL), ==, 0);
  /* what the capture side does when it sees new threads: their stacks become known */
  mg_unwind_refresh_memory ();
  sampling_start ();
  pthread_barrier_wait (&start_barrier);
  for (unsigned i = 0; i < N_THREADS; i++)
    pthread_join (threads[i], NULL);
  unsigned n = sampling_stop ();
  pthread_barrier_destroy (&start_barrier);

  static const char *const chain[] = { "unwind_test_c", "unwind_test_thread_spin", "unwind_test_thread_main", NULL };
  unsigned in_spin = 0, whole = 0;
  pid_t tids[N_THREADS];
  unsigned n_tids = 0;
  for (unsigned i = 0; i < n; i++)
    {
      const Sample *s = &samples[i];
      if (!has_chain (s->pcs, s->n, (const char *const[]){ "unwind_test_thread_spin", NULL }))
        continue;
      in_spin++;
      if (has_chain (s->pcs, s->n, chain) && s->flags == 0) /* ends at the thread's start */
        whole++;
      unsigned k = 0;
      while (k < n_tids && tids[k] != s->tid)
        k++;
      if (k == n_tids && n_tids < N_THREADS)
        tids[n_tids++] = s->tid;
    }
  g_test_message ("%u samples, %u in the threads' spin, %u whole, %u threads", n, in_spin, whole, n_tids);
  g_assert_cmpuint (in_spin, >=, 40);
  g_assert_cmpuint (whole * 10, >=, in_spin * 9);
  g_assert_cmpuint (n_tids, >=, 8);
}

/* ---- the CFI parser on its own, and on corrupt CFI ---- */

typedef struct
{
  uint64_t hdr, seg_lo, seg_hi, text_lo, text_hi;
} ExeCfi;

static int
find_exe_cfi (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  ExeCfi *c = data;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME)
      c->hdr = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      uint64_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
      if (ph->p_type == PT_LOAD && c->hdr >= lo && c->hdr < hi)
        {
          c->seg_lo = lo;
          c->seg_hi = hi;
        }
      if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X))
        {
          c->text_lo = lo;
          c->text_hi = hi;
        }
    }
  return 1; /* the program is the first object */
}

/* A copy of [from, from + len) whose first (at_start) or last byte borders
 * an inaccessible page, so that any read past that side faults. */
static uint8_t *
guarded_copy (const void *from, size_t len, gboolean at_start, void **map, size_t *map_len)
{
  size_t page = (size_t) sysconf (_SC_PAGESIZE);
  size_t pages = (len + page - 1) / page;
  *map_len = (pages + 2) * page;
  uint8_t *base = mmap (NULL, *map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert_true (base != MAP_FAILED);
  g_assert_no_errno (mprotect (base, page, PROT_NONE));
  g_assert_no_errno (mprotect (base + (pages + 1) * page, page, PROT_NONE));
  uint8_t *copy = at_start ? base + page : base + (pages + 1) * page - len;
  memcpy (copy, from, len);
  *map = base;
  return copy;
}

static void
test_cfi_rules (void)
{
  ExeCfi exe = { 0 };
  dl_iterate_phdr (find_exe_cfi, &exe);
  g_assert_cmpuint (exe.hdr, !=, 0);
  struct mg_eh_module m = { .hdr = exe.hdr, .n_segments = 2, .exec_mask = 2,
                            .segments = { { exe.seg_lo, exe.seg_hi }, { exe.text_lo, exe.text_hi } } };
  struct mg_eh_rules rules;
  uint64_t entry = (uint64_t) (uintptr_t) unwind_test_c;
  g_assert_true (mg_eh_module_is_code (&m, entry));
  /* at a function's first instruction: CFA = rsp + 8, return address at CFA - 8 */
  g_assert_cmpint (mg_eh_frame_rules_at (&m, entry, &rules), ==, MG_EH_FOUND);
  g_assert_false (rules.cfa_is_expr);
  g_assert_cmpuint (rules.cfa_reg, ==, 7);
  g_assert_cmpint (rules.cfa_offset, ==, 8);
  g_assert_cmpuint (rules.ra_column, ==, 16);
  g_assert_true (rules.set & (1u << 16));
  g_assert_cmpuint (rules.regs[16].kind, ==, MG_EH_OFFSET);
  g_assert_cmpint (rules.regs[16].offset, ==, -8);
  /* no FDE below the program's code, nor in its data */
  g_assert_cmpint (mg_eh_frame_rules_at (&m, exe.text_lo - 4096, &rules), ==, MG_EH_NO_FDE);
}

/* Corrupt CFI: random bytes written over the header, the search table, an
 * FDE and its CIE of a copy of the program's .eh_frame_hdr and .eh_frame
 * (pc-relative and header-relative, so the copy reads like the original
 * moved), bordered by inaccessible pages: every lookup must end in one of
 * the three answers without reading outside the copy. */
static void
test_corrupt_cfi (void)
{
  ExeCfi exe = { 0 };
  dl_iterate_phdr (find_exe_cfi, &exe);
  size_t len = exe.seg_hi - exe.hdr;
  uint64_t pcs[] = { (uint64_t) (uintptr_t) unwind_test_c + 4, (uint64_t) (uintptr_t) unwind_test_a + 1,
                     (uint64_t) (uintptr_t) unwind_test_recurse + 9, (uint64_t) (uintptr_t) unwind_test_garbage_rbp + 2 };
  GRand *rand = g_rand_new_with_seed (29);
  unsigned answers[3] = { 0, 0, 0 };
  for (int side = 0; side < 2; side++)
    {
      void *map;
      size_t map_len;
      uint8_t *copy = guarded_copy ((const void *) (uintptr_t) exe.hdr, len, side == 0, &map, &map_len);
      uint64_t delta = (uint64_t) (uintptr_t) copy - exe.hdr;
      struct mg_eh_module m = { .hdr = (uint64_t) (uintptr_t) copy, .n_segments = 1,
                                .segments = { { (uint64_t) (uintptr_t) copy, (uint64_t) (uintptr_t) copy + len } } };
      /* the pristine copy answers as the original does */
      struct mg_eh_rules rules;
      g_assert_cmpint (mg_eh_frame_rules_at (&m, pcs[0] + delta, &rules), ==, MG_EH_FOUND);
      size_t fde = (size_t) (rules.base - copy);
      g_assert_cmpuint (fde, <, len);
      uint32_t cie_off;
      memcpy (&cie_off, copy + fde + 4, 4);
      size_t cie = fde + 4 - cie_off;
      g_assert_cmpuint (cie, <, len);
      const size_t regions[][2] = { { 0, 16 }, { 12, 256 }, { fde, 48 }, { cie, 32 } };
      g_autofree uint8_t *pristine = g_memdup2 (copy, len);
      for (unsigned round = 0; round < 3000; round++)
        {
          memcpy (copy, pristine, len);
          unsigned flips = (unsigned) g_rand_int_range (rand, 1, 9);
          for (unsigned k = 0; k < flips; k++)
            {
              const size_t *r = regions[g_rand_int_range (rand, 0, G_N_ELEMENTS (regions))];
              size_t at = r[0] + (size_t) g_rand_int_range (rand, 0, (gint32) r[1]);
              if (at < len)
                copy[at] = (uint8_t) g_rand_int_range (rand, 0, 256);
            }
          for (unsigned k = 0; k < G_N_ELEMENTS (pcs); k++)
            {
              int rc = mg_eh_frame_rules_at (&m, pcs[k] + delta, &rules);
              g_assert_true (rc == MG_EH_FOUND || rc == MG_EH_NO_FDE || rc == MG_EH_CORRUPT);
              answers[-rc]++;
            }
          uint64_t any = (uint64_t) (uintptr_t) copy + (uint64_t) g_rand_int (rand) - G_MAXINT32;
          int rc = mg_eh_frame_rules_at (&m, any, &rules);
          g_assert_true (rc == MG_EH_FOUND || rc == MG_EH_NO_FDE || rc == MG_EH_CORRUPT);
        }
      munmap (map, map_len);
    }
  g_rand_free (rand);
  g_test_message ("corrupt CFI lookups: %u found, %u without FDE, %u corrupt", answers[0], answers[1], answers[2]);
  /* the mutations reached all three outcomes */
  g_assert_cmpuint (answers[0], >, 0);
  g_assert_cmpuint (answers[1], >, 0);
  g_assert_cmpuint (answers[2], >, 0);
}

/* The PLT's CFA is a DWARF expression (rsp + 8, plus 8 once the entry's
 * push ran: at offset 11 and on in its 16 bytes). A context stopped in
 * the program's first PLT entry, on a stack made here, unwinds to the
 * return address the expression points at. */
static uint64_t
exe_plt_address (void)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents ("/proc/self/exe", &data, &len, NULL));
  const ElfW (Ehdr) *eh = (const ElfW (Ehdr) *) data;
  g_assert_cmpuint (len, >=, eh->e_shoff + (gsize) eh->e_shnum * sizeof (ElfW (Shdr)));
  const ElfW (Shdr) *sh = (const ElfW (Shdr) *) (data + eh->e_shoff);
  const char *names = data + sh[eh->e_shstrndx].sh_offset;
  for (unsigned i = 0; i < eh->e_shnum; i++)
    if (strcmp (names + sh[i].sh_name, ".plt") == 0 && sh[i].sh_size >= 32)
      return sh[i].sh_addr;
  return 0;
}

static void
test_plt (void)
{
  uint64_t plt = exe_plt_address ();
  if (plt == 0)
    {
      g_test_skip ("the program has no lazy-binding .plt");
      return;
    }
  ExeCfi exe = { 0 };
  dl_iterate_phdr (find_exe_cfi, &exe);
  /* the load bias: the program's code segment holds unwind_test_a */
  Dl_info info;
  g_assert_true (dladdr ((void *) unwind_test_a, &info));
  uint64_t entry = (uint64_t) (uintptr_t) info.dli_fbase + plt + 16;
  g_assert_cmpuint (entry, >=, exe.text_lo);
  uint64_t ra = (uint64_t) (uintptr_t) unwind_test_a + 8;
  for (unsigned at = 0; at < 16; at += 11)
    {
      uint64_t stack[8] = { 0x10, 0x10, 0, 0, 0, 0, 0, 0 };
      stack[at >= 11] = ra; /* where the pushed index moves it */
      ucontext_t uc;
      memset (&uc, 0, sizeof uc);
      uc.uc_mcontext.gregs[REG_RIP] = (greg_t) (entry + at);
      uc.uc_mcontext.gregs[REG_RSP] = (greg_t) (uintptr_t) stack;
      uint64_t pcs[4];
      unsigned flags;
      unsigned n = mg_unwind_context (&uc, pcs, G_N_ELEMENTS (pcs), &flags);
      g_test_message ("PLT entry + %u: %u frames, flags %u", at, n, flags);
      g_assert_cmpuint (n, >=, 2);
      g_assert_cmphex (pcs[0], ==, entry + at);
      g_assert_cmphex (pcs[1], ==, ra);
    }
}

/* A thread whose stack was mapped after the last snapshot: its first
 * samples stop at once (the stack is in no known mapping) and ask for new
 * tables; the refreshes a capture side makes each round bring them. */
static void
test_new_stack (void)
{
  mg_unwind_refresh_memory (); /* no stale range (a freed thread stack) can cover the new one */
  size_t size = 1 << 20;
  void *stack = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  g_assert_true (stack != MAP_FAILED);
  pthread_attr_t attr;
  pthread_attr_init (&attr);
  g_assert_cmpint (pthread_attr_setstack (&attr, stack, size), ==, 0);
  pthread_barrier_init (&start_barrier, NULL, 2);
  pthread_t thread;
  thread_seconds = 0.25;
  sampling_start ();
  g_assert_cmpint (pthread_create (&thread, &attr, unwind_test_thread_main, NULL), ==, 0);
  pthread_barrier_wait (&start_barrier);
  while (pthread_tryjoin_np (thread, NULL) != 0)
    {
      g_usleep (20000);
      mg_unwind_refresh ();
    }
  unsigned n = sampling_stop ();
  pthread_barrier_destroy (&start_barrier);
  pthread_attr_destroy (&attr);
  munmap (stack, size);

  static const char *const chain[] = { "unwind_test_thread_spin", "unwind_test_thread_main", NULL };
  unsigned stopped = 0, whole = 0, first_whole = n;
  for (unsigned i = 0; i < n; i++)
    {
      const Sample *s = &samples[i];
      if (s->n == 1 && s->flags == MG_UNWIND_UNKNOWN_FRAME)
        {
          stopped++;
          g_assert_cmpuint (i, <, first_whole); /* only before the refresh */
        }
      else if (has_chain (s->pcs, s->n, chain) && s->flags == 0)
        {
          whole++;
          first_whole = MIN (first_whole, i);
        }
    }
  g_test_message ("%u samples: %u stopped before the refresh, %u whole after it", n, stopped, whole);
  g_assert_cmpuint (stopped, >=, 1);
  g_assert_cmpuint (whole, >=, 8);
}

/* A stale range: a thread's stack mapped where a larger mapping was when
 * the last snapshot was taken, so that the snapshot says readable up to 1
 * MiB above the stack's real end. The thread points rbp into that unmapped
 * MiB: the frame-pointer walk must stop, not read there. */
static void *stale_target;

NOINLINE double
unwind_test_stale_rbp (double seconds)
{
  double end = thread_cpu_now () + seconds;
  while (thread_cpu_now () < end)
    {
      long spins = 1000000;
      __asm__ volatile ("mov %%rbp, %%r11\n\t"
                        "mov %1, %%rbp\n\t"
                        "1: sub $1, %0\n\t"
                        "jnz 1b\n\t"
                        "mov %%r11, %%rbp"
                        : "+r"(spins)
                        : "r"(stale_target)
                        : "r11", "cc", "memory");
    }
  return sink;
}

NOINLINE void *
unwind_test_stale_thread_main (void *data)
{
  (void) data;
  sink = unwind_test_stale_rbp (0.3);
  return NULL;
}

static void
test_stale_stack (void)
{
  size_t size = 1 << 20;
  uint8_t *region = mmap (NULL, 2 * size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert_true (region != MAP_FAILED);
  mg_unwind_refresh_memory (); /* the snapshot holds [region, region + 2 MiB) */
  g_assert_no_errno (munmap (region, 2 * size));
  void *stack = mmap (region, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (stack != region)
    {
      if (stack != MAP_FAILED)
        munmap (stack, size);
      g_test_skip ("the freed range could not be mapped again");
      return;
    }
  stale_target = region + size + size / 2; /* unmapped, inside the stale range */
  pthread_attr_t attr;
  pthread_attr_init (&attr);
  g_assert_cmpint (pthread_attr_setstack (&attr, stack, size), ==, 0);
  pthread_t thread;
  sampling_start ();
  g_assert_cmpint (pthread_create (&thread, &attr, unwind_test_stale_thread_main, NULL), ==, 0);
  pthread_join (thread, NULL);
  unsigned n = sampling_stop ();
  pthread_attr_destroy (&attr);
  munmap (stack, size);

  unsigned in_loop = 0, fp_stopped = 0, whole = 0;
  for (unsigned i = 0; i < n; i++)
    {
      const Sample *s = &samples[i];
      if (strcmp (frame_name (s->pcs, 0), "unwind_test_stale_rbp") != 0)
        continue;
      in_loop++;
      fp_stopped += s->n_fp == 1 && s->fp_flags == MG_UNWIND_UNKNOWN_FRAME;
      whole += has_chain (s->pcs, s->n, (const char *const[]){ "unwind_test_stale_rbp", "unwind_test_stale_thread_main", NULL })
               && s->flags == 0;
    }
  g_test_message ("%u samples, %u in the loop, %u frame-pointer walks stopped, %u unwound whole", n, in_loop,
                  fp_stopped, whole);
  g_assert_cmpuint (in_loop, >=, 8);
  g_assert_cmpuint (fp_stopped * 10, >=, in_loop * 9);
  if (!UNWIND_TEST_FRAME_POINTERS)
    g_assert_cmpuint (whole * 10, >=, in_loop * 9);
}

/* Code in an anonymous mapping (as a JIT makes it): no module holds it,
 * so a walk keeps its pc and stops there, marked unknown. */
static void
test_anonymous_code (void)
{
  /* 1: dec %rdi; jnz 1b; ret */
  static const uint8_t code[] = { 0x48, 0xff, 0xcf, 0x75, 0xfb, 0xc3 };
  size_t page = (size_t) sysconf (_SC_PAGESIZE);
  uint8_t *mem = mmap (NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert_true (mem != MAP_FAILED);
  memcpy (mem, code, sizeof code);
  g_assert_no_errno (mprotect (mem, page, PROT_READ | PROT_EXEC));
  void (*loop) (uint64_t) = (void (*) (uint64_t)) (uintptr_t) mem;
  mg_unwind_refresh_memory (); /* the mapping is known readable: still no module's code */
  sampling_start ();
  double end = thread_cpu_now () + 0.3;
  while (thread_cpu_now () < end)
    loop (50000000);
  unsigned n = sampling_stop ();
  unsigned in_code = 0, stopped = 0;
  for (unsigned i = 0; i < n; i++)
    {
      const Sample *s = &samples[i];
      if (s->pcs[0] < (uint64_t) (uintptr_t) mem || s->pcs[0] >= (uint64_t) (uintptr_t) mem + sizeof code)
        continue;
      in_code++;
      stopped += s->n == 1 && s->flags == MG_UNWIND_UNKNOWN_FRAME && s->module == -1 && s->n_fp == 1
                 && s->fp_flags == MG_UNWIND_UNKNOWN_FRAME;
    }
  munmap (mem, page);
  g_test_message ("%u samples, %u in the anonymous code, %u stopped there", n, in_code, stopped);
  g_assert_cmpuint (in_code, >=, 12);
  g_assert_cmpuint (stopped, ==, in_code);
}

/* ---- another thread's stack, from the frame of a call it waits in ---- */

/* What the MPI wrapper leaves (plugins/mpi-wrap.c): the frame address of
 * the function the thread waits in (which gives it a frame pointer) and
 * its return address. */
static volatile uint64_t wait_frame, wait_site;
static volatile int wait_ready, wait_release;

NOINLINE void
unwind_test_waiting (void)
{
  wait_frame = (uint64_t) (uintptr_t) __builtin_frame_address (0);
  wait_site = (uint64_t) (uintptr_t) __builtin_return_address (0);
  __atomic_store_n (&wait_ready, 1, __ATOMIC_RELEASE);
  while (!__atomic_load_n (&wait_release, __ATOMIC_ACQUIRE))
    {
      struct timespec ms = { 0, 1000000 };
      nanosleep (&ms, NULL);
    }
}

NOINLINE void
unwind_test_wait_mid (void)
{
  unwind_test_waiting ();
  sink++;
}

NOINLINE void *
unwind_test_wait_thread (void *data)
{
  (void) data;
  unwind_test_wait_mid ();
  sink++;
  return NULL;
}

static uint8_t frame_copy[256 * 1024];

/* A thread waits in unwind_test_waiting, called from unwind_test_wait_mid
 * from the thread's start: walked from the waiting function's frame, the
 * stack is the callers' whole chain, up to the thread's start, unmarked;
 * a site that is not the frame's return address walks nothing; so does a
 * frame outside every known stack. */
static void
test_frame (void)
{
  pthread_t thread;
  wait_ready = wait_release = 0;
  g_assert_cmpint (pthread_create (&thread, NULL, unwind_test_wait_thread, NULL), ==, 0);
  while (!__atomic_load_n (&wait_ready, __ATOMIC_ACQUIRE))
    g_usleep (1000);
  mg_unwind_refresh_memory (); /* the new thread's stack is known */
  uint64_t pcs[MG_UNWIND_MAX_FRAMES];
  unsigned flags;
  unsigned n = mg_unwind_frame (wait_frame, wait_site, frame_copy, sizeof frame_copy, pcs,
                                MG_UNWIND_MAX_FRAMES, &flags);
  g_autofree char *text = describe (pcs, n, flags);
  g_test_message ("%s", text);
  g_assert_cmpuint (n, >=, 2);
  g_assert_cmpuint (pcs[0], ==, wait_site);
  g_assert_cmpstr (frame_name (pcs, 0), ==, "unwind_test_wait_mid");
  g_assert_cmpstr (frame_name (pcs, 1), ==, "unwind_test_wait_thread");
  g_assert_cmpuint (flags, ==, 0); /* ends at the thread's start (clone) */

  /* Too small a copy for the thread's frames: a partial stack, marked. */
  unsigned n_small = mg_unwind_frame (wait_frame, wait_site, frame_copy, 24, pcs,
                                      MG_UNWIND_MAX_FRAMES, &flags);
  g_assert_cmpuint (n_small, >=, 1);
  g_assert_cmpuint (n_small, <, n);
  g_assert_cmpuint (flags, ==, MG_UNWIND_UNKNOWN_FRAME);

  g_assert_cmpuint (mg_unwind_frame (wait_frame, wait_site + 1, frame_copy, sizeof frame_copy, pcs,
                                     MG_UNWIND_MAX_FRAMES, &flags), ==, 0);
  g_assert_cmpuint (flags, ==, MG_UNWIND_UNKNOWN_FRAME);
  g_assert_cmpuint (mg_unwind_frame (4096, wait_site, frame_copy, sizeof frame_copy, pcs,
                                     MG_UNWIND_MAX_FRAMES, &flags), ==, 0);
  g_assert_cmpuint (flags, ==, MG_UNWIND_UNKNOWN_FRAME);
  __atomic_store_n (&wait_release, 1, __ATOMIC_RELEASE);
  pthread_join (thread, NULL);
}

/* A frame in memory that was freed after the snapshot said it readable
 * (a thread that ended and whose stack was unmapped): the read fails, no
 * fault, nothing walked. */
static void
test_frame_freed (void)
{
  size_t size = 1 << 16;
  uint64_t *region = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert_true (region != MAP_FAILED);
  uint64_t site = (uint64_t) (uintptr_t) unwind_test_wait_mid + 8;
  region[16] = 0;    /* the caller's rbp */
  region[17] = site; /* the return address */
  mg_unwind_refresh_memory (); /* the snapshot holds the region */
  uint64_t pcs[MG_UNWIND_MAX_FRAMES];
  unsigned flags;
  /* Mapped: the frame is read (its return address is the site; the
   * caller above it is garbage: a partial stack). */
  g_assert_cmpuint (mg_unwind_frame ((uint64_t) (uintptr_t) &region[16], site, frame_copy,
                                     sizeof frame_copy, pcs, MG_UNWIND_MAX_FRAMES, &flags), >=, 1);
  g_assert_no_errno (munmap (region, size));
  g_assert_cmpuint (mg_unwind_frame ((uint64_t) (uintptr_t) &region[16], site, frame_copy,
                                     sizeof frame_copy, pcs, MG_UNWIND_MAX_FRAMES, &flags), ==, 0);
  g_assert_cmpuint (flags, ==, MG_UNWIND_UNKNOWN_FRAME);
}

/* The sampler's side of an MPI wait against a thread that makes calls
 * back to back (format/mg-mpi-threads.h's sequence lock, as
 * sampler/mg-stacks.c uses it): calls from two chains, most of them over
 * before a walk ends, the stack scribbled between them, one in 511 waiting
 * a millisecond. Every walk kept (the same call in flight
 * before and after it) is its call's chain exactly; the others are
 * discarded. */
static struct metrograph_mpi_threads race_table = { .version = MG_MPI_THREADS_VERSION };
static volatile int race_stop;
static unsigned race_calls;

NOINLINE void
unwind_test_race_call (uint64_t function)
{
  mg_mpi_threads_enter (&race_table, 0, function, (uint64_t) (uintptr_t) __builtin_return_address (0),
                        (uint64_t) (uintptr_t) __builtin_frame_address (0));
  if (++race_calls % 511 == 0)
    {
      struct timespec ms = { 0, 1000000 };
      nanosleep (&ms, NULL);
    }
  mg_mpi_threads_step (&race_table, 0, -1);
}

NOINLINE void
unwind_test_race_a (void)
{
  unwind_test_race_call (1);
  sink++;
}

NOINLINE void
unwind_test_race_b2 (void)
{
  unwind_test_race_call (2);
  sink++;
}

NOINLINE void
unwind_test_race_b (void)
{
  unwind_test_race_b2 ();
  sink++;
}

/* Overwrites the stack where the calls' frames were. */
NOINLINE void
unwind_test_race_scribble (void)
{
  volatile uint64_t junk[64];
  for (unsigned i = 0; i < 64; i++)
    junk[i] = 0x5a5a5a5a5a5a5a5aull + i;
  sink += (double) junk[race_calls % 64];
}

NOINLINE void *
unwind_test_race_thread (void *data)
{
  (void) data;
  g_assert_cmpint (mg_mpi_threads_claim (&race_table, (pid_t) syscall (SYS_gettid)), ==, 0);
  while (!__atomic_load_n (&race_stop, __ATOMIC_RELAXED))
    {
      unwind_test_race_a ();
      unwind_test_race_scribble ();
      unwind_test_race_b ();
      unwind_test_race_scribble ();
    }
  return NULL;
}

static void
test_frame_race (void)
{
  static const char *const chain_a[] = { "unwind_test_race_a", "unwind_test_race_thread", NULL };
  static const char *const chain_b[] = { "unwind_test_race_b2", "unwind_test_race_b",
                                         "unwind_test_race_thread", NULL };
  uint64_t first[3][MG_UNWIND_MAX_FRAMES];
  unsigned n_first[3] = { 0, 0, 0 };
  unsigned kept = 0, discarded = 0;
  pthread_t thread;
  race_stop = 0;
  g_assert_cmpint (pthread_create (&thread, NULL, unwind_test_race_thread, NULL), ==, 0);
  while (__atomic_load_n (&race_table.tid[0], __ATOMIC_ACQUIRE) == 0)
    g_usleep (1000);
  mg_unwind_refresh_memory ();
  gint64 end = g_get_monotonic_time () + 700000;
  while (g_get_monotonic_time () < end)
    {
      struct mg_mpi_call call;
      if (!mg_mpi_threads_call_begin (&race_table, 0, &call))
        continue;
      uint64_t pcs[MG_UNWIND_MAX_FRAMES];
      unsigned flags;
      unsigned n = mg_unwind_frame (call.frame, call.site, frame_copy, sizeof frame_copy, pcs,
                                    MG_UNWIND_MAX_FRAMES, &flags);
      if (!mg_mpi_threads_call_still (&race_table, 0, &call))
        {
          discarded++;
          continue;
        }
      kept++;
      g_assert_true (call.function == 1 || call.function == 2);
      g_assert_cmpuint (flags, ==, 0);
      unsigned f = (unsigned) call.function;
      if (n_first[f] == 0)
        {
          /* The first walk of each chain, by name; the others equal it. */
          g_autofree char *text = describe (pcs, n, flags);
          g_test_message ("chain %u: %s", f, text);
          g_assert_true (has_chain (pcs, n, f == 1 ? chain_a : chain_b));
          g_assert_cmpstr (frame_name (pcs, 0), ==, f == 1 ? "unwind_test_race_a" : "unwind_test_race_b2");
          memcpy (first[f], pcs, n * sizeof *pcs);
          n_first[f] = n;
        }
      else
        {
          g_assert_cmpuint (n, ==, n_first[f]);
          g_assert_cmpmem (pcs, n * sizeof *pcs, first[f], n * sizeof *pcs);
        }
    }
  __atomic_store_n (&race_stop, 1, __ATOMIC_RELAXED);
  pthread_join (thread, NULL);
  g_test_message ("%u calls, %u walks kept, %u discarded (the call ended meanwhile)", race_calls,
                  kept, discarded);
  /* The millisecond waits (one a 511 calls, of either chain in turn)
   * are walked whole. Walks discarded depend on the two threads running at
   * once: 200 and 231 in 0.7 s on 2 loaded cores. */
  g_assert_cmpuint (n_first[1], >, 0);
  g_assert_cmpuint (n_first[2], >, 0);
  g_assert_cmpuint (kept, >=, 10);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  struct sigaction sa = { .sa_sigaction = on_prof, .sa_flags = SA_SIGINFO | SA_RESTART };
  sigfillset (&sa.sa_mask);
  g_assert_no_errno (sigaction (SIGPROF, &sa, NULL));
  g_assert_no_errno (mg_unwind_prepare ());
  g_assert_cmpuint (mg_unwind_module_count (), >=, 3);

  g_test_add_func ("/unwind/cfi-rules", test_cfi_rules);
  g_test_add_func ("/unwind/corrupt-cfi", test_corrupt_cfi);
  g_test_add_func ("/unwind/plt", test_plt);
  g_test_add_func ("/unwind/chain", test_chain);
  g_test_add_func ("/unwind/truncated", test_truncated);
  g_test_add_func ("/unwind/garbage-rbp", test_garbage_rbp);
  g_test_add_func ("/unwind/corrupt-return", test_corrupt_return);
  g_test_add_func ("/unwind/dlopen", test_dlopen);
  g_test_add_func ("/unwind/unloaded-behind", test_unloaded_behind);
  g_test_add_func ("/unwind/tables-mapped", test_tables_mapped);
  g_test_add_func ("/unwind/anonymous-code", test_anonymous_code);
  g_test_add_func ("/unwind/signal-frame", test_signal_frame);
  g_test_add_func ("/unwind/threads", test_threads);
  g_test_add_func ("/unwind/new-stack", test_new_stack);
  g_test_add_func ("/unwind/stale-stack", test_stale_stack);
  g_test_add_func ("/unwind/frame", test_frame);
  g_test_add_func ("/unwind/frame-freed", test_frame_freed);
  g_test_add_func ("/unwind/frame-race", test_frame_race);
  int rc = g_test_run ();
  return rc;
}
