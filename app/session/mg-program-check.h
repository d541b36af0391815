/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Why a program cannot be sampled through LD_PRELOAD: looked at before the
 * run so that a run without samples can be explained. GTK-free. */
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
  MG_PROGRAM_NOT_ELF,      /* a script or something else: its interpreter decides */
  MG_PROGRAM_UNREADABLE,
} MgProgramKind;

MgProgramKind mg_program_check (const char *path);

/* A sentence explaining why such a program gave no samples. */
const char *mg_program_kind_explain (MgProgramKind kind);

G_END_DECLS
