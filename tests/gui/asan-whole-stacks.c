/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Linked into the GUI tests that open the Code pane's Source view: under
 * AddressSanitizer, whole stacks for every allocation. GtkSourceView's
 * languages and styles take GLib past 2048 quarks, and GLib then drops
 * its first quark block by design (its lookups take no lock), allocated
 * in its constructor: with whole stacks tests/lsan.supp tells that block
 * (allocated under _dl_init) apart. Slower: these tests have longer
 * timeouts. */
#if defined(__SANITIZE_ADDRESS__)
#define GUI_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GUI_TEST_ASAN 1
#endif
#endif

#ifdef GUI_TEST_ASAN
const char *__asan_default_options (void);
const char *
__asan_default_options (void)
{
  return "fast_unwind_on_malloc=0";
}
#else
/* ISO C wants something in a translation unit. */
typedef int gui_test_whole_stacks_unused;
#endif
