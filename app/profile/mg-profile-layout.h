/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The layout of a profile's payload (docs/profile-format.md): its GVariant
 * type in each format version, the members the reader and writer name, and
 * the payload's checksum. Shared by the writer (mg-profile-writer.c), the
 * reader (mg-profile-reader.c) and the loader (mg-profile-load.c). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The payload's members, in order: run, metrics, groups, windows,
 * aggregates, single values, processes, process series, plugin errors,
 * metric errors, events, and (format 2 on) the program's output; the types
 * of those that are tuples: */
/* Format 5: what Linux names as bytes (argv, working folder, hosts, a
 * process's host and program, the program's output) is stored as bytes
 * ("ay" with its NUL), not as UTF-8 text. */
#define MG_PAYLOAD_RUN_TYPE_V4 "(assasxduudduis)"
#define MG_PAYLOAD_RUN_TYPE "(aayayaayxduudduis)"
#define MG_PAYLOAD_METRIC_TYPE "(sisiibbbmsmsbmsmsmsmsmsimsb(dddd)dmsibbbbmsmsi)"
#define MG_PAYLOAD_GROUP_TYPE "(smsmsasmsi)"
#define MG_PAYLOAD_PROCESS_TYPE_V4 "(iiimsmsddiib)"
#define MG_PAYLOAD_PROCESS_TYPE "(iiimaymayddiib)"
#define MG_PAYLOAD_PSERIES_TYPE_V2 "(adadab)"
#define MG_PAYLOAD_PSERIES_TYPE "(uayab)"
#define MG_PAYLOAD_PLUGIN_ERROR_TYPE "(imsmsims)"
#define MG_PAYLOAD_METRIC_ERROR_TYPE "(imsimsudd)"
#define MG_PAYLOAD_EVENT_TYPE "(idiims)"
#define MG_PAYLOAD_OUTPUT_TYPE_V4 "(mst)"
#define MG_PAYLOAD_OUTPUT_TYPE "(mayt)"
/* Format 4: and the precision the processes' series are stored at. */
#define MG_PAYLOAD_PRECISION_TYPE "u"
/* Format 6: the call stacks (app/profile/mg-stack-set.h): modules (path,
 * build-id), then per process its index, samples taken and lost, the
 * record's stacks state, its stacks (frames (module, vaddr), flags), the
 * windows that hold counts (starts, ends) and the counts (window, stack,
 * count). */
#define MG_PAYLOAD_STACKS_TYPE "(a(ayay)a(ittua(a(ut)u)adada(uuu)))"
/* Format 7 stores them packed (mg-stack-pack.h): modules as before, the
 * run's distinct stacks once (frames, flags, thread: 0, none recorded),
 * then per process its index, samples taken and lost, stacks state, the
 * run-wide indices of its stacks and its windows and counts packed. The
 * profile keeps MG_PAYLOAD_STACKS_TYPE in memory. */
#define MG_STACK_PACKED_ENTRY_TYPE "(a(ut)uu)"
#define MG_STACK_PACKED_PROCESS_TYPE "(ittuauay)"
#define MG_PAYLOAD_STACKS_PACKED_TYPE \
  "(a(ayay)a" MG_STACK_PACKED_ENTRY_TYPE "a" MG_STACK_PACKED_PROCESS_TYPE ")"
/* Format 7: what names the stacks' frames without the binaries and the
 * sources (mg-profile-code.h): per distinct frame its module and looked-up
 * address (a return address one byte back) with its names, innermost
 * first (function, source file as a name, "" when unknown, line); the
 * source texts (path, bytes); the files left out (path, why); the bound
 * the texts were collected within (0: not collected). */
#define MG_PAYLOAD_CODE_TYPE "(a(uta(sayu))a(ayay)a(ays)t)"
/* Format 8: the threads the stacks were sampled in (mg-profile-threads.h):
 * per thread its process (member 8's index), its ordinal (as in the
 * stacks' flags, without the + 1), its id and its name (the comm, raw
 * bytes, a name). */
#define MG_PAYLOAD_THREADS_TYPE "a(iuiay)"
/* The members the reader and writer name by index. */
#define MG_PAYLOAD_SERIES_MEMBER 9
#define MG_PAYLOAD_OUTPUT_MEMBER 13
#define MG_PAYLOAD_PRECISION_MEMBER 14
#define MG_PAYLOAD_STACKS_MEMBER 15
#define MG_PAYLOAD_CODE_MEMBER 16
#define MG_PAYLOAD_THREADS_MEMBER 17

/* The payload's type in a file of this format version. */
const GVariantType *mg_profile_payload_type (guint32 version);
/* The members of a process's tuple the bulk is (read when asked for):
 * its times and values, or its block (format 3). */
guint mg_profile_payload_hole_first (guint32 version);
/* The CRC a profile file's header holds for this payload: of all of it
 * (formats 1, 2), or of all but the processes' blocks (format 3, whose
 * blocks carry their own). */
guint32 mg_profile_payload_crc (const guchar *payload, gsize len, guint32 version);

G_END_DECLS
