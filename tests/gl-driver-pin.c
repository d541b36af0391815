/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Linked (with export_dynamic) into the test programs that set GL up.
 *
 * Without a GPU (Xvfb) GTK's EGL set-up makes libEGL_mesa load Mesa's
 * software driver (swrast_dri.so in Debian 12's Mesa 22.3; libgallium-*.so
 * in later ones), unload it and load it again. The driver keeps a block it
 * allocates in a call_once in its own globals: once the driver is unloaded,
 * LeakSanitizer finds the block unreachable, with a stack that ends in
 * unmapped code ("<unknown module>") that no suppression can name. This
 * dlclose() interposes on the one the GL libraries call: a Mesa driver is
 * first marked RTLD_NODELETE, so it stays mapped and its block reachable.
 * Everything else closes as before, and the test's own leaks are reported. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stddef.h>
#include <string.h>

int
dlclose (void *handle)
{
  static int (*real_dlclose) (void *);
  struct link_map *map = NULL;

  if (real_dlclose == NULL)
    real_dlclose = (int (*) (void *)) dlsym (RTLD_NEXT, "dlclose");
  if (dlinfo (handle, RTLD_DI_LINKMAP, &map) == 0 && map != NULL && map->l_name != NULL
      && (strstr (map->l_name, "/dri/") != NULL || strstr (map->l_name, "libgallium") != NULL))
    (void) dlopen (map->l_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
  return real_dlclose (handle);
}
