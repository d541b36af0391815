/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Built twice for test-load-error.c: linked with libmgt_load_dep.so (which
 * the test leaves behind when it copies this library away), and as a
 * module that calls a function no library defines. */
#ifdef MGT_UNDEFINED
extern int mgt_nowhere (void);
int mgt_call_nowhere (void);
int
mgt_call_nowhere (void)
{
  return mgt_nowhere ();
}
#else
int mgt_load_dep (void);
int mgt_needs_dep (void);
int
mgt_needs_dep (void)
{
  return mgt_load_dep ();
}
#endif
