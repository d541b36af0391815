/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A module's symbols through libdwfl: the ELF file is checked by build-id
 * before libdwfl sees it; libdwfl then finds the separate debug info
 * (.gnu_debuglink, .build-id/xx/yyyy.debug in the debug path, debuginfod
 * when DEBUGINFOD_URLS is set) and keeps its indexes for every address. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include "symbols/mg-symbol-module-internal.h"

#include "symbols/mg-debuginfod-internal.h"
#include "symbols/mg-function-index-internal.h"
#include "symbols/mg-symbol-frame.h"
#include "symbols/mg-symbol-lookup-internal.h"
#include "symbols/mg-symbols-error.h"

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <libelf.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

struct _MgSymbolModule {
  char *path;
  /* libdwfl keeps a pointer to the callbacks and to the search path. */
  Dwfl_Callbacks callbacks;
  char *debug_path;
  Dwfl *dwfl;
  Dwfl_Module *mod;
  GElf_Addr bias;
  GError *error;
  MgFunctionIndex *functions; /* built at the first address */
  MgSymbolSpans *spans;       /* likewise */
  GHashTable *resolved; /* vaddr → Resolved */
};

static char *
build_id_hex (const guint8 *bytes, gsize len)
{
  GString *hex = g_string_sized_new (len * 2);

  for (gsize i = 0; i < len; i++)
    g_string_append_printf (hex, "%02x", bytes[i]);
  return g_string_free (hex, FALSE);
}

/* The GNU build-id of the ELF file open at FD, as hex ("" when it has
 * none); NULL when FD is not an ELF file. */
static char *
read_build_id (int fd)
{
  Elf *elf;
  const void *bits = NULL;
  ssize_t len;
  char *hex;

  elf_version (EV_CURRENT);
  elf = elf_begin (fd, ELF_C_READ_MMAP, NULL);
  if (elf == NULL || elf_kind (elf) != ELF_K_ELF)
    {
      if (elf != NULL)
        elf_end (elf);
      return NULL;
    }
  len = dwelf_elf_gnu_build_id (elf, &bits);
  hex = len > 0 ? build_id_hex (bits, (gsize) len) : g_strdup ("");
  elf_end (elf);
  return hex;
}

/* The absolute folders of libdwfl's search path (the "+"/"-" CRC flag
 * and relative entries such as ".debug" are for debuglink only). */
static GPtrArray *
debug_folders (const char *debug_path)
{
  GPtrArray *folders = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) parts = g_strsplit (debug_path ? debug_path : ":.debug:/usr/lib/debug", ":", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *part = parts[i];

      if (i == 0 && (part[0] == '+' || part[0] == '-'))
        part++;
      if (g_path_is_absolute (part))
        g_ptr_array_add (folders, g_strdup (part));
    }
  return folders;
}

/* The debug file named after HEX (".build-id/xx/yyyy.debug") in one of the
 * debug folders, open, with its build-id checked; -1 when there is none.
 * It serves as the module itself when the module's file is gone or was
 * rebuilt: a separate debug file keeps the program headers and the
 * symbols, only the code is missing. */
static int
open_debug_by_build_id (const char *hex, const char *debug_path, char **found)
{
  g_autoptr (GPtrArray) folders = debug_folders (debug_path);

  if (strlen (hex) < 3)
    return -1;
  for (guint i = 0; i < folders->len; i++)
    {
      g_autofree char *name = g_strdup_printf ("%.2s/%s.debug", hex, hex + 2);
      g_autofree char *file = g_build_filename (folders->pdata[i], ".build-id", name, NULL);
      g_autofree char *its_id = NULL;
      int fd = open (file, O_RDONLY | O_CLOEXEC);

      if (fd < 0)
        continue;
      its_id = read_build_id (fd);
      if (its_id != NULL && g_str_equal (its_id, hex))
        {
          *found = g_steal_pointer (&file);
          return fd;
        }
      close (fd);
    }
  return -1;
}

/* The name the loader gives the kernel's vDSO, which has no file. */
#define VDSO_NAME "linux-vdso.so.1"

/* This process's vDSO image, copied into a memory file, open; -1 when
 * there is none. The kernel maps the same image into every process, so
 * the build-id check that follows tells whether it is the run's (the
 * same kernel) before any of its names is used. */
static int
open_own_vdso (void)
{
  const guint8 *image = (const guint8 *) getauxval (AT_SYSINFO_EHDR);
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *) image;
  gsize size;
  int fd;

  if (image == NULL || memcmp (eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64)
    return -1;
  /* Its section headers come last in the image, after its one segment. */
  size = eh->e_shoff + (gsize) eh->e_shnum * eh->e_shentsize;
  for (guint i = 0; i < eh->e_phnum; i++)
    {
      const Elf64_Phdr *ph = (const Elf64_Phdr *) (image + eh->e_phoff + (gsize) i * eh->e_phentsize);
      if (ph->p_type == PT_LOAD && ph->p_offset + ph->p_filesz > size)
        size = ph->p_offset + ph->p_filesz;
    }
  fd = memfd_create ("vdso", MFD_CLOEXEC);
  if (fd < 0)
    return -1;
  if (write (fd, image, size) != (ssize_t) size)
    {
      close (fd);
      return -1;
    }
  return fd;
}

/* The file to hand libdwfl, open; -1 with ERROR when neither the module's
 * file (with the run's build-id) nor a debug file with it is there, in
 * the debug folders or on a debuginfod server. */
static int
open_checked (MgSymbolModule *self, const char *hex, char **opened, GError **error)
{
  gboolean vdso = g_str_equal (self->path, VDSO_NAME);
  int fd = vdso ? open_own_vdso () : open (self->path, O_RDONLY | O_CLOEXEC);
  int saved = vdso ? ENOENT : errno;
  g_autofree char *its_id = NULL;
  int debug_fd;

  if (fd >= 0)
    {
      its_id = read_build_id (fd);
      if (its_id != NULL && (hex[0] == '\0' || g_str_equal (its_id, hex)))
        {
          *opened = g_strdup (vdso ? "[vdso]" : self->path);
          return fd;
        }
      close (fd);
    }
  if (hex[0] != '\0')
    {
      debug_fd = open_debug_by_build_id (hex, self->debug_path, opened);
      if (debug_fd < 0)
        debug_fd = mg_debuginfod_find_debuginfo (self->dwfl, hex, opened);
      if (debug_fd >= 0)
        return debug_fd;
    }
  if (fd < 0)
    g_set_error (error, MG_SYMBOLS_ERROR, MG_SYMBOLS_ERROR_NOT_FOUND,
                 _("Cannot read \"%s\" for its symbols: %s; no debug file with its build-id %s was found either (debug folders, debuginfod), so its frames keep the module and the offset"),
                 self->path, g_strerror (saved), hex[0] ? hex : _("(none)"));
  else if (its_id == NULL)
    g_set_error (error, MG_SYMBOLS_ERROR, MG_SYMBOLS_ERROR_INVALID,
                 _("\"%s\" is not an ELF file, so its symbols cannot be read; its frames keep the module and the offset"),
                 self->path);
  else if (vdso)
    g_set_error (error, MG_SYMBOLS_ERROR, MG_SYMBOLS_ERROR_BUILD_ID_MISMATCH,
                 _("The kernel's vDSO (%s) here is not the run's (its build-id is %s, the run's was %s): the profile was made under another kernel, so its frames keep the module and the offset"),
                 self->path, its_id[0] ? its_id : _("(none)"), hex);
  else
    g_set_error (error, MG_SYMBOLS_ERROR, MG_SYMBOLS_ERROR_BUILD_ID_MISMATCH,
                 _("\"%s\" was rebuilt or replaced after the run (its build-id is %s, the run's was %s): its symbols would be wrong, so its frames keep the module and the offset"),
                 self->path, its_id[0] ? its_id : _("(none)"), hex);
  return -1;
}

static gboolean
open_dwfl (MgSymbolModule *self, const char *hex, GError **error)
{
  g_autofree char *opened = NULL;
  int fd;

  self->callbacks.find_elf = dwfl_build_id_find_elf;
  self->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
  self->callbacks.debuginfo_path = self->debug_path ? &self->debug_path : NULL;
  self->dwfl = dwfl_begin (&self->callbacks);
  if (self->dwfl == NULL)
    {
      g_set_error (error, MG_SYMBOLS_ERROR, MG_SYMBOLS_ERROR_INVALID,
                   _("libdw cannot read \"%s\": %s; its frames keep the module and the offset"),
                   self->path, dwfl_errmsg (-1));
      return FALSE;
    }
  fd = open_checked (self, hex, &opened, error);
  if (fd < 0)
    return FALSE;
  /* Base 0 with the segments' own addresses: libdwfl's addresses are the
   * file's virtual addresses, what the run stored. libdwfl owns fd from
   * here on success. */
  self->mod = dwfl_report_elf (self->dwfl, self->path, opened, fd, 0, true);
  if (self->mod == NULL)
    {
      close (fd);
      g_set_error (error, MG_SYMBOLS_ERROR, MG_SYMBOLS_ERROR_INVALID,
                   _("libdw cannot read \"%s\": %s; its frames keep the module and the offset"),
                   opened, dwfl_errmsg (-1));
      return FALSE;
    }
  dwfl_report_end (self->dwfl, NULL, NULL);
  if (dwfl_module_getelf (self->mod, &self->bias) == NULL)
    self->bias = 0;
  return TRUE;
}

MgSymbolModule *
mg_symbol_module_open (const char *path,
                       const guint8 *build_id,
                       gsize build_id_len,
                       const char *debug_path)
{
  MgSymbolModule *self = g_new0 (MgSymbolModule, 1);
  g_autofree char *hex = build_id_hex (build_id, build_id_len);

  self->path = g_strdup (path);
  self->debug_path = g_strdup (debug_path);
  open_dwfl (self, hex, &self->error);
  return self;
}

void
mg_symbol_module_free (MgSymbolModule *self)
{
  if (self == NULL)
    return;
  if (self->resolved != NULL)
    g_hash_table_unref (self->resolved);
  mg_function_index_free (self->functions);
  mg_symbol_spans_free (self->spans);
  if (self->dwfl != NULL)
    dwfl_end (self->dwfl);
  g_clear_error (&self->error);
  g_free (self->debug_path);
  g_free (self->path);
  g_free (self);
}

const GError *
mg_symbol_module_error (MgSymbolModule *self)
{
  return self->error;
}

typedef struct {
  GPtrArray *frames; /* NULL when unresolved */
  GError *error;
} Resolved;

static void
resolved_free (Resolved *resolved)
{
  if (resolved->frames != NULL)
    g_ptr_array_unref (resolved->frames);
  g_clear_error (&resolved->error);
  g_free (resolved);
}

gboolean
mg_symbol_module_defines (MgSymbolModule *self, const char *name)
{
  int n;

  if (self->error != NULL || self->mod == NULL)
    return FALSE;
  n = dwfl_module_getsymtab (self->mod);
  for (int i = 1; i < n; i++)
    {
      GElf_Sym sym;
      GElf_Addr addr;
      const char *its = dwfl_module_getsym_info (self->mod, i, &sym, &addr, NULL, NULL, NULL);

      if (its != NULL && sym.st_shndx != SHN_UNDEF && GELF_ST_TYPE (sym.st_info) == STT_FUNC
          && g_str_equal (its, name))
        return TRUE;
    }
  return FALSE;
}

/* A profile names the same address in many stacks: each is resolved
 * once, and copied after. */
gboolean
mg_symbol_module_resolve (MgSymbolModule *self, guint64 vaddr, GPtrArray *frames, GError **error)
{
  Resolved *resolved;

  if (self->error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->error));
      return FALSE;
    }
  if (self->resolved == NULL)
    self->resolved = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                            (GDestroyNotify) resolved_free);
  resolved = g_hash_table_lookup (self->resolved, &vaddr);
  if (resolved == NULL)
    {
      resolved = g_new0 (Resolved, 1);
      resolved->frames = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_symbol_frame_free);
      if (self->functions == NULL)
        self->functions = mg_function_index_new (self->mod);
      if (self->spans == NULL)
        self->spans = mg_symbol_spans_new (self->mod);
      if (!mg_symbol_lookup (self->mod, self->bias, self->functions, self->spans, self->path, vaddr,
                             resolved->frames, &resolved->error))
        g_clear_pointer (&resolved->frames, g_ptr_array_unref);
      g_hash_table_insert (self->resolved, g_memdup2 (&vaddr, sizeof vaddr), resolved);
    }
  if (resolved->frames == NULL)
    {
      g_propagate_error (error, g_error_copy (resolved->error));
      return FALSE;
    }
  for (guint i = 0; i < resolved->frames->len; i++)
    g_ptr_array_add (frames, mg_symbol_frame_copy (resolved->frames->pdata[i]));
  return TRUE;
}
