#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks that the translations are complete and the template is current.

1. Every file under app/, ui/ and data/ that marks a string for translation
   is listed in po/POTFILES.in, and every listed file exists.
2. The strings extracted now from POTFILES.in (xgettext, with the keywords of
   meson's 'glib' preset) are exactly the msgids of po/metrograph.pot.
3. Every language in po/LINGUAS translates every one of them (no missing,
   untranslated or fuzzy entry).

Usage: check-translations.py SOURCE_ROOT
"""
import os
import re
import subprocess
import sys
import tempfile

# What marks a string for translation, by kind of file.
C_MARK = re.compile(r'(?<![A-Za-z0-9_])(?:_|N_|C_|NC_|g_dngettext|ngettext)\s*\(\s*(?:"|[A-Za-z_"])')
UI_MARK = re.compile(r'translatable="yes"')
KEYWORDS = ['--keyword=_', '--keyword=N_', '--keyword=C_:1c,2', '--keyword=NC_:1c,2',
            '--keyword=g_dngettext:2,3', '--keyword=ngettext:1,2']
FLAGS = ['--flag=g_set_error:4:c-format', '--flag=g_strdup_printf:1:c-format',
         '--flag=g_string_append_printf:2:c-format', '--flag=g_printerr:1:c-format',
         '--flag=g_print:1:c-format']


def marked_files(root):
    found = set()
    for top in ('app', 'ui', 'data'):
        for folder, _dirs, files in os.walk(os.path.join(root, top)):
            for name in files:
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root)
                if name.endswith('.c'):
                    with open(path, encoding='utf-8') as f:
                        if C_MARK.search(f.read()):
                            found.add(rel)
                elif folder == os.path.join(root, 'data') and (
                        name.endswith('.in') or name.endswith('.gschema.xml')):
                    found.add(rel)  # desktop entry, metainfo, MIME type, schemas
                elif name.endswith('.ui'):
                    with open(path, encoding='utf-8') as f:
                        if UI_MARK.search(f.read()):
                            found.add(rel)
    return found


def listed_files(root):
    with open(os.path.join(root, 'po', 'POTFILES.in'), encoding='utf-8') as f:
        return [line.strip() for line in f
                if line.strip() and not line.lstrip().startswith('#')]


def msgids(po_path):
    """The (context, msgid) pairs of a .po or .pot file, header left out."""
    out = subprocess.run(['msgcat', '--no-wrap', '--sort-output', po_path],
                         check=True, capture_output=True, text=True).stdout
    ids, ctx, cur, field = set(), None, None, None
    def flush():
        if cur is not None and cur != '':
            ids.add((ctx, cur))
    for line in out.splitlines():
        if line.startswith('msgctxt '):
            flush(); cur = None
            ctx = eval(line[8:]); field = 'ctx'
        elif line.startswith('msgid '):
            if field != 'ctx':
                flush(); ctx = None
            cur = eval(line[6:]); field = 'id'
        elif line.startswith('"') and field == 'id':
            cur += eval(line)
        elif line.startswith('msgid_plural') or line.startswith('msgstr'):
            field = 'str'
        elif not line.strip():
            field = None
    flush()
    return ids


def describe(pairs):
    return '\n'.join('  ' + (f'[{c}] ' if c else '') + repr(i) for c, i in sorted(pairs, key=str))


def main():
    root = os.path.abspath(sys.argv[1])
    problems = []

    listed = listed_files(root)
    for rel in listed:
        if not os.path.exists(os.path.join(root, rel)):
            problems.append(f'po/POTFILES.in lists {rel}, which does not exist')
    for rel in sorted(marked_files(root) - set(listed)):
        problems.append(f'{rel} marks strings for translation but is not in po/POTFILES.in')

    with tempfile.TemporaryDirectory() as tmp:
        fresh = os.path.join(tmp, 'fresh.pot')
        run = subprocess.run(['xgettext', '--package-name=metrograph', '--from-code=UTF-8',
                              '--add-comments', '-D', root,
                              '-f', os.path.join(root, 'po', 'POTFILES.in'),
                              '-o', fresh] + KEYWORDS + FLAGS,
                             check=True, capture_output=True, text=True)
        # A msgid cut short by a macro (G_GUINT64_FORMAT…) is never found
        # at run time: xgettext sees only the part before the macro.
        for line in run.stderr.splitlines():
            if 'not a valid C format string' in line:
                problems.append(line + ' (write %zu, %llu… with a cast instead of a '
                                'G_*_FORMAT macro inside a translated string)')
        now = msgids(fresh)

    committed = msgids(os.path.join(root, 'po', 'metrograph.pot'))
    if now - committed:
        problems.append('po/metrograph.pot lacks strings the sources mark '
                        '(run: meson compile -C build metrograph-pot):\n' + describe(now - committed))
    if committed - now:
        problems.append('po/metrograph.pot has strings no source marks any more '
                        '(run: meson compile -C build metrograph-pot):\n' + describe(committed - now))

    with open(os.path.join(root, 'po', 'LINGUAS'), encoding='utf-8') as f:
        langs = [w for line in f if not line.startswith('#') for w in line.split()]
    for lang in langs:
        po = os.path.join(root, 'po', lang + '.po')
        translated = msgids_translated(po)
        missing = now - translated
        if missing:
            problems.append(f'po/{lang}.po has no (or a fuzzy) translation for {len(missing)} '
                            f'string(s):\n' + describe(missing))

    for p in problems:
        print('error: ' + p, file=sys.stderr)
    print(f'{len(now)} strings, {len(langs)} language(s): '
          + ('complete' if not problems else f'{len(problems)} problem(s)'))
    return 1 if problems else 0


def msgids_translated(po_path):
    """The msgids of a .po file that have a non-fuzzy, non-empty translation."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'translated.po')
        subprocess.run(['msgattrib', '--translated', '--no-fuzzy', '--no-obsolete',
                        '-o', out, po_path], check=True)
        return msgids(out) if os.path.exists(out) else set()


if __name__ == '__main__':
    sys.exit(main())
