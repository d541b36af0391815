/* SPDX-License-Identifier: GPL-3.0-or-later */
/* exec family (execve, execveat, fexecve, execvpe and the execl/execv forms) and _exit, interposed so the record is closed before the image
 * goes away; pthread_exit, so that the sampler knows when the main thread
 * has left the process to its other threads; unshare and setns, which
 * the kernel refuses (EINVAL) for some namespaces to a process with more
 * than one thread, so that the sampler's thread steps aside for them;
 * chroot, unshare and setns also tell the exec that the sampler's folder
 * may be gone from the process's view (mg-exec-env.h). A vfork child (which shares our memory but has its own pid)
 * passes straight through: nothing unsafe may run there. */
#include <dlfcn.h>
#include <sched.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mg-exec-env.h"
#include "mg-sampler-state.h"
#include "mg-sigmask.h"

#define MG_EXPORT __attribute__((visibility("default")))

typedef int (*ExecveFn) (const char *, char *const[], char *const[]);
typedef int (*FexecveFn) (int, char *const[], char *const[]);
typedef int (*ExecveatFn) (int, const char *, char *const[], char *const[], int);
typedef void (*ExitFn) (int);
typedef void (*PthreadExitFn) (void *);
typedef int (*UnshareFn) (int);
typedef int (*SetnsFn) (int, int);
typedef int (*ChrootFn) (const char *);

static ExecveFn real_execve;
static ExecveFn real_execvpe;
static FexecveFn real_fexecve;
static ExecveatFn real_execveat;
static ExitFn real__exit;
static ExitFn real__Exit;
static PthreadExitFn real_pthread_exit;
static UnshareFn real_unshare;
static SetnsFn real_setns;
static ChrootFn real_chroot;

/* Looks the real functions up once, early (never inside a vfork child). */
static void
mg_interpose_resolve (void)
{
  if (real_execve)
    return;
  *(void **) &real_execvpe = dlsym (RTLD_NEXT, "execvpe");
  *(void **) &real_fexecve = dlsym (RTLD_NEXT, "fexecve");
  *(void **) &real_execveat = dlsym (RTLD_NEXT, "execveat");
  *(void **) &real__exit = dlsym (RTLD_NEXT, "_exit");
  *(void **) &real__Exit = dlsym (RTLD_NEXT, "_Exit");
  *(void **) &real_pthread_exit = dlsym (RTLD_NEXT, "pthread_exit");
  *(void **) &real_unshare = dlsym (RTLD_NEXT, "unshare");
  *(void **) &real_setns = dlsym (RTLD_NEXT, "setns");
  *(void **) &real_chroot = dlsym (RTLD_NEXT, "chroot");
  *(void **) &real_execve = dlsym (RTLD_NEXT, "execve");
}

/* Before the sampler's own constructor (default priority) and the program's:
 * the real functions are known before anything can call ours. */
__attribute__((constructor(101))) static void
mg_interpose_constructor (void)
{
  mg_interpose_resolve ();
}

static bool
before_exec (void)
{
  if (!real_execve)
    mg_interpose_resolve ();
  bool sampling = mg_sampler_owns_process () && mg_sampler_finish_for_exec ();
  mg_sigmask_before_exec ();
  return sampling;
}

static void
after_failed_exec (bool restart)
{
  int e = errno;
  mg_sigmask_after_failed_exec ();
  if (restart)
    mg_sampler_restart ();
  errno = e;
}

/* The exec calls with LD_PRELOAD stripped of the sampler (mg-exec-env.h),
 * each on a frame of its own: only an exec after the root moved pays for
 * the copy's stack. */
__attribute__((noinline)) static int
execve_stripped (const char *path, char *const argv[], char *const envp[])
{
  MgExecEnv env;
  return real_execve (path, argv, mg_exec_env_strip (envp, &env));
}

__attribute__((noinline)) static int
execvpe_stripped (const char *file, char *const argv[], char *const envp[])
{
  MgExecEnv env;
  return real_execvpe (file, argv, mg_exec_env_strip (envp, &env));
}

__attribute__((noinline)) static int
fexecve_stripped (int fd, char *const argv[], char *const envp[])
{
  MgExecEnv env;
  return real_fexecve (fd, argv, mg_exec_env_strip (envp, &env));
}

__attribute__((noinline)) static int
execveat_stripped (int dirfd, const char *path, char *const argv[], char *const envp[],
                   int flags)
{
  MgExecEnv env;
  return real_execveat (dirfd, path, argv, mg_exec_env_strip (envp, &env), flags);
}

MG_EXPORT int
execve (const char *path, char *const argv[], char *const envp[])
{
  bool was_sampling = before_exec ();
  int ret = mg_exec_env_unreachable () ? execve_stripped (path, argv, envp)
                                       : real_execve (path, argv, envp);
  after_failed_exec (was_sampling);
  return ret;
}

MG_EXPORT int
execvpe (const char *file, char *const argv[], char *const envp[])
{
  bool was_sampling = before_exec ();
  int ret = mg_exec_env_unreachable () ? execvpe_stripped (file, argv, envp)
                                       : real_execvpe (file, argv, envp);
  after_failed_exec (was_sampling);
  return ret;
}

MG_EXPORT int
fexecve (int fd, char *const argv[], char *const envp[])
{
  bool was_sampling = before_exec ();
  int ret = mg_exec_env_unreachable () ? fexecve_stripped (fd, argv, envp)
                                       : real_fexecve (fd, argv, envp);
  after_failed_exec (was_sampling);
  return ret;
}

/* glibc 2.34+ has a wrapper; with an older libc there is nothing to call
 * through to, and the program could not have linked against it either. */
MG_EXPORT int
execveat (int dirfd, const char *path, char *const argv[], char *const envp[], int flags)
{
  if (!real_execveat)
    mg_interpose_resolve ();
  if (!real_execveat)
    {
      errno = ENOSYS;
      return -1;
    }
  bool was_sampling = before_exec ();
  int ret = mg_exec_env_unreachable () ? execveat_stripped (dirfd, path, argv, envp, flags)
                                       : real_execveat (dirfd, path, argv, envp, flags);
  after_failed_exec (was_sampling);
  return ret;
}

MG_EXPORT int
execv (const char *path, char *const argv[])
{
  return execve (path, argv, environ);
}

MG_EXPORT int
execvp (const char *file, char *const argv[])
{
  return execvpe (file, argv, environ);
}

/* Collects execl-style arguments into an array on the stack. */
#define COLLECT_ARGS(arg0, ap, argv)                                   \
  do                                                                   \
    {                                                                  \
      size_t n_ = 1;                                                   \
      va_list count_;                                                  \
      va_copy (count_, ap);                                            \
      while (va_arg (count_, const char *))                            \
        n_++;                                                          \
      va_end (count_);                                                 \
      argv = __builtin_alloca ((n_ + 1) * sizeof (char *));            \
      argv[0] = (char *) arg0;                                         \
      for (size_t i_ = 1; i_ <= n_; i_++)                              \
        argv[i_] = va_arg (ap, char *);                                \
    }                                                                  \
  while (0)

MG_EXPORT int
execl (const char *path, const char *arg, ...)
{
  char **argv;
  va_list ap;
  va_start (ap, arg);
  COLLECT_ARGS (arg, ap, argv);
  va_end (ap);
  return execve (path, argv, environ);
}

MG_EXPORT int
execlp (const char *file, const char *arg, ...)
{
  char **argv;
  va_list ap;
  va_start (ap, arg);
  COLLECT_ARGS (arg, ap, argv);
  va_end (ap);
  return execvpe (file, argv, environ);
}

MG_EXPORT int
execle (const char *path, const char *arg, ...)
{
  char **argv;
  va_list ap;
  va_start (ap, arg);
  COLLECT_ARGS (arg, ap, argv);
  char *const *envp = va_arg (ap, char *const *);
  va_end (ap);
  return execve (path, argv, envp);
}

static _Noreturn void
exit_now (ExitFn real, int status)
{
  if (real)
    real (status);
  for (;;)
    syscall (SYS_exit_group, status);
}

/* exit() reaches us through on_exit(); _exit() skips that, so catch it here:
 * fork children commonly end with it. */
MG_EXPORT void
_exit (int status)
{
  if (!real__exit)
    mg_interpose_resolve ();
  if (mg_sampler_owns_process ())
    mg_sampler_finish (MG_RECORD_STATE_EXITED, status & 0xff);
  exit_now (real__exit, status);
}

MG_EXPORT void
_Exit (int status)
{
  if (!real__Exit)
    mg_interpose_resolve ();
  if (mg_sampler_owns_process ())
    mg_sampler_finish (MG_RECORD_STATE_EXITED, status & 0xff);
  exit_now (real__Exit, status);
}

/* The main thread leaves: the process goes on while any other thread
 * runs, and glibc ends it with exit(0) when the last one ends, but the
 * sampler's thread is one of them: it watches for that from now on
 * (mg-sampling.c) and ends the process as glibc would have. */
MG_EXPORT void
pthread_exit (void *retval)
{
  if (!real_execve)
    mg_interpose_resolve ();
  if (mg_sampler_owns_process () && syscall (SYS_gettid) == getpid ())
    __atomic_store_n (&mg_sampler.main_exited, true, __ATOMIC_RELEASE);
  real_pthread_exit (retval);
  for (;;)
    syscall (SYS_exit, 0);
}

/* What the kernel refuses to a process with more than one thread:
 * unshare of a user namespace (it implies CLONE_THREAD), of CLONE_THREAD,
 * CLONE_SIGHAND or CLONE_VM; setns into a user namespace, or into a mount
 * namespace (the threads share their root and working folder), or of a
 * descriptor whose kind is not said (0). Without the sampler's thread,
 * `unshare -U`, bubblewrap or a rootless container runtime would fail
 * with EINVAL where they work unprofiled. */
#define MG_UNSHARE_ALONE (CLONE_NEWUSER | CLONE_THREAD | CLONE_SIGHAND | CLONE_VM)
#define MG_SETNS_ALONE (CLONE_NEWUSER | CLONE_NEWNS)

static int
call_alone (bool alone, int (*call) (int, int), int a, int b)
{
  bool paused = alone && mg_sampler_owns_process () && mg_sampler_pause ();
  int ret = call (a, b);
  int e = errno;
  if (paused)
    mg_sampler_resume ();
  errno = e;
  return ret;
}

static int
unshare_now (int flags, int unused)
{
  (void) unused;
  if (real_unshare)
    return real_unshare (flags);
  return (int) syscall (SYS_unshare, flags);
}

static int
setns_now (int fd, int nstype)
{
  if (real_setns)
    return real_setns (fd, nstype);
  return (int) syscall (SYS_setns, fd, nstype);
}

MG_EXPORT int
unshare (int flags)
{
  if (!real_execve)
    mg_interpose_resolve ();
  int ret = call_alone ((flags & MG_UNSHARE_ALONE) != 0, unshare_now, flags, 0);
  /* Mounts of its own: the folder of the sampler may go from its view. */
  if (ret == 0 && (flags & CLONE_NEWNS))
    mg_exec_env_root_moved ();
  return ret;
}

MG_EXPORT int
setns (int fd, int nstype)
{
  if (!real_execve)
    mg_interpose_resolve ();
  int ret = call_alone (nstype == 0 || (nstype & MG_SETNS_ALONE) != 0, setns_now, fd, nstype);
  if (ret == 0 && (nstype == 0 || (nstype & CLONE_NEWNS)))
    mg_exec_env_root_moved ();
  return ret;
}

/* A new root: the sampler's folder may not be in it. */
MG_EXPORT int
chroot (const char *path)
{
  if (!real_chroot)
    mg_interpose_resolve ();
  int ret = real_chroot != NULL ? real_chroot (path) : (int) syscall (SYS_chroot, path);
  if (ret == 0)
    mg_exec_env_root_moved ();
  return ret;
}
