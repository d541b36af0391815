/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reads the ELF header and program headers only: a static executable has no
 * PT_INTERP, so the dynamic loader (and with it LD_PRELOAD) never runs. */
#include "mg-config.h"

#include "mg-program-check.h"

#include <elf.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>

/* Whether the ELF in @data has a PT_INTERP program header. Only the
 * header's fields differ between the classes: a program header starts
 * with its 32-bit type in both. */
static gboolean
elf_has_interp (const guint8 *data, gsize size)
{
  gboolean is64 = data[EI_CLASS] == ELFCLASS64;
  gsize phdr_size = is64 ? sizeof (Elf64_Phdr) : sizeof (Elf32_Phdr);
  guint64 phoff;
  guint phentsize, phnum;

  if (is64 && size >= sizeof (Elf64_Ehdr))
    {
      Elf64_Ehdr ehdr;

      memcpy (&ehdr, data, sizeof ehdr);
      phoff = ehdr.e_phoff, phentsize = ehdr.e_phentsize, phnum = ehdr.e_phnum;
    }
  else if (!is64 && size >= sizeof (Elf32_Ehdr))
    {
      Elf32_Ehdr ehdr;

      memcpy (&ehdr, data, sizeof ehdr);
      phoff = ehdr.e_phoff, phentsize = ehdr.e_phentsize, phnum = ehdr.e_phnum;
    }
  else
    return FALSE;
  for (guint i = 0; i < phnum; i++)
    {
      guint64 off = phoff + (guint64) i * phentsize;
      guint32 type;

      if (phentsize < phdr_size || off + phdr_size > size)
        return FALSE;
      memcpy (&type, data + off, sizeof type);
      if (type == PT_INTERP)
        return TRUE;
    }
  return FALSE;
}

/* The class and machine of this build (the sampler's), from our own
 * executable's header; TRUE when @data is an ELF of both. */
static gboolean
same_class_and_machine (const guint8 *data, gsize size)
{
  static gsize once;
  static guint8 own_class;
  static guint16 own_machine;
  guint16 machine;

  if (g_once_init_enter (&once))
    {
      g_autoptr (GMappedFile) self = g_mapped_file_new ("/proc/self/exe", FALSE, NULL);
      const guint8 *own = self != NULL ? (const guint8 *) g_mapped_file_get_contents (self) : NULL;

      own_class = sizeof (void *) == 8 ? ELFCLASS64 : ELFCLASS32;
      if (own != NULL && g_mapped_file_get_length (self) >= sizeof (Elf32_Ehdr))
        memcpy (&own_machine, own + offsetof (Elf32_Ehdr, e_machine), sizeof own_machine);
      g_once_init_leave (&once, 1);
    }
  if (size < sizeof (Elf32_Ehdr) || data[EI_CLASS] != own_class)
    return FALSE;
  /* e_machine is at the same offset in both classes. */
  memcpy (&machine, data + offsetof (Elf32_Ehdr, e_machine), sizeof machine);
  return own_machine == 0 || machine == own_machine;
}

MgProgramKind
mg_program_check (const char *path)
{
  g_autoptr (GMappedFile) file = NULL;
  const guint8 *data;
  gsize size;
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    return MG_PROGRAM_UNREADABLE;
  file = g_mapped_file_new (path, FALSE, NULL);
  if (file == NULL)
    return (st.st_mode & (S_ISUID | S_ISGID)) ? MG_PROGRAM_SETUID : MG_PROGRAM_UNREADABLE;
  data = (const guint8 *) g_mapped_file_get_contents (file);
  size = g_mapped_file_get_length (file);
  if (size < EI_NIDENT || memcmp (data, ELFMAG, SELFMAG) != 0)
    return MG_PROGRAM_NOT_ELF;
  if (st.st_mode & (S_ISUID | S_ISGID))
    return MG_PROGRAM_SETUID;
  if (!elf_has_interp (data, size))
    return MG_PROGRAM_STATIC;
  if (!same_class_and_machine (data, size))
    return MG_PROGRAM_WRONG_CLASS;
  return MG_PROGRAM_DYNAMIC;
}

const char *
mg_program_kind_explain (MgProgramKind kind)
{
  switch (kind)
    {
    case MG_PROGRAM_STATIC:
      return _("the program is statically linked, so the sampler cannot be preloaded into it; "
               "link it dynamically to profile it");
    case MG_PROGRAM_WRONG_CLASS:
      return _("the program is built for another architecture or word size than Metrograph "
               "(a 32-bit program, say), so the sampler cannot be loaded into it and it runs "
               "unprofiled; profile a build of it for this Metrograph's architecture");
    case MG_PROGRAM_SETUID:
      return _("the program is set-user-ID or set-group-ID, so the loader ignores LD_PRELOAD; "
               "profile a copy without that bit");
    case MG_PROGRAM_DYNAMIC:
    case MG_PROGRAM_NOT_ELF:
    case MG_PROGRAM_UNREADABLE:
    default:
      return _("no process of the run was sampled: the program (or a program it started) "
               "cleared LD_PRELOAD or exec'd a program that cannot be sampled, or it ended "
               "before --start-after; keep LD_PRELOAD in the environment it passes on");
    }
}
