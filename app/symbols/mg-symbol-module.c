/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A module's symbols through libdwfl: the ELF file is checked by build-id
 * before libdwfl sees it; libdwfl then finds the separate debug info
 * (.gnu_debuglink, .build-id/xx/yyyy.debug in the debug path, debuginfod
 * when DEBUGINFOD_URLS is set) and keeps its indexes for every address. */
#include "symbols/mg-symbol-module-internal.h"

#include "symbols/mg-demangle.h"
#include "symbols/mg-symbol-frame.h"
#include "symbols/mg-symbols-error.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <libelf.h>
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
  /* The functions' address ranges over all compile units, sorted, built
   * at the first address: without it each address walks its compile
   * unit's whole DIE tree (dwarf_getscopes), some 5 000 addresses/s. */
  GArray *functions; /* FunctionRange */
  Dwarf *dwarf;
  Dwarf_Addr dwarf_bias;
  GHashTable *resolved; /* vaddr → Resolved */
};

typedef struct {
  Dwarf_Addr low;
  Dwarf_Addr high;
  Dwarf_Off die;
} FunctionRange;

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

/* The file to hand libdwfl, open; -1 with ERROR when neither the module's
 * file (with the run's build-id) nor a debug file with it is there. */
static int
open_checked (MgSymbolModule *self, const char *hex, char **opened, GError **error)
{
  int fd = open (self->path, O_RDONLY | O_CLOEXEC);
  int saved = errno;
  g_autofree char *its_id = NULL;
  int debug_fd;

  if (fd >= 0)
    {
      its_id = read_build_id (fd);
      if (its_id != NULL && (hex[0] == '\0' || g_str_equal (its_id, hex)))
        {
          *opened = g_strdup (self->path);
          return fd;
        }
      close (fd);
    }
  if (hex[0] != '\0')
    {
      debug_fd = open_debug_by_build_id (hex, self->debug_path, opened);
      if (debug_fd >= 0)
        return debug_fd;
    }
  if (fd < 0)
    g_set_error (error, MG_SYMBOLS_ERROR, MG_SYMBOLS_ERROR_NOT_FOUND,
                 _("Cannot read \"%s\" for its symbols: %s; no debug file with its build-id %s was found either, so its frames keep the module and the offset"),
                 self->path, g_strerror (saved), hex[0] ? hex : _("(none)"));
  else if (its_id == NULL)
    g_set_error (error, MG_SYMBOLS_ERROR, MG_SYMBOLS_ERROR_INVALID,
                 _("\"%s\" is not an ELF file, so its symbols cannot be read; its frames keep the module and the offset"),
                 self->path);
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
  int fd = open_checked (self, hex, &opened, error);

  if (fd < 0)
    return FALSE;
  self->callbacks.find_elf = dwfl_build_id_find_elf;
  self->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
  self->callbacks.debuginfo_path = self->debug_path ? &self->debug_path : NULL;
  self->dwfl = dwfl_begin (&self->callbacks);
  if (self->dwfl != NULL)
    /* Base 0 with the segments' own addresses: libdwfl's addresses are
     * the file's virtual addresses, what the run stored. libdwfl owns fd
     * from here on success. */
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
  if (self->functions != NULL)
    g_array_unref (self->functions);
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

/* An absolute, clean source path: DWARF names files relative to the
 * compilation folder where the build used relative paths. */
static char *
absolute_source (const char *file, const char *comp_dir)
{
  if (file == NULL)
    return NULL;
  if (!g_path_is_absolute (file) && comp_dir != NULL && g_path_is_absolute (comp_dir))
    return g_canonicalize_filename (file, comp_dir);
  if (g_path_is_absolute (file))
    return g_canonicalize_filename (file, NULL);
  return g_strdup (file);
}

/* The function's name as people read it: the demangled linkage name for
 * C++ (namespace, class, template arguments, parameters), the plain name
 * for C; followed through an inlined instance's abstract origin. */
static char *
die_function_name (Dwarf_Die *die)
{
  Dwarf_Attribute attr;
  const char *name;

  name = dwarf_formstring (dwarf_attr_integrate (die, DW_AT_linkage_name, &attr));
  if (name == NULL)
    name = dwarf_formstring (dwarf_attr_integrate (die, DW_AT_MIPS_linkage_name, &attr));
  if (name != NULL)
    return mg_demangle (name);
  name = dwarf_formstring (dwarf_attr_integrate (die, DW_AT_name, &attr));
  return g_strdup (name);
}

static guint
die_udata (Dwarf_Die *die, int name)
{
  Dwarf_Attribute attr;
  Dwarf_Word value = 0;

  if (dwarf_formudata (dwarf_attr (die, name, &attr), &value) != 0)
    return 0;
  return (guint) value;
}

/* Where an inlined instance was called from: the next frame's position. */
static const char *
call_site_file (Dwarf_Die *cudie, Dwarf_Die *inlined)
{
  Dwarf_Files *files;
  size_t count;
  Dwarf_Attribute attr;
  Dwarf_Word index;

  if (dwarf_formudata (dwarf_attr (inlined, DW_AT_call_file, &attr), &index) != 0
      || dwarf_getsrcfiles (cudie, &files, &count) != 0 || index >= count)
    return NULL;
  return dwarf_filesrc (files, index, NULL, NULL);
}

typedef struct {
  const char *file;
  guint line;
  guint column;
  const char *comp_dir;
} Position;

static MgSymbolFrame *
frame_at (MgSymbolModule *self, guint64 vaddr, char *function, const Position *at, gboolean inlined)
{
  MgSymbolFrame *frame = mg_symbol_frame_new (self->path, vaddr);

  frame->function = function;
  frame->file = absolute_source (at->file, at->comp_dir);
  frame->line = at->file ? at->line : 0;
  frame->column = at->file ? at->column : 0;
  frame->inlined = inlined;
  return frame;
}

static void
add_function_ranges (GArray *functions, Dwarf_Die *die)
{
  Dwarf_Addr base, low, high;
  ptrdiff_t offset = 0;

  while ((offset = dwarf_ranges (die, offset, &base, &low, &high)) > 0)
    if (high > low)
      {
        FunctionRange range = { low, high, dwarf_dieoffset (die) };

        g_array_append_val (functions, range);
      }
}

/* The subprograms among DIE's children, and in the namespaces, classes
 * and structures there (C++ definitions may sit in them). */
static void
collect_functions (GArray *functions, Dwarf_Die *parent)
{
  Dwarf_Die child;

  if (dwarf_child (parent, &child) != 0)
    return;
  do
    {
      switch (dwarf_tag (&child))
        {
        case DW_TAG_subprogram:
          add_function_ranges (functions, &child);
          break;
        case DW_TAG_namespace:
        case DW_TAG_class_type:
        case DW_TAG_structure_type:
        case DW_TAG_module:
          collect_functions (functions, &child);
          break;
        default:
          break;
        }
    }
  while (dwarf_siblingof (&child, &child) == 0);
}

static int
by_low (gconstpointer a, gconstpointer b)
{
  const FunctionRange *x = a;
  const FunctionRange *y = b;

  return x->low < y->low ? -1 : x->low > y->low;
}

static void
index_functions (MgSymbolModule *self)
{
  Dwarf_Die *cu = NULL;
  Dwarf_Addr bias;

  self->functions = g_array_new (FALSE, FALSE, sizeof (FunctionRange));
  self->dwarf = dwfl_module_getdwarf (self->mod, &self->dwarf_bias);
  if (self->dwarf == NULL)
    return;
  while ((cu = dwfl_module_nextcu (self->mod, cu, &bias)) != NULL)
    collect_functions (self->functions, cu);
  g_array_sort (self->functions, by_low);
}

/* The function DIE whose range holds ADDR (a DWARF address). */
static gboolean
find_function (MgSymbolModule *self, Dwarf_Addr addr, Dwarf_Die *function)
{
  const FunctionRange *ranges;
  guint low = 0;
  guint high;

  if (self->functions == NULL)
    index_functions (self);
  ranges = (const FunctionRange *) (gpointer) self->functions->data;
  high = self->functions->len;
  /* The first range that starts after addr; the ones before it may
   * hold it (ranges of nested scopes do not reach here, so one does). */
  while (low < high)
    {
      guint mid = low + (high - low) / 2;

      if (ranges[mid].low <= addr)
        low = mid + 1;
      else
        high = mid;
    }
  for (guint i = low; i-- > 0;)
    if (addr < ranges[i].high)
      return dwarf_offdie (self->dwarf, ranges[i].die, function) != NULL;
    else if (low - i > 8)
      break;
  return FALSE;
}

/* The inlined instance among SCOPE's children (through lexical blocks)
 * whose code holds ADDR. */
static gboolean
find_inlined (Dwarf_Die *scope, Dwarf_Addr addr, Dwarf_Die *inlined)
{
  Dwarf_Die child;

  if (dwarf_child (scope, &child) != 0)
    return FALSE;
  do
    {
      int tag = dwarf_tag (&child);

      if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_lexical_block
          && tag != DW_TAG_try_block && tag != DW_TAG_catch_block)
        continue;
      if (dwarf_haspc (&child, addr) <= 0)
        continue;
      if (tag == DW_TAG_inlined_subroutine)
        {
          *inlined = child;
          return TRUE;
        }
      if (find_inlined (&child, addr, inlined))
        return TRUE;
    }
  while (dwarf_siblingof (&child, &child) == 0);
  return FALSE;
}

/* The inline chain from DWARF, innermost first; FALSE when the address is
 * in no function DWARF describes. The function is found in the index,
 * then its inlined instances nested one in the other down to ADDR: each
 * instance's call site is the next frame's position. */
static gboolean
resolve_dwarf (MgSymbolModule *self, guint64 vaddr, Dwarf_Addr addr, Position *at, GPtrArray *frames)
{
  g_autoptr (GArray) chain = g_array_new (FALSE, FALSE, sizeof (Dwarf_Die));
  Dwarf_Addr dwarf_addr = addr - self->dwarf_bias;
  Dwarf_Die scope;
  Dwarf_Die cudie;
  Dwarf_Attribute attr;
  char *name;

  if (!find_function (self, dwarf_addr, &scope) || dwarf_diecu (&scope, &cudie, NULL, NULL) == NULL)
    return FALSE;
  name = die_function_name (&scope);
  if (name == NULL)
    return FALSE;
  g_array_append_val (chain, scope);
  while (find_inlined (&scope, dwarf_addr, &scope))
    g_array_append_val (chain, scope);
  if (at->comp_dir == NULL)
    at->comp_dir = dwarf_formstring (dwarf_attr (&cudie, DW_AT_comp_dir, &attr));
  for (guint i = chain->len - 1; i > 0; i--)
    {
      Dwarf_Die *inlined = &g_array_index (chain, Dwarf_Die, i);
      char *inlined_name = die_function_name (inlined);

      g_ptr_array_add (frames, frame_at (self, vaddr, inlined_name ? inlined_name : g_strdup ("?"), at, TRUE));
      at->file = call_site_file (&cudie, inlined);
      at->line = die_udata (inlined, DW_AT_call_line);
      at->column = die_udata (inlined, DW_AT_call_column);
    }
  g_ptr_array_add (frames, frame_at (self, vaddr, name, at, FALSE));
  return TRUE;
}

static gboolean
resolve_uncached (MgSymbolModule *self, guint64 vaddr, GPtrArray *frames, GError **error)
{
  Dwarf_Addr addr = vaddr + self->bias;
  Dwfl_Line *line;
  Position at = { 0 };
  int lineno = 0;
  int column = 0;
  const char *sym;
  g_autofree char *offset = NULL;

  line = dwfl_module_getsrc (self->mod, addr);
  if (line != NULL)
    {
      at.file = dwfl_lineinfo (line, NULL, &lineno, &column, NULL, NULL);
      at.line = (guint) MAX (lineno, 0);
      at.column = (guint) MAX (column, 0);
      at.comp_dir = dwfl_line_comp_dir (line);
    }
  if (resolve_dwarf (self, vaddr, addr, &at, frames))
    return TRUE;
  /* No DWARF for it: the symbol table still names the function. */
  sym = dwfl_module_addrname (self->mod, addr);
  if (sym != NULL)
    {
      g_ptr_array_add (frames, frame_at (self, vaddr, mg_demangle (sym), &at, FALSE));
      return TRUE;
    }
  offset = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", vaddr);
  g_set_error (error, MG_SYMBOLS_ERROR, MG_SYMBOLS_ERROR_NO_SYMBOLS,
               _("\"%s\" has no symbol at offset %s (stripped, and no separate debug info was found by build-id, debug link or debuginfod): the frame keeps the module and the offset"),
               self->path, offset);
  return FALSE;
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
      if (!resolve_uncached (self, vaddr, resolved->frames, &resolved->error))
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
