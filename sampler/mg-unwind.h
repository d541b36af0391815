/* SPDX-License-Identifier: GPL-3.0-or-later */
/* In-process stack unwinding for the call-stack sampler (issue #29).
 *
 * Two sides:
 * - prepared outside signal handlers (on the sampler thread, at sampling
 *   start and whenever modules may have changed): mg_unwind_prepare and
 *   mg_unwind_refresh take their snapshot of the loaded modules (and what
 *   else the walk needs) into tables mapped once, never malloc'd;
 * - mg_unwind_context, called in a signal handler: async-signal-safe, no
 *   lock, no allocation, never reads memory outside what the tables say is
 *   mapped and readable.
 *
 * Frames are absolute addresses; mg_unwind_module_at and the module list
 * turn them into (module, address relative to the module's load bias, i.e.
 * the ELF virtual address that symbol tables and DWARF use). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MG_UNWIND_MAX_FRAMES 128
#define MG_UNWIND_BUILD_ID_MAX 32
#define MG_UNWIND_PATH_MAX 512

/* Flags of one walk. */
enum
{
  MG_UNWIND_TRUNCATED = 1u << 0,    /* more frames than max */
  MG_UNWIND_UNKNOWN_FRAME = 1u << 1 /* the walk stopped at a frame it could not unwind */
};

struct mg_unwind_module
{
  uint64_t start, end;  /* the module's mapped address range */
  uint64_t load_bias;   /* address = ELF virtual address + load_bias */
  uint32_t generation;  /* mg_unwind_refresh round that first saw it */
  uint8_t build_id_len; /* 0: the module has no GNU build-id note */
  uint8_t build_id[MG_UNWIND_BUILD_ID_MAX];
  char path[MG_UNWIND_PATH_MAX]; /* as the loader names it; "" for the program, filled in from /proc/self/exe */
};

/* Maps the tables and takes the first snapshot; 0, or -1 with errno. */
int mg_unwind_prepare (void);
/* Takes a new snapshot when modules were loaded or unloaded since the last
 * (cheap when nothing changed). Not in a signal handler. */
void mg_unwind_refresh (void);
/* Rereads the process's readable mappings (and modules) whatever changed:
 * the capture side calls it when it sees a new thread, before arming its
 * timer, so that the new stack is known (a handler that meets an unknown
 * stack also asks the next mg_unwind_refresh for it). Not in a handler. */
void mg_unwind_refresh_memory (void);
/* The stack of the interrupted code in ucontext (a ucontext_t *), outermost
 * last: pcs[0] is the interrupted instruction, the others return addresses.
 * Returns the number of frames written (at most max); *flags gets
 * MG_UNWIND_* bits. Async-signal-safe. */
unsigned mg_unwind_context (const void *ucontext, uint64_t *pcs, unsigned max, unsigned *flags);
/* The same walk by frame pointers only (rbp chains), with the same bounds
 * on stack reads: for comparison, and for code known to keep them. */
unsigned mg_unwind_context_fp (const void *ucontext, uint64_t *pcs, unsigned max, unsigned *flags);
/* The stack of another thread of this process that is inside a call and
 * keeps its callee's frame while it is: frame is that callee's frame
 * address (its frame pointer: the caller's rbp at [frame], the return
 * address site at [frame + 8]). pcs[0] gets site, the others the
 * callers' return addresses, outermost last; nothing (0) when [frame + 8]
 * is not site. The stack is copied into copy (copy_size bytes: how deep
 * the walk may read) with process_vm_readv, so memory that the thread
 * freed meanwhile fails the read instead of faulting; the caller checks
 * that the call was in flight all along before it believes the frames.
 * Registers other than rbp and rsp are unknown at the call: a caller
 * whose CFA needs one ends the walk with MG_UNWIND_UNKNOWN_FRAME. No lock,
 * no allocation; not in a handler of the thread walked. */
unsigned mg_unwind_frame (uint64_t frame, uint64_t site, void *copy, size_t copy_size,
                          uint64_t *pcs, unsigned max, unsigned *flags);
/* Index of the module holding pc in the current snapshot, or -1.
 * Async-signal-safe. */
int mg_unwind_module_at (uint64_t pc);
/* The snapshot's modules, for the record (outside handlers). Modules that
 * were unloaded stay listed: their frames in earlier samples still resolve. */
unsigned mg_unwind_module_count (void);
const struct mg_unwind_module *mg_unwind_module (unsigned index);
/* Whether the listed module is still mapped (false once unloaded). */
bool mg_unwind_module_loaded (unsigned index);
/* Bytes of the process's RSS that the unwinder mapped: the loaded modules'
 * unwind tables, mapped in whole when a module is first seen, less what the
 * program had mapped of them already (the memory metrics leave it out). */
uint64_t mg_unwind_tables_resident (void);
