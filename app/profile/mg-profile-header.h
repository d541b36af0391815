/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The profile file's fixed header (docs/profile-format.md): the magic, the
 * format version (little-endian u32 at 8), the payload's CRC-32 (u32 at 12)
 * and length (u64 at 16); the GVariant payload follows. Shared by the
 * loader and saver (mg-profile-load.c, mg-profile-save.c) and the fuzz
 * harness, which writes a valid header around its input. */
#pragma once

#define MG_PROFILE_MAGIC "MGPROF\r\n"
#define MG_PROFILE_MAGIC_LEN 8
/* 2: the program's output (member 13). 3: each process's series one
 * compact block (member 9). 4: blocks may hold single-precision rows, and
 * the precision they were stored at (member 14). 5: argv, the working
 * folder, host names, programs and the output stored as bytes. Formats 1
 * to 4 still open. 6: call stacks (member 15). 7: them packed, and the
 * frames' names and source text (member 16). 8: the threads' ids and names
 * (member 17). 9: no new member; its helpers were found by the rule's
 * second edition (MG_HELPER_RULE_STEPS_MAY_BE_WORK), older files by the
 * first, which their aggregates followed. */
#define MG_PROFILE_VERSION 9u
#define MG_PROFILE_VERSION_STEPS_MAY_BE_WORK 9u
#define MG_PROFILE_HEADER_LEN 24
/* Window times are seconds from the run's start within this (2^62 ns, 146
 * years; a record's times stay within 2^61 ns). */
#define MG_PROFILE_MAX_TIME_S 4.611686018427387904e9
