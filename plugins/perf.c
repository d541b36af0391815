/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Built-in metric plugins "CPU Instructions" (hardware counters) and
 * "Software Events", from Linux perf_event_open(2): one source built twice,
 * with MG_PERF_HARDWARE 1 (libmetrograph-perf-hw.so) or 0
 * (libmetrograph-perf-sw.so), so that a machine without hardware counters
 * shows the hardware group as unavailable while software events still work.
 *
 * The event comes from the metric's customData, an event specifier in the
 * manner of pmc_allocate(3): a generic name (cycles, instructions,
 * cache-misses, task-clock, page-faults, ...), a raw code rNNNN (hex), or,
 * with libpfm4 installed, a symbolic name such as "INST_RETIRED:ANY_P" or
 * "perf::PERF_COUNT_SW_PAGE_FAULTS". Two events separated by '/' give a ratio
 * ("cycles/instructions": cycles per instruction).
 *
 * Counters are process-scope: at a metric's first sample (only then is its
 * metric id known) one counting counter is opened on every thread of the
 * process listed in /proc/self/task at the first metric's opening (at
 * most MAX_TASKS; the later metrics use the same list) but the sampler's
 * own (metrograph_get_sampler_thread_usage), each with
 * inherit=1, so that threads and child processes they create afterwards
 * are counted too (the kernel adds the descendants' counts on read); the
 * metric's value is the sum. A counter on a thread that has ended keeps its
 * final count, so the sum never falls back. The table is fixed-size: the
 * sampling path opens and reads counters without allocating. The plugin's
 * own reads of its counters go through allinea_safe_read, so that they are
 * left out of the program's I/O like every plugin's. Symbolic names are translated by libpfm4 (which allocates: not
 * async-signal-safe) at initialisation instead: the plugin reads the
 * customData of its own metrics from Metrograph's run plan (perf-plan.c)
 * and keeps each translation, so the sampling path only looks them up,
 * opens and reads counters. Only under another host, with no run plan, is
 * a symbolic name translated at the metric's first sample. A forked child
 * opens its own counters at its first sample.
 *
 * Software events of one thread form one perf group (PERF_FORMAT_GROUP),
 * whichever metrics they belong to: one read() brings all of them up to
 * date at once, where each counter read alone costs a read (and, for a
 * thread running elsewhere, a cross-CPU call) of its own. The group is
 * read by the first of its members to ask in a round; the others take the
 * values it read (mg_same_round). Hardware and raw events stay alone: a hardware group
 * counts only when all its members fit the PMU together. A thread's group
 * is opened whole, with every software event of the plan, and never grows
 * after (build_group says why); a thread whose group the kernel keeps
 * refusing while threads come and go gets its counters alone. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mg-metric-util.h"
#include "perf-plan.h"

#if __has_include(<perfmon/pfmlib_perf_event.h>)
#include <perfmon/pfmlib_perf_event.h>
#define MG_HAVE_PFM_HEADERS 1
#else
#define MG_HAVE_PFM_HEADERS 0
#endif

#ifndef MG_PERF_HARDWARE
#error "define MG_PERF_HARDWARE to 0 or 1"
#endif

#define MAX_SLOTS 64
#define MAX_EVENT_NAME 128
/* Threads followed one by one per event (those existing at the metric's
 * first sample; later ones are inherited). */
#define MAX_TASKS 128
/* Counters in one thread's group. */
#define MAX_MEMBERS 16

typedef struct {
  const char *name;
  uint32_t type;
  uint64_t config;
} GenericEvent;

static const GenericEvent generic_events[] = {
  { "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
  { "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
  { "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
  { "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
  { "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
  { "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
  { "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
  { "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
  { "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
  { "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
  { "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
  { "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
  { "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
  { "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
  { "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
  { "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
  { "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
  { "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
  { "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
  { "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
  { "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
  { "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
  { "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
  { "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
};

typedef enum { SLOT_UNOPENED, SLOT_OPEN, SLOT_FAILED } SlotState;

typedef struct {
  metric_id_t id;
  SlotState state;
  int n_events;          /* 1, or 2 for a ratio */
  int n_tasks;           /* threads with a counter, for each event */
  int fd[2][MAX_TASKS];
  /* The thread's group (index into groups) and the counter's place in it,
   * or -1 for a counter read alone. */
  signed char member[2][MAX_TASKS];
  unsigned char group[2][MAX_TASKS];
  uint64_t fd_id[2][MAX_TASKS]; /* counter_id of a counter read alone */
  uint64_t prev[2];      /* the sums at the previous sample */
  bool just_opened;      /* opened by this sample: no value yet */
  int error;             /* errno of the failure, SLOT_FAILED */
  char message[320];     /* the failure, reported at every sample */
} Slot;

static Slot slots[MAX_SLOTS];
static int n_slots;

/* One thread's software counters, read together. */
typedef struct {
  pid_t tid;
  int n_members;
  int fd[MAX_MEMBERS];        /* fd[0] leads */
  uint64_t id[MAX_MEMBERS];   /* counter_id of each */
  /* The member's index in planned, or -1 (an event not in the plan). */
  signed char plan_index[MAX_MEMBERS];
  int64_t round_ns;           /* the round of values (mg_same_round) */
  uint64_t values[MAX_MEMBERS];
  bool have_values;           /* values holds a read */
  int stale_rounds;           /* rounds in a row given the last values */
} Group;

static Group groups[MAX_TASKS];
static int n_groups;
static pid_t owner_pid;  /* the process the counters belong to */
static unsigned owner_generation; /* mg_forks_seen () at owner_pid */
/* Descriptors the counters may hold at most: a share of RLIMIT_NOFILE, so
 * that a program with many threads keeps descriptors for itself. */
static int fd_budget = 256;
static int fds_open;
/* A counter was refused a place out of the program's way (open_counter_in):
 * its EMFILE is the hard limit's, described by describe_no_room. */
static bool no_room;
/* A counter's number found naming another file: every counter is opened
 * again at the next sample (forget_counters). */
static bool counters_disturbed;

/* libpfm4, when installed (dlopen'ed at initialisation when the run plan
 * names a symbolic event, see load_libpfm). */
typedef int (*pfm_initialize_fn) (void);
typedef int (*pfm_get_os_event_encoding_fn) (const char *, int, int, void *);
static pfm_get_os_event_encoding_fn pfm_encode;
static bool load_libpfm (void);

/* Symbolic event names translated at initialisation. */
typedef struct {
  char name[MAX_EVENT_NAME];
  bool known;                  /* false: libpfm4 does not know it */
  struct perf_event_attr attr;
} SymbolicEvent;

static SymbolicEvent symbolic[MAX_SLOTS * 2];
static int n_symbolic;
static bool have_plan; /* the run plan was read: symbolic is complete */

/* The software events of this plugin's metrics in the run plan: a thread's
 * group is opened with all of them at once (see build_group). */
static struct perf_event_attr planned[MAX_MEMBERS];
static int n_planned;

/* The threads the counters were opened on, listed once at the first
 * metric's opening: every metric counts the same threads (and those they
 * create afterwards, by inheritance), and later metrics scan no /proc. */
static pid_t opened_tids[MAX_TASKS];
static int n_opened_tids; /* 0: not listed yet */
static bool opened_more;  /* there were more than MAX_TASKS */

/* perf_event_paranoid, named in the "forbidden" message; the environment
 * variable METROGRAPH_PERF_PARANOID_FILE replaces it (for tests). */
static char paranoid_path[256] = "/proc/sys/kernel/perf_event_paranoid";

static long
mg_perf_event_open (struct perf_event_attr *attr, pid_t pid, int cpu, int group,
                 unsigned long flags)
{
  return syscall (SYS_perf_event_open, attr, pid, cpu, group, flags);
}

/* The kernel's id of the counter at fd (ids start at 1), 0 when fd is not
 * a counter. A counter can only be read with read(2), which takes what a
 * pipe, socket, eventfd or signalfd holds and moves a file's offset: a
 * program that closed every descriptor and put one of its own at a
 * counter's number (close_range, then dup2) would lose data to it. So
 * every read and close checks the id first: one ioctl, about a
 * microsecond, that no other kind of file answers ('$' is perf's). */
static uint64_t
counter_id (int fd)
{
  uint64_t id;
  return fd >= 0 && ioctl (fd, PERF_EVENT_IOC_ID, &id) == 0 ? id : 0;
}

static bool
still_ours (int fd, uint64_t id)
{
  if (id != 0 && counter_id (fd) == id)
    return true;
  counters_disturbed = true;
  errno = EBADF;
  return false;
}

/* Closes a counter of ours; a number that names another file now is the
 * program's: left alone. */
static void
close_counter (int fd, uint64_t id)
{
  if (id != 0 && counter_id (fd) == id)
    allinea_safe_close (fd);
}

/* The perf_event_paranoid level; false when it cannot be read. */
static bool
read_paranoid (int *level)
{
  char buf[32];
  if (mg_read_file (paranoid_path, buf, sizeof buf) < 0)
    return false;
  const char *p = mg_skip_spaces (buf);
  bool negative = *p == '-';
  if (negative)
    p++;
  if (*p < '0' || *p > '9')
    return false;
  int v = (int) mg_parse_u64 (&p);
  *level = negative ? -v : v;
  return true;
}

/* Appends src to dst (size bytes) without libc. */
static void
append (char *dst, size_t size, const char *src)
{
  size_t n = 0;
  while (n < size - 1 && dst[n])
    n++;
  while (n < size - 1 && *src)
    dst[n++] = *src++;
  dst[n] = '\0';
}

static void
append_int (char *dst, size_t size, int v)
{
  char digits[16];
  int n = 0;
  unsigned u = v < 0 ? (unsigned) -v : (unsigned) v;
  do
    digits[n++] = (char) ('0' + u % 10);
  while ((u /= 10) && n < 15);
  char text[18];
  int k = 0;
  if (v < 0)
    text[k++] = '-';
  while (n > 0)
    text[k++] = digits[--n];
  text[k] = '\0';
  append (dst, size, text);
}

/* The cure for EACCES/EPERM, which depends on the paranoid level: at 2 or
 * more (Debian's default is 3) the kernel forbids what the plugin asked;
 * at 1 or less it allows it, so something else (a container's seccomp
 * profile, a security module) refused. */
static void
describe_forbidden (char *msg, size_t size)
{
  int level;
  bool known = read_paranoid (&level);
  if (known && level <= 1)
    {
      append (msg, size, "' forbidden although ");
      append (msg, size, paranoid_path);
      append (msg, size, " = ");
      append_int (msg, size, level);
      append (msg, size, " allows it: a container's seccomp profile or a "
              "security module blocks perf_event_open; allow that system "
              "call, or run with CAP_PERFMON");
      return;
    }
  append (msg, size, "' forbidden by ");
  append (msg, size, paranoid_path);
  append (msg, size, " = ");
  if (known)
    append_int (msg, size, level);
  else
    append (msg, size, "(unreadable)");
  append (msg, size, ": as root run 'sysctl kernel.perf_event_paranoid=1'");
  if (!known || level > 2)
    append (msg, size, " (2 allows user-space counts only)");
  append (msg, size, ", or run the program with CAP_PERFMON (Linux 5.8 or "
          "later) or as root");
}

/* The message, with its cure, for a failed perf_event_open of event; also
 * called by the tests, which cannot provoke every errno. */
/* perf_event_open's answer when the machine has no such counter at all. */
static bool
hardware_absent (uint32_t type, int err)
{
  return (err == ENOENT || err == EOPNOTSUPP || err == ENODEV) && type != PERF_TYPE_SOFTWARE;
}

MG_PLUGIN_EXPORT void mg_perf_describe_open_error (char *msg, size_t size,
                                                   const char *event,
                                                   uint32_t type, int err);
void
mg_perf_describe_open_error (char *msg, size_t size, const char *event,
                             uint32_t type, int err)
{
  msg[0] = '\0';
  append (msg, size, "event '");
  append (msg, size, event);
  if (err == EACCES || err == EPERM)
    describe_forbidden (msg, size);
  else if (hardware_absent (type, err))
    append (msg, size, "' not supported by this hardware: virtual machines "
            "often have no performance counters; run on bare metal or "
            "enable the virtual PMU (e.g. QEMU/KVM '-cpu host')");
  else if (err == ESRCH)
    append (msg, size, "': every thread of the process ended before its "
            "counter could be opened (ESRCH)");
  else if (err == EMFILE || err == ENFILE)
    append (msg, size, "': no file descriptor left for its counters (at most "
            "a quarter of the open-files limit): raise it ('ulimit -n')");
  else if (type == PERF_TYPE_SOFTWARE && (err == EINVAL || err == ENOENT || err == ENODEV))
    {
      /* Software events exist in every kernel with perf events: the
       * kernel refused the counter's settings or its thread. */
      append (msg, size, "' refused by the kernel (errno ");
      append_int (msg, size, err);
      append (msg, size, ") although software events exist in every "
              "kernel with perf events: it rejected the counter's settings "
              "for this process's threads; report it with the kernel "
              "version ('uname -r')");
    }
  else if (err == EINVAL || err == ENOENT)
    append (msg, size, "' unknown to the kernel: check the event name or "
            "raw code for this CPU ('perf list')");
  else
    {
      append (msg, size, "': perf_event_open failed with errno ");
      append_int (msg, size, err);
    }
}

static bool
parse_hex (const char *s, uint64_t *value)
{
  uint64_t v = 0;
  if (*s == '\0')
    return false;
  for (; *s; s++)
    {
      int d;
      if (*s >= '0' && *s <= '9')
        d = *s - '0';
      else if (*s >= 'a' && *s <= 'f')
        d = *s - 'a' + 10;
      else if (*s >= 'A' && *s <= 'F')
        d = *s - 'A' + 10;
      else
        return false;
      v = v * 16 + (uint64_t) d;
    }
  *value = v;
  return true;
}

/* Why no counter can be had under the program's hard RLIMIT_NOFILE. The
 * clause before the first ": " is the reason the end summary shows. */
static void
describe_no_room (char *msg, size_t size, const char *event)
{
  struct rlimit nofile;
  msg[0] = '\0';
  append (msg, size, "the hard descriptor limit of ");
  if (getrlimit (RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_max != RLIM_INFINITY)
    append_int (msg, size, (int) nofile.rlim_max);
  else
    append (msg, size, "this process");
  append (msg, size, " leaves no room for counters: event '");
  append (msg, size, event);
  append (msg, size, "' would take numbers the program may use, and a counter "
          "cannot be reopened each round; raise the hard limit, or lower the "
          "soft one alone ('ulimit -Sn')");
}

static bool
is_generic_or_raw (const char *event, struct perf_event_attr *attr)
{
  memset (attr, 0, sizeof *attr);
  attr->size = sizeof *attr;
  for (size_t i = 0; i < sizeof generic_events / sizeof generic_events[0]; i++)
    if (mg_str_eq (event, generic_events[i].name))
      {
        attr->type = generic_events[i].type;
        attr->config = generic_events[i].config;
        return true;
      }
  uint64_t raw;
  if (event[0] == 'r' && parse_hex (event + 1, &raw))
    {
      attr->type = PERF_TYPE_RAW;
      attr->config = raw;
      return true;
    }
  return false;
}

/* libpfm4's translation of a symbolic name (allocates: initialisation, or
 * the first sample under a host without a run plan). */
static bool
pfm_translate (const char *event, struct perf_event_attr *attr)
{
#if MG_HAVE_PFM_HEADERS
  if (pfm_encode)
    {
      pfm_perf_encode_arg_t arg;
      memset (attr, 0, sizeof *attr);
      memset (&arg, 0, sizeof arg);
      arg.attr = attr;
      arg.size = sizeof arg;
      if (pfm_encode (event, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg)
          == PFM_SUCCESS)
        {
          attr->size = sizeof *attr;
          return true;
        }
    }
#endif
  return false;
}

static const SymbolicEvent *
find_symbolic (const char *event)
{
  for (int i = 0; i < n_symbolic; i++)
    if (mg_str_eq (symbolic[i].name, event))
      return &symbolic[i];
  return NULL;
}

/* Fills attr for event; on failure writes the reason into msg. */
static int
resolve_event (const char *event, struct perf_event_attr *attr, char *msg,
               size_t size)
{
  if (is_generic_or_raw (event, attr))
    return 0;
  const SymbolicEvent *known = find_symbolic (event);
  if (known && known->known)
    {
      *attr = known->attr;
      return 0;
    }
  msg[0] = '\0';
  if (known == NULL && have_plan)
    {
      append (msg, size, "symbolic event '");
      append (msg, size, event);
      append (msg, size, "' was not translated at initialisation: it is "
              "not the customData of one of this plugin's metrics in the "
              "run plan");
      return -1;
    }
  if (known == NULL && load_libpfm () && pfm_translate (event, attr))
    return 0; /* no run plan: another host */
  append (msg, size, "unknown event '");
  append (msg, size, event);
  if (pfm_encode)
    append (msg, size, "': neither a generic name (cycles, instructions, "
            "cache-misses, task-clock, page-faults, ...), a raw code rNNNN, "
            "nor a libpfm4 event of this CPU (list them with libpfm4's "
            "showevtinfo)");
  else
    append (msg, size, "': use a generic name (cycles, instructions, "
            "cache-misses, branch-misses, task-clock, page-faults, "
            "context-switches, ...) or a raw code rNNNN (install libpfm4 for "
            "symbolic names)");
  return -1;
}

static bool
same_event (const struct perf_event_attr *a, const struct perf_event_attr *b)
{
  return a->type == b->type && a->config == b->config && a->config1 == b->config1
         && a->config2 == b->config2;
}

/* Notes a software event of the plan (once), for the threads' groups. */
static void
plan_event (const char *name)
{
  struct perf_event_attr attr;
  const SymbolicEvent *known = NULL;
  if (!is_generic_or_raw (name, &attr))
    {
      known = find_symbolic (name);
      if (known == NULL || !known->known)
        return;
      attr = known->attr;
    }
  if (attr.type != PERF_TYPE_SOFTWARE || n_planned == MAX_MEMBERS)
    return;
  for (int i = 0; i < n_planned; i++)
    if (same_event (&planned[i], &attr))
      return;
  planned[n_planned++] = attr;
}

/* Translates the symbolic names of one customData ("a" or "a/b", blanks
 * ignored, as slot_open reads it) into the table. */
static void
translate_custom_data (const char *custom_data, void *user)
{
  char name[MAX_EVENT_NAME];
  int len = 0;
  for (const char *p = custom_data;; p++)
    {
      if (*p == '/' || *p == '\0')
        {
          name[len] = '\0';
          struct perf_event_attr attr;
          if (len > 0 && !is_generic_or_raw (name, &attr) && !find_symbolic (name)
              && n_symbolic < (int) (sizeof symbolic / sizeof symbolic[0]))
            {
              SymbolicEvent *e = &symbolic[n_symbolic++];
              memcpy (e->name, name, (size_t) len + 1);
              e->known = load_libpfm () && pfm_translate (name, &e->attr);
            }
          if (len > 0)
            plan_event (name);
          len = 0;
          if (*p == '\0')
            break;
        }
      else if (*p != ' ' && len < MAX_EVENT_NAME - 1)
        name[len++] = *p;
    }
}

/* Opens a counting counter on thread tid, following its descendants, in
 * the group led by group_fd (-1: alone, or leading a new group). */
static int
open_counter_in (struct perf_event_attr *attr, pid_t tid, int group_fd, int *fd)
{
  attr->inherit = 1;
  attr->exclude_hv = 1;
  attr->disabled = 0;
  long r = mg_perf_event_open (attr, tid, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
  if (r < 0 && (errno == EACCES || errno == EPERM) && !attr->exclude_kernel)
    {
      attr->exclude_kernel = 1; /* allowed at paranoid level 2 */
      r = mg_perf_event_open (attr, tid, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
    }
  if (r < 0)
    return -1;
  /* Kept for the thread's life, out of the program's way; a counter
   * cannot be opened again for each reading (it counts from its
   * opening), so where it would take one of the program's numbers (a
   * hard RLIMIT_NOFILE without room) it is not opened at all. */
  *fd = mg_keep_fd_if_free ((int) r);
  if (*fd < 0)
    {
      allinea_safe_close ((int) r);
      no_room = true;
      errno = EMFILE;
      return -1;
    }
  return 0;
}

static int
open_counter (struct perf_event_attr *attr, pid_t tid, int *fd)
{
  attr->read_format = 0;
  return open_counter_in (attr, tid, -1, fd);
}

/* The group of thread tid, a new one when it has none (NULL when the
 * table is full). */
static Group *
group_of (pid_t tid)
{
  for (int g = 0; g < n_groups; g++)
    if (groups[g].tid == tid)
      return &groups[g];
  if (n_groups == MAX_TASKS)
    return NULL;
  Group *group = &groups[n_groups++];
  group->tid = tid;
  group->n_members = 0;
  group->round_ns = 0;
  group->have_values = false;
  group->stale_rounds = 0;
  return group;
}

static int read_group (Group *group);

static void
close_group_fds (Group *group)
{
  for (int m = group->n_members - 1; m >= 0; m--)
    {
      close_counter (group->fd[m], group->id[m]);
      fds_open--;
    }
  group->n_members = 0;
}

/* Adds a counter of attr to the group (plan_index: its place in planned,
 * or -1). */
static int
add_member (Group *group, struct perf_event_attr *attr, int plan_index)
{
  struct perf_event_attr a = *attr;
  a.read_format = PERF_FORMAT_GROUP;
  int fd;
  int leader = group->n_members > 0 ? group->fd[0] : -1;
  if (open_counter_in (&a, group->tid, leader, &fd) != 0)
    return -1;
  if (plan_index >= 0)
    planned[plan_index].exclude_kernel = a.exclude_kernel; /* what was allowed */
  attr->exclude_kernel = a.exclude_kernel;
  group->plan_index[group->n_members] = (signed char) plan_index;
  group->id[group->n_members] = counter_id (fd);
  group->fd[group->n_members++] = fd;
  fds_open++;
  return 0;
}

/* Whether attr opens on thread tid alone (the counter is closed again):
 * tells a member refused by its group from an event refused outright. */
static bool
opens_alone (const struct perf_event_attr *attr, pid_t tid)
{
  struct perf_event_attr a = *attr;
  a.read_format = 0;
  int fd;
  if (open_counter_in (&a, tid, -1, &fd) != 0)
    return false;
  allinea_safe_close (fd);
  return true;
}

/* Opens a new group on the thread with every software event of the plan
 * at once. The kernel refuses to read a group (ECHILD) while a copy of it
 * that a thread or child process inherited has fewer members than the
 * group has now: a group that grows after the thread created one fails at
 * every read for as long as that descendant lives (Open MPI ranks create
 * threads at MPI_Init, when the first round opens the counters). So a
 * group never grows once opened, and a descendant created while it was
 * being opened (its copy found by the read that follows) has the group
 * opened again: its partial copy goes with the old one.
 *
 * A thread created while the group opens can also take the leader away:
 * its inherited copy of the thread's counters is equivalent to the
 * thread's own until the group changes, and when the two threads switch
 * on one CPU the kernel swaps their counter contexts instead of switching
 * the counters. The leader then lives in the new thread's context, and a
 * member opened with it on the thread is refused: EINVAL, or ENODEV once
 * that thread has ended (seen for 3 of 4 groups on a thread creating and
 * joining threads on its CPU). Such a member opens alone, which tells it
 * from an event the kernel refuses: the group is opened again. */
#define GROUP_ATTEMPTS 8
static int
build_group (Group *group)
{
  int moved_err = 0;
  for (int attempt = 0; attempt < GROUP_ATTEMPTS; attempt++)
    {
      /* An event the kernel refuses is left out (its metric opens it
       * alone, or fails on its own); the thread's end ends the opening. */
      int first_err = 0;
      bool moved = false;
      for (int i = 0; i < n_planned && fds_open < fd_budget; i++)
        if (add_member (group, &planned[i], i) != 0)
          {
            int err = errno;
            if (err == ESRCH)
              {
                first_err = err;
                break;
              }
            if (group->n_members > 0 && (err == EINVAL || err == ENODEV)
                && opens_alone (&planned[i], group->tid))
              {
                moved = true;
                moved_err = err;
                break;
              }
            if (first_err == 0)
              first_err = err;
          }
      if (group->n_members == 0)
        {
          errno = first_err ? first_err : EMFILE;
          return -1;
        }
      if (moved)
        {
          close_group_fds (group);
          continue;
        }
      /* Members that join a group already on a CPU wait for the thread's
       * next context switch to count: put the group on again. */
      ioctl (group->fd[0], PERF_EVENT_IOC_DISABLE, 0);
      ioctl (group->fd[0], PERF_EVENT_IOC_ENABLE, 0);
      errno = 0;
      if (read_group (group) == 0 || errno != ECHILD)
        return 0;
      close_group_fds (group);
      moved_err = ECHILD;
    }
  /* Threads keep coming: the caller opens the thread's counters alone. */
  errno = moved_err;
  return -1;
}

/* attr's place in planned, or -1. */
static int
planned_index (const struct perf_event_attr *attr)
{
  for (int i = 0; i < n_planned; i++)
    if (same_event (&planned[i], attr))
      return i;
  return -1;
}

/* Finds the counter of attr in tid's group (opened with the plan's
 * events, see build_group) or adds it there; *group_index and *member say
 * where it is. -1 with errno set when it cannot be opened; 1 when the
 * group is full (then the caller opens it alone). */
static int
join_group (struct perf_event_attr *attr, pid_t tid, int *fd, int *group_index,
            int *member)
{
  Group *group = group_of (tid);
  if (group == NULL)
    return 1;
  if (group->n_members == 0 && n_planned > 0 && build_group (group) != 0)
    {
      int err = errno;
      n_groups--; /* the new, empty group goes again */
      errno = err;
      return -1;
    }
  *group_index = (int) (group - groups);
  for (int m = 0; m < group->n_members; m++)
    if (group->plan_index[m] >= 0 && same_event (&planned[(int) group->plan_index[m]], attr))
      {
        attr->exclude_kernel = planned[(int) group->plan_index[m]].exclude_kernel;
        *member = m;
        *fd = group->fd[m];
        return 0;
      }
  /* Planned but left out of the group when it was opened: alone, so that
   * the group never grows. */
  if (n_planned > 0 && planned_index (attr) >= 0)
    return 1;
  /* Not in the plan (another host): the group grows, which a thread or
   * child created since cannot read (ECHILD, above). */
  if (group->n_members == MAX_MEMBERS)
    return 1;
  bool was_empty = group->n_members == 0;
  if (add_member (group, attr, -1) != 0)
    {
      int err = errno;
      if (was_empty)
        n_groups--;
      errno = err;
      return -1;
    }
  *member = group->n_members - 1;
  *fd = group->fd[*member];
  if (!was_empty)
    {
      /* A member that joins a group already on a CPU waits for the
       * thread's next context switch to count: put the group on again. */
      ioctl (group->fd[0], PERF_EVENT_IOC_DISABLE, 0);
      ioctl (group->fd[0], PERF_EVENT_IOC_ENABLE, 0);
    }
  return 0;
}

/* Brings the group's values up to date: one read for all its counters.
 * The kernel refuses the read (ECHILD) while a thread that inherited the
 * group is being created or is ending (its copy's members are added or
 * taken one by one): a quarter of the reads of a group on a thread that
 * creates and joins threads on its CPU, 2 % after a few tries at once. */
#define READ_TRIES 8
static int
read_group (Group *group)
{
  uint64_t buf[1 + MAX_MEMBERS];
  ssize_t n;
  if (!still_ours (group->fd[0], group->id[0]))
    return -1;
  for (int tries = 0;; tries++)
    {
      n = allinea_safe_read (group->fd[0], buf, sizeof buf);
      if (n >= 0 || errno != ECHILD || tries + 1 == READ_TRIES)
        break;
    }
  if (n < (ssize_t) sizeof buf[0] || buf[0] > MAX_MEMBERS
      || (size_t) n < (buf[0] + 1) * sizeof buf[0])
    return -1;
  for (int m = 0; m < group->n_members; m++)
    group->values[m] = m < (int) buf[0] ? buf[1 + m] : 0;
  group->have_values = true;
  group->stale_rounds = 0;
  return 0;
}

/* Rounds in a row that a group refused by a thread's coming or going
 * (ECHILD) gives its last values instead: the counts come at the next
 * read, nothing is lost. A group that stays refused (one that grew after
 * a thread inherited it, see build_group) fails after them. */
#define MAX_STALE_ROUNDS 16

/* A grouped counter's value, from the group's one read in the round of
 * sample time now; fresh: read again all the same (a member just joined,
 * its value is not in the last read). */
static int
read_member (Group *group, int member, bool fresh, const struct timespec *now,
             uint64_t *value)
{
  bool same_round = mg_same_round (now, &group->round_ns);
  if ((fresh || !same_round) && read_group (group) != 0)
    {
      if (errno != ECHILD || !group->have_values
          || group->stale_rounds >= MAX_STALE_ROUNDS)
        {
          group->round_ns = 0;
          return -1;
        }
      group->stale_rounds++; /* the round's other members take them too */
    }
  *value = group->values[member];
  return 0;
}

static void
close_groups (void)
{
  for (int g = 0; g < n_groups; g++)
    close_group_fds (&groups[g]);
  n_groups = 0;
}

/* Through the API's safe read: the plugin's reads are counted as the
 * profiler's I/O and left out of the program's (rchar, syscr). */
static int
read_counter (int fd, uint64_t id, uint64_t *value)
{
  if (!still_ours (fd, id))
    return -1;
  return allinea_safe_read (fd, value, sizeof *value) == (ssize_t) sizeof *value ? 0 : -1;
}

/* The threads of the process (at most max; *more set when there were
 * more). -1 with errno set when they cannot be listed. */
static int
list_tasks (pid_t *tids, int max, bool *more)
{
  *more = false;
  int fd = allinea_safe_open (MG_PROC_TASK_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  int n = mg_list_tasks (fd, tids, max, more);
  int err = errno;
  allinea_safe_close (fd);
  errno = err;
  return n;
}

/* Closes a counter read alone; a grouped one stays open until its group
 * is closed (closing a member would move the others' places in the
 * group's read). */
static void
release_counter (Slot *slot, int e, int k)
{
  if (slot->member[e][k] < 0 && slot->fd[e][k] >= 0)
    {
      close_counter (slot->fd[e][k], slot->fd_id[e][k]);
      fds_open--;
    }
  slot->fd[e][k] = -1;
}

static void
slot_close_counters (Slot *slot)
{
  for (int e = 0; e < slot->n_events; e++)
    for (int k = 0; k < slot->n_tasks; k++)
      release_counter (slot, e, k);
  slot->n_tasks = 0;
}

static void
slot_fail (Slot *slot, int err)
{
  slot_close_counters (slot);
  slot->state = SLOT_FAILED;
  slot->error = err;
}

/* The sum of an event's counters over the slot's threads; fresh: read
 * the groups again whatever their members took (at the opening). */
static int
read_sum (const Slot *slot, int event, bool fresh, const struct timespec *now,
          uint64_t *sum)
{
  uint64_t total = 0;
  for (int k = 0; k < slot->n_tasks; k++)
    {
      uint64_t v;
      int member = slot->member[event][k];
      if (member >= 0 ? read_member (&groups[slot->group[event][k]], member, fresh, now, &v) != 0
                      : read_counter (slot->fd[event][k], slot->fd_id[event][k], &v) != 0)
        return -1;
      total += v;
    }
  *sum = total;
  return 0;
}

/* Opens event's counter on each of the threads; *n_open is how many got
 * one and *n_ended how many ended since they were listed (skipped; the
 * descriptor budget may stop short too). -1 with errno set when none
 * could be opened. */
static int
open_on_tasks (Slot *slot, int event, struct perf_event_attr *attr,
               const pid_t *tids, int n_tids, int *n_open, int *n_ended)
{
  int opened = 0, ended = 0, first_error = 0;
  for (int k = 0; k < n_tids; k++)
    {
      int fd = -1, group = 0, member = -1;
      if (fds_open >= fd_budget)
        break;
      int r = attr->type == PERF_TYPE_SOFTWARE
        ? join_group (attr, tids[k], &fd, &group, &member) : 1;
      /* A thread whose group cannot be opened (see build_group) still
       * has the counter, alone: only the event's own refusal counts. */
      if (r == 1 || (r != 0 && errno != ESRCH))
        {
          member = -1;
          r = open_counter (attr, tids[k], &fd);
        }
      if (r != 0)
        {
          if (errno == ESRCH)
            {
              ended++; /* ended since it was listed */
              continue;
            }
          if (first_error == 0)
            first_error = errno;
          if (opened == 0)
            break; /* the event cannot be opened at all */
          continue;
        }
      slot->fd[event][opened] = fd;
      slot->fd_id[event][opened] = member < 0 ? counter_id (fd) : 0;
      slot->member[event][opened] = (signed char) member;
      slot->group[event][opened] = (unsigned char) group;
      opened++;
      if (member < 0)
        fds_open++; /* a group's are counted by join_group */
    }
  *n_open = opened;
  *n_ended = ended;
  if (opened == 0)
    {
      errno = first_error ? first_error : ended > 0 ? ESRCH : EMFILE;
      return -1;
    }
  return 0;
}

/* The sampler's own thread is not the program: no counter on it (one read
 * fewer per event and round, too). Returns the new count. */
static int
without_sampler_thread (pid_t *tids, int n_tids)
{
  struct metrograph_sampler_thread_usage self;
  if (!mg_sampler_usage (&self) || self.tid == 0)
    return n_tids;
  int kept = 0;
  for (int k = 0; k < n_tids; k++)
    if (tids[k] != self.tid)
      tids[kept++] = tids[k];
  return kept > 0 ? kept : n_tids;
}

/* Opens the counters named by the metric's customData. */
static void
slot_open (Slot *slot, const struct timespec *now)
{
  const char *spec = allinea_get_custom_data (slot->id);
  char events[2][MAX_EVENT_NAME];
  int n = 0, len = 0;
  slot->n_events = 0;
  slot->n_tasks = 0;
  no_room = false;
  events[0][0] = events[1][0] = '\0';
  for (const char *p = spec ? spec : ""; ; p++)
    {
      if (*p == '/' || *p == '\0')
        {
          events[n][len] = '\0';
          n++;
          len = 0;
          if (*p == '\0' || n == 2)
            break;
        }
      else if (*p != ' ' && len < MAX_EVENT_NAME - 1)
        events[n][len++] = *p;
    }
  if (events[0][0] == '\0' || (n == 2 && events[1][0] == '\0'))
    {
      slot->message[0] = '\0';
      append (slot->message, sizeof slot->message,
              "no perf event named: give one in the metric's customData "
              "(e.g. customData=\"task-clock\")");
      slot_fail (slot, EINVAL);
      return;
    }
  struct perf_event_attr attrs[2];
  for (int i = 0; i < n; i++)
    if (resolve_event (events[i], &attrs[i], slot->message, sizeof slot->message) != 0)
      {
        slot_fail (slot, EINVAL);
        return;
      }
  if (n_opened_tids == 0)
    {
      n_opened_tids = list_tasks (opened_tids, MAX_TASKS, &opened_more);
      if (n_opened_tids <= 0)
        {
          /* No /proc: the calling thread's process, through its main thread. */
          opened_tids[0] = owner_pid;
          n_opened_tids = 1;
        }
      n_opened_tids = without_sampler_thread (opened_tids, n_opened_tids);
    }
  pid_t tids[MAX_TASKS];
  bool more = opened_more;
  int n_tids = n_opened_tids;
  memcpy (tids, opened_tids, (size_t) n_tids * sizeof tids[0]);
  int covered = n_tids, gone = 0;
  for (int i = 0; i < n; i++)
    {
      int n_open, n_ended;
      slot->n_events = i + 1;
      if (open_on_tasks (slot, i, &attrs[i], tids, n_tids, &n_open, &n_ended) != 0)
        {
          int err = errno;
          slot->n_events = i; /* this event holds nothing */
          if (err == EMFILE && no_room)
            describe_no_room (slot->message, sizeof slot->message, events[i]);
          else
            mg_perf_describe_open_error (slot->message, sizeof slot->message,
                                         events[i], attrs[i].type, err);
          slot_fail (slot, err);
          return;
        }
      if (i == 0 || n_ended > gone)
        gone = n_ended; /* threads that ended are not missing */
      if (i == 0)
        {
          covered = n_open;
          slot->n_tasks = n_open;
        }
      else if (n_open < slot->n_tasks)
        {
          /* Both events must cover the same threads: drop the extra ones. */
          for (int k = n_open; k < slot->n_tasks; k++)
            release_counter (slot, 0, k);
          slot->n_tasks = covered = n_open;
        }
      else
        for (int k = slot->n_tasks; k < n_open; k++)
          release_counter (slot, i, k);
    }
  for (int i = 0; i < slot->n_events; i++)
    if (read_sum (slot, i, true, now, &slot->prev[i]) != 0)
      slot->prev[i] = 0;
  slot->state = SLOT_OPEN;
  slot->just_opened = true;
  if (more || covered < n_tids - gone)
    /* Counted, but not the whole process: say so once. */
    allinea_set_metric_error_messagef (
        slot->id, EMFILE,
        "perf event '%s' counts only %d of the process's threads (%s%d "
        "threads existed at its first sample); the others are not counted",
        events[0], covered, more ? "more than " : "", n_tids - gone);
}

/* Closes every counter still ours and forgets them all: each metric opens
 * its counters again at its next sample. */
static void
forget_counters (void)
{
  for (int i = 0; i < n_slots; i++)
    if (slots[i].state == SLOT_OPEN)
      slot_close_counters (&slots[i]);
  close_groups ();
  n_slots = 0;
  fds_open = 0;
  n_opened_tids = 0;
  counters_disturbed = false;
}

static void
reset_after_fork (void)
{
  forget_counters (); /* our inherited copies */
  owner_pid = getpid ();
  owner_generation = mg_forks_seen ();
}

static Slot *
find_slot (metric_id_t id, const struct timespec *now)
{
  if (owner_generation != mg_forks_seen ())
    reset_after_fork ();
  for (int i = 0; i < n_slots; i++)
    if (slots[i].id == id)
      return &slots[i];
  if (n_slots == MAX_SLOTS)
    return NULL;
  Slot *slot = &slots[n_slots++];
  memset (slot, 0, sizeof *slot);
  slot->id = id;
  slot_open (slot, now);
  return slot;
}

/* The changes of the metric's counters since its previous sample. *fresh
 * is set at the sample that opened them: they counted nothing before, so
 * there is no value yet (the getters store the sentinel: a gap). */
static int
sample (metric_id_t id, const struct timespec *now, uint64_t delta[2], int *n_fds,
        bool *fresh)
{
  Slot *slot = find_slot (id, now);
  if (slot == NULL)
    {
      allinea_set_metric_error_message (id, ENOSPC,
                                        "too many perf metrics (at most 64)");
      return -1;
    }
  if (slot->state != SLOT_OPEN)
    {
      allinea_set_metric_error_message (id, slot->error, slot->message);
      return -1;
    }
  *n_fds = slot->n_events;
  *fresh = slot->just_opened;
  if (slot->just_opened)
    {
      slot->just_opened = false;
      return 0;
    }
  for (int i = 0; i < slot->n_events; i++)
    {
      uint64_t v;
      if (read_sum (slot, i, false, now, &v) != 0)
        {
          if (counters_disturbed)
            {
              /* slot goes with the others: a fresh one opens next time. */
              forget_counters ();
              allinea_set_metric_error_message (
                  id, EBADF,
                  "the program closed or replaced the perf counters' "
                  "descriptors; they are opened again at the next sample");
              return -1;
            }
          allinea_set_metric_error_messagef (id, errno,
                                             "reading a perf counter failed "
                                             "(errno %d)", errno);
          return -1;
        }
      delta[i] = v >= slot->prev[i] ? v - slot->prev[i] : 0;
      slot->prev[i] = v;
    }
  return 0;
}

/* The getters' values are divided by the sample time (or are ratios):
 * report when the counters were read. */
static void
report_read_time (struct timespec *t)
{
  struct timespec now = allinea_get_current_time ();
  mg_report_read_time (t, &now);
}

MG_PLUGIN_EXPORT int allinea_plugin_initialize (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int allinea_plugin_cleanup (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int mg_perf_count (metric_id_t id, struct timespec *t, uint64_t *out);
MG_PLUGIN_EXPORT int mg_perf_seconds (metric_id_t id, struct timespec *t, double *out);
MG_PLUGIN_EXPORT int mg_perf_ratio (metric_id_t id, struct timespec *t, double *out);

/* Loads libpfm4 the first time a symbolic name needs it: its
 * initialisation costs milliseconds that runs naming only generic events
 * (the built-in metrics) need not pay. False when it is not installed. */
static bool
load_libpfm (void)
{
  static bool tried;
  if (tried)
    return pfm_encode != NULL;
  tried = true;
  void *pfm = dlopen ("libpfm.so.4", RTLD_NOW | RTLD_LOCAL);
  if (pfm == NULL)
    return false;
  pfm_initialize_fn init = (pfm_initialize_fn) dlsym (pfm, "pfm_initialize");
  pfm_get_os_event_encoding_fn encode
    = (pfm_get_os_event_encoding_fn) dlsym (pfm, "pfm_get_os_event_encoding");
  if (init && encode && init () == 0)
    pfm_encode = encode;
  return pfm_encode != NULL;
}

/* Checks at initialisation that the kind of counter this plugin serves can
 * be opened at all, so that the whole group is reported unavailable, with
 * the reason, rather than every metric failing at every sample. */
int
allinea_plugin_initialize (plugin_id_t plugin_id, void *data)
{
  mg_watch_forks ();
  owner_pid = getpid ();
  owner_generation = mg_forks_seen ();
  n_slots = 0;
  n_groups = 0;
  fds_open = 0;
  n_opened_tids = 0;
  n_planned = 0;
  struct rlimit nofile;
  if (getrlimit (RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur != RLIM_INFINITY)
    fd_budget = nofile.rlim_cur / 4 < 16 ? 16 : (int) (nofile.rlim_cur / 4);
  const char *paranoid = getenv ("METROGRAPH_PERF_PARANOID_FILE");
  snprintf (paranoid_path, sizeof paranoid_path, "%s",
            paranoid && *paranoid ? paranoid : "/proc/sys/kernel/perf_event_paranoid");
  n_symbolic = 0;
  have_plan = false;
  Dl_info self;
  if (dladdr ((void *) allinea_plugin_initialize, &self) && self.dli_fname)
    have_plan = mg_perf_plan_custom_data (self.dli_fname, translate_custom_data, NULL);
#if MG_PERF_HARDWARE
  const char *probe_name = "instructions";
  const char *group = "CPU Instructions";
#else
  const char *probe_name = "task-clock";
  const char *group = "Software Events";
#endif
  struct perf_event_attr attr;
  char msg[320];
  int fd;
  if (resolve_event (probe_name, &attr, msg, sizeof msg) != 0)
    {
      allinea_set_plugin_error_messagef (plugin_id, EINVAL, "%s: %s", group, msg);
      return -1;
    }
  no_room = false;
  if (open_counter (&attr, owner_pid, &fd) != 0)
    {
      int err = errno;
      if (err == EMFILE && no_room)
        describe_no_room (msg, sizeof msg, probe_name);
      else
        mg_perf_describe_open_error (msg, sizeof msg, probe_name, attr.type, err);
      /* No counters in this machine (a VM without a PMU): the plugin
       * declines (code 0) rather than fails. */
      allinea_set_plugin_error_messagef (plugin_id, hardware_absent (attr.type, err) ? 0 : err,
                                         "%s: %s", group, msg);
      return -1;
    }
  allinea_safe_close (fd);
  return 0;
}

int
allinea_plugin_cleanup (plugin_id_t plugin_id, void *data)
{
  if (owner_generation == mg_forks_seen ())
    reset_after_fork ();
  n_slots = 0;
  return 0;
}

/* Events since the previous sample (divideBySampleTime gives events/s). */
int
mg_perf_count (metric_id_t id, struct timespec *t, uint64_t *out)
{
  uint64_t d[2];
  int n;
  bool fresh;
  if (sample (id, t, d, &n, &fresh) != 0)
    return -1;
  report_read_time (t);
  *out = fresh ? UINT64_MAX : d[0];
  return 0;
}

/* For nanosecond clocks (task-clock, cpu-clock): seconds since the previous
 * sample, which units "%" with divideBySampleTime turn into a percentage. */
int
mg_perf_seconds (metric_id_t id, struct timespec *t, double *out)
{
  uint64_t d[2];
  int n;
  bool fresh;
  if (sample (id, t, d, &n, &fresh) != 0)
    return -1;
  report_read_time (t);
  *out = fresh ? NAN : (double) d[0] / 1e9;
  return 0;
}

/* Δfirst / Δsecond for "a/b" (0 when nothing of b happened). */
int
mg_perf_ratio (metric_id_t id, struct timespec *t, double *out)
{
  uint64_t d[2] = { 0, 0 };
  int n;
  bool fresh;
  if (sample (id, t, d, &n, &fresh) != 0)
    return -1;
  report_read_time (t);
  if (n != 2)
    {
      allinea_set_metric_error_message (id, EINVAL,
                                        "a ratio needs two events in its "
                                        "customData, e.g. \"cycles/instructions\"");
      return -1;
    }
  if (fresh)
    *out = NAN;
  else
    *out = d[1] ? (double) d[0] / (double) d[1] : 0.0;
  return 0;
}
