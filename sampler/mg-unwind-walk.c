/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The walk of an interrupted thread's stack, in its signal handler
 * (mg_unwind_context in sampler/mg-unwind.h).
 *
 * Safe reads: module memory only inside the snapshot's readable segments
 * of the module holding the pc (mg-eh-frame.c); stack memory only between
 * the sp of the frame being unwound and the end of the readable mapping
 * that held the interrupted sp (after a signal frame, the mapping that
 * holds the restored sp), or the thread's control block where that lies
 * between them (stack_end). A walk ends cleanly where the CFI says the
 * return address is undefined (_start, a thread's clone) or is 0; it ends
 * with MG_UNWIND_UNKNOWN_FRAME at a pc outside every known module's code
 * segments (JIT or anonymous code, a corrupt return address), at CFI that cannot be read,
 * at a read outside those bounds, or at a frame that does not move up the
 * stack.
 *
 * The same steps also walk another thread's stack from a frame it keeps
 * while it waits in a call (mg_unwind_frame, the sampler thread's walk of
 * an MPI wait): there the stack is not read in place but copied with
 * process_vm_readv, a window at a time, so that memory the other thread
 * freed meanwhile is a failed read, never a fault. */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

#include "mg-unwind-internal.h"
#include "mg-unwind.h"

#if defined(__x86_64__)

enum
{
  STEP_OK,
  STEP_END,
  STEP_UNKNOWN
};

#define RBP 6
#define RSP 7
#define RIP 16
#define CACHE_EXACT (1ull << 63) /* never set in a user-space address */
#define CALLEE_SAVED ((1u << 3) | (1u << RBP) | (1u << 12) | (1u << 13) | (1u << 14) | (1u << 15))

typedef struct
{
  uint64_t r[MG_EH_REGS]; /* DWARF numbering; 16 is the pc */
  uint32_t known;
} Regs;

/* Another thread's stack, copied: [base, base + have) of it lies at copy. */
typedef struct
{
  uint8_t *copy;
  size_t cap, have;
  uint64_t base;
} Remote;

typedef struct
{
  uint64_t lo, hi; /* stack reads inside [lo, hi) only */
} Stack;

/* The walking thread's remote stack while mg_unwind_frame walks one,
 * else NULL: the handler's reads are of its own thread's stack, in
 * place. Thread-local rather than in Stack: a larger Stack made the
 * handler's warm 30-frame walk 0.1 µs slower (bench-unwind). */
static __thread Remote *walk_remote __attribute__((tls_model ("initial-exec")));

/* ucontext's gregs for DWARF columns 0-16 */
static const int greg_of[MG_EH_REGS] = {
  REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP, REG_RSP, REG_R8,
  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP,
};

/* __restore_rt, where a signal handler returns: mov $15, %rax; syscall */
static const uint8_t restore_rt[9] = { 0x48, 0xc7, 0xc0, 0x0f, 0x00, 0x00, 0x00, 0x0f, 0x05 };

/* Where reads above sp stop: the end of the readable mapping that held sp
 * in the last snapshot, or, when this thread's control block lies between
 * the two, that block. glibc puts a thread's control block (and its static
 * TLS below it) at the top of the thread's stack mapping, so its frames lie
 * below it in one live mapping, even where the snapshot's range is stale
 * (a freed stack's range, with a smaller mapping now in its place). The
 * handler runs on the interrupted thread: its thread pointer is ours. */
static uint64_t
stack_end (uint64_t sp, uint64_t range_hi)
{
  uint64_t tp;
  __asm__ ("mov %%fs:0, %0" : "=r"(tp));
  return tp > sp && tp < range_hi ? tp : range_hi;
}

#define REMOTE_WINDOW 8192 /* bytes copied at a time: most waits' whole stack */

/* Copies more of the remote stack, up to and past addr + 8 (a window at a
 * time, never past hi nor the copy's capacity). A read of memory that is
 * not mapped any more fails without a fault. */
__attribute__((noinline)) static bool
remote_fetch (Remote *r, uint64_t addr, uint64_t hi)
{
  uint64_t want = addr + 8 - r->base;
  if (want > r->cap)
    return false;
  uint64_t end = r->have + REMOTE_WINDOW;
  if (end < want)
    end = want;
  if (end > r->cap)
    end = r->cap;
  if (end > hi - r->base)
    end = hi - r->base;
  if (end < want)
    return false;
  struct iovec local = { r->copy + r->have, end - r->have };
  struct iovec remote = { (void *) (uintptr_t) (r->base + r->have), end - r->have };
  ssize_t got = syscall (SYS_process_vm_readv, (long) getpid (), &local, 1L, &remote, 1L, 0L);
  if (got <= 0)
    return false;
  r->have += (size_t) got;
  return r->have >= want;
}

/* A read of another thread's stack, from the copy. Out of line: the
 * handler's reads (stack_read) stay small enough to be inlined. */
__attribute__((noinline)) static bool
remote_read (Remote *r, const Stack *st, uint64_t addr, uint64_t *v)
{
  if (addr < r->base || (addr + 8 - r->base > r->have && !remote_fetch (r, addr, st->hi)))
    return false;
  memcpy (v, r->copy + (addr - r->base), 8);
  return true;
}

static bool
stack_read (const Stack *st, uint64_t addr, uint64_t *v)
{
  if (addr < st->lo || addr >= st->hi || st->hi - addr < 8)
    return false;
  Remote *r = walk_remote;
  if (__builtin_expect (r != NULL, 0))
    return remote_read (r, st, addr, v);
  memcpy (v, (const void *) (uintptr_t) addr, 8);
  return true;
}

/* The DWARF expressions CFI uses: constants, registers, arithmetic,
 * comparisons and stack derefs (GCC's DRAP frames, the PLT's CFA). */
static bool
eval_expr (const uint8_t *p, uint32_t len, const Regs *regs, const Stack *st, bool push_cfa, uint64_t cfa,
           uint64_t *out)
{
  uint64_t stk[16];
  unsigned n = 0;
  const uint8_t *end = p + len;
  if (push_cfa)
    stk[n++] = cfa;
#define NEED(k) \
  if (n < (k)) \
    return false
#define PUSH(v) \
  do \
    { \
      uint64_t pushed_ = (v); \
      if (n == 16) \
        return false; \
      stk[n++] = pushed_; \
    } \
  while (0)
  while (p < end)
    {
      uint8_t op = *p++;
      uint64_t a, b, u = 0;
      int64_t sv = 0;
      unsigned shift = 0;
      if (op >= 0x30 && op <= 0x4f) /* lit0-31 */
        {
          PUSH ((uint64_t) (op - 0x30));
          continue;
        }
      if ((op >= 0x50 && op <= 0x6f) || (op >= 0x70 && op <= 0x8f) || op == 0x92 || op == 0x23
          || op == 0x10 || op == 0x11)
        {
          unsigned reg = 0;
          if (op == 0x92 || op == 0x23 || op == 0x10)
            {
              /* uleb operand: a register number or a constant */
              for (shift = 0; p < end && shift < 64; shift += 7)
                {
                  u |= (uint64_t) (*p & 0x7f) << shift;
                  if (!(*p++ & 0x80))
                    break;
                }
            }
          if (op == 0x92)
            reg = (unsigned) u;
          if ((op >= 0x70 && op <= 0x8f) || op == 0x92 || op == 0x11)
            {
              uint8_t byte = 0x80;
              for (shift = 0; p < end && shift < 64;)
                {
                  byte = *p++;
                  sv |= (int64_t) ((uint64_t) (byte & 0x7f) << shift);
                  shift += 7;
                  if (!(byte & 0x80))
                    break;
                }
              if (byte & 0x80)
                return false;
              if (shift < 64 && (byte & 0x40))
                sv |= (int64_t) (~(uint64_t) 0 << shift);
            }
          if (op == 0x10)
            PUSH (u);
          else if (op == 0x11)
            PUSH ((uint64_t) sv);
          else if (op == 0x23)
            {
              NEED (1);
              stk[n - 1] += u;
            }
          else
            {
              if (op != 0x92)
                reg = (op - 0x50) & 0x1f;
              if (reg >= MG_EH_REGS || !(regs->known & (1u << reg)))
                return false;
              PUSH (regs->r[reg] + (op >= 0x70 ? (uint64_t) sv : 0));
            }
          continue;
        }
      switch (op)
        {
        case 0x08: if (p + 1 > end) return false; PUSH ((uint64_t) p[0]); p += 1; break;
        case 0x09: if (p + 1 > end) return false; PUSH ((uint64_t) (int64_t) (int8_t) p[0]); p += 1; break;
        case 0x0a: case 0x0b: case 0x0c: case 0x0d: case 0x0e: case 0x0f:
          {
            static const unsigned size[] = { 2, 2, 4, 4, 8, 8 };
            unsigned k = size[op - 0x0a];
            if ((size_t) (end - p) < k)
              return false;
            uint64_t v = 0;
            /* Byte by byte, not memcpy: the handler calls nothing a
             * sanitizer runtime intercepts (mg-stacks.c). */
            for (unsigned byte = 0; byte < k; byte++)
              v |= (uint64_t) p[byte] << (8 * byte);
            if ((op & 1) && k < 8) /* the signed forms */
              v = (uint64_t) ((int64_t) (v << (64 - 8 * k)) >> (64 - 8 * k));
            p += k;
            PUSH (v);
            break;
          }
        case 0x06: NEED (1); if (!stack_read (st, stk[n - 1], &stk[n - 1])) return false; break;
        case 0x12: NEED (1); PUSH (stk[n - 1]); break;
        case 0x13: NEED (1); n--; break;
        case 0x14: NEED (2); PUSH (stk[n - 2]); break;
        case 0x16: NEED (2); a = stk[n - 1]; stk[n - 1] = stk[n - 2]; stk[n - 2] = a; break;
        case 0x1f: NEED (1); stk[n - 1] = -stk[n - 1]; break;
        case 0x20: NEED (1); stk[n - 1] = ~stk[n - 1]; break;
        case 0x96: break;
        case 0x1a: case 0x1c: case 0x1e: case 0x21: case 0x22: case 0x24: case 0x25: case 0x26: case 0x27:
        case 0x29: case 0x2a: case 0x2b: case 0x2c: case 0x2d: case 0x2e:
          NEED (2);
          b = stk[--n];
          a = stk[n - 1];
          switch (op)
            {
            case 0x1a: a &= b; break;
            case 0x1c: a -= b; break;
            case 0x1e: a *= b; break;
            case 0x21: a |= b; break;
            case 0x22: a += b; break;
            case 0x24: a = b < 64 ? a << b : 0; break;
            case 0x25: a = b < 64 ? a >> b : 0; break;
            case 0x26: a = (uint64_t) ((int64_t) a >> (b < 64 ? b : 63)); break;
            case 0x27: a ^= b; break;
            case 0x29: a = a == b; break;
            case 0x2a: a = (int64_t) a >= (int64_t) b; break;
            case 0x2b: a = (int64_t) a > (int64_t) b; break;
            case 0x2c: a = (int64_t) a <= (int64_t) b; break;
            case 0x2d: a = (int64_t) a < (int64_t) b; break;
            case 0x2e: a = a != b; break;
            }
          stk[n - 1] = a;
          break;
        default: return false;
        }
    }
#undef NEED
#undef PUSH
  if (n == 0)
    return false;
  *out = stk[n - 1];
  return true;
}

/* One frame up by the CFI rules. */
static int
step_cfi (const struct mg_eh_rules *ru, Regs *regs, Stack *st)
{
  uint64_t cfa;
  if (ru->cfa_is_expr)
    {
      if (!eval_expr (ru->base + ru->cfa_expr, ru->cfa_expr_len, regs, st, false, 0, &cfa))
        return STEP_UNKNOWN;
    }
  else
    {
      if (!(regs->known & (1u << ru->cfa_reg)))
        return STEP_UNKNOWN;
      cfa = regs->r[ru->cfa_reg] + (uint64_t) ru->cfa_offset;
    }
  if (cfa <= regs->r[RSP] || cfa > st->hi)
    return STEP_UNKNOWN; /* a caller's frame lies above its callee's */

  Regs up;
  up.known = 0;
  bool ra_undefined = false;
  for (unsigned i = 0; i < MG_EH_REGS; i++)
    {
      const struct mg_eh_rule *rule = &ru->regs[i];
      uint64_t v = 0, addr;
      bool ok = false;
      switch ((ru->set & (1u << i)) ? rule->kind : MG_EH_SAME)
        {
        case MG_EH_SAME:
          ok = (CALLEE_SAVED & (1u << i)) && (regs->known & (1u << i));
          v = regs->r[i];
          break;
        case MG_EH_UNDEFINED:
          ra_undefined |= i == ru->ra_column;
          break;
        case MG_EH_OFFSET: ok = stack_read (st, cfa + (uint64_t) rule->offset, &v); break;
        case MG_EH_VAL_OFFSET: ok = true; v = cfa + (uint64_t) rule->offset; break;
        case MG_EH_REGISTER:
          ok = regs->known & (1u << rule->reg);
          v = regs->r[rule->reg];
          break;
        case MG_EH_EXPRESSION:
          ok = eval_expr (ru->base + rule->expr, rule->expr_len, regs, st, true, cfa, &addr) && stack_read (st, addr, &v);
          break;
        case MG_EH_VAL_EXPRESSION: ok = eval_expr (ru->base + rule->expr, rule->expr_len, regs, st, true, cfa, &v); break;
        default: break;
        }
      if (ok)
        {
          up.r[i] = v;
          up.known |= 1u << i;
        }
    }
  if (ra_undefined)
    return STEP_END;
  if (!(up.known & (1u << ru->ra_column)))
    return STEP_UNKNOWN;
  up.r[RIP] = up.r[ru->ra_column];
  up.r[RSP] = cfa;
  up.known |= (1u << RIP) | (1u << RSP);
  *regs = up;
  st->lo = cfa;
  return regs->r[RIP] == 0 ? STEP_END : STEP_OK;
}

/* One frame up by cached rules (mg-unwind-cache.c): as step_cfi for the
 * rules' fast form. */
static int
step_fast (const struct mg_unwind_fast_rules *f, Regs *regs, Stack *st)
{
  static const uint8_t columns[6] = MG_UNWIND_FAST_COLUMNS;
  if (f->outermost)
    return STEP_END;
  if (!(regs->known & (1u << f->cfa_reg)))
    return STEP_UNKNOWN;
  uint64_t cfa = regs->r[f->cfa_reg] + (uint64_t) (int64_t) f->cfa_offset;
  uint64_t ra;
  if (cfa <= regs->r[RSP] || cfa > st->hi || !stack_read (st, cfa + (uint64_t) (int64_t) f->ra_offset, &ra))
    return STEP_UNKNOWN;
  uint32_t known = regs->known & CALLEE_SAVED;
  for (unsigned k = 0; k < 6; k++)
    if (f->saved[k] != 0)
      {
        if (stack_read (st, cfa + (uint64_t) (int64_t) f->saved[k], &regs->r[columns[k]]))
          known |= 1u << columns[k];
        else
          known &= ~(1u << columns[k]);
      }
  regs->r[RIP] = ra;
  regs->r[RSP] = cfa;
  regs->known = known | (1u << RIP) | (1u << RSP);
  st->lo = cfa;
  return ra == 0 ? STEP_END : STEP_OK;
}

/* One frame up by the frame-pointer chain: [rbp] the caller's rbp,
 * [rbp + 8] the return address. */
static int
step_fp (Regs *regs, Stack *st)
{
  uint64_t rbp = regs->r[RBP], saved, ra;
  if (!(regs->known & (1u << RBP)) || (rbp & 7) || rbp < regs->r[RSP] || !stack_read (st, rbp, &saved)
      || !stack_read (st, rbp + 8, &ra))
    return STEP_UNKNOWN;
  regs->r[RBP] = saved;
  regs->r[RSP] = rbp + 16;
  regs->r[RIP] = ra;
  regs->known = (1u << RBP) | (1u << RSP) | (1u << RIP);
  st->lo = rbp + 16;
  return ra == 0 ? STEP_END : STEP_OK;
}

static bool
is_restore_rt (const struct mg_unwind_entry *e, uint64_t at)
{
  return e && mg_eh_module_is_code (&e->eh, at) && mg_eh_module_span (&e->eh, at, sizeof restore_rt)
         && *(const uint8_t *) (uintptr_t) at == restore_rt[0]
         && memcmp ((const void *) (uintptr_t) at, restore_rt, sizeof restore_rt) == 0;
}

/* At the trampoline's first instruction (a handler's return address), or,
 * for the interrupted pc only, at its syscall. */
static bool
at_sigreturn (const struct mg_unwind_snapshot *s, const struct mg_unwind_entry *e, uint64_t pc, bool first)
{
  return is_restore_rt (e, pc) || (first && is_restore_rt (mg_unwind_snapshot_entry (s, pc - 7), pc - 7));
}

/* The kernel's signal frame: the ucontext the handler got lies at the sp
 * __restore_rt runs with; the interrupted registers continue the walk, on
 * the stack that holds their sp. */
static int
step_signal (const struct mg_unwind_snapshot *s, Regs *regs, Stack *st)
{
  uint64_t base = regs->r[RSP] + offsetof (ucontext_t, uc_mcontext.gregs);
  Regs up = { .known = (1u << MG_EH_REGS) - 1 };
  for (unsigned i = 0; i < MG_EH_REGS; i++)
    if (!stack_read (st, base + 8 * (uint64_t) greg_of[i], &up.r[i]))
      return STEP_UNKNOWN;
  const struct mg_unwind_range *range = mg_unwind_snapshot_range (s, up.r[RSP]);
  if (range == NULL)
    {
      mg_unwind_note_stack_miss ();
      st->lo = st->hi = 0; /* the pc is known, the frames above it are not */
    }
  else if (walk_remote != NULL)
    {
      /* Another thread's: its thread pointer is not ours, and the
       * interrupted stack may be another mapping (an alternate signal
       * stack): copied afresh from its sp. */
      *st = (Stack){ up.r[RSP], range->hi };
      walk_remote->base = up.r[RSP];
      walk_remote->have = 0;
    }
  else
    *st = (Stack){ up.r[RSP], stack_end (up.r[RSP], range->hi) };
  *regs = up;
  return regs->r[RIP] == 0 ? STEP_END : STEP_OK;
}

static int
step (const struct mg_unwind_snapshot *s, Regs *regs, Stack *st, bool *exact, bool first, bool fp_only)
{
  uint64_t pc = regs->r[RIP];
  struct mg_unwind_fast_rules fast;
  /* a pc met before: its rules are cached (and it was no signal
   * trampoline then, nor is it now: same snapshot, same code); exact pcs
   * and return addresses are told apart by the key's top bit */
  uint64_t key = *exact ? pc | CACHE_EXACT : pc - 1;
  if (!fp_only && mg_unwind_cache_get (s->generation, key, &fast))
    {
      *exact = false;
      return step_fast (&fast, regs, st);
    }
  const struct mg_unwind_entry *e = mg_unwind_snapshot_entry (s, pc);
  if (at_sigreturn (s, e, pc, first))
    {
      *exact = true; /* the interrupted instruction, not a return address */
      return step_signal (s, regs, st);
    }
  uint64_t look = *exact ? pc : pc - 1;
  if (look != pc)
    e = mg_unwind_snapshot_entry (s, look);
  if (e == NULL || !mg_eh_module_is_code (&e->eh, look))
    return STEP_UNKNOWN; /* JIT or anonymous code, or a corrupt address */
  bool was_exact = *exact;
  *exact = false;
  if (!fp_only)
    {
      struct mg_eh_rules rules;
      int rc = mg_eh_frame_rules_at (&e->eh, look, &rules);
      if (rc == MG_EH_FOUND)
        {
          mg_unwind_cache_put (s->generation, was_exact ? look | CACHE_EXACT : look, &rules);
          return step_cfi (&rules, regs, st);
        }
      if (rc == MG_EH_CORRUPT)
        return STEP_UNKNOWN;
    }
  return step_fp (regs, st); /* no CFI for this code: frame pointers */
}

#define PREFETCH_STACK 2048 /* bytes above sp: a typical 30-frame stack */

/* The lines a walk will read, asked for at once: each frame's reads
 * depend on the one below (its return address keys the next lookup), so
 * without this a cold walk waits for one cache miss after another. */
static void
prefetch (uint64_t sp, uint64_t hi)
{
  uint64_t end = hi - sp < PREFETCH_STACK ? hi : sp + PREFETCH_STACK;
  for (uint64_t at = sp & ~(uint64_t) 63; at < end; at += 64)
    __builtin_prefetch ((const void *) (uintptr_t) at, 0, 3);
  mg_unwind_cache_prefetch ();
}

/* Frames up from regs (pcs[n - 1] its pc) until the walk ends or max.
 * Inlined: the handler's walk keeps its loop as it was. */
__attribute__((always_inline)) static inline unsigned
walk_up (const struct mg_unwind_snapshot *s, Regs *regs, Stack *st, bool exact, bool fp_only,
         uint64_t *pcs, unsigned n, unsigned max, unsigned *flags)
{
  for (;;)
    {
      int r = step (s, regs, st, &exact, n == 1 && exact, fp_only);
      if (r == STEP_END)
        break;
      if (r == STEP_UNKNOWN)
        {
          *flags |= MG_UNWIND_UNKNOWN_FRAME;
          break;
        }
      if (n == max)
        {
          *flags |= MG_UNWIND_TRUNCATED;
          break;
        }
      pcs[n++] = regs->r[RIP];
    }
  return n;
}

static unsigned
walk (const ucontext_t *uc, uint64_t *pcs, unsigned max, unsigned *flags, bool fp_only)
{
  Regs regs = { .known = (1u << MG_EH_REGS) - 1 };
  for (unsigned i = 0; i < MG_EH_REGS; i++)
    regs.r[i] = (uint64_t) uc->uc_mcontext.gregs[greg_of[i]];
  pcs[0] = regs.r[RIP];
  unsigned n = 1;
  int slot;
  const struct mg_unwind_snapshot *s = mg_unwind_snapshot_acquire (&slot);
  if (s == NULL)
    {
      *flags = MG_UNWIND_UNKNOWN_FRAME; /* not prepared, or modules being unloaded */
      return n;
    }
  const struct mg_unwind_range *range = mg_unwind_snapshot_range (s, regs.r[RSP]);
  if (range == NULL)
    {
      mg_unwind_note_stack_miss ();
      *flags = MG_UNWIND_UNKNOWN_FRAME;
    }
  else
    {
      Stack st = { regs.r[RSP], stack_end (regs.r[RSP], range->hi) };
      if (!mg_unwind_before && !fp_only)
        prefetch (st.lo, st.hi);
      n = walk_up (s, &regs, &st, true, fp_only, pcs, n, max, flags);
    }
  mg_unwind_snapshot_release (slot);
  return n;
}

unsigned
mg_unwind_context (const void *ucontext, uint64_t *pcs, unsigned max, unsigned *flags)
{
  *flags = 0;
  return max == 0 ? 0 : walk (ucontext, pcs, max, flags, false);
}

unsigned
mg_unwind_context_fp (const void *ucontext, uint64_t *pcs, unsigned max, unsigned *flags)
{
  *flags = 0;
  return max == 0 ? 0 : walk (ucontext, pcs, max, flags, true);
}

unsigned
mg_unwind_frame (uint64_t frame, uint64_t site, void *copy, size_t copy_size, uint64_t *pcs,
                 unsigned max, unsigned *flags)
{
  *flags = MG_UNWIND_UNKNOWN_FRAME;
  if (max == 0 || frame == 0 || (frame & 7))
    return 0;
  int slot;
  const struct mg_unwind_snapshot *s = mg_unwind_snapshot_acquire (&slot);
  if (s == NULL)
    return 0;
  unsigned n = 0;
  const struct mg_unwind_range *range = mg_unwind_snapshot_range (s, frame);
  Remote remote = { copy, copy_size, 0, frame };
  uint64_t rbp, ra;
  if (range == NULL)
    mg_unwind_note_stack_miss ();
  else
    {
      /* The callee's frame: [frame] the caller's rbp, [frame + 8] the
       * return address, which must be the call site the callee stored
       * (else this is no frame of that call: nothing is walked). Above
       * it, the caller's stack pointer as it was at the call. Of the
       * callee-saved registers only rbp is known; the others become known
       * where a caller's CFI says it saved them. */
      Stack st = { frame, range->hi };
      walk_remote = &remote;
      if (stack_read (&st, frame, &rbp) && stack_read (&st, frame + 8, &ra) && ra == site)
        {
          Regs regs = { .known = (1u << RBP) | (1u << RSP) | (1u << RIP) };
          regs.r[RBP] = rbp;
          regs.r[RSP] = frame + 16;
          regs.r[RIP] = ra;
          st.lo = frame + 16;
          pcs[0] = ra;
          *flags = 0;
          n = walk_up (s, &regs, &st, false, false, pcs, 1, max, flags);
        }
      walk_remote = NULL;
    }
  mg_unwind_snapshot_release (slot);
  return n;
}

#else /* not x86-64: the interrupted pc only (documented in docs/sampler.md) */

static unsigned
pc_only (const void *ucontext, uint64_t *pcs, unsigned max, unsigned *flags)
{
  const ucontext_t *uc = ucontext;
  *flags = 0;
  if (max == 0)
    return 0;
#if defined(__aarch64__)
  pcs[0] = (uint64_t) uc->uc_mcontext.pc;
#else
  (void) uc;
  return 0;
#endif
  *flags = MG_UNWIND_UNKNOWN_FRAME;
  return 1;
}

unsigned
mg_unwind_context (const void *ucontext, uint64_t *pcs, unsigned max, unsigned *flags)
{
  return pc_only (ucontext, pcs, max, flags);
}

unsigned
mg_unwind_context_fp (const void *ucontext, uint64_t *pcs, unsigned max, unsigned *flags)
{
  return pc_only (ucontext, pcs, max, flags);
}

unsigned
mg_unwind_frame (uint64_t frame, uint64_t site, void *copy, size_t copy_size, uint64_t *pcs,
                 unsigned max, unsigned *flags)
{
  (void) frame, (void) site, (void) copy, (void) copy_size, (void) pcs, (void) max;
  *flags = MG_UNWIND_UNKNOWN_FRAME;
  return 0;
}

#endif
