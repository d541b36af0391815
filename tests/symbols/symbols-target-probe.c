/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "symbols-target-probe.h"

#include <elf.h>
#include <inttypes.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uintptr_t load_bias;

static void
print_build_id (const struct dl_phdr_info *info)
{
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      const char *at;
      const char *end;

      if (ph->p_type != PT_NOTE)
        continue;
      at = (const char *) (info->dlpi_addr + ph->p_vaddr);
      end = at + ph->p_memsz;
      while (at + sizeof (ElfW (Nhdr)) <= end)
        {
          const ElfW (Nhdr) *note = (const ElfW (Nhdr) *) at;
          const unsigned char *desc = (const unsigned char *) (note + 1) + ((note->n_namesz + 3) & ~3u);

          if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4
              && memcmp (note + 1, "GNU", 4) == 0)
            {
              printf ("build-id ");
              for (unsigned j = 0; j < note->n_descsz; j++)
                printf ("%02x", desc[j]);
              printf ("\n");
              return;
            }
          at = (const char *) desc + ((note->n_descsz + 3) & ~3u);
        }
    }
}

/* The first object dl_iterate_phdr reports is the program. */
static int
first_object (struct dl_phdr_info *info, size_t size, void *data)
{
  load_bias = info->dlpi_addr;
  print_build_id (info);
  return 1;
}

void
symbols_target_start (void)
{
  dl_iterate_phdr (first_object, NULL);
}

__attribute__ ((noipa)) void
symbols_target_probe (const char *label)
{
  uintptr_t ret = (uintptr_t) __builtin_return_address (0);

  /* The call instruction ends where the return address points. */
  printf ("%s %" PRIxPTR "\n", label, ret - 1 - load_bias);
}
