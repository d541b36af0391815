/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The call-frame information of one loaded module, read in place: the FDE
 * for a pc found through the module's .eh_frame_hdr search table, its CIE
 * and FDE parsed and their CFA program run up to the pc. Async-signal-safe:
 * no allocation, no lock, and every byte read lies inside one of the
 * module's readable segments (corrupt CFI ends in an error, never a fault).
 * Portable C; the register columns are the target's DWARF numbers. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#define MG_EH_MAX_SEGMENTS 6
/* Columns followed: x86-64's rax..r15 (0-15) and the return address (16). */
#define MG_EH_REGS 17

struct mg_eh_span
{
  uint64_t lo, hi; /* [lo, hi) */
};

/* What the handler may read of a module: its PT_GNU_EH_FRAME and its
 * PT_LOAD segments that are mapped readable. */
struct mg_eh_module
{
  uint64_t hdr; /* .eh_frame_hdr's address; 0: none */
  uint32_t n_segments;
  uint32_t exec_mask; /* bit i: segments[i] holds code */
  struct mg_eh_span segments[MG_EH_MAX_SEGMENTS];
};

enum mg_eh_rule_kind
{
  MG_EH_SAME = 0,     /* unchanged (callee-saved), or unknown for the others */
  MG_EH_UNDEFINED,    /* no value: for the return address, the outermost frame */
  MG_EH_OFFSET,       /* saved at CFA + offset */
  MG_EH_VAL_OFFSET,   /* is CFA + offset */
  MG_EH_REGISTER,     /* is in register reg */
  MG_EH_EXPRESSION,   /* saved at the address the expression computes (CFA pushed) */
  MG_EH_VAL_EXPRESSION /* is what the expression computes (CFA pushed) */
};

/* Small (12 bytes) so that a frame's rules are cheap to clear and copy;
 * expressions are named by their offset from mg_eh_rules.base. */
struct mg_eh_rule
{
  int32_t offset;
  int32_t expr;
  uint16_t expr_len;
  uint8_t kind;
  uint8_t reg;
};

struct mg_eh_rules
{
  const uint8_t *base; /* the FDE: expressions lie at base + expr */
  int64_t cfa_offset;
  int32_t cfa_expr;
  uint16_t cfa_expr_len;
  bool cfa_is_expr; /* CFA = expression, else register cfa_reg + cfa_offset */
  uint8_t cfa_reg;
  uint8_t ra_column;
  uint32_t set; /* bit i: regs[i] holds a rule; MG_EH_SAME otherwise (not cleared) */
  struct mg_eh_rule regs[MG_EH_REGS];
};

enum
{
  MG_EH_FOUND = 0,
  MG_EH_NO_FDE = -1,  /* no CFI covers the pc: a fallback may be tried */
  MG_EH_CORRUPT = -2  /* CFI present but unreadable or unsupported */
};

/* The segment of m holding [addr, addr + len), or NULL. */
const struct mg_eh_span *mg_eh_module_span (const struct mg_eh_module *m, uint64_t addr, uint64_t len);
/* Whether pc lies in one of m's code segments. */
bool mg_eh_module_is_code (const struct mg_eh_module *m, uint64_t pc);
/* The rules in effect at pc (a lookup pc: for a return address, pass it
 * minus one). Returns MG_EH_FOUND, MG_EH_NO_FDE or MG_EH_CORRUPT. */
int mg_eh_frame_rules_at (const struct mg_eh_module *m, uint64_t pc, struct mg_eh_rules *out);
