/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The record's call-stack section (record version 3, docs/record-format.md,
 * "Call stacks"): a fixed-size table of distinct stacks, filled lock-free
 * from a signal handler, and per slot the (stack, count) pairs of the
 * samples taken in that slot's window, which halve with the slots. libc
 * only, no allocation: the section lies in the record's mapping, laid out
 * when the record is created.
 *
 *   MgRecordStacks                       at stacks_offset (the header's)
 *   uint32_t        index[index_size]    hash → 1 + stack id, 0 empty
 *   MgRecordStack   stacks[max_stacks]   dense, in order of first sight
 *   uint32_t        pending[max_stacks]  samples not yet given to a slot
 *   uint64_t        pool[pool_frames]    the stacks' frames, innermost first
 *   MgRecordModule  modules[max_modules]
 *   slot            [capacity]           MgRecordStackSlot + MgRecordStackCount[slot_pairs]
 *   MgRecordThread  threads[max_threads] (version 2) the threads' ids and names
 *
 * Version 2 of the section (its version field; 0 in records written
 * before, which have no threads table and read as before): each stack
 * also says which thread it was sampled in, its ordinal in the process
 * (0 the main thread, then 1, 2, … in the order the sampler first saw
 * them) in its flags, and the threads table names the ordinals.
 */
#ifndef MG_RECORD_STACKS_H
#define MG_RECORD_STACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "format/mg-record-format.h"

enum {
  MG_RECORD_STACKS_DEFAULT_MAX = 4096, /* distinct stacks per process */
  MG_RECORD_STACKS_MIN = 1,
  MG_RECORD_STACKS_LIMIT = 1 << 20,    /* what a reader accepts */
  MG_RECORD_STACK_FRAMES_AVG = 16,     /* pool: this many frames per stack */
  MG_RECORD_STACK_MAX_FRAMES = 128,    /* frames of one stack */
  MG_RECORD_STACK_SLOT_PAIRS = 16,     /* distinct stacks per slot */
  MG_RECORD_STACK_MODULES = 256,
  MG_RECORD_BUILD_ID_MAX = 32,
  MG_RECORD_STACKS_VERSION = 2,        /* the section's layout, with threads */
  MG_RECORD_STACK_THREADS = 256,       /* threads named per process */
  MG_RECORD_THREAD_NAME_LEN = 16,      /* a thread's comm, with its NUL */
};

/* Why the section holds no (more) samples. */
typedef enum {
  MG_RECORD_STACKS_ON = 0,
  MG_RECORD_STACKS_OFF = 1,          /* --no-stacks */
  MG_RECORD_STACKS_STEPPED_ASIDE = 2,/* the program installed a handler for the signal */
  MG_RECORD_STACKS_FAILED = 3,       /* timers or the handler could not be set up */
} MgRecordStacksState;

/* Flags of one stack. */
enum {
  MG_RECORD_STACK_TRUNCATED = 1u << 0, /* more frames than were kept */
  MG_RECORD_STACK_UNKNOWN = 1u << 1,   /* the walk stopped at a frame it could not unwind */
  /* A thread blocked in an MPI call, sampled without a signal: the frames
   * are [an address inside the MPI wrapper's MPI_<name>, the call site]
   * (format/mg-mpi-threads.h). */
  MG_RECORD_STACK_MPI = 1u << 2,
  /* Bits 3 to 14: the thread's ordinal + 1 (0: not known, as in records
   * of section version 0); ordinals from MG_RECORD_STACK_THREAD_MAX on
   * share the last value. */
  MG_RECORD_STACK_THREAD_SHIFT = 3,
  MG_RECORD_STACK_THREAD_MASK = 0xfffu << 3,
  MG_RECORD_STACK_THREAD_MAX = 0xfffu - 1,
  MG_RECORD_STACK_READY = 1u << 15,    /* frames written (store-release) */
};

typedef struct {
  uint32_t max_stacks;
  uint32_t index_size;       /* power of two, >= 2 * max_stacks */
  uint32_t pool_frames;
  uint32_t slot_pairs;
  uint32_t max_modules;
  uint32_t capacity;         /* the record's slots */
  uint64_t index_offset;     /* from the section's start */
  uint64_t stacks_offset;
  uint64_t pending_offset;
  uint64_t pool_offset;
  uint64_t modules_offset;
  uint64_t slots_offset;
  uint32_t slot_stride;      /* bytes per slot */
  uint32_t state;            /* MgRecordStacksState */
  int32_t signal;            /* the sampling signal, 0 when none */
  /* Live counters, atomics. */
  uint32_t n_stacks;         /* stack ids handed out, <= max_stacks */
  uint32_t pool_used;        /* frames handed out, <= pool_frames */
  uint32_t n_modules;
  uint64_t n_taken;          /* samples the handler took */
  uint64_t n_lost_table;     /* a new stack found the table or pool full */
  uint64_t n_lost_busy;      /* all probed entries were being written */
  uint64_t n_lost_slot;      /* a slot's pairs were full (also in the slot) */
  uint64_t n_threads;        /* threads that got a timer */
  /* Version 2 (zero in older records, whose size ends at the slots). */
  uint32_t version;          /* MG_RECORD_STACKS_VERSION */
  uint32_t max_threads;
  uint64_t threads_offset;
  uint32_t n_thread_names;   /* live counter: entries of threads written */
  uint32_t reserved32;
  uint64_t reserved[1];
} MgRecordStacks;

typedef struct {
  uint64_t hash;
  uint32_t frame_offset;     /* into the pool */
  uint16_t n_frames;
  uint16_t flags;            /* MG_RECORD_STACK_*; READY last */
} MgRecordStack;

typedef struct {
  uint64_t start, end;       /* mapped address range */
  uint64_t load_bias;        /* address = ELF vaddr + load_bias */
  uint8_t build_id_len;
  uint8_t build_id[MG_RECORD_BUILD_ID_MAX];
  uint8_t reserved[7];
  char path[MG_RECORD_PATH_LEN];
} MgRecordModule;

/* A thread of the process and its name (its comm, raw bytes: the last
 * one the sampler saw, at a listing of the threads or at the end). */
typedef struct {
  int32_t tid;
  uint32_t ordinal;          /* as in the stacks' flags, without the + 1 */
  char name[MG_RECORD_THREAD_NAME_LEN];
} MgRecordThread;

typedef struct {
  uint32_t n_pairs;
  uint32_t n_lost;           /* samples of this window that found the pairs full */
} MgRecordStackSlot;

typedef struct {
  uint32_t stack;            /* id */
  uint32_t count;
} MgRecordStackCount;

/* The section's size for a record of capacity slots; lays it out in *out
 * when out is not NULL. */
uint64_t mg_record_stacks_layout (MgRecordStacks *out, uint32_t max_stacks, uint32_t capacity);

/* Adds a section of max_stacks stacks to a header from mg_record_header_init
 * (stacks_offset, stacks_size, file_size). */
void mg_record_header_add_stacks (MgRecordHeader *h, uint32_t max_stacks);

/* The section of a record mapped at base, or NULL when it has none. */
MgRecordStacks *mg_record_stacks_at (void *base, const MgRecordHeader *h);

static inline uint32_t *
mg_record_stacks_index (MgRecordStacks *s)
{
  return (uint32_t *) ((char *) s + s->index_offset);
}
static inline MgRecordStack *
mg_record_stacks_entries (MgRecordStacks *s)
{
  return (MgRecordStack *) ((char *) s + s->stacks_offset);
}
static inline uint32_t *
mg_record_stacks_pending (MgRecordStacks *s)
{
  return (uint32_t *) ((char *) s + s->pending_offset);
}
static inline uint64_t *
mg_record_stacks_pool (MgRecordStacks *s)
{
  return (uint64_t *) ((char *) s + s->pool_offset);
}
static inline MgRecordModule *
mg_record_stacks_modules (MgRecordStacks *s)
{
  return (MgRecordModule *) ((char *) s + s->modules_offset);
}
/* The threads table, NULL in a section of version 0. */
static inline MgRecordThread *
mg_record_stacks_threads (MgRecordStacks *s)
{
  return s->version >= 2 ? (MgRecordThread *) ((char *) s + s->threads_offset) : NULL;
}
/* A stack's flags for thread ordinal (clamped). */
static inline unsigned
mg_record_stack_thread_flags (uint32_t ordinal)
{
  if (ordinal > MG_RECORD_STACK_THREAD_MAX - 1)
    ordinal = MG_RECORD_STACK_THREAD_MAX - 1;
  return (ordinal + 1) << MG_RECORD_STACK_THREAD_SHIFT;
}
/* The thread ordinal of a stack's flags, -1 when not known. */
static inline int
mg_record_stack_thread (unsigned flags)
{
  unsigned v = (flags & MG_RECORD_STACK_THREAD_MASK) >> MG_RECORD_STACK_THREAD_SHIFT;
  return v == 0 ? -1 : (int) v - 1;
}
static inline MgRecordStackSlot *
mg_record_stacks_slot (MgRecordStacks *s, uint32_t i)
{
  return (MgRecordStackSlot *) ((char *) s + s->slots_offset + (uint64_t) i * s->slot_stride);
}
static inline MgRecordStackCount *
mg_record_stacks_slot_pairs (MgRecordStackSlot *slot)
{
  return (MgRecordStackCount *) (slot + 1);
}

/* Counts one sample of the stack pcs[0..n) (innermost first). Async-signal-
 * safe and lock-free: any number of threads may add at once. Returns false
 * when it did not fit (counted in n_lost_*). */
bool mg_record_stacks_add (MgRecordStacks *s, const uint64_t *pcs, unsigned n, unsigned flags);
/* The same, counted weight times: an MPI wait seen again after sampling
 * rounds that were passed over stands for each of them. */
bool mg_record_stacks_add_weighted (MgRecordStacks *s, const uint64_t *pcs, unsigned n,
                                    unsigned flags, uint32_t weight);

/* Names thread tid, ordinal, in the threads table (the sampler thread
 * only, one caller at a time). False when the table is full or the
 * section has none. */
bool mg_record_stacks_name_thread (MgRecordStacks *s, int32_t tid, uint32_t ordinal,
                                   const char *name);

/* Thread tid, ordinal, renamed: its entry (if the table has one) takes
 * name when it differs (the sampler thread only). A reader of the live
 * record may see a name half written, as any live field. */
void mg_record_stacks_rename_thread (MgRecordStacks *s, int32_t tid, uint32_t ordinal,
                                     const char *name);

/* Moves the pending counts into slot i (not in a signal handler; one
 * caller at a time). */
void mg_record_stacks_drain (MgRecordStacks *s, uint32_t slot);

/* Slot i ← slots 2i and 2i+1 for i < ceil(n/2), then clears the slots
 * from ceil(n/2) to n: what mg_record_merge does to the metric slots. */
void mg_record_stacks_merge (MgRecordStacks *s, uint32_t n);

/* Checks a section read from a record whose header is h: layout inside
 * section_size bytes, counters within their tables, every ready stack's
 * frames within the pool, every slot's pairs naming stacks. */
bool mg_record_stacks_check (const MgRecordStacks *s, uint64_t section_size,
                             const MgRecordHeader *h);

#endif /* MG_RECORD_STACKS_H */
