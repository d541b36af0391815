/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-stopper.h"

#include <signal.h>

void
mg_stopper_init (MgStopper *self, double stop_after_s, double grace_s)
{
  *self = (MgStopper) { 0 };
  self->stop_after_s = MAX (stop_after_s, 0.0);
  self->grace_s = MAX (grace_s, 0.0);
}

void
mg_stopper_start (MgStopper *self, int pgid, gint64 start_us)
{
  self->pgid = pgid;
  if (self->stop_after_s > 0)
    self->stop_at_us = start_us + (gint64) (self->stop_after_s * G_USEC_PER_SEC);
}

gint64
mg_stopper_get_deadline (const MgStopper *self)
{
  if (self->pgid <= 0)
    return 0;
  return self->kill_at_us != 0 ? self->kill_at_us : self->stop_at_us;
}

void
mg_stopper_terminate (MgStopper *self, gint64 now_us)
{
  if (self->pgid <= 0 || self->terminated)
    return;
  self->terminated = TRUE;
  self->stop_at_us = 0;
  kill (-self->pgid, SIGTERM);
  kill (-self->pgid, SIGCONT);
  self->kill_at_us = now_us + (gint64) (self->grace_s * G_USEC_PER_SEC);
}

void
mg_stopper_check (MgStopper *self, gint64 now_us)
{
  if (self->pgid <= 0)
    return;
  if (self->kill_at_us != 0 && now_us >= self->kill_at_us)
    {
      kill (-self->pgid, SIGKILL);
      self->kill_at_us = 0;
    }
  else if (self->stop_at_us != 0 && now_us >= self->stop_at_us)
    {
      self->stopped_after = TRUE;
      mg_stopper_terminate (self, now_us);
    }
}

void
mg_stopper_finish (MgStopper *self)
{
  self->stop_at_us = 0;
  self->kill_at_us = 0;
  self->pgid = 0;
}
