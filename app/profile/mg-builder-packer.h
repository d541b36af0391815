/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Packs the profile builder's processes into compact blocks on threads
 * beside the caller, so that a merge of thousands of processes holds the
 * profile file's memory rather than every sample's. GTK-free. */
#pragma once

#include "mg-builder-process.h"

G_BEGIN_DECLS

/* The processes of one builder handed to the packer threads and not packed
 * yet: the caller waits while there are too many, or unpacked samples would
 * pile up, and for none before finishing or freeing. */
typedef struct {
  guint pending;
  GMutex lock;
  GCond done;
} MgBuilderPacker;

/* Threads that pack processes and aggregate metrics beside the caller. */
guint mg_builder_n_workers (void);

void mg_builder_packer_init (MgBuilderPacker *packer);
/* Waits for the processes being packed first. */
void mg_builder_packer_clear (MgBuilderPacker *packer);
/* Waits until none of the builder's processes is being packed. */
void mg_builder_packer_wait (MgBuilderPacker *packer);
/* Packs the process (not packed yet): its rows go back to rows. In the
 * caller's thread when here, else on a packer thread. */
void mg_builder_packer_pack (MgBuilderPacker *packer, MgBuilderProcess *p, MgBuilderRows *rows,
                             guint n_metrics, gboolean here);

G_END_DECLS
