#!/usr/bin/env python3
"""Checks that #include "..." lines point down the layers of docs/architecture.md.

core/ folders, lowest first: a file may include headers of its own folder and of the folders before it.
ui/ folders likewise, above all of core's public folders. app/ sees core's and ui's public folders.
kernels/, nn/ and fast/ are the engine's private workings: ui/ and app/ never include them.
The engine's UTF-8 strings become QStrings in one place, ui/heatmap/utf8_text.h's qs(): ui/ and app/ never call
QString::fromStdString themselves.
Prints each include or conversion that breaks a rule and exits 1; prints a summary line and exits 0 when there is
none.
"""
import pathlib
import re
import sys

CORE_LAYERS = ["base", "kernels", "model", "text", "nn", "fast", "decode", "io", "train", "eval", "explain"]
CORE_PRIVATE = {"kernels", "nn", "fast"}
UI_LAYERS = ["heatmap", "state", "views", "dialogs", "training", "window"]
GENERATED = {"attnviz_version.h"}  # configured into the build tree by CMake
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)
ONE_CONVERSION = "ui/heatmap/utf8_text.h"


def core_allowed(folder):
    return set(CORE_LAYERS[: CORE_LAYERS.index(folder) + 1])


def public_core():
    return set(CORE_LAYERS) - CORE_PRIVATE


def allowed_for(rel):
    """(allowed core folders, allowed ui folders) for a file, or None when the file is not checked."""
    parts = rel.parts
    if parts[0] == "core" and len(parts) >= 3 and parts[1] in CORE_LAYERS:
        return core_allowed(parts[1]), set()
    if parts[0] == "ui" and len(parts) >= 3 and parts[1] in UI_LAYERS:
        return public_core(), set(UI_LAYERS[: UI_LAYERS.index(parts[1]) + 1])
    if parts[0] == "app":
        return public_core(), set(UI_LAYERS)
    return None


def check(root):
    problems = []
    checked = 0
    for path in sorted(list(root.glob("core/**/*")) + list(root.glob("ui/**/*")) + list(root.glob("app/**/*"))):
        if path.suffix not in (".h", ".cpp") or not path.is_file():
            continue
        rel = path.relative_to(root)
        rule = allowed_for(rel)
        if rule is None:
            problems.append(f"{rel}: not in a layer folder (docs/architecture.md lists them)")
            continue
        core_ok, ui_ok = rule
        checked += 1
        text = path.read_text(encoding="utf-8")
        if rel.parts[0] in ("ui", "app") and rel.as_posix() != ONE_CONVERSION and "QString::fromStdString" in text:
            problems.append(f"{rel}: QString::fromStdString instead of qs() ({ONE_CONVERSION})")
        for target in INCLUDE.findall(text):
            first = target.split("/")[0]
            if target in GENERATED:
                continue
            if "/" not in target:
                if rel.parts[0] == "app" and (path.parent / target).exists():
                    continue  # app/cli's own headers
                problems.append(f"{rel}: #include \"{target}\" names no folder")
            elif (root / "core" / target).exists():
                if first not in core_ok:
                    problems.append(f"{rel}: #include \"{target}\" points up or into a private folder of core")
            elif (root / "ui" / target).exists():
                if first not in ui_ok:
                    problems.append(f"{rel}: #include \"{target}\" points up the ui layers")
            elif not (path.parent / target).exists():
                problems.append(f"{rel}: #include \"{target}\" is not a file of core/ or ui/")
    return checked, problems


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
    checked, problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"layering: {len(problems)} include(s) or conversion(s) break the rules in {checked} files")
        return 1
    print(f"layering: {checked} files, every include points down the layers, strings converted by qs() alone")
    return 0


if __name__ == "__main__":
    sys.exit(main())
