/* SPDX-License-Identifier: GPL-3.0-or-later */
/* .eh_frame_hdr lookup, CIE/FDE parsing and the CFA program, read in place
 * with bounds-checked readers (see mg-eh-frame.h). */

#include <string.h>

#include "mg-eh-frame.h"

/* Pointer encodings (the LSB's DW_EH_PE_*). */
#define PE_OMIT 0xff
#define PE_FORMAT 0x0f
#define PE_APPLY 0x70
#define PE_INDIRECT 0x80
#define PE_ABSPTR 0x00
#define PE_ULEB128 0x01
#define PE_UDATA2 0x02
#define PE_UDATA4 0x03
#define PE_UDATA8 0x04
#define PE_SLEB128 0x09
#define PE_SDATA2 0x0a
#define PE_SDATA4 0x0b
#define PE_SDATA8 0x0c
#define PE_PCREL 0x10
#define PE_DATAREL 0x30

/* A cursor that never reads at or past end: a short read marks it bad and
 * yields 0, so that parsing stops at the next check. */
typedef struct
{
  const uint8_t *p, *end;
  bool bad;
} Reader;

static bool
rd_has (Reader *r, uint64_t n)
{
  if (r->bad || (uint64_t) (r->end - r->p) < n)
    {
      r->bad = true;
      return false;
    }
  return true;
}

static inline uint64_t
rd_uint (Reader *r, unsigned n)
{
  if (!rd_has (r, n))
    return 0;
  const uint8_t *p = r->p;
  r->p += n;
  /* constant sizes, so that each copy is one load (little-endian host and data) */
  switch (n)
    {
    case 1: return p[0];
    case 2: { uint16_t v; memcpy (&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy (&v, p, 4); return v; }
    default: { uint64_t v; memcpy (&v, p, 8); return v; }
    }
}

static int64_t
rd_sint (Reader *r, unsigned n)
{
  uint64_t v = rd_uint (r, n);
  unsigned shift = 64 - 8 * n;
  return shift == 0 ? (int64_t) v : (int64_t) (v << shift) >> shift;
}

static inline uint64_t
rd_uleb (Reader *r)
{
  if (!r->bad && r->p < r->end && !(*r->p & 0x80)) /* the usual one-byte form */
    return *r->p++;
  uint64_t v = 0;
  for (unsigned shift = 0; shift < 64; shift += 7)
    {
      uint8_t b = (uint8_t) rd_uint (r, 1);
      v |= (uint64_t) (b & 0x7f) << shift;
      if (!(b & 0x80) || r->bad)
        return v;
    }
  r->bad = true;
  return 0;
}

static int64_t
rd_sleb (Reader *r)
{
  uint64_t v = 0;
  for (unsigned shift = 0; shift < 64; shift += 7)
    {
      uint8_t b = (uint8_t) rd_uint (r, 1);
      v |= (uint64_t) (b & 0x7f) << shift;
      if (!(b & 0x80) || r->bad)
        {
          if (shift + 7 < 64 && (b & 0x40))
            v |= ~(uint64_t) 0 << (shift + 7);
          return (int64_t) v;
        }
    }
  r->bad = true;
  return 0;
}

const struct mg_eh_span *
mg_eh_module_span (const struct mg_eh_module *m, uint64_t addr, uint64_t len)
{
  for (uint32_t i = 0; i < m->n_segments && i < MG_EH_MAX_SEGMENTS; i++)
    {
      const struct mg_eh_span *s = &m->segments[i];
      if (addr >= s->lo && addr < s->hi && len <= s->hi - addr)
        return s;
    }
  return NULL;
}

bool
mg_eh_module_is_code (const struct mg_eh_module *m, uint64_t pc)
{
  for (uint32_t i = 0; i < m->n_segments && i < MG_EH_MAX_SEGMENTS; i++)
    if ((m->exec_mask & (1u << i)) && pc >= m->segments[i].lo && pc < m->segments[i].hi)
      return true;
  return false;
}

/* A reader over [addr, end of the segment holding addr). */
static Reader
rd_at (const struct mg_eh_module *m, uint64_t addr)
{
  const struct mg_eh_span *s = mg_eh_module_span (m, addr, 1);
  Reader r = { NULL, NULL, s == NULL };
  if (s)
    {
      r.p = (const uint8_t *) (uintptr_t) addr;
      r.end = (const uint8_t *) (uintptr_t) s->hi;
    }
  return r;
}

/* An encoded pointer; datarel is relative to data_base (the header's start
 * in .eh_frame_hdr, unsupported elsewhere), textrel and funcrel are not
 * used on x86-64 and end the parse. */
static uint64_t
rd_encoded (Reader *r, const struct mg_eh_module *m, uint8_t enc, uint64_t data_base)
{
  if (enc == PE_OMIT)
    {
      r->bad = true;
      return 0;
    }
  uint64_t field = (uint64_t) (uintptr_t) r->p;
  uint64_t v;
  switch (enc & PE_FORMAT)
    {
    case PE_ABSPTR: v = rd_uint (r, 8); break;
    case PE_ULEB128: v = rd_uleb (r); break;
    case PE_UDATA2: v = rd_uint (r, 2); break;
    case PE_UDATA4: v = rd_uint (r, 4); break;
    case PE_UDATA8: v = rd_uint (r, 8); break;
    case PE_SLEB128: v = (uint64_t) rd_sleb (r); break;
    case PE_SDATA2: v = (uint64_t) rd_sint (r, 2); break;
    case PE_SDATA4: v = (uint64_t) rd_sint (r, 4); break;
    case PE_SDATA8: v = (uint64_t) rd_sint (r, 8); break;
    default: r->bad = true; return 0;
    }
  switch (enc & PE_APPLY)
    {
    case 0: break;
    case PE_PCREL: v += field; break;
    case PE_DATAREL:
      if (data_base == 0)
        r->bad = true;
      v += data_base;
      break;
    default: r->bad = true; return 0;
    }
  if ((enc & PE_INDIRECT) && !r->bad)
    {
      if (mg_eh_module_span (m, v, 8) == NULL)
        {
          r->bad = true;
          return 0;
        }
      memcpy (&v, (const void *) (uintptr_t) v, 8);
    }
  return v;
}

/* The size in bytes of an encoding's value, for the FDE's pc range (which
 * has the format of the CIE's encoding but no application). */
static uint64_t
rd_range (Reader *r, uint8_t enc)
{
  return rd_encoded (r, NULL, enc & PE_FORMAT, 0);
}

typedef struct
{
  uint64_t code_align;
  int64_t data_align;
  uint8_t ra_column;
  uint8_t fde_enc;
  bool has_z;
  const uint8_t *insns, *insns_end;
} Cie;

/* The length field of a CIE or FDE; *is64 for the 64-bit DWARF format.
 * Leaves r at the id / CIE pointer and returns the entry's end. */
static const uint8_t *
rd_entry_length (Reader *r, bool *is64)
{
  uint64_t len = rd_uint (r, 4);
  *is64 = len == 0xffffffffu;
  if (*is64)
    len = rd_uint (r, 8);
  if (r->bad || len == 0 || len > (uint64_t) (r->end - r->p))
    {
      r->bad = true;
      return NULL;
    }
  return r->p + len;
}

static bool
parse_cie (const struct mg_eh_module *m, uint64_t addr, Cie *cie)
{
  Reader r = rd_at (m, addr);
  bool is64;
  const uint8_t *end = rd_entry_length (&r, &is64);
  if (r.bad)
    return false;
  r.end = end;
  if (rd_uint (&r, is64 ? 8 : 4) != 0) /* a CIE's id is 0 in .eh_frame */
    return false;
  uint8_t version = (uint8_t) rd_uint (&r, 1);
  if (version != 1 && version != 3 && version != 4)
    return false;
  char aug[8];
  unsigned n = 0;
  for (;;)
    {
      char c = (char) rd_uint (&r, 1);
      if (r.bad || n == sizeof aug)
        return false;
      aug[n++] = c;
      if (c == '\0')
        break;
    }
  if (version == 4)
    {
      uint8_t address_size = (uint8_t) rd_uint (&r, 1);
      uint8_t segment_size = (uint8_t) rd_uint (&r, 1);
      if (address_size != 8 || segment_size != 0)
        return false;
    }
  cie->code_align = rd_uleb (&r);
  cie->data_align = rd_sleb (&r);
  uint64_t ra = version == 1 ? rd_uint (&r, 1) : rd_uleb (&r);
  if (ra >= MG_EH_REGS)
    return false;
  cie->ra_column = (uint8_t) ra;
  cie->fde_enc = PE_ABSPTR;
  cie->has_z = aug[0] == 'z';
  if (cie->has_z)
    {
      uint64_t len = rd_uleb (&r);
      if (!rd_has (&r, len))
        return false;
      Reader a = { r.p, r.p + len, false };
      bool known = true; /* letters after an unknown one are skipped by the length */
      for (unsigned i = 1; known && aug[i] != '\0'; i++)
        switch (aug[i])
          {
          case 'R': cie->fde_enc = (uint8_t) rd_uint (&a, 1); break;
          case 'L': rd_uint (&a, 1); break;
          case 'P':
            {
              uint8_t penc = (uint8_t) rd_uint (&a, 1);
              rd_encoded (&a, m, penc & ~PE_INDIRECT, 0);
              break;
            }
          case 'S': case 'B': case 'G': break; /* signal frame, aarch64 BTI, MTE */
          default: known = false; break;
          }
      if (a.bad)
        return false;
      r.p += len;
    }
  else if (aug[0] != '\0')
    return false; /* "eh" and other pre-'z' forms */
  if (r.bad || cie->code_align == 0)
    return false;
  cie->insns = r.p;
  cie->insns_end = end;
  return true;
}

typedef struct
{
  struct mg_eh_rules *cur;
  const struct mg_eh_module *m;
  const Cie *cie;
  uint64_t start;            /* the FDE's first pc */
  bool in_cie;               /* running the CIE's initial instructions */
  bool have_initial;         /* initial is filled (on the first restore) */
  struct mg_eh_rules initial; /* the rules after the CIE, for DW_CFA_restore */
  struct mg_eh_rules saved[4]; /* DW_CFA_remember_state depth */
  unsigned n_saved;
} Machine;

static bool run_cfa (Machine *mc, const uint8_t *p, const uint8_t *end, uint64_t loc, uint64_t pc);

static bool
set_rule (Machine *mc, uint64_t reg, uint8_t kind, int64_t offset)
{
  if (offset < INT32_MIN || offset > INT32_MAX)
    return false;
  if (reg < MG_EH_REGS) /* vector registers and the like are not followed */
    {
      mc->cur->regs[reg] = (struct mg_eh_rule){ .kind = kind, .offset = (int32_t) offset };
      mc->cur->set |= 1u << reg;
    }
  return true;
}

/* An expression block at p: its offset from the rules' base. */
static bool
set_expr (Machine *mc, const uint8_t *p, uint64_t len, int32_t *at, uint16_t *at_len)
{
  int64_t off = p - mc->cur->base;
  if (len > UINT16_MAX || off < INT32_MIN || off > INT32_MAX)
    return false;
  *at = (int32_t) off;
  *at_len = (uint16_t) len;
  return true;
}

/* DW_CFA_restore: the rule after the CIE's instructions, computed on the
 * first use only (most frames never restore). */
static bool
restore_rule (Machine *mc, uint64_t reg)
{
  if (reg >= MG_EH_REGS)
    return true;
  if (mc->in_cie)
    {
      mc->cur->set &= ~(1u << reg);
      return true;
    }
  if (!mc->have_initial)
    {
      Machine init = { .cur = &mc->initial, .m = mc->m, .cie = mc->cie, .start = mc->start, .in_cie = true };
      mc->initial.set = 0;
      mc->initial.cfa_is_expr = false;
      mc->initial.cfa_reg = 0;
      mc->initial.cfa_offset = 0;
      mc->initial.base = mc->cur->base;
      mc->initial.ra_column = mc->cie->ra_column;
      if (!run_cfa (&init, mc->cie->insns, mc->cie->insns_end, mc->start, mc->start))
        return false;
      mc->have_initial = true;
    }
  mc->cur->regs[reg] = mc->initial.regs[reg];
  mc->cur->set = (mc->cur->set & ~(1u << reg)) | (mc->initial.set & (1u << reg));
  return true;
}

/* Runs [p, end) from location loc while the location stays <= pc.
 * Returns false on corrupt or unsupported instructions. */
static bool
run_cfa (Machine *mc, const uint8_t *p, const uint8_t *end, uint64_t loc, uint64_t pc)
{
  const Cie *cie = mc->cie;
  struct mg_eh_rules *cur = mc->cur;
  Reader r = { p, end, false };
  bool ok = true;
  while (ok && r.p < r.end && !r.bad)
    {
      uint8_t op = (uint8_t) rd_uint (&r, 1);
      uint8_t low = op & 0x3f;
      uint64_t delta = 0, reg, off;
      bool advance = false;
      switch (op >> 6)
        {
        case 1: delta = low; advance = true; break;
        case 2:
          off = rd_uleb (&r);
          ok = set_rule (mc, low, MG_EH_OFFSET, (int64_t) off * cie->data_align);
          continue;
        case 3:
          ok = restore_rule (mc, low);
          continue;
        default: break;
        }
      if (!advance)
        switch (op)
          {
          case 0x00: break; /* nop */
          case 0x01: /* set_loc */
            {
              uint64_t to = rd_encoded (&r, mc->m, cie->fde_enc & ~PE_INDIRECT, 0);
              if (to > pc)
                return !r.bad;
              loc = to;
              break;
            }
          case 0x02: delta = rd_uint (&r, 1); advance = true; break;
          case 0x03: delta = rd_uint (&r, 2); advance = true; break;
          case 0x04: delta = rd_uint (&r, 4); advance = true; break;
          case 0x05: reg = rd_uleb (&r); off = rd_uleb (&r);
            ok = set_rule (mc, reg, MG_EH_OFFSET, (int64_t) off * cie->data_align); break;
          case 0x06: ok = restore_rule (mc, rd_uleb (&r)); break;
          case 0x07: ok = set_rule (mc, rd_uleb (&r), MG_EH_UNDEFINED, 0); break;
          case 0x08: ok = set_rule (mc, rd_uleb (&r), MG_EH_SAME, 0); break;
          case 0x09:
            reg = rd_uleb (&r);
            off = rd_uleb (&r);
            if (off >= MG_EH_REGS)
              return false;
            if (reg < MG_EH_REGS)
              {
                cur->regs[reg] = (struct mg_eh_rule){ .kind = MG_EH_REGISTER, .reg = (uint8_t) off };
                cur->set |= 1u << reg;
              }
            break;
          case 0x0a:
            if (mc->n_saved == sizeof mc->saved / sizeof mc->saved[0])
              return false;
            mc->saved[mc->n_saved++] = *cur;
            break;
          case 0x0b:
            if (mc->n_saved == 0)
              return false;
            *cur = mc->saved[--mc->n_saved];
            break;
          case 0x0c: reg = rd_uleb (&r); off = rd_uleb (&r);
            if (reg >= MG_EH_REGS)
              return false;
            cur->cfa_is_expr = false;
            cur->cfa_reg = (uint8_t) reg;
            cur->cfa_offset = (int64_t) off;
            break;
          case 0x0d: reg = rd_uleb (&r);
            if (reg >= MG_EH_REGS)
              return false;
            cur->cfa_is_expr = false;
            cur->cfa_reg = (uint8_t) reg;
            break;
          case 0x0e: cur->cfa_offset = (int64_t) rd_uleb (&r); break;
          case 0x0f: /* def_cfa_expression: evaluated by the walk (the PLT's pattern, DRAP) */
            off = rd_uleb (&r);
            if (!rd_has (&r, off) || !set_expr (mc, r.p, off, &cur->cfa_expr, &cur->cfa_expr_len))
              return false;
            cur->cfa_is_expr = true;
            r.p += off;
            break;
          case 0x10: case 0x16: /* expression, val_expression */
            {
              reg = rd_uleb (&r);
              off = rd_uleb (&r);
              struct mg_eh_rule rule = { .kind = op == 0x10 ? MG_EH_EXPRESSION : MG_EH_VAL_EXPRESSION };
              if (!rd_has (&r, off) || !set_expr (mc, r.p, off, &rule.expr, &rule.expr_len))
                return false;
              if (reg < MG_EH_REGS)
                {
                  cur->regs[reg] = rule;
                  cur->set |= 1u << reg;
                }
              r.p += off;
              break;
            }
          case 0x11: reg = rd_uleb (&r);
            ok = set_rule (mc, reg, MG_EH_OFFSET, rd_sleb (&r) * cie->data_align); break;
          case 0x12: reg = rd_uleb (&r);
            if (reg >= MG_EH_REGS)
              return false;
            cur->cfa_is_expr = false;
            cur->cfa_reg = (uint8_t) reg;
            cur->cfa_offset = rd_sleb (&r) * cie->data_align;
            break;
          case 0x13: cur->cfa_offset = rd_sleb (&r) * cie->data_align; break;
          case 0x14: reg = rd_uleb (&r); off = rd_uleb (&r);
            ok = set_rule (mc, reg, MG_EH_VAL_OFFSET, (int64_t) off * cie->data_align); break;
          case 0x15: reg = rd_uleb (&r);
            ok = set_rule (mc, reg, MG_EH_VAL_OFFSET, rd_sleb (&r) * cie->data_align); break;
          case 0x2e: rd_uleb (&r); break; /* GNU_args_size: the CFA does not depend on it */
          case 0x2f: reg = rd_uleb (&r); off = rd_uleb (&r);
            ok = set_rule (mc, reg, MG_EH_OFFSET, -(int64_t) off * cie->data_align); break;
          default: return false;
          }
      if (advance)
        {
          uint64_t to = loc + delta * cie->code_align;
          if (to > pc)
            return !r.bad;
          loc = to;
        }
    }
  return ok && !r.bad;
}

/* The FDE's address from the header's sorted table, or 0 (none). */
static uint64_t
find_fde (const struct mg_eh_module *m, uint64_t pc, bool *corrupt)
{
  Reader r = rd_at (m, m->hdr);
  uint8_t version = (uint8_t) rd_uint (&r, 1);
  uint8_t frame_enc = (uint8_t) rd_uint (&r, 1);
  uint8_t count_enc = (uint8_t) rd_uint (&r, 1);
  uint8_t table_enc = (uint8_t) rd_uint (&r, 1);
  if (r.bad || version != 1 || count_enc == PE_OMIT || table_enc != (PE_DATAREL | PE_SDATA4))
    {
      *corrupt = r.bad || version != 1;
      return 0; /* no search table: treated as no CFI */
    }
  rd_encoded (&r, m, frame_enc, m->hdr);
  uint64_t count = rd_encoded (&r, m, count_enc, m->hdr);
  if (r.bad || count > (uint64_t) (r.end - r.p) / 8)
    {
      *corrupt = true;
      return 0;
    }
  const uint8_t *table = r.p;
  uint64_t lo = 0, hi = count; /* the last entry whose start is <= pc */
  while (lo < hi)
    {
      uint64_t mid = lo + (hi - lo) / 2;
      int32_t start;
      memcpy (&start, table + mid * 8, 4);
      if (m->hdr + (uint64_t) (int64_t) start <= pc)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return 0;
  int32_t fde;
  memcpy (&fde, table + (lo - 1) * 8 + 4, 4);
  return m->hdr + (uint64_t) (int64_t) fde;
}

int
mg_eh_frame_rules_at (const struct mg_eh_module *m, uint64_t pc, struct mg_eh_rules *out)
{
  if (m->hdr == 0)
    return MG_EH_NO_FDE;
  bool corrupt = false;
  uint64_t fde = find_fde (m, pc, &corrupt);
  if (fde == 0)
    return corrupt ? MG_EH_CORRUPT : MG_EH_NO_FDE;

  Reader r = rd_at (m, fde);
  bool is64;
  const uint8_t *end = rd_entry_length (&r, &is64);
  if (r.bad)
    return MG_EH_CORRUPT;
  r.end = end;
  uint64_t id_field = (uint64_t) (uintptr_t) r.p;
  uint64_t cie_off = rd_uint (&r, is64 ? 8 : 4);
  if (r.bad || cie_off == 0 || cie_off > id_field)
    return MG_EH_CORRUPT;
  Cie cie;
  if (!parse_cie (m, id_field - cie_off, &cie))
    return MG_EH_CORRUPT;
  uint64_t start = rd_encoded (&r, m, cie.fde_enc, 0);
  uint64_t range = rd_range (&r, cie.fde_enc);
  if (r.bad)
    return MG_EH_CORRUPT;
  if (pc < start || pc - start >= range)
    return MG_EH_NO_FDE; /* between functions, or code without CFI */
  if (cie.has_z)
    {
      uint64_t len = rd_uleb (&r);
      if (!rd_has (&r, len))
        return MG_EH_CORRUPT;
      r.p += len;
    }

  out->set = 0; /* the rules themselves are not cleared: see set */
  out->cfa_is_expr = false;
  out->cfa_reg = 0;
  out->cfa_offset = 0;
  out->base = (const uint8_t *) (uintptr_t) fde;
  out->ra_column = cie.ra_column;
  Machine mc; /* not zeroed as a whole: initial and saved are filled when used */
  mc.cur = out;
  mc.m = m;
  mc.cie = &cie;
  mc.start = start;
  mc.in_cie = true;
  mc.have_initial = false;
  mc.n_saved = 0;
  if (!run_cfa (&mc, cie.insns, cie.insns_end, start, pc))
    return MG_EH_CORRUPT;
  mc.in_cie = false;
  mc.n_saved = 0;
  if (!run_cfa (&mc, r.p, end, start, pc))
    return MG_EH_CORRUPT;
  return MG_EH_FOUND;
}
