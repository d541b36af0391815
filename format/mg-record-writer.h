/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Writer of the per-process record (mg-record-format.h), mapped MAP_SHARED so
 * every committed sample survives the process. No allocation after create;
 * commit, touch and merge are plain stores into the mapping, safe in a
 * signal handler. Linked into the sampler; its reader is mg-record-view.h,
 * and tests/format/test-record-roundtrip.c holds the two together. */
#ifndef MG_RECORD_WRITER_H
#define MG_RECORD_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/mg-record-format.h"
#include "format/mg-record-stacks.h"

typedef struct {
  void *map;
  size_t size;
  MgRecordHeader *header;
  MgRecordPlugin *plugins;
  MgRecordMetric *metrics;
  MgRecordStacks *stacks; /* NULL while the call-stack section is not laid out (or none) */
  uint32_t max_stacks;    /* the section's size in stacks, 0 when the record has none */
  uint32_t touched_slots; /* slots [0, touched_slots) have their pages in */
  uint64_t reserved;      /* bytes [0, reserved) have their blocks: no SIGBUS there */
  uint64_t populated;     /* bytes [0, populated) are in the RSS (0: none beyond touched) */
  size_t page_size;
  bool in_memory;         /* not yet a file: mg_record_create_in_memory */
  char path[4096];
} MgRecordWriter;

/* The slots whose blocks a new record gets at once (1.3 s at 20 ms): a
 * short process never grows its record, and a process already running when
 * the disk fills keeps recording at least that long. */
#define MG_RECORD_HEAD_SLOTS 64

/* Creates <dir>/<host>.<pid>.<start_mono_ns>.mgrec at its full size and maps
 * it, with the header filled from the arguments and empty tables. Only the
 * header, the tables and the first MG_RECORD_HEAD_SLOTS slots get their
 * blocks now; the others' are reserved by mg_record_touch_next as they are
 * reached (a sparse tail). On failure
 * returns -errno, with a message in err; when the file could be created but
 * not allocated, its header records the error. */
int mg_record_create (MgRecordWriter *w, const char *dir, const char *host, const char *run_id,
                      int pid, int64_t start_mono_ns, uint32_t n_plugins, uint32_t n_metrics,
                      uint32_t capacity, char *err, size_t err_len);
/* The same with room for a call-stack section of max_stacks distinct
 * stacks (none when 0): in the file's size, but a hole, not laid out and
 * w->stacks NULL until mg_record_stacks_reserve. */
int mg_record_create_with_stacks (MgRecordWriter *w, const char *dir, const char *host,
                                  const char *run_id, int pid, int64_t start_mono_ns,
                                  uint32_t n_plugins, uint32_t n_metrics, uint32_t capacity,
                                  uint32_t max_stacks, char *err, size_t err_len);
/* Reserves the call-stack section's blocks (MADV_POPULATE_WRITE: a full
 * disk is an error here, not a SIGBUS in the program later) and lays it
 * out, ready for mg_record_stacks_add; then w->stacks is set. Not in a
 * signal handler: on the sampler thread, before stack timers are armed.
 * 0, or an errno with a message in err, and MG_RECORD_FLAG_STACKS_NO_ROOM
 * in the header: the section stays unlaid, the slots go on. */
int mg_record_stacks_reserve (MgRecordWriter *w, char *err, size_t err_len);
/* The same record laid out in the process's own memory (anonymous,
 * private), not yet a file: w->path names the file it would be, and
 * everything above works on it unchanged. A process that ends (execs) in
 * its first moments costs no file; mg_record_materialize makes it one. */
int mg_record_create_in_memory (MgRecordWriter *w, const char *dir, const char *host,
                                const char *run_id, int pid, int64_t start_mono_ns,
                                uint32_t n_plugins, uint32_t n_metrics, uint32_t capacity,
                                uint32_t max_stacks, char *err, size_t err_len);
/* An in-memory record becomes its file, created as mg_record_create_with_stacks
 * creates it but with blocks for @head_slots slots at first (at least 1),
 * holding everything written so far (header, tables, committed slots; the
 * stack section must not be laid out yet); then w is the file's mapping.
 * On failure as mg_record_create (the file's header holds the reason when
 * it could be created) and w stays in memory. 0 on a record already a
 * file. */
int mg_record_materialize (MgRecordWriter *w, uint32_t head_slots, char *err, size_t err_len);
/* An in-memory record written as its file in one go, as the process ends:
 * the file at its full size (a hole) with what was written (header,
 * tables, committed slots), the magic last; no mapping, no page fault.
 * On failure as mg_record_create. 0 on a record already a file. */
int mg_record_write_out (const MgRecordWriter *w, char *err, size_t err_len);
/* How mg_record_write_composed fills a record it never lays out in
 * memory: @header completes the header after the layout's fields (pid,
 * host, run id, sizes), @plugin and @metric each table entry (given
 * zeroed), and when slot_end_ns > 0 the record has one slot,
 * (slot_start_ns, slot_end_ns], without values (a life only). */
typedef struct {
  void (*header) (void *data, MgRecordHeader *h);
  void (*plugin) (void *data, uint32_t index, MgRecordPlugin *entry);
  void (*metric) (void *data, uint32_t index, MgRecordMetric *entry);
  int64_t slot_start_ns;
  int64_t slot_end_ns;
  void *data;
} MgRecordComposer;

/* The record mg_record_create_in_memory would lay out, filled by @c and
 * written straight to its file as mg_record_write_out writes it (the
 * same bytes, the magic last), a page at a time from a buffer on the
 * stack: a process that ends before its record was needed never zeroes
 * and writes the pages of a layout (ten for the default plan) only to
 * copy them out. Errors as mg_record_write_out's. */
int mg_record_write_composed (const char *dir, const char *host, const char *run_id, int pid,
                              int64_t start_mono_ns, uint32_t n_plugins, uint32_t n_metrics,
                              uint32_t capacity, uint32_t max_stacks, const MgRecordComposer *c,
                              char *err, size_t err_len);
/* Unmaps without touching the file (a fork child drops its parent's record). */
void mg_record_forget (MgRecordWriter *w);

MgRecordSample *mg_record_slot (const MgRecordWriter *w, uint32_t i);
static inline MgRecordValue *
mg_record_slot_values (MgRecordSample *slot)
{
  return (MgRecordValue *) (slot + 1);
}

/* Makes the slot at n_samples visible to readers (store-release). */
void mg_record_commit (MgRecordWriter *w);
/* Reserves the blocks of the slot at n_samples (a system call, once per new
 * page: not in a signal handler), then faults in and dirties its pages now,
 * before a round's getters, rather than while they read the process's page
 * faults and storage writes and the sampler thread's own, one after the
 * other: a page the sampler first touched between the two reads was the
 * program's fault (issue #26). False when the record has stopped: the
 * blocks could not be had (full disk), which the header now says
 * (MG_RECORD_FLAG_STOPPED, record_error); then nothing more may be written
 * to the slots. */
bool mg_record_touch_next (MgRecordWriter *w);
/* The bytes of the record's pages that are in the process's memory (its
 * RSS): the header and tables, touched when it was created, and the slots
 * touched or reserved ahead so far, whole pages. 0 when no record is
 * mapped. */
uint64_t mg_record_resident_bytes (const MgRecordWriter *w);
/* Halves the slots by merging neighbours (their stack counts too) and
 * doubles the interval, under the header's seqlock. */
void mg_record_merge (MgRecordWriter *w);
/* Seqlock around in-place rewrites (merge, backfill). */
void mg_record_begin_rewrite (MgRecordWriter *w);
void mg_record_end_rewrite (MgRecordWriter *w);

#endif /* MG_RECORD_WRITER_H */
