/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "symbols/mg-function-index-internal.h"

#include <dwarf.h>

typedef struct {
  Dwarf_Addr low;
  Dwarf_Addr high;
  Dwarf_Off die;
} FunctionRange;

struct _MgFunctionIndex {
  GArray *functions; /* FunctionRange, by low */
  Dwarf *dwarf;
  Dwarf_Addr dwarf_bias;
};

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

MgFunctionIndex *
mg_function_index_new (Dwfl_Module *mod)
{
  MgFunctionIndex *self = g_new0 (MgFunctionIndex, 1);
  Dwarf_Die *cu = NULL;
  Dwarf_Addr bias;

  self->functions = g_array_new (FALSE, FALSE, sizeof (FunctionRange));
  self->dwarf = dwfl_module_getdwarf (mod, &self->dwarf_bias);
  if (self->dwarf == NULL)
    return self;
  while ((cu = dwfl_module_nextcu (mod, cu, &bias)) != NULL)
    collect_functions (self->functions, cu);
  g_array_sort (self->functions, by_low);
  return self;
}

void
mg_function_index_free (MgFunctionIndex *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->functions);
  g_free (self);
}

gboolean
mg_function_index_find (MgFunctionIndex *self, Dwarf_Addr module_addr, Dwarf_Die *function, Dwarf_Addr *dwarf_addr)
{
  const FunctionRange *ranges = (const FunctionRange *) (gpointer) self->functions->data;
  Dwarf_Addr addr = module_addr - self->dwarf_bias;
  guint low = 0;
  guint high = self->functions->len;

  *dwarf_addr = addr;
  /* low: the first range that starts after addr. Functions do not
   * overlap, so the one holding addr is among the few just before (a few,
   * not one: a zero-length or duplicate range may sit between). */
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
