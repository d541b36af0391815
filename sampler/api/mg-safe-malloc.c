/* SPDX-License-Identifier: GPL-3.0-or-later */
/* allinea_safe_malloc & co: an allocator that never calls libc's, usable
 * from signal handlers and from any thread.
 *
 * Small blocks (up to MG_LARGEST_CLASS bytes including the header) come from
 * power-of-two size classes carved out of 1 MiB mmap'd chunks and recycled
 * through per-class free lists. Larger blocks are mmap'd one by one and
 * munmap'd on free. Every block starts with a 16-byte header (keeps the
 * payload 16-byte aligned) holding its class or mapping length and a magic
 * word, so a foreign pointer is reported instead of corrupting the lists.
 *
 * Locking: one owner-tagged spinlock (MgLock) around the free lists and the
 * chunk, rather than lock-free lists: popping from a lock-free stack needs
 * ABA protection (tagged pointers, double-width CAS) and chunks still cannot
 * be carved atomically. The critical sections are a few instructions long.
 * A signal handler that interrupts its own thread inside them cannot take
 * the lock, so it does without: malloc maps a private block (like a large
 * one), free pushes the block on a lock-free "deferred" stack (push-only, so
 * free of ABA), which the next lock holder moves to the free lists. Around
 * fork() the lock is held (pthread_atfork) so the child never inherits it
 * taken. */
#include "mg-api-internal.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "allinea_safe_malloc.h"

#define MG_HEADER_SIZE 16
#define MG_SMALLEST_SHIFT 5              /* 32-byte blocks */
#define MG_CLASS_COUNT 12                /* 32 B .. 64 KiB */
#define MG_LARGEST_CLASS ((size_t) 1 << (MG_SMALLEST_SHIFT + MG_CLASS_COUNT - 1))
#define MG_CHUNK_SIZE ((size_t) 1 << 20)
#define MG_MAGIC_SMALL ((uint64_t) 0x4d47534d414c4c31ULL)
#define MG_MAGIC_LARGE ((uint64_t) 0x4d474c4152474531ULL)
#define MG_MAGIC_FREE ((uint64_t) 0x4d47465245454431ULL)

typedef struct MgBlock {
  uint64_t size_info;  /* class index (small) or mapping length (large) */
  uint64_t magic;
} MgBlock;

typedef struct MgFreeBlock {
  MgBlock header;
  struct MgFreeBlock *next;
} MgFreeBlock;

static MgLock mg_heap_lock = MG_LOCK_INIT;
static MgFreeBlock *mg_free_lists[MG_CLASS_COUNT];
static MgFreeBlock *mg_deferred;   /* freed by interrupting handlers */
static char *mg_chunk_next;
static char *mg_chunk_end;

static void *
mg_map (size_t length)
{
  void *p = (void *) syscall (SYS_mmap, NULL, length, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    mg_api_fatal ("allinea_safe_malloc: out of memory (mmap failed); aborting");
  return p;
}

static unsigned
mg_class_for (size_t total)
{
  unsigned index = 0;
  while (((size_t) 1 << (MG_SMALLEST_SHIFT + index)) < total)
    index++;
  return index;
}

static size_t
mg_class_size (unsigned index)
{
  return (size_t) 1 << (MG_SMALLEST_SHIFT + index);
}

/* Called with the lock held: files the blocks freed by signal handlers. */
static void
mg_drain_deferred (void)
{
  if (__atomic_load_n (&mg_deferred, __ATOMIC_RELAXED) == NULL)
    return;
  MgFreeBlock *list = __atomic_exchange_n (&mg_deferred, NULL, __ATOMIC_ACQUIRE);
  while (list)
    {
      MgFreeBlock *next = list->next;
      unsigned index = (unsigned) list->header.size_info;
      list->next = mg_free_lists[index];
      mg_free_lists[index] = list;
      list = next;
    }
}

/* Called with the lock held. */
static MgBlock *
mg_take_small (unsigned index)
{
  mg_drain_deferred ();
  MgFreeBlock *free_block = mg_free_lists[index];
  if (free_block)
    {
      mg_free_lists[index] = free_block->next;
      return &free_block->header;
    }
  size_t size = mg_class_size (index);
  if ((size_t) (mg_chunk_end - mg_chunk_next) < size)
    {
      /* The unused tail of the old chunk is abandoned (< 64 KiB). Mapping
       * with signals blocked is fine: mmap is a plain system call. */
      mg_chunk_next = mg_map (MG_CHUNK_SIZE);
      mg_chunk_end = mg_chunk_next + MG_CHUNK_SIZE;
    }
  MgBlock *block = (MgBlock *) mg_chunk_next;
  mg_chunk_next += size;
  return block;
}

static size_t
mg_usable_size (const MgBlock *block)
{
  if (block->magic == MG_MAGIC_SMALL)
    return mg_class_size ((unsigned) block->size_info) - MG_HEADER_SIZE;
  return (size_t) block->size_info - MG_HEADER_SIZE;
}

static MgBlock *
mg_header_of (void *ptr)
{
  MgBlock *block = (MgBlock *) ((char *) ptr - MG_HEADER_SIZE);
  if (block->magic != MG_MAGIC_SMALL && block->magic != MG_MAGIC_LARGE)
    mg_api_fatal (block->magic == MG_MAGIC_FREE
                  ? "allinea_safe_free/realloc: block freed twice; aborting"
                  : "allinea_safe_free/realloc: pointer not from allinea_safe_malloc; aborting");
  return block;
}

MG_API void *
allinea_safe_malloc (size_t size)
{
  if (size > SIZE_MAX / 2)
    mg_api_fatal ("allinea_safe_malloc: request too large; aborting");
  size_t total = size + MG_HEADER_SIZE;
  MgBlock *block;
  if (total <= MG_LARGEST_CLASS && mg_lock_acquire (&mg_heap_lock))
    {
      unsigned index = mg_class_for (total);
      block = mg_take_small (index);
      mg_lock_release (&mg_heap_lock);
      block->size_info = index;
      block->magic = MG_MAGIC_SMALL;
    }
  else   /* large, or a handler that interrupted the lock holder */
    {
      size_t page = 4096;
      size_t length = (total + page - 1) & ~(page - 1);
      block = mg_map (length);
      block->size_info = length;
      block->magic = MG_MAGIC_LARGE;
    }
  return (char *) block + MG_HEADER_SIZE;
}

MG_API void
allinea_safe_free (void *ptr)
{
  if (ptr == NULL)
    return;
  MgBlock *block = mg_header_of (ptr);
  if (block->magic == MG_MAGIC_LARGE)
    {
      size_t length = (size_t) block->size_info;
      block->magic = MG_MAGIC_FREE;
      syscall (SYS_munmap, block, length);
      return;
    }
  unsigned index = (unsigned) block->size_info;
  if (index >= MG_CLASS_COUNT)
    mg_api_fatal ("allinea_safe_free: corrupted block header; aborting");
  MgFreeBlock *free_block = (MgFreeBlock *) block;
  block->magic = MG_MAGIC_FREE;
  if (mg_lock_acquire (&mg_heap_lock))
    {
      free_block->next = mg_free_lists[index];
      mg_free_lists[index] = free_block;
      mg_drain_deferred ();
      mg_lock_release (&mg_heap_lock);
      return;
    }
  /* Interrupted our own thread inside the lock: defer, lock-free. */
  MgFreeBlock *head = __atomic_load_n (&mg_deferred, __ATOMIC_RELAXED);
  do
    free_block->next = head;
  while (!__atomic_compare_exchange_n (&mg_deferred, &head, free_block, 1,
                                       __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

MG_API void *
allinea_safe_calloc (size_t nmemb, size_t size)
{
  if (size != 0 && nmemb > SIZE_MAX / size)
    mg_api_fatal ("allinea_safe_calloc: nmemb * size overflows; aborting");
  size_t total = nmemb * size;
  void *ptr = allinea_safe_malloc (total);
  /* Recycled blocks hold old data; fresh mmap memory is already zero but
   * clearing it anyway keeps this simple. */
  memset (ptr, 0, total);
  return ptr;
}

MG_API void *
allinea_safe_realloc (void *ptr, size_t size)
{
  if (ptr == NULL)
    return allinea_safe_malloc (size);
  MgBlock *block = mg_header_of (ptr);
  size_t usable = mg_usable_size (block);
  if (size <= usable && (block->magic == MG_MAGIC_SMALL || size > usable / 2))
    return ptr;
  void *grown = allinea_safe_malloc (size);
  memcpy (grown, ptr, size < usable ? size : usable);
  allinea_safe_free (ptr);
  return grown;
}

void
mg_safe_malloc_hold_lock_for_test (int hold)
{
  if (hold)
    mg_lock_acquire (&mg_heap_lock);
  else
    mg_lock_release (&mg_heap_lock);
}

static void
mg_heap_fork_prepare (void)
{
  mg_lock_acquire (&mg_heap_lock);
}

static void
mg_heap_fork_release (void)
{
  mg_lock_release (&mg_heap_lock);
}

__attribute__((constructor)) static void
mg_heap_register_fork_handlers (void)
{
  pthread_atfork (mg_heap_fork_prepare, mg_heap_fork_release, mg_heap_fork_release);
}
