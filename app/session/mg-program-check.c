/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reads the ELF header and program headers only: a static executable has no
 * PT_INTERP, so the dynamic loader (and with it LD_PRELOAD) never runs. */
#include "mg-config.h"

#include "mg-program-check.h"

#include <elf.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

static gboolean
elf64_has_interp (const guint8 *data, gsize size)
{
  Elf64_Ehdr ehdr;

  if (size < sizeof ehdr)
    return FALSE;
  memcpy (&ehdr, data, sizeof ehdr);
  for (guint i = 0; i < ehdr.e_phnum; i++)
    {
      Elf64_Phdr phdr;
      guint64 off = ehdr.e_phoff + (guint64) i * ehdr.e_phentsize;

      if (ehdr.e_phentsize < sizeof phdr || off + sizeof phdr > size)
        return FALSE;
      memcpy (&phdr, data + off, sizeof phdr);
      if (phdr.p_type == PT_INTERP)
        return TRUE;
    }
  return FALSE;
}

static gboolean
elf32_has_interp (const guint8 *data, gsize size)
{
  Elf32_Ehdr ehdr;

  if (size < sizeof ehdr)
    return FALSE;
  memcpy (&ehdr, data, sizeof ehdr);
  for (guint i = 0; i < ehdr.e_phnum; i++)
    {
      Elf32_Phdr phdr;
      guint64 off = ehdr.e_phoff + (guint64) i * ehdr.e_phentsize;

      if (ehdr.e_phentsize < sizeof phdr || off + sizeof phdr > size)
        return FALSE;
      memcpy (&phdr, data + off, sizeof phdr);
      if (phdr.p_type == PT_INTERP)
        return TRUE;
    }
  return FALSE;
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
  if (data[EI_CLASS] == ELFCLASS64 ? elf64_has_interp (data, size)
                                   : elf32_has_interp (data, size))
    return MG_PROGRAM_DYNAMIC;
  return MG_PROGRAM_STATIC;
}

const char *
mg_program_kind_explain (MgProgramKind kind)
{
  switch (kind)
    {
    case MG_PROGRAM_STATIC:
      return _("the program is statically linked, so the sampler cannot be preloaded into it; "
               "link it dynamically to profile it");
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
