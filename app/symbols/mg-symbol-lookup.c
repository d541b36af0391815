/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "symbols/mg-symbol-lookup-internal.h"

#include "symbols/mg-demangle.h"
#include "symbols/mg-symbol-frame.h"
#include "symbols/mg-symbols-error.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <glib/gi18n.h>

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
frame_at (const char *module, guint64 vaddr, char *function, const Position *at, gboolean inlined)
{
  MgSymbolFrame *frame = mg_symbol_frame_new (module, vaddr);

  frame->function = function;
  frame->file = absolute_source (at->file, at->comp_dir);
  frame->line = at->file ? at->line : 0;
  frame->column = at->file ? at->column : 0;
  frame->inlined = inlined;
  return frame;
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
resolve_dwarf (MgFunctionIndex *index, const char *module, guint64 vaddr, Dwarf_Addr addr, Position *at, GPtrArray *frames)
{
  g_autoptr (GArray) chain = g_array_new (FALSE, FALSE, sizeof (Dwarf_Die));
  Dwarf_Addr dwarf_addr;
  Dwarf_Die scope;
  Dwarf_Die cudie;
  Dwarf_Attribute attr;
  char *name;

  if (!mg_function_index_find (index, addr, &scope, &dwarf_addr) || dwarf_diecu (&scope, &cudie, NULL, NULL) == NULL)
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

      g_ptr_array_add (frames, frame_at (module, vaddr, inlined_name ? inlined_name : g_strdup ("?"), at, TRUE));
      at->file = call_site_file (&cudie, inlined);
      at->line = die_udata (inlined, DW_AT_call_line);
      at->column = die_udata (inlined, DW_AT_call_column);
    }
  g_ptr_array_add (frames, frame_at (module, vaddr, name, at, FALSE));
  return TRUE;
}

gboolean
mg_symbol_lookup (Dwfl_Module *mod,
                  GElf_Addr bias,
                  MgFunctionIndex *index,
                  MgSymbolSpans *spans,
                  const char *module,
                  guint64 vaddr,
                  GPtrArray *frames,
                  GError **error)
{
  Dwarf_Addr addr = vaddr + bias;
  Dwfl_Line *line;
  Position at = { 0 };
  int lineno = 0;
  int column = 0;
  const char *sym;
  g_autofree char *offset = NULL;

  line = dwfl_module_getsrc (mod, addr);
  if (line != NULL)
    {
      at.file = dwfl_lineinfo (line, NULL, &lineno, &column, NULL, NULL);
      at.line = (guint) MAX (lineno, 0);
      at.column = (guint) MAX (column, 0);
      at.comp_dir = dwfl_line_comp_dir (line);
    }
  if (resolve_dwarf (index, module, vaddr, addr, &at, frames))
    return TRUE;
  /* No DWARF for it: the symbol table still names the function (asked
   * only where a symbol can: libdwfl reads the whole table each time). */
  sym = spans != NULL ? mg_symbol_spans_name (spans, addr) : dwfl_module_addrname (mod, addr);
  if (sym != NULL)
    {
      g_ptr_array_add (frames, frame_at (module, vaddr, mg_demangle (sym), &at, FALSE));
      return TRUE;
    }
  offset = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", vaddr);
  g_set_error (error, MG_SYMBOLS_ERROR, MG_SYMBOLS_ERROR_NO_SYMBOLS,
               _("\"%s\" has no symbol at offset %s (stripped, and no separate debug info was found by build-id, debug link or debuginfod): the frame keeps the module and the offset"),
               module, offset);
  return FALSE;
}
