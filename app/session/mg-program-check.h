/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The program's file: why it cannot be sampled through LD_PRELOAD (looked
 * at before the run, so that a run without samples can be explained), and
 * why it could not be started, in words that name the real cause. GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  MG_PROGRAM_DYNAMIC,      /* an ELF with an interpreter: the sampler can load */
  MG_PROGRAM_STATIC,       /* ELF without PT_INTERP: LD_PRELOAD has no effect */
  MG_PROGRAM_SETUID,       /* set-user/group-id: the loader ignores LD_PRELOAD */
  MG_PROGRAM_WRONG_CLASS,  /* an ELF of another class or machine than the sampler
                            * (a 32-bit program): its loader would refuse the
                            * sampler, which the launcher does not offer it */
  MG_PROGRAM_MSAN,         /* built with MemorySanitizer (it exports __msan_init): the
                            * sampler leaves it unprofiled (docs/sampler.md) */
  MG_PROGRAM_NOT_ELF,      /* a script or something else: its interpreter decides */
  MG_PROGRAM_UNREADABLE,
} MgProgramKind;

MgProgramKind mg_program_check (const char *path);

/* A sentence explaining why such a program gave no samples. */
const char *mg_program_kind_explain (MgProgramKind kind);

/* Why @path (the file that was run, named @name as the user gave it)
 * could not be started, posix_spawn's @error_number: execve's ENOENT for
 * a file that exists is its #! interpreter missing, and ENOEXEC for a file
 * without a #! line is a script that only a shell would run. */
char *mg_program_describe_start_failure (const char *path, const char *name, int error_number);

G_END_DECLS
