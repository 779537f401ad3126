#!/usr/bin/env python3
"""Checks that docs/architecture.md's file tables name every source file of core/, ui/ and app/, and no file that
does not exist.

A table row names its files in its first cell as `folder/file.h`, `folder/file.{h,cpp}` (core and ui paths start at
their layer folder: `decode/beam.cpp` is core/decode/beam.cpp, `heatmap/colormaps.{h,cpp}` is ui/heatmap/...),
`app/...` from the checkout, or, after one such path, a bare `file.cpp` in the same folder. Prints each file missing
from the tables and each listed file that is not there, and exits 1; prints a summary line and exits 0 otherwise.
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check_layers import CORE_LAYERS, UI_LAYERS  # noqa: E402  (one list of the layers)

SOURCE = re.compile(r"\.(h|cpp|h\.in)$")
SPAN = re.compile(r"`([^`]+)`")


def expand(span):
    """`a/b.{h,cpp}` -> [a/b.h, a/b.cpp]."""
    m = re.match(r"^(.*)\{([^}]*)\}(.*)$", span)
    if not m:
        return [span]
    return [m.group(1) + part + m.group(3) for part in m.group(2).split(",")]


def resolve(name):
    """A table's path as a path from the checkout, or None when it is not a source file of core/, ui/ or app/."""
    first = name.split("/")[0]
    if first == "app":
        path = name
    elif first in CORE_LAYERS:
        path = "core/" + name
    elif first in UI_LAYERS:
        path = "ui/" + name
    else:
        return None
    return path if SOURCE.search(path) else None


def listed(doc):
    out = set()
    for line in doc.splitlines():
        if not line.startswith("| `"):
            continue
        cell = line.split("|")[1]
        folder = None
        for span in SPAN.findall(cell):
            for name in expand(span.strip()):
                if "/" not in name and folder:  # a bare name after a path: the same folder
                    name = folder + "/" + name
                path = resolve(name)
                if path:
                    out.add(path)
                    folder = name.rsplit("/", 1)[0]
    return out


def sources(root):
    out = set()
    for top in ("core", "ui", "app"):
        for p in (root / top).rglob("*"):
            if p.is_file() and SOURCE.search(p.name):
                out.add(p.relative_to(root).as_posix())
    return out


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
    doc = (root / "docs" / "architecture.md").read_text(encoding="utf-8")
    named, present = listed(doc), sources(root)
    problems = [f"docs/architecture.md does not list {p}" for p in sorted(present - named)]
    problems += [f"docs/architecture.md lists {p}, which does not exist" for p in sorted(named - present)]
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"docs/architecture.md lists all {len(present)} source files of core/, ui/ and app/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
