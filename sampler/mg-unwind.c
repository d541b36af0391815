/* SPDX-License-Identifier: GPL-3.0-or-later */
/* First cut of sampler/mg-unwind.h: the interrupted instruction only, and
 * the module snapshot. The .eh_frame walk replaces the context part. */

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "mg-unwind.h"

#define MAX_MODULES 1024

static struct mg_unwind_module *modules; /* mapped once, MAX_MODULES */
static unsigned n_modules;
static uint32_t generation;

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

static int
add_module (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  (void) data;
  uint64_t lo = UINT64_MAX, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_LOAD)
      {
        uint64_t s = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
        lo = s < lo ? s : lo;
        hi = s + info->dlpi_phdr[i].p_memsz > hi ? s + info->dlpi_phdr[i].p_memsz : hi;
      }
  if (lo >= hi)
    return 0;
  for (unsigned i = 0; i < n_modules; i++)
    if (modules[i].start == lo && modules[i].load_bias == info->dlpi_addr)
      return 0;
  if (n_modules == MAX_MODULES)
    return 0;
  struct mg_unwind_module *m = &modules[n_modules];
  m->start = lo;
  m->end = hi;
  m->load_bias = info->dlpi_addr;
  m->generation = generation;
  read_build_id (info, m);
  const char *name = info->dlpi_name;
  if (name == NULL || name[0] == '\0')
    {
      ssize_t n = readlink ("/proc/self/exe", m->path, sizeof m->path - 1);
      m->path[n > 0 ? n : 0] = '\0';
    }
  else
    {
      strncpy (m->path, name, sizeof m->path - 1);
      m->path[sizeof m->path - 1] = '\0';
    }
  __atomic_store_n (&n_modules, n_modules + 1, __ATOMIC_RELEASE);
  return 0;
}

int
mg_unwind_prepare (void)
{
  if (modules == NULL)
    {
      void *p = mmap (NULL, MAX_MODULES * sizeof *modules, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED)
        return -1;
      modules = p;
    }
  mg_unwind_refresh ();
  return 0;
}

void
mg_unwind_refresh (void)
{
  if (modules == NULL)
    return;
  generation++;
  dl_iterate_phdr (add_module, NULL);
}

unsigned
mg_unwind_context (const void *ucontext, uint64_t *pcs, unsigned max, unsigned *flags)
{
  const ucontext_t *uc = ucontext;
  *flags = 0;
  if (max == 0)
    return 0;
#if defined(__x86_64__)
  pcs[0] = (uint64_t) uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  pcs[0] = (uint64_t) uc->uc_mcontext.pc;
#else
  (void) uc;
  return 0;
#endif
  *flags = MG_UNWIND_UNKNOWN_FRAME;
  return 1;
}

int
mg_unwind_module_at (uint64_t pc)
{
  unsigned n = __atomic_load_n (&n_modules, __ATOMIC_ACQUIRE);
  for (unsigned i = 0; i < n; i++)
    if (pc >= modules[i].start && pc < modules[i].end)
      return (int) i;
  return -1;
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
