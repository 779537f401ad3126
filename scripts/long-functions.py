#!/usr/bin/env python3
"""Lists C++ function bodies longer than a limit (default 80 lines) and files longer than ~500 lines.

A heuristic reader, not a parser: a function body is a `{` at the end of a line that closes a `)` (with an optional
`const`, `noexcept`, `override`, trailing return or initialiser list before it), at brace depth 0 of its namespace
or class, until its matching `}`. Lambdas and blocks inside a body count toward their function.
usage: long-functions.py [--max-lines N] [--max-file-lines N] [paths...]   (default: core ui app)
Exit status 1 when anything is over a limit.
"""
import argparse
import pathlib
import re
import sys

HEADER_END = re.compile(r"\)\s*(const)?\s*(noexcept)?\s*(override)?\s*(->\s*[\w:<>,\s*&]+)?\s*\{\s*(//.*)?$")
INIT_END = re.compile(r"^\s*[:,]\s*\w[\w:<>]*\s*[({].*[)}]\s*\{\s*$")
SKIP = re.compile(r"^\s*(if|for|while|switch|catch|else|do|return|case)\b|=\s*\[|\[.*\]\s*\(|^\s*\[")


def strip(line):
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])*'", "''", line)
    return line.split("//")[0]


def functions(text):
    lines = text.split("\n")
    depth, start, name, found = 0, None, None, []
    scopes = []  # depth at which each namespace/class body opened (those are not function bodies)
    for i, raw in enumerate(lines):
        line = strip(raw)
        opens, closes = line.count("{"), line.count("}")
        if start is None and opens and (HEADER_END.search(line) or INIT_END.search(line)) and not SKIP.search(line):
            in_body = depth > (scopes[-1] if scopes else 0)
            if not in_body:
                start, name = i, raw.strip()[:90]
                start_depth = depth
        elif start is None and opens and re.search(r"\b(namespace|class|struct|enum|union)\b", line):
            scopes.append(depth + opens - closes)
        depth += opens - closes
        while scopes and depth < scopes[-1]:
            scopes.pop()
        if start is not None and depth <= start_depth:
            found.append((start + 1, i - start + 1, name))
            start = None
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-lines", type=int, default=80)
    ap.add_argument("--max-file-lines", type=int, default=500)
    ap.add_argument("paths", nargs="*", default=["core", "ui", "app"])
    args = ap.parse_args()
    over = 0
    for root in args.paths:
        for path in sorted(pathlib.Path(root).rglob("*")):
            if path.suffix not in (".cpp", ".h"):
                continue
            text = path.read_text(encoding="utf-8")
            n = text.count("\n")
            if n > args.max_file_lines:
                print(f"{path}: {n} lines (file)")
                over += 1
            for line, length, name in functions(text):
                if length > args.max_lines:
                    print(f"{path}:{line}: {length} lines: {name}")
                    over += 1
    print(f"long-functions: {over} over the limits")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
