/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reading a span of a file at an offset whatever pread returns at a time
 * (short reads, EINTR): the one loop the profile, record and node summary
 * readers share, each with its own message. */
#pragma once

#include <glib.h>

/* Bytes read into buf: len, or fewer when the file ends first (errno 0)
 * or a read fails (errno set). */
gsize mg_pread_full (int fd, void *buf, gsize len, guint64 offset);
