/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Debug info fetched by build-id from a debuginfod server: a server of our
 * own on 127.0.0.1 answers the protocol's one request
 * (GET /buildid/HEX/debuginfo) with the stripped program's debug file:
 * libdw's standard search asks it for a stripped program because
 * DEBUGINFOD_URLS names it, and the symbolizer asks it for a program
 * whose file is gone. Each case has a cache of its own, so each asks. Its own
 * process: libdw reads DEBUGINFOD_URLS once. */
#include "symbols-test-support.h"

#include "mg-test-common.h"

#include <dlfcn.h>
#include <gio/gio.h>
#include <string.h>

typedef struct {
  GSocket *listener;
  char *hex;
  char *debug_file;
  GMutex lock;
  GPtrArray *requests; /* the request paths, in order */
  gboolean stop;
} Server;

static void
serve_one (Server *server, GSocket *client)
{
  g_autoptr (GString) request = g_string_new (NULL);
  g_autofree char *wanted = g_strdup_printf ("/buildid/%s/debuginfo", server->hex);
  g_autofree char *body = NULL;
  g_autofree char *head = NULL;
  g_auto (GStrv) words = NULL;
  gsize length = 0;
  char buffer[1024];

  while (strstr (request->str, "\r\n\r\n") == NULL)
    {
      gssize got = g_socket_receive (client, buffer, sizeof buffer, NULL, NULL);

      if (got <= 0)
        return;
      g_string_append_len (request, buffer, got);
    }
  words = g_strsplit (request->str, " ", 3);
  if (words[0] == NULL || words[1] == NULL)
    return;
  g_mutex_lock (&server->lock);
  g_ptr_array_add (server->requests, g_strdup (words[1]));
  g_mutex_unlock (&server->lock);
  if (g_str_equal (words[1], wanted) && g_file_get_contents (server->debug_file, &body, &length, NULL))
    head = g_strdup_printf ("HTTP/1.1 200 OK\r\nContent-Length: %" G_GSIZE_FORMAT "\r\n"
                            "Content-Type: application/octet-stream\r\nConnection: close\r\n\r\n", length);
  else
    head = g_strdup ("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  g_socket_send_with_blocking (client, head, strlen (head), TRUE, NULL, NULL);
  for (gsize sent = 0; sent < length;)
    {
      gssize n = g_socket_send_with_blocking (client, body + sent, length - sent, TRUE, NULL, NULL);

      if (n <= 0)
        break;
      sent += (gsize) n;
    }
}

static gpointer
serve (gpointer data)
{
  Server *server = data;

  for (;;)
    {
      g_autoptr (GSocket) client = g_socket_accept (server->listener, NULL, NULL);
      gboolean stop;

      g_mutex_lock (&server->lock);
      stop = server->stop;
      g_mutex_unlock (&server->lock);
      if (stop || client == NULL)
        return NULL;
      serve_one (server, client);
      g_socket_close (client, NULL);
    }
}

static guint16
listen_local (Server *server)
{
  g_autoptr (GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr (GSocketAddress) bound = NULL;
  g_autoptr (GError) error = NULL;

  server->listener = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (server->listener, any, TRUE, &error));
  g_assert_true (g_socket_listen (server->listener, &error));
  g_assert_no_error (error);
  bound = g_socket_get_local_address (server->listener, &error);
  g_assert_no_error (error);
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

/* Wakes the accept with a connection of its own and joins the thread. */
static void
stop_server (Server *server, GThread *thread, guint16 port)
{
  g_autoptr (GSocketClient) client = g_socket_client_new ();
  g_autoptr (GSocketConnection) connection = NULL;

  g_mutex_lock (&server->lock);
  server->stop = TRUE;
  g_mutex_unlock (&server->lock);
  connection = g_socket_client_connect_to_host (client, "127.0.0.1", port, NULL, NULL);
  g_thread_join (thread);
  g_socket_close (server->listener, NULL);
}

/* One server for the process, its address in the environment before any
 * thread runs (setenv is not for threaded programs, and libdw reads
 * DEBUGINFOD_URLS once). */
static Server server;
static SymbolsTestRun *server_run;
static char *server_cache;

/* The stripped program, or (GONE) no file at all at its path: its debug
 * info comes from the server. */
static void
resolve_from_server (gboolean gone)
{
  g_autofree char *dir = mg_test_make_dir (gone ? "symbols-debuginfod-gone" : "symbols-debuginfod");
  g_autofree char *program = g_build_filename (dir, "bin", "symbols-target", NULL);
  g_autofree char *empty_dir = g_build_filename (dir, "empty", NULL);
  g_autofree char *stripped = symbols_test_built ("symbols-target-stripped");
  g_autofree char *wanted = g_strdup_printf ("/buildid/%s/debuginfo", server.hex);
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) frames = NULL;

  if (server_run == NULL)
    {
      g_test_skip ("libdebuginfod.so.1 is not installed (Debian's libdebuginfod1): libdw cannot ask a server");
      mg_test_remove_tree (dir);
      return;
    }
  /* An empty cache: the client asks the server again. */
  mg_test_remove_tree (server_cache);
  g_mutex_lock (&server.lock);
  g_ptr_array_set_size (server.requests, 0);
  g_mutex_unlock (&server.lock);

  if (!gone)
    symbols_test_copy (stripped, program);
  g_assert_cmpint (g_mkdir_with_parents (empty_dir, 0755), ==, 0);
  mg_symbolizer_set_debug_path (symbolizer, empty_dir);
  frames = mg_symbolizer_resolve (symbolizer, program, server_run->build_id->data, server_run->build_id->len,
                                  symbols_test_vaddr (server_run, "inlined"), &error);

  g_assert_no_error (error);
  g_mutex_lock (&server.lock);
  g_assert_cmpuint (server.requests->len, >=, 1);
  g_assert_cmpstr (server.requests->pdata[0], ==, wanted);
  g_mutex_unlock (&server.lock);
  g_assert_cmpuint (frames->len, ==, 3);
  symbols_test_assert_frame (frames->pdata[0], "symbols_target_leaf", "symbols-target.c", "leaf-call", TRUE);
  symbols_test_assert_frame (frames->pdata[2], "symbols_target_outer", "symbols-target.c", "outer-call", FALSE);
  mg_test_remove_tree (dir);
}

static void
test_debuginfod (void)
{
  resolve_from_server (FALSE);
}

/* The program was deleted after the run: the server's debug file stands
 * in for it. */
static void
test_debuginfod_gone (void)
{
  resolve_from_server (TRUE);
}

int
main (int argc, char **argv)
{
  g_autofree char *original = symbols_test_built ("symbols-target");
  g_autofree char *urls = NULL;
  g_autoptr (GString) hex = g_string_new (NULL);
  GThread *thread = NULL;
  guint16 port = 0;
  void *library = dlopen ("libdebuginfod.so.1", RTLD_LAZY);
  int status;

  g_test_init (&argc, &argv, NULL);
  if (library != NULL)
    {
      dlclose (library);
      server_run = symbols_test_run (original);
      for (guint i = 0; i < server_run->build_id->len; i++)
        g_string_append_printf (hex, "%02x", server_run->build_id->data[i]);
      server.hex = hex->str;
      server.debug_file = symbols_test_built ("symbols-target.debug");
      server.requests = g_ptr_array_new_with_free_func (g_free);
      g_mutex_init (&server.lock);
      port = listen_local (&server);
      server_cache = mg_test_make_dir ("symbols-debuginfod-cache");
      urls = g_strdup_printf ("http://127.0.0.1:%u", port);
      g_setenv ("DEBUGINFOD_URLS", urls, TRUE);
      g_setenv ("DEBUGINFOD_CACHE_PATH", server_cache, TRUE);
      g_setenv ("DEBUGINFOD_TIMEOUT", "20", TRUE);
      g_setenv ("no_proxy", "127.0.0.1", TRUE);
      g_setenv ("NO_PROXY", "127.0.0.1", TRUE);
      thread = g_thread_new ("debuginfod", serve, &server);
    }
  g_test_add_func ("/symbols/debuginfod", test_debuginfod);
  g_test_add_func ("/symbols/debuginfod-gone", test_debuginfod_gone);
  status = g_test_run ();
  if (thread != NULL)
    {
      stop_server (&server, thread, port);
      g_object_unref (server.listener);
      g_ptr_array_unref (server.requests);
      g_free (server.debug_file);
      g_mutex_clear (&server.lock);
      g_clear_pointer (&server_run, symbols_test_run_free);
      mg_test_remove_tree (server_cache);
      g_free (server_cache);
    }
  return status;
}
