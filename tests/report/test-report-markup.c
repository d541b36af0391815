/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The HTML of text fields: the spec's subset kept, everything else escaped
 * or dropped, whatever the input. */
#include "mg-config.h"

#include <libxml/xmlerror.h>
#include <string.h>

#include "report/mg-report-markup.h"

static void
assert_html (const char *markup, const char *expected)
{
  g_autofree char *html = mg_report_markup_to_html (markup);

  g_assert_cmpstr (html, ==, expected);
}

static void
test_allowed (void)
{
  assert_html ("<h3>Title</h3><p>A <b>bold</b> and <i>italic</i> <span>word</span>.</p>",
               "<h3>Title</h3><p>A <b>bold</b> and <i>italic</i> <span>word</span>.</p>");
  assert_html ("<ul><li>one</li><li>two</li></ul><ol><li>x</li></ol><div>d<br>e</div>",
               "<ul><li>one</li><li>two</li></ul><ol><li>x</li></ol><div>d<br>e</div>");
  assert_html ("<a href=\"https://example.org/a?b=1&amp;c=2\" title=\"t\">link</a>",
               "<a href=\"https://example.org/a?b=1&amp;c=2\" title=\"t\" "
               "rel=\"noopener noreferrer\">link</a>");
  assert_html ("<a href=\"docs/page.html#x\">rel</a>",
               "<a href=\"docs/page.html#x\" rel=\"noopener noreferrer\">rel</a>");
  assert_html ("<img src=\"data:image/png;base64,AAAA\" alt=\"pic\" width=\"10\">",
               "<img src=\"data:image/png;base64,AAAA\" alt=\"pic\" width=\"10\">");
  assert_html ("plain &lt;text&gt; &amp; more", "plain &lt;text&gt; &amp; more");
}

static void
test_hostile (void)
{
  static const struct {
    const char *markup;
    const char *expected;
  } cases[] = {
    { "<script>alert(1)</script>safe", "safe" },
    { "<SCRIPT SRC=//evil.example/x.js></SCRIPT>ok", "ok" },
    { "<style>body{display:none}</style>ok", "ok" },
    { "<iframe src=\"https://evil.example\"></iframe>ok", "ok" },
    { "<object data=x></object><embed src=x>ok", "ok" },
    { "<b onclick=\"alert(1)\" onmouseover='x()'>b</b>", "<b>b</b>" },
    { "<img src=x onerror=alert(1)>", "<img src=\"x\">" },
    { "<a href=\"javascript:alert(1)\">x</a>", "<a rel=\"noopener noreferrer\">x</a>" },
    { "<a href=\" JaVaScRiPt:alert(1)\">x</a>", "<a rel=\"noopener noreferrer\">x</a>" },
    { "<a href=\"java&#x09;script:alert(1)\">x</a>", "<a rel=\"noopener noreferrer\">x</a>" },
    { "<a href=\"data:text/html,<script>alert(1)</script>\">x</a>",
      "<a rel=\"noopener noreferrer\">x</a>" },
    { "<img src=\"data:image/svg+xml,<svg onload=alert(1)>\">", "<img>" },
    { "<img src=\"vbscript:msgbox\">", "<img>" },
    { "<p style=\"position:fixed\" class=\"c\" id=\"i\">p</p>", "<p>p</p>" },
    { "<table><tr><td>cell</td></tr></table>", "cell" },
    { "<svg><script>alert(1)</script></svg>ok", "ok" },
    { "<div title='\"><script>x</script>'>d</div>",
      "<div title=\"&quot;&gt;&lt;script&gt;x&lt;/script&gt;\">d</div>" },
    /* Whatever the parser makes of text after the document: never a script. */
    { "</body></html><script>alert(1)</script>after", "" },
    { "<!-- <script>alert(1)</script> -->c", "c" },
    { "<meta http-equiv=\"refresh\" content=\"0;url=https://evil.example\">m", "m" },
    { "<form action=x><input name=y></form>f", "f" },
    { "<b>unclosed <i>tags", "<b>unclosed <i>tags</i></b>" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *html = mg_report_markup_to_html (cases[i].markup);

      if (g_strcmp0 (html, cases[i].expected) != 0)
        g_error ("%s\n  gave %s\n  not  %s", cases[i].markup, html, cases[i].expected);
      g_assert_null (strstr (html, "<script"));
      g_assert_null (g_strrstr (html, "javascript:"));
    }
}

static void
test_text (void)
{
  static const struct {
    const char *markup;
    const char *expected;
  } cases[] = {
    { "Some <b>bold</b> &amp; <i>italic</i>", "Some bold & italic" },
    { "<p>One</p><p>Two</p>", "One\nTwo" },
    { "Line<br>break", "Line\nbreak" },
    { "<ul><li>a</li><li>b</li></ul>", "- a\n- b" },
    { "  spaced\n\n  out  ", "spaced out" },
    { "<script>alert(1)</script>text", "text" },
    { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = mg_report_markup_to_text (cases[i].markup);

      g_assert_cmpstr (text, ==, cases[i].expected);
    }
}

/* One parse gives both forms, the ones of parsing for each; and a parse
 * keeps no libxml2 error behind (the fields of a report are parsed in
 * turn, errors are not reported). */
static void
test_parse_once (void)
{
  static const char *const fields[] = {
    "<ul><li>a <b>b</b></li><li><a href=\"javascript:x\">c</a></li></ul>",
    "<p>x</p><bogus y=1>&amp;z",
    "",
    NULL,
  };

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      g_autoptr(MgReportMarkup) parsed = mg_report_markup_parse (fields[i]);
      g_autofree char *html = mg_report_markup_get_html (parsed);
      g_autofree char *text = mg_report_markup_get_text (parsed);
      g_autofree char *html_alone = mg_report_markup_to_html (fields[i]);
      g_autofree char *text_alone = mg_report_markup_to_text (fields[i]);

      g_assert_cmpstr (html, ==, html_alone);
      g_assert_cmpstr (text, ==, text_alone);
      g_assert_null (xmlGetLastError ());
    }
  {
    g_autoptr(MgReportMarkup) parsed = mg_report_markup_parse (fields[0]);
    g_autofree char *html = mg_report_markup_get_html (parsed);
    g_autofree char *text = mg_report_markup_get_text (parsed);

    g_assert_cmpstr (html, ==, "<ul><li>a <b>b</b></li><li><a rel=\"noopener noreferrer\">c</a>"
                               "</li></ul>");
    g_assert_cmpstr (text, ==, "- a b\n- c");
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/markup/allowed", test_allowed);
  g_test_add_func ("/report/markup/hostile", test_hostile);
  g_test_add_func ("/report/markup/text", test_text);
  g_test_add_func ("/report/markup/parse-once", test_parse_once);
  return g_test_run ();
}
