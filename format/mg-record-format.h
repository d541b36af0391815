/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The per-process record: written by the sampler inside the profiled program,
 * read by the front end (merge, live view), completed by the launcher for a
 * killed process. libc only, so both sides include it and link its helpers
 * (mg-record-format.c). Documented in docs/record-format.md; change both
 * together and bump MG_RECORD_VERSION on any layout change.
 *
 * Layout of one file (all offsets from the start, host byte order, the file
 * is created at its full size up front so that no write can fail later):
 *
 *   MgRecordHeader
 *   MgRecordPlugin  [n_plugins]
 *   MgRecordMetric  [n_metrics]
 *   sample slot     [capacity], each MgRecordSample followed by
 *                   MgRecordValue[n_metrics]
 */
#ifndef MG_RECORD_FORMAT_H
#define MG_RECORD_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MG_RECORD_MAGIC "MGREC\0\r\n"
#define MG_RECORD_MAGIC_LEN 8
#define MG_RECORD_VERSION 3u
/* The oldest version a reader still accepts: version 2 is version 3
 * without sections (its `sections` field was reserved, always 0). */
#define MG_RECORD_VERSION_MIN 2u
#define MG_RECORD_SUFFIX ".mgrec"
/* A node summary's file name: <host>.mgnode (docs/node-summary.md). */
#define MG_NODE_SUMMARY_SUFFIX ".mgnode"

enum {
  MG_RECORD_ID_LEN = 128,     /* metric / source ids, NUL-terminated */
  MG_RECORD_PATH_LEN = 256,   /* library and program paths */
  MG_RECORD_MSG_LEN = 256,    /* error messages, truncated to fit */
  MG_RECORD_HOST_LEN = 64,
};

/* Generous limits that no real run reaches; they bound what a damaged header
 * can make a reader allocate. The sampler never asks for more slots. */
enum {
  MG_RECORD_MAX_PLUGINS = 4096,
  MG_RECORD_MAX_METRICS = 65536,
  MG_RECORD_MAX_CAPACITY = 1 << 24,
};

/* How the process's record ended. */
typedef enum {
  MG_RECORD_STATE_RUNNING = 0,  /* still sampling, or killed without warning */
  MG_RECORD_STATE_EXITED = 1,   /* end_status holds the exit status */
  MG_RECORD_STATE_SIGNALLED = 2,/* end_status holds the fatal signal */
  MG_RECORD_STATE_EXECED = 3,   /* replaced by exec; the new image has its own record */
} MgRecordState;

/* Header flags. */
enum {
  MG_RECORD_FLAG_STOPPED = 1u << 0,       /* recording stopped on an error: see record_error */
  MG_RECORD_FLAG_NODE_LEADER = 1u << 1,   /* this process reported the onePerNode metrics */
  MG_RECORD_FLAG_BACKFILLED = 1u << 2,    /* backfill getters have run */
  MG_RECORD_FLAG_SAMPLING_ENDED = 1u << 3,/* stop functions called, no more samples */
  MG_RECORD_FLAG_TRANSFERRED = 1u << 4,   /* a copy sent to rank 0 at MPI_Finalize: later
                                           * samples stayed on the process's node */
  MG_RECORD_FLAG_STACKS_NO_ROOM = 1u << 5,/* the call-stack section's blocks could not be
                                           * had (full disk): no call stacks */
};

typedef struct {
  char magic[MG_RECORD_MAGIC_LEN];
  uint32_t version;
  uint32_t header_size;        /* sizeof (MgRecordHeader) */
  uint64_t file_size;          /* the whole file, fixed at creation */

  uint32_t n_plugins;
  uint32_t n_metrics;
  uint32_t capacity;           /* sample slots */
  uint32_t sample_stride;      /* bytes per slot: sample + n_metrics values */
  uint64_t plugins_offset;
  uint64_t metrics_offset;
  uint64_t samples_offset;

  int32_t pid;
  int32_t ppid;
  int32_t rank;                /* MPI rank from the launcher's variables, -1 if none */
  uint32_t flags;              /* MG_RECORD_FLAG_* */
  char host[MG_RECORD_HOST_LEN];
  char program[MG_RECORD_PATH_LEN];   /* /proc/self/exe at start */
  char run_id[MG_RECORD_ID_LEN];      /* from the plan, ties records to one run */

  int64_t start_mono_ns;       /* CLOCK_MONOTONIC when the sampler started */
  int64_t start_real_ns;       /* CLOCK_REALTIME at the same moment */
  int64_t end_mono_ns;         /* 0 while running */
  uint32_t state;              /* MgRecordState */
  int32_t end_status;          /* exit status or signal number */

  uint64_t interval_start_ns;  /* sampling interval at start */
  uint64_t interval_ns;        /* current interval (doubles when slots merge) */

  /* Seqlock for readers of a live record: odd while slots are being
   * rewritten (merge, backfill). n_samples only grows between merges. */
  volatile uint32_t seq;
  volatile uint32_t n_samples; /* committed slots, <= capacity */
  uint64_t n_merges;           /* how many times the slots were halved */

  int32_t record_error_code;   /* why recording stopped (errno), 0 if none */
  char record_error[MG_RECORD_MSG_LEN];

  int32_t world_size;          /* MPI ranks in the job from the launcher's variables, 0 if none */
  uint32_t sections;           /* MG_RECORD_SECTION_*: what follows the slots (version 3) */
} MgRecordHeader;

/* Sections after the slots, at mg_record_sections_offset (). */
enum {
  MG_RECORD_SECTION_STACKS = 1u << 0, /* call stacks: format/mg-record-stacks.h */
};

/* Where the sections start: the end of the slots, 8-byte aligned. */
uint64_t mg_record_sections_offset (const MgRecordHeader *h);

typedef enum {
  MG_PLUGIN_STATE_UNUSED = 0,      /* all its metrics disabled: never loaded */
  MG_PLUGIN_STATE_ACTIVE = 1,      /* loaded and initialised */
  MG_PLUGIN_STATE_LOAD_FAILED = 2, /* dlopen or a missing symbol; see error */
  MG_PLUGIN_STATE_INIT_FAILED = 3, /* initialise returned non-zero or set an error */
  MG_PLUGIN_STATE_NOT_LEADER = 4,  /* onePerNode-only library, another process runs it */
  MG_PLUGIN_STATE_CRASHED = 5,     /* faulted inside a call; error_code is the signal */
  MG_PLUGIN_STATE_HUNG = 6,        /* a getter had not returned when the process ended */
} MgPluginState;

typedef struct {
  char source_id[MG_RECORD_ID_LEN];
  char library[MG_RECORD_PATH_LEN];
  uint32_t state;              /* MgPluginState */
  int32_t error_code;
  char error[MG_RECORD_MSG_LEN];
} MgRecordPlugin;

/* Metric flags. */
enum {
  MG_METRIC_FLAG_DOUBLE = 1u << 0,       /* dataType double (else uint64_t) */
  MG_METRIC_FLAG_ONE_PER_NODE = 1u << 1,
  MG_METRIC_FLAG_BACKFILL = 1u << 2,
  MG_METRIC_FLAG_DIVIDE = 1u << 3,       /* divideBySampleTime */
  MG_METRIC_FLAG_PERCENT = 1u << 4,      /* units "%" (with DIVIDE: x100) */
  MG_METRIC_FLAG_ACTIVE = 1u << 5,       /* this process sampled it */
  MG_METRIC_FLAG_SINGLE_VALUE = 1u << 6, /* domain single_value */
};

typedef struct {
  char id[MG_RECORD_ID_LEN];
  uint32_t plan_index;         /* index of the "metric" line in the plan */
  uint32_t plugin_index;       /* into the plugin table */
  uint32_t flags;              /* MG_METRIC_FLAG_* */
  int32_t error_code;          /* last error, 0 if none */
  uint32_t error_count;
  /* While its getter runs: 1 + the milliseconds from start_mono_ns at which
   * it was called; 0 otherwise. Plain stores, so that the front end sees a
   * getter that does not return while the process runs (a hang). */
  uint32_t call_since_ms;
  int64_t first_error_ns;      /* monotonic */
  int64_t last_error_ns;
  char error[MG_RECORD_MSG_LEN]; /* first error's message */
} MgRecordMetric;

/* One slot: the window (t_start_ns, t_end_ns] on the monotonic clock, which
 * covers n_raw raw samples once slots have merged. */
typedef struct {
  int64_t t_start_ns;
  int64_t t_end_ns;            /* the sample's time (after getters moved it) */
  uint32_t n_raw;
  uint32_t reserved;
} MgRecordSample;

/* One metric's value in a slot. count == 0: no value (a gap). */
typedef struct {
  double min;
  double max;
  double mean;                 /* mean of the raw values merged here */
  uint32_t count;              /* raw values merged here */
  uint32_t reserved;
} MgRecordValue;

/* What is wrong with a record, for messages that name the file. */
typedef enum {
  MG_RECORD_OK = 0,
  MG_RECORD_BAD_MAGIC,
  MG_RECORD_BAD_VERSION,
  MG_RECORD_BAD_HEADER_SIZE,
  MG_RECORD_TRUNCATED,          /* file_size is larger than the file */
  MG_RECORD_IMPLAUSIBLE_COUNTS,
  MG_RECORD_BAD_STRIDE,
  MG_RECORD_PLUGINS_OUTSIDE,
  MG_RECORD_METRICS_OUTSIDE,
  MG_RECORD_SAMPLES_OUTSIDE,
  MG_RECORD_TOO_MANY_SAMPLES,
  MG_RECORD_UNTERMINATED_HEADER,
  MG_RECORD_BAD_STATE,
  MG_RECORD_UNTERMINATED_PLUGIN,
  MG_RECORD_BAD_PLUGIN_STATE,
  MG_RECORD_UNTERMINATED_METRIC,
  MG_RECORD_BAD_PLUGIN_INDEX,
  MG_RECORD_BAD_TIME,           /* a time of the header or a metric out of range */
  MG_RECORD_BAD_SAMPLE_TIMES,   /* a slot's times out of range or ending before they start */
  MG_RECORD_BAD_STACKS,         /* the call-stack section is damaged */
} MgRecordProblem;

/* Every time in a record (nanoseconds of CLOCK_MONOTONIC or CLOCK_REALTIME,
 * 0 for none) lies in [0, MG_RECORD_MAX_TIME_NS] (73 years): the
 * difference of two never overflows, nor the sum of two differences. */
#define MG_RECORD_MAX_TIME_NS ((int64_t) 1 << 61)

/* Fills h for a new record: magic, version, the counts and the layout they
 * give (offsets, stride, file_size); every other field zero, rank -1. */
void mg_record_header_init (MgRecordHeader *h, uint32_t n_plugins, uint32_t n_metrics,
                            uint32_t capacity);

/* Checks a header read from a file of actual_size bytes: magic, version,
 * layout inside the file, terminated strings, known state. */
MgRecordProblem mg_record_check_header (const MgRecordHeader *h, uint64_t actual_size);
/* Checks one table entry; n_plugins is the header's. */
MgRecordProblem mg_record_check_plugin (const MgRecordPlugin *p);
MgRecordProblem mg_record_check_metric (const MgRecordMetric *m, uint32_t n_plugins);
/* Checks one committed slot's window. */
MgRecordProblem mg_record_check_sample (const MgRecordSample *s);
/* The problem in a few English words ("wrong magic"). */
const char *mg_record_problem_text (MgRecordProblem problem);

/* True when h is a record of this format version written for run_id. */
bool mg_record_is_of_run (const MgRecordHeader *h, const char *run_id);

/* Reads the header of the record file at path when it is a record of this
 * format written for run_id; false when the file cannot be opened, is
 * shorter than a header or belongs to another run or format. */
bool mg_record_read_header_of_run (const char *path, const char *run_id,
                                   MgRecordHeader *header);

/* Marks the record file at path ended (mg_record_write_end), when it is
 * a record of run_id whose process pid is still RUNNING: the launcher
 * reaped the process, which could not end its record itself. state is
 * SIGNALLED (end_status: the signal; a killed process) or EXITED
 * (end_status: the status, cut to 8 bits as exit(3) does; a process that
 * ended by a raw exit_group system call, as Go's runtime makes). True when
 * the record was changed. */
bool mg_record_mark_ended (const char *path, const char *run_id, int32_t pid,
                           MgRecordState state, int32_t end_status, int64_t end_mono_ns);

/* Ends the record open on fd (whose header is h) for a process that could
 * not end it itself: end_status, end_mono_ns (unless already set), then the
 * state, last, so that a reader who sees the state sees the rest. Returns
 * false when a write failed. */
bool mg_record_write_end (int fd, const MgRecordHeader *h, MgRecordState state,
                          int32_t end_status, int64_t end_mono_ns);

/* Copies src into a fixed-size record string field, always NUL-terminated
 * and zero-padded. */
void mg_record_copy_str (char *dst, size_t size, const char *src);

/* This host's name as records hold it: what gethostname gives, cut to
 * MG_RECORD_HOST_LEN - 1 bytes, a slash made '_' ("localhost" if none):
 * the sampler writes it, a node's own reduction looks for it. */
void mg_record_host_name (char host[MG_RECORD_HOST_LEN]);

#endif /* MG_RECORD_FORMAT_H */
