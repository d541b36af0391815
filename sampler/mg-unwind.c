/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The unwinder's tables (sampler/mg-unwind.h): the module list kept for
 * symbolisation, and the snapshot a signal handler reads, prepared here
 * outside handlers and published double-buffered.
 *
 * Publication: two snapshot slots; `current` names the published one and
 * `readers[slot]` counts the handlers reading a slot. A handler increments
 * its slot's count and checks `current` again (else it retries), so that a
 * writer, which only fills the unpublished slot once its count is zero,
 * never changes a table under a reader. A dlclose in flight raises
 * `unloading` and waits for every reader first: from then until the new
 * snapshot is out, handlers read no module memory at all. */

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "mg-own-memory.h"
#include "mg-unwind-internal.h"
#include "mg-unwind.h"

#define MAPS_BUF_SIZE (64 * 1024)

static struct mg_unwind_module *modules; /* append-only, MG_UNWIND_MAX_MODULES */
#define LIST_SIZE (MG_UNWIND_MAX_MODULES * (sizeof *modules + sizeof (uint64_t) + 2))
static uint8_t *module_loaded;            /* 1 while the module is mapped */
static uint8_t *module_seen;              /* scratch of one rebuild */
static uint64_t *module_tables;           /* bytes its unwind tables added to the RSS */
static unsigned n_modules;
static uint32_t generation;

static struct mg_unwind_snapshot *slots[2];
static char *maps_buf;
static int current = -1;
static int readers[2];
static int unloading;
static int stack_miss;
/* Whether a handler may probe a module (entry_present): not in a process
 * under a seccomp filter, which could kill it for process_vm_readv. */
static int probes_allowed;
static unsigned long long seen_adds, seen_subs;
static int have_counts;
static pthread_mutex_t writer_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

/* ---- the handler's side ---- */

const struct mg_unwind_snapshot *
mg_unwind_snapshot_acquire (int *slot)
{
  for (;;)
    {
      int c = __atomic_load_n (&current, __ATOMIC_SEQ_CST);
      if (c < 0)
        return NULL;
      __atomic_fetch_add (&readers[c], 1, __ATOMIC_SEQ_CST);
      if (__atomic_load_n (&current, __ATOMIC_SEQ_CST) == c)
        {
          /* glibc's own unloads (not through dlclose) are seen by its
           * debugger interface's state while they run. */
          if (__atomic_load_n (&unloading, __ATOMIC_SEQ_CST) == 0 && _r_debug.r_state != RT_DELETE)
            {
              *slot = c;
              return slots[c];
            }
          __atomic_fetch_sub (&readers[c], 1, __ATOMIC_SEQ_CST);
          return NULL;
        }
      __atomic_fetch_sub (&readers[c], 1, __ATOMIC_SEQ_CST);
    }
}

void
mg_unwind_snapshot_release (int slot)
{
  __atomic_fetch_sub (&readers[slot], 1, __ATOMIC_SEQ_CST);
}

/* Whether e's memory is still the module's: a module glibc may unload by
 * itself is probed with a read that cannot fault (process_vm_readv on
 * this process); a failed or different read, or an unload under way,
 * means it is gone or going, and asks for a new snapshot. What is left:
 * an unload that starts after the probe, during the few microseconds of
 * this lookup. */
static bool
entry_present (const struct mg_unwind_entry *e)
{
  if (!__atomic_load_n (&probes_allowed, __ATOMIC_RELAXED))
    return true; /* as before: see rebuild */
  uint8_t now[MG_UNWIND_PROBE];
  struct iovec local = { now, sizeof now };
  struct iovec remote = { (void *) (uintptr_t) e->probe_at, sizeof now };
  ssize_t got = syscall (SYS_process_vm_readv, (long) getpid (), &local, 1L, &remote, 1L, 0L);
  if (got < 0 && (errno == ENOSYS || errno == EPERM))
    return true; /* cannot be told here (a seccomp filter): as before */
  bool same = got == (ssize_t) sizeof now;
  /* A loop, not memcmp: the handler calls nothing a sanitizer intercepts
   * (docs/sampler.md, "The signal"). */
  for (unsigned i = 0; same && i < sizeof now; i++)
    same = now[i] == e->probe[i];
  if (same && _r_debug.r_state == RT_CONSISTENT)
    return true;
  mg_unwind_note_stack_miss ();
  return false;
}

const struct mg_unwind_entry *
mg_unwind_snapshot_entry (const struct mg_unwind_snapshot *s, uint64_t pc)
{
  const struct mg_unwind_entry *e = mg_unwind_snapshot_lookup (s, pc);
  return e == NULL || !e->check || entry_present (e) ? e : NULL;
}

const struct mg_unwind_entry *
mg_unwind_snapshot_lookup (const struct mg_unwind_snapshot *s, uint64_t pc)
{
  uint32_t lo = 0, hi = s->n_entries;
  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;
      if (s->entries[mid].start <= pc)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || pc >= s->entries[lo - 1].end)
    return NULL;
  return &s->entries[lo - 1];
}

/* The last range a handler found: samples mostly come from the same few
 * stacks, and the hint saves the binary search's cold cache lines. */
static uint32_t range_hint;

const struct mg_unwind_range *
mg_unwind_snapshot_range (const struct mg_unwind_snapshot *s, uint64_t addr)
{
  uint32_t hint = __atomic_load_n (&range_hint, __ATOMIC_RELAXED);
  if (hint < s->n_ranges && addr >= s->ranges[hint].lo && addr < s->ranges[hint].hi)
    return &s->ranges[hint];
  uint32_t lo = 0, hi = s->n_ranges;
  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;
      if (s->ranges[mid].lo <= addr)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || addr >= s->ranges[lo - 1].hi)
    return NULL;
  __atomic_store_n (&range_hint, lo - 1, __ATOMIC_RELAXED);
  return &s->ranges[lo - 1];
}

void
mg_unwind_note_stack_miss (void)
{
  __atomic_store_n (&stack_miss, 1, __ATOMIC_RELAXED);
}

int
mg_unwind_module_at (uint64_t pc)
{
  int slot;
  const struct mg_unwind_snapshot *s = mg_unwind_snapshot_acquire (&slot);
  if (s == NULL)
    return -1;
  const struct mg_unwind_entry *e = mg_unwind_snapshot_lookup (s, pc);
  int index = e ? e->module : -1;
  mg_unwind_snapshot_release (slot);
  return index;
}

/* ---- building a snapshot (outside handlers) ---- */

static void
read_build_id (const struct dl_phdr_info *info, struct mg_unwind_module *m)
{
  m->build_id_len = 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_NOTE)
        continue;
      const char *p = (const char *) (info->dlpi_addr + ph->p_vaddr);
      const char *end = p + ph->p_memsz;
      while (p + sizeof (ElfW (Nhdr)) <= end)
        {
          const ElfW (Nhdr) *n = (const ElfW (Nhdr) *) p;
          const char *name = p + sizeof *n;
          const char *desc = name + ((n->n_namesz + 3) & ~3u);
          if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && memcmp (name, "GNU", 4) == 0
              && n->n_descsz <= MG_UNWIND_BUILD_ID_MAX && desc + n->n_descsz <= end)
            {
              memcpy (m->build_id, desc, n->n_descsz);
              m->build_id_len = (uint8_t) n->n_descsz;
              return;
            }
          p = desc + ((n->n_descsz + 3) & ~3u);
        }
    }
}

static void
module_path (const struct dl_phdr_info *info, char *path)
{
  const char *name = info->dlpi_name;
  if (name == NULL || name[0] == '\0')
    {
      ssize_t n = readlink ("/proc/self/exe", path, MG_UNWIND_PATH_MAX - 1);
      path[n > 0 ? n : 0] = '\0';
    }
  else
    {
      strncpy (path, name, MG_UNWIND_PATH_MAX - 1);
      path[MG_UNWIND_PATH_MAX - 1] = '\0';
    }
}

/* The module list's index of a loaded module, appended when new; -1 when
 * the list is full. A library loaded again where it was before, the same
 * file (same build-id), takes its unloaded entry back: each snapshot that
 * saw a plugin loaded again appended it (100 loads and unloads, 100
 * entries), so a program that loads and unloads one in a loop filled the
 * list (1024), after which its loads were in no snapshot, and the record's
 * module table (256) sooner. */
static int
module_index (const struct dl_phdr_info *info, uint64_t lo, uint64_t hi, bool *added)
{
  *added = false;
  char path[MG_UNWIND_PATH_MAX];
  module_path (info, path);
  struct mg_unwind_module id;
  bool have_id = false;
  for (unsigned i = 0; i < n_modules; i++)
    {
      if (modules[i].start != lo || modules[i].end != hi || modules[i].load_bias != info->dlpi_addr
          || strcmp (modules[i].path, path) != 0)
        continue;
      if (module_loaded[i])
        return (int) i;
      if (!have_id)
        {
          read_build_id (info, &id);
          have_id = true;
        }
      if (id.build_id_len == modules[i].build_id_len
          && memcmp (id.build_id, modules[i].build_id, id.build_id_len) == 0)
        {
          modules[i].generation = generation; /* loaded late: probed (set_probe) */
          module_loaded[i] = 1;
          module_tables[i] = 0;
          *added = true;
          return (int) i;
        }
    }
  if (n_modules == MG_UNWIND_MAX_MODULES)
    return -1;
  struct mg_unwind_module *m = &modules[n_modules];
  m->start = lo;
  m->end = hi;
  m->load_bias = info->dlpi_addr;
  m->generation = generation;
  read_build_id (info, m);
  memcpy (m->path, path, sizeof m->path);
  module_loaded[n_modules] = 1;
  module_tables[n_modules] = 0;
  __atomic_store_n (&n_modules, n_modules + 1, __ATOMIC_RELEASE);
  *added = true;
  return (int) n_modules - 1;
}

/* A module first seen after the first snapshot may be one that glibc
 * unloads by itself (mg_unwind_entry.check): what its probe should read.
 * The program and the libraries it started with are never unloaded. */
static void
set_probe (struct mg_unwind_entry *e)
{
  e->check = 0;
  if (modules[e->module].generation <= 1)
    return;
  uint64_t at = e->eh.hdr;
  for (uint32_t i = 0; at == 0 && i < e->eh.n_segments; i++)
    if (e->eh.exec_mask & (1u << i))
      at = e->eh.segments[i].lo;
  if (at == 0 || mg_eh_module_span (&e->eh, at, MG_UNWIND_PROBE) == NULL)
    return;
  memcpy (e->probe, (const void *) (uintptr_t) at, MG_UNWIND_PROBE);
  e->probe_at = at;
  e->check = 1;
}

static int
add_object (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  struct mg_unwind_snapshot *s = data;
  struct mg_unwind_entry e = { .start = UINT64_MAX };
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      uint64_t lo = info->dlpi_addr + ph->p_vaddr;
      if (ph->p_type == PT_GNU_EH_FRAME)
        e.eh.hdr = lo;
      if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
        continue;
      e.start = lo < e.start ? lo : e.start;
      e.end = lo + ph->p_memsz > e.end ? lo + ph->p_memsz : e.end;
      if ((ph->p_flags & PF_R) && e.eh.n_segments < MG_EH_MAX_SEGMENTS)
        {
          if (ph->p_flags & PF_X)
            e.eh.exec_mask |= 1u << e.eh.n_segments;
          e.eh.segments[e.eh.n_segments++] = (struct mg_eh_span){ lo, lo + ph->p_memsz };
        }
    }
  if (e.start >= e.end)
    return 0;
  if (e.eh.hdr && mg_eh_module_span (&e.eh, e.eh.hdr, 4) == NULL)
    e.eh.hdr = 0; /* a header outside the readable segments is never read */
  bool added;
  e.module = module_index (info, e.start, e.end, &added);
  if (e.module < 0 || s->n_entries == MG_UNWIND_MAX_MODULES)
    return 0;
  if (added)
    __atomic_store_n (&module_tables[e.module], mg_unwind_tables_map (&e.eh), __ATOMIC_RELAXED);
  set_probe (&e); /* after the tables are mapped: it reads one of their pages */
  module_seen[e.module] = 1;
  /* insertion by start: the loader's order is by load, not by address */
  uint32_t at = s->n_entries;
  while (at > 0 && s->entries[at - 1].start > e.start)
    {
      s->entries[at] = s->entries[at - 1];
      at--;
    }
  s->entries[at] = e;
  s->n_entries++;
  return 0;
}

static void
wait_readers (int slot)
{
  /* handlers never block, so this is short; the bound only guards
   * against a handler that was itself interrupted by our caller */
  for (unsigned spins = 0; __atomic_load_n (&readers[slot], __ATOMIC_SEQ_CST) != 0 && spins < 1000000; spins++)
    sched_yield ();
}

/* keep_ranges: the published snapshot's mappings are kept for now, not
 * reread (after a dlclose, on the program's thread: reading
 * /proc/self/maps was most of what each dlclose cost it); the next
 * round rereads them. */
static void
rebuild (bool keep_ranges)
{
  int cur = __atomic_load_n (&current, __ATOMIC_SEQ_CST);
  int w = cur < 0 ? 0 : 1 - cur;
  wait_readers (w);
  struct mg_unwind_snapshot *s = slots[w];
  generation++;
  s->generation = generation; /* counted from 1 */
  /* The sampler thread's mode: a filter installed for all threads (or
   * before the exec) is seen here; one a thread installed for itself
   * alone is not. */
  __atomic_store_n (&probes_allowed, prctl (PR_GET_SECCOMP, 0L, 0L, 0L, 0L) == 0, __ATOMIC_RELAXED);
  s->n_entries = 0;
  memset (module_seen, 0, MG_UNWIND_MAX_MODULES);
  dl_iterate_phdr (add_object, s);
  for (unsigned i = 0; i < n_modules; i++)
    if (!module_seen[i])
      module_loaded[i] = 0;
  if (keep_ranges && cur >= 0 && !__atomic_load_n (&stack_miss, __ATOMIC_RELAXED))
    {
      s->n_ranges = slots[cur]->n_ranges;
      memcpy (s->ranges, slots[cur]->ranges, s->n_ranges * sizeof s->ranges[0]);
      /* the unloaded module's mappings are still ranges there: the next
       * round rereads them, on the sampler thread */
      __atomic_store_n (&stack_miss, 1, __ATOMIC_RELAXED);
    }
  else
    {
      __atomic_store_n (&stack_miss, 0, __ATOMIC_RELAXED);
      s->n_ranges = mg_unwind_maps_read (s->ranges, MG_UNWIND_MAX_RANGES, maps_buf, MAPS_BUF_SIZE);
    }
  __atomic_store_n (&current, w, __ATOMIC_SEQ_CST);
}

static int
read_counts (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) info;
  unsigned long long *counts = data;
  if (size >= offsetof (struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
    {
      counts[0] = info->dlpi_adds;
      counts[1] = info->dlpi_subs;
      counts[2] = 1;
    }
  return 1; /* the first object is enough */
}

/* Rebuilds when forced, when a handler missed a stack, or when the loader's
 * load/unload counters moved (or cannot be read). */
static void
refresh (int force, bool keep_ranges)
{
  unsigned long long counts[3] = { 0, 0, 0 };
  dl_iterate_phdr (read_counts, counts);
  int moved = !counts[2] || !have_counts || counts[0] != seen_adds || counts[1] != seen_subs;
  if (!force && !moved && !__atomic_load_n (&stack_miss, __ATOMIC_RELAXED))
    return;
  seen_adds = counts[0];
  seen_subs = counts[1];
  have_counts = (int) counts[2];
  rebuild (keep_ranges);
}

static void
lock_writer (void)
{
  pthread_mutex_lock (&writer_lock);
}

static void
unlock_writer (void)
{
  pthread_mutex_unlock (&writer_lock);
}

/* The fork child's handler: the lock was taken by the parent's forking
 * thread, whose id the child's thread does not have, so a recursive
 * mutex's unlock fails there (EPERM) and the child's next fork waited on
 * it for ever (a shell's subshell running a pipeline). The child is alone:
 * the lock starts afresh. */
static void
reset_writer_in_child (void)
{
  static const pthread_mutex_t fresh = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
  memcpy (&writer_lock, &fresh, sizeof writer_lock);
}

void
mg_unwind_unload_begin (void)
{
  lock_writer ();
  if (slots[0] == NULL)
    return;
  __atomic_fetch_add (&unloading, 1, __ATOMIC_SEQ_CST);
  wait_readers (0);
  wait_readers (1);
}

void
mg_unwind_unload_end (void)
{
  if (slots[0] != NULL)
    {
      refresh (0, true);
      __atomic_fetch_sub (&unloading, 1, __ATOMIC_SEQ_CST);
    }
  unlock_writer ();
}

static void *
map_zeroed (size_t size)
{
  void *p = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  if (mg_own_memory_add != NULL)
    mg_own_memory_add (p, size);
  return p;
}

int
mg_unwind_prepare (void)
{
  static int atfork_done;
  lock_writer ();
  if (slots[0] == NULL)
    {
      void *list = map_zeroed (LIST_SIZE);
      void *a = map_zeroed (sizeof *slots[0]);
      void *b = map_zeroed (sizeof *slots[1]);
      void *buf = map_zeroed (MAPS_BUF_SIZE);
      if (list == NULL || a == NULL || b == NULL || buf == NULL)
        {
          int saved = errno;
          if (list)
            munmap (list, LIST_SIZE);
          if (a)
            munmap (a, sizeof *slots[0]);
          if (b)
            munmap (b, sizeof *slots[1]);
          if (buf)
            munmap (buf, MAPS_BUF_SIZE);
          unlock_writer ();
          errno = saved;
          return -1;
        }
      if (mg_own_memory_add != NULL)
        {
          const void *cache;
          size_t cache_size;
          mg_unwind_cache_extent (&cache, &cache_size);
          mg_own_memory_add (cache, cache_size);
        }
      modules = list;
      module_tables = (uint64_t *) (modules + MG_UNWIND_MAX_MODULES);
      module_loaded = (uint8_t *) (module_tables + MG_UNWIND_MAX_MODULES);
      module_seen = module_loaded + MG_UNWIND_MAX_MODULES;
      maps_buf = buf;
      slots[1] = b;
      slots[0] = a;
    }
  if (!atfork_done)
    {
      /* a fork while another thread refreshes must not leave the child's
       * lock taken */
      atfork_done = 1;
      pthread_atfork (lock_writer, unlock_writer, reset_writer_in_child);
    }
  refresh (1, false);
  unlock_writer ();
  return 0;
}

void
mg_unwind_refresh (void)
{
  lock_writer ();
  if (slots[0] != NULL)
    refresh (0, false);
  unlock_writer ();
}

void
mg_unwind_refresh_memory (void)
{
  lock_writer ();
  if (slots[0] != NULL)
    refresh (1, false);
  unlock_writer ();
}

unsigned
mg_unwind_module_count (void)
{
  return __atomic_load_n (&n_modules, __ATOMIC_ACQUIRE);
}

const struct mg_unwind_module *
mg_unwind_module (unsigned index)
{
  return index < mg_unwind_module_count () ? &modules[index] : NULL;
}

bool
mg_unwind_module_loaded (unsigned index)
{
  return index < mg_unwind_module_count () && __atomic_load_n (&module_loaded[index], __ATOMIC_RELAXED);
}

uint64_t
mg_unwind_tables_resident (void)
{
  uint64_t bytes = 0;
  unsigned n = __atomic_load_n (&n_modules, __ATOMIC_ACQUIRE);
  for (unsigned i = 0; i < n; i++)
    if (__atomic_load_n (&module_loaded[i], __ATOMIC_RELAXED))
      bytes += __atomic_load_n (&module_tables[i], __ATOMIC_RELAXED);
  return bytes;
}
