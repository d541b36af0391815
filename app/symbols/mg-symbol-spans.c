/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The ranges a module's symbols cover, merged and sorted once, so that an
 * address no symbol can name is answered by a binary search instead of
 * libdwfl's pass over the whole table (28 898 symbols in cc1's .dynsym:
 * most of the time of merging a build's profile). The symbols counted
 * are those libdwfl's dwfl_module_addrname may answer with: named,
 * defined, not a section, file or TLS symbol. */
#include "symbols/mg-symbol-spans-internal.h"

#include <gelf.h>

typedef struct {
  GElf_Addr start;
  GElf_Addr end; /* after the last byte */
} Span;

struct _MgSymbolSpans {
  Dwfl_Module *mod;
  GArray *spans;        /* Span, sorted, disjoint */
  GElf_Addr sizeless;   /* the lowest sizeless symbol; G_MAXUINT64: none */
  GArray *bounds;       /* GElf_Addr: every sized symbol's start and end, sorted */
  GHashTable *names;    /* index in bounds → libdwfl's name, or NULL */
};

static int
compare_addr (gconstpointer a, gconstpointer b)
{
  GElf_Addr x = *(const GElf_Addr *) a, y = *(const GElf_Addr *) b;

  return (x > y) - (x < y);
}

static int
compare_start (gconstpointer a, gconstpointer b)
{
  const Span *x = a, *y = b;

  return (x->start > y->start) - (x->start < y->start);
}

MgSymbolSpans *
mg_symbol_spans_new (Dwfl_Module *mod)
{
  MgSymbolSpans *self = g_new0 (MgSymbolSpans, 1);
  g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (Span));
  int n = dwfl_module_getsymtab (mod);

  self->mod = mod;
  self->spans = g_array_new (FALSE, FALSE, sizeof (Span));
  self->sizeless = G_MAXUINT64;
  self->bounds = g_array_new (FALSE, FALSE, sizeof (GElf_Addr));
  self->names = g_hash_table_new (NULL, NULL);
  for (int i = 1; i < n; i++)
    {
      GElf_Sym sym;
      GElf_Addr addr;
      const char *name = dwfl_module_getsym_info (mod, i, &sym, &addr, NULL, NULL, NULL);
      int type = GELF_ST_TYPE (sym.st_info);

      if (name == NULL || name[0] == '\0' || sym.st_shndx == SHN_UNDEF || type == STT_SECTION
          || type == STT_FILE || type == STT_TLS)
        continue;
      if (sym.st_size == 0)
        self->sizeless = MIN (self->sizeless, addr);
      else
        {
          GElf_Addr end = addr + sym.st_size;

          g_array_append_val (all, ((Span) { addr, end }));
          g_array_append_val (self->bounds, addr);
          g_array_append_val (self->bounds, end);
        }
    }
  g_array_sort (all, compare_start);
  g_array_sort (self->bounds, compare_addr);
  for (guint i = 0; i < all->len; i++)
    {
      Span *span = &g_array_index (all, Span, i);
      Span *last = self->spans->len ? &g_array_index (self->spans, Span, self->spans->len - 1) : NULL;

      if (last != NULL && span->start <= last->end)
        last->end = MAX (last->end, span->end);
      else
        g_array_append_val (self->spans, *span);
    }
  return self;
}

void
mg_symbol_spans_free (MgSymbolSpans *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->spans);
  g_array_unref (self->bounds);
  g_hash_table_unref (self->names);
  g_free (self);
}

/* How many of the n sorted items (size apart) start at or below addr. */
static guint
count_at_or_below (const guint8 *items, guint n, gsize size, GElf_Addr addr)
{
  guint low = 0, high = n;

  while (low < high)
    {
      guint mid = low + (high - low) / 2;

      if (*(const GElf_Addr *) (items + mid * size) <= addr)
        low = mid + 1;
      else
        high = mid;
    }
  return low;
}

static gboolean
in_sized (const MgSymbolSpans *self, GElf_Addr addr)
{
  guint below = count_at_or_below ((const guint8 *) self->spans->data, self->spans->len,
                                   sizeof (Span), addr);

  return below > 0 && addr < g_array_index (self->spans, Span, below - 1).end;
}

gboolean
mg_symbol_spans_may_name (const MgSymbolSpans *self, GElf_Addr addr)
{
  return addr >= self->sizeless || in_sized (self, addr);
}

/* libdwfl picks among the symbols that hold the address, and a sized one
 * before any sizeless one: between two neighbouring bounds of the sized
 * symbols the same ones hold every address, so the name is the same. */
const char *
mg_symbol_spans_name (MgSymbolSpans *self, GElf_Addr addr)
{
  guint piece;
  gpointer name;

  if (!in_sized (self, addr))
    return addr >= self->sizeless ? dwfl_module_addrname (self->mod, addr) : NULL;
  piece = count_at_or_below ((const guint8 *) self->bounds->data, self->bounds->len,
                             sizeof (GElf_Addr), addr);
  if (!g_hash_table_lookup_extended (self->names, GUINT_TO_POINTER (piece), NULL, &name))
    {
      name = (gpointer) dwfl_module_addrname (self->mod, addr);
      g_hash_table_insert (self->names, GUINT_TO_POINTER (piece), name);
    }
  return name;
}
