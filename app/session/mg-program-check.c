/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The program's file as the launcher looks at it. Its kind, from the ELF
 * header and program headers only: a static executable has no PT_INTERP,
 * so the dynamic loader (and with it LD_PRELOAD) never runs. And why it
 * could not start, when execve's errno misleads, from its first bytes:
 * the kernel reads a #! line itself and says ENOENT when its interpreter
 * is missing, although the script is there; a text file without one is
 * ENOEXEC, which shells hide by running it with /bin/sh. */
#include "mg-config.h"

#include "mg-program-check.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Whether the 64-bit ELF in @data names @symbol in its dynamic symbols'
 * strings (the section that SHT_DYNSYM links to): clang links a
 * sanitizer's runtime into the program and exports its functions. */
static gboolean
elf_exports (const guint8 *data, gsize size, const char *symbol)
{
  Elf64_Ehdr ehdr;
  gsize len = strlen (symbol) + 1;

  if (data[EI_CLASS] != ELFCLASS64 || size < sizeof ehdr)
    return FALSE;
  memcpy (&ehdr, data, sizeof ehdr);
  if (ehdr.e_shentsize != sizeof (Elf64_Shdr) || ehdr.e_shoff > size
      || (guint64) ehdr.e_shnum * sizeof (Elf64_Shdr) > size - ehdr.e_shoff)
    return FALSE;
  for (guint i = 0; i < ehdr.e_shnum; i++)
    {
      Elf64_Shdr dynsym, strtab;

      memcpy (&dynsym, data + ehdr.e_shoff + (gsize) i * sizeof dynsym, sizeof dynsym);
      if (dynsym.sh_type != SHT_DYNSYM || dynsym.sh_link >= ehdr.e_shnum)
        continue;
      memcpy (&strtab, data + ehdr.e_shoff + (gsize) dynsym.sh_link * sizeof strtab,
              sizeof strtab);
      if (strtab.sh_offset > size || strtab.sh_size > size - strtab.sh_offset)
        return FALSE;
      /* Each name follows a NUL: the table starts with one. */
      for (const guint8 *at = data + strtab.sh_offset, *end = at + strtab.sh_size;
           (at = memchr (at, '\0', (gsize) (end - at))) != NULL && (gsize) (end - at) > len;
           at++)
        if (memcmp (at + 1, symbol, len) == 0)
          return TRUE;
      return FALSE;
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
  if (!elf_has_interp (data, size))
    return MG_PROGRAM_STATIC;
  if (!same_class_and_machine (data, size))
    return MG_PROGRAM_WRONG_CLASS;
  if (elf_exports (data, size, "__msan_init"))
    return MG_PROGRAM_MSAN;
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
    case MG_PROGRAM_MSAN:
      return _("the program is built with MemorySanitizer (-fsanitize=memory), which would take "
               "the sampler's own memory for uninitialised and end the program, so it runs "
               "unprofiled; profile a build of it without MemorySanitizer");
    case MG_PROGRAM_DYNAMIC:
    case MG_PROGRAM_NOT_ELF:
    case MG_PROGRAM_UNREADABLE:
    default:
      return _("no process of the run was sampled: the program (or a program it started) "
               "cleared LD_PRELOAD or exec'd a program that cannot be sampled, or it ended "
               "before --start-after; keep LD_PRELOAD in the environment it passes on");
    }
}

/* The kernel reads at most this much of a #! line (BINPRM_BUF_SIZE). */
#define HEAD_SIZE 256

/* The first bytes of path, NUL-terminated; the count, -1 when unreadable. */
static gssize
read_head (const char *path, char *head, gsize size)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  gssize n;

  if (fd < 0)
    return -1;
  n = read (fd, head, size - 1);
  close (fd);
  head[MAX (n, 0)] = '\0';
  return n;
}

/* The interpreter a #! line names, or NULL when head has none. */
static char *
script_interpreter (const char *head)
{
  const char *start, *end;

  if (strncmp (head, "#!", 2) != 0)
    return NULL;
  start = head + 2;
  while (*start == ' ' || *start == '\t')
    start++;
  end = start;
  while (*end != '\0' && *end != ' ' && *end != '\t' && *end != '\n' && *end != '\r')
    end++;
  return end > start ? g_strndup (start, end - start) : NULL;
}

char *
mg_program_describe_start_failure (const char *path, const char *name, int error_number)
{
  char head[HEAD_SIZE];
  g_autofree char *interpreter = NULL;

  if (read_head (path, head, sizeof head) >= 0)
    {
      interpreter = script_interpreter (head);
      if (interpreter != NULL && !g_file_test (interpreter, G_FILE_TEST_EXISTS))
        return g_strdup_printf (_("cannot start %s: its #! line names the interpreter %s, which "
                                  "does not exist here (correct the script's first line, or "
                                  "install that interpreter)"), name, interpreter);
      if (interpreter != NULL && (g_file_test (interpreter, G_FILE_TEST_IS_DIR)
                                  || !g_file_test (interpreter, G_FILE_TEST_IS_EXECUTABLE)))
        return g_strdup_printf (_("cannot start %s: its #! line names %s, which is not an "
                                  "executable program (correct the script's first line)"),
                                name, interpreter);
      if (interpreter == NULL && error_number == ENOEXEC && strncmp (head, "\177ELF", 4) != 0)
        return g_strdup_printf (_("cannot start %s: it is neither a program nor a script with a "
                                  "#! line (a shell runs such a file with /bin/sh: add "
                                  "“#!/bin/sh” as its first line, or profile “sh %s”)"),
                                name, name);
    }
  return g_strdup_printf (_("cannot start %s: %s (check that it is a program for this machine)"),
                          name, g_strerror (error_number));
}
