/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The record handed to the MPI wrapper at MPI_Finalize
 * (format/mg-mpi-handoff.h): a last sample, then sampling pauses while the
 * wrapper copies the mapping, so that no round or slot merge rewrites it
 * meanwhile. */
#include <string.h>

#include "format/mg-mpi-handoff.h"
#include "mg-sampler-state.h"
#include "mg-scorep-host.h"

#define MG_EXPORT __attribute__((visibility("default")))

static bool held;
static MgRecordHeader head;
static char name[MG_MPI_HANDOFF_NAME_LEN];

MG_EXPORT int metrograph_sampler_hold_record (MgMpiHandoff *out);
MG_EXPORT void metrograph_sampler_release_record (void);

static bool
has_record (const MgSampler *s)
{
  return s->sampling && !s->finished && (s->rec.header != NULL || s->record_pending)
         && mg_sampler_owns_process ();
}

int
metrograph_sampler_hold_record (MgMpiHandoff *out)
{
  MgSampler *s = &mg_sampler;
  memset (out, 0, sizeof *out);
  if (s->have_plan)
    out->record_dir = s->plan.record_dir;
  if (held || !has_record (s) || !mg_sampler_lock_round (s))
    return -1;
  /* A rank that finalizes before its thread laid out its record (a
   * quarter interval in) lays it out now, under the lock as the thread
   * does. */
  if (s->record_pending && !mg_sampler_ensure_record (s))
    {
      pthread_mutex_unlock (&s->lock);
      return -1;
    }
  /* A rank that finalizes before its first round: its record becomes a
   * file first, as at a round (sampler.md, "Lifecycle of a process"). */
  mg_sampler_materialize (s, MG_RECORD_HEAD_SLOTS);
  /* Holding the lock, the thread is between rounds: this one is ours. */
  mg_sampling_final_round (s);
  /* Score-P's measurement ends at MPI_Finalize: the asynchronous plugins'
   * values (ASYNC ones are read only now) go into the copy. */
  mg_scorep_stop (s);
  held = true;

  const char *base = strrchr (s->rec.path, '/');
  mg_record_copy_str (name, sizeof name, base ? base + 1 : s->rec.path);
  memcpy (&head, s->rec.header, sizeof head);
  head.flags |= MG_RECORD_FLAG_TRANSFERRED;
  head.end_mono_ns = mg_now_ns ();
  out->name = name;
  out->head = &head;
  out->head_len = sizeof head;
  out->body = (const char *) s->rec.map + sizeof head;
  out->body_len = s->rec.size - sizeof head;
  return 0;
}

void
metrograph_sampler_release_record (void)
{
  if (!held)
    return;
  held = false;
  pthread_mutex_unlock (&mg_sampler.lock);
}
