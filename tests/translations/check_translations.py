#!/usr/bin/env python3
"""The translation check (CTest `translations`): runs lupdate over ui/ into a temporary copy of every
translations/attnviz_*.ts and fails when a string of the window is untranslated (new or changed in the code:
"unfinished"), when the .ts holds strings the code no longer has ("vanished"/"obsolete": run the
update_translations target), or when a translation lost or invented a placeholder (%1, %L1, %n), a special token
(<sos>, <eos>, <unk>) or an HTML tag of its source. The checked-in files are never modified.

    check_translations.py --lupdate /usr/lib/qt6/bin/lupdate SOURCE_DIR
"""
import argparse
import collections
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

PLACEHOLDER = re.compile(r"%L?\d+|%n")
SPECIAL = re.compile(r"<(?:sos|eos|unk|pad)>")
TAG = re.compile(r"</?([a-zA-Z]+)[^<>]*>")


def tokens(text):
    """What a translation must keep of its source: placeholders, special tokens and HTML tag names, counted."""
    text = text or ""
    specials = SPECIAL.findall(text)
    tags = [t.lower() for t in TAG.findall(SPECIAL.sub("", text))]
    return collections.Counter(PLACEHOLDER.findall(text)), collections.Counter(specials), collections.Counter(tags)


def problems_in(ts_path):
    problems = []
    root = ET.parse(ts_path).getroot()
    for context in root.iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            source = message.findtext("source")
            where = f"{name}: {source!r}"
            translation = message.find("translation")
            kind = translation.get("type") if translation is not None else "unfinished"
            if kind in ("unfinished", "vanished", "obsolete"):
                problems.append(f"{kind}: {where}")
                continue
            forms = [f.text for f in translation.iter("numerusform")] or [translation.text]
            for form in forms:
                if not form:
                    problems.append(f"empty translation: {where}")
                    continue
                want, got = tokens(source), tokens(form)
                for label, w, g in zip(("placeholders", "special tokens", "HTML tags"), want, got):
                    if w != g:
                        problems.append(f"{label} differ ({dict(w)} in the source, {dict(g)} in {form!r}): {where}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lupdate", required=True, help="Qt 6's lupdate (Debian: qt6-l10n-tools)")
    parser.add_argument("source_dir", type=pathlib.Path)
    args = parser.parse_args()
    ts_files = sorted((args.source_dir / "translations").glob("attnviz_*.ts"))
    if not ts_files:
        print(f"no translations/attnviz_*.ts in {args.source_dir}", file=sys.stderr)
        return 1
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for ts in ts_files:
            copy = pathlib.Path(tmp) / ts.name
            shutil.copyfile(ts, copy)
            # The same sources and options as the update_translations target (ui/CMakeLists.txt), but keeping
            # obsolete entries so that they can be reported.
            run = subprocess.run([args.lupdate, "-locations", "none", str(args.source_dir / "ui"), "-ts", str(copy)],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                print(f"lupdate failed on {ts.name}:\n{run.stdout}{run.stderr}", file=sys.stderr)
                return 1
            problems = problems_in(copy)
            count = sum(1 for _ in ET.parse(copy).getroot().iter("message"))
            if problems:
                failed = True
                print(f"{ts.name}: {len(problems)} problem(s) among {count} strings "
                      "(fix the .ts: build the update_translations target, then translate; docs/translation.md):")
                for p in problems:
                    print("  " + p)
            else:
                print(f"{ts.name}: all {count} strings translated, none obsolete, placeholders and tags kept")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
