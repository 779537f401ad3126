#!/usr/bin/env python3
"""Checks that the project's Markdown docs can be followed in a clone of the repository alone.

For README.md, every .md file of docs/ and sample_models/, and fuzz/README.md:
- every relative link (`[text](path)`, `![alt](path)`, `[ref]: path`, `<a href>` / `<img src>`) names a file or folder
  the repository holds (tracked by git when the checkout is a git one), not one outside it;
- every anchor (`path.md#anchor`, `#anchor`) is the slug of a heading of the target file by GitHub's rule (lower
  case; characters other than letters, digits, marks, `_`, `-` and spaces dropped; spaces to `-`; a repeated slug
  gets `-1`, `-2`, …), or an `<a id>` / `<a name>` of it;
- no text names `../shared` or `shared/spec`: the specs the project started from are not in a user's clone.
http(s) and mailto links are allowed and not fetched. Links inside code (fenced blocks, indented blocks, `code`
spans) are not links. Prints each problem as FILE:LINE: what, and exits 1; prints a summary line and exits 0
otherwise.
"""
import pathlib
import re
import subprocess
import sys
import unicodedata
import urllib.parse

FENCE = re.compile(r"^ {0,3}(```|~~~)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
INLINE_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_LINK = re.compile(r"<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*[\"']([^\"']*)[\"']", re.I)
HTML_ANCHOR = re.compile(r"<a\b[^>]*?\b(?:id|name)\s*=\s*[\"']([^\"']*)[\"']", re.I)
FORBIDDEN = ("../shared", "shared/spec")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)  # http:, https:, mailto:, …
LINE_ANCHOR = re.compile(r"^L\d+(-L\d+)?$")  # GitHub's line anchors on a source file


def docs(root):
    out = [root / "README.md", root / "fuzz" / "README.md"]
    out += sorted((root / "docs").glob("*.md"))
    out += sorted((root / "sample_models").rglob("*.md"))
    return [p for p in out if p.is_file()]


def tracked(root):
    """The paths a clone has (files and their folders), or None outside a git checkout."""
    try:
        res = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    paths = set()
    for name in res.stdout.decode("utf-8", "surrogateescape").split("\0"):
        if not name:
            continue
        parts = name.split("/")
        for i in range(1, len(parts) + 1):
            paths.add("/".join(parts[:i]))
    return paths


def slug(text):
    """GitHub's anchor for a heading's text (inline markup already taken out)."""
    kept = []
    for ch in text.lower():
        cat = unicodedata.category(ch)
        if ch in " -_" or cat[0] in "LMN":
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


def heading_text(raw):
    """A heading as rendered: code spans keep their text, links their text, emphasis and tags go."""
    text = CODE_SPAN.sub(lambda m: m.group(2).strip(), raw)
    text = INLINE_LINK.sub(lambda m: m.group(1), text)
    text = re.sub(r"<[^>]+>", "", text)
    return text.replace("*", "")


def prose_lines(text):
    """(line number, line) of the text outside fenced and indented code blocks."""
    in_fence, prev_blank = None, True
    for number, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if in_fence:
            if m and line.strip().startswith(in_fence):
                in_fence = None
            continue
        if m:
            in_fence = m.group(1)
            continue
        indented = line.startswith("    ") or line.startswith("\t")
        if indented and prev_blank:
            continue  # an indented code block (a list item's continuation is not preceded by a blank line here)
        prev_blank = not line.strip()
        yield number, line


def anchors(path, cache):
    if path not in cache:
        seen, found = {}, set()
        for _, line in prose_lines(path.read_text(encoding="utf-8")):
            m = HEADING.match(line)
            if m:
                base = slug(heading_text(m.group(2)))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
            found.update(HTML_ANCHOR.findall(line))
        cache[path] = found
    return cache[path]


def links(line):
    """The link targets of one prose line, code spans left out."""
    bare = CODE_SPAN.sub("", line)
    out = [m.group(2) for m in INLINE_LINK.finditer(bare)]
    m = REF_DEF.match(bare)
    if m:
        out.append(m.group(1))
    out += HTML_LINK.findall(bare)
    return [t[1:-1] if t.startswith("<") and t.endswith(">") else t for t in out]


def check_target(root, doc, target, have, cache):
    """None when the link resolves inside the repository, else what is wrong."""
    if EXTERNAL.match(target):
        return None
    path_part, _, anchor = target.partition("#")
    path_part = urllib.parse.unquote(path_part)
    if path_part.startswith("/"):
        return f"{target}: an absolute path, not a file of the repository"
    dest = (doc.parent / path_part).resolve() if path_part else doc.resolve()
    try:
        rel = dest.relative_to(root.resolve()).as_posix()
    except ValueError:
        return f"{target}: points outside the repository"
    exists = dest.exists() if have is None else (rel in have and dest.exists())
    if not exists:
        return f"{target}: {rel} is not in the repository"
    if not anchor:
        return None
    if dest.suffix.lower() != ".md":
        return None if LINE_ANCHOR.match(anchor) else f"{target}: an anchor into a file that is not Markdown"
    if urllib.parse.unquote(anchor) not in anchors(dest, cache):
        return f"{target}: {rel} has no heading whose anchor is #{anchor}"
    return None


def check_doc(root, doc, have, cache):
    problems = []
    rel = doc.relative_to(root).as_posix()
    text = doc.read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), 1):
        named = [word for word in FORBIDDEN if word in line]
        if named:
            problems.append(f"{rel}:{number}: names {named[0]}, which a clone of the repository does not have")
    for number, line in prose_lines(text):
        for target in links(line):
            why = check_target(root, doc, target, have, cache)
            if why:
                problems.append(f"{rel}:{number}: {why}")
    return problems


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
    have, cache, problems, count = tracked(root), {}, [], 0
    for doc in docs(root):
        count += 1
        problems += check_doc(root, doc, have, cache)
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"every link of the {count} docs resolves inside the repository, and none names ../shared")
    return 0


if __name__ == "__main__":
    sys.exit(main())
