/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Wrapped destructors of Score-P plugins' statics (mg-scorep-statics.h). */
#include "mg-scorep-statics.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sys/mman.h>

#include "mg-sampler-state.h"

#define MG_EXPORT __attribute__((visibility("default")))

/* Destructors wrapped in the static table; more go to mapped pages. */
enum { MAX_WRAPPED = 256, MAX_LIBRARIES = 64, OVERFLOW_BYTES = 4096 };

typedef void (*Destructor) (void *);
typedef int (*CxaAtexitFn) (Destructor, void *, void *);

typedef struct {
  Destructor fn;
  void *arg;
  int source;
} Wrapped;

static Wrapped wrapped[MAX_WRAPPED];
static int n_wrapped;
static struct {
  const void *base;
  int source;
} libraries[MAX_LIBRARIES];
static int n_libraries;
static int loading = -1;
static pthread_t loading_thread;
static CxaAtexitFn real_cxa_atexit;
/* The page the entries past the table go to (never unmapped: they are
 * called at exit). */
static pthread_mutex_t overflow_lock = PTHREAD_MUTEX_INITIALIZER;
static Wrapped *overflow;
static size_t n_overflow;

void
mg_scorep_statics_loading (int source)
{
  loading_thread = pthread_self ();
  __atomic_store_n (&loading, source, __ATOMIC_RELEASE);
}

void
mg_scorep_statics_library (int source, const void *address)
{
  Dl_info info;
  if (n_libraries < MAX_LIBRARIES && dladdr (address, &info) && info.dli_fbase)
    {
      libraries[n_libraries].base = info.dli_fbase;
      libraries[n_libraries].source = source;
      __atomic_store_n (&n_libraries, n_libraries + 1, __ATOMIC_RELEASE);
    }
}

/* The source whose destructor this is, or -1. */
static int
owner (void *dso)
{
  int source = __atomic_load_n (&loading, __ATOMIC_ACQUIRE);
  if (source >= 0 && pthread_equal (pthread_self (), loading_thread))
    return source;
  int n = __atomic_load_n (&n_libraries, __ATOMIC_ACQUIRE);
  Dl_info info;
  if (n == 0 || dso == NULL || !dladdr (dso, &info))
    return -1;
  for (int i = 0; i < n; i++)
    if (libraries[i].base == info.dli_fbase)
      return libraries[i].source;
  return -1;
}

static MgScorepStaticsHook before_destructor;

void
mg_scorep_statics_set_hook (MgScorepStaticsHook hook)
{
  before_destructor = hook;
}

static void
run_wrapped (void *data)
{
  Wrapped *w = data;
  if (before_destructor != NULL)
    before_destructor (w->source);
  w->fn (w->arg);
}

/* A free entry: the table's, else one on a mapped page (the sampler does
 * not allocate); NULL when no page can be had. */
static Wrapped *
new_entry (void)
{
  int k = __atomic_fetch_add (&n_wrapped, 1, __ATOMIC_ACQ_REL);
  if (k < MAX_WRAPPED)
    return &wrapped[k];
  Wrapped *entry = NULL;
  pthread_mutex_lock (&overflow_lock);
  if (overflow == NULL || n_overflow == OVERFLOW_BYTES / sizeof *overflow)
    {
      void *page = mmap (NULL, OVERFLOW_BYTES, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (page != MAP_FAILED)
        {
          overflow = page;
          n_overflow = 0;
        }
    }
  if (overflow != NULL && n_overflow < OVERFLOW_BYTES / sizeof *overflow)
    entry = &overflow[n_overflow++];
  pthread_mutex_unlock (&overflow_lock);
  return entry;
}

/* libc's, interposed (the sampler is preloaded): every library's static
 * destructors and atexit handlers are registered through it. */
MG_EXPORT int __cxa_atexit (Destructor fn, void *arg, void *dso);

int
__cxa_atexit (Destructor fn, void *arg, void *dso)
{
  if (!real_cxa_atexit)
    *(void **) &real_cxa_atexit = dlsym (RTLD_NEXT, "__cxa_atexit");
  int source = owner (dso);
  Wrapped *entry = source >= 0 ? new_entry () : NULL;
  if (entry != NULL)
    {
      *entry = (Wrapped) { fn, arg, source };
      return real_cxa_atexit (run_wrapped, entry, dso);
    }
  return real_cxa_atexit (fn, arg, dso);
}
