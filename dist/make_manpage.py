#!/usr/bin/env python3
"""Writes the man pages of attnviz and attnviz-cli from the programs' own --help, so they never drift apart.

usage: make_manpage.py CLI GUI VERSION OUTDIR
Runs `CLI --help` and `CLI COMMAND --help` for every command, and `GUI --help` (which needs no display), and writes
OUTDIR/attnviz-cli.1.gz and OUTDIR/attnviz.1.gz (roff, man(7) macros; gzip -9 with no name or time, as Debian
wants them).
"""
import gzip
import os
import re
import subprocess
import sys
import tempfile

DATE = "December 2026"


def run(*args):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out = subprocess.run(list(args), capture_output=True, text=True, env=env, timeout=60)
    if out.returncode != 0:
        raise SystemExit(f"make_manpage: {' '.join(args)} exited {out.returncode}: {out.stderr.strip()}")
    return out.stdout


def esc(text):
    """Escapes text for roff: backslashes, leading dots and apostrophes, hyphens of options."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join(("\\&" + line) if line.startswith((".", "'")) else line for line in text.split("\n"))


def options_block(help_text):
    """The `options:` part of a --help as .TP entries; the text before it as paragraphs."""
    lines = help_text.rstrip("\n").split("\n")
    out, in_options, pending = [], False, None
    for line in lines:
        if line.strip().lower() in ("options:", "arguments:"):
            in_options = True
            out.append(".PP\n.B " + esc(line.strip().rstrip(":").capitalize()))
            continue
        if not in_options:
            if line.startswith("usage:") or line.startswith("Usage:"):
                continue
            out.append(esc(line) if line.strip() else ".PP")
            continue
        m = re.match(r"^\s{1,4}(\S.*?)(\s{2,}(.*))?$", line)
        if m and not line.startswith(" " * 8):
            out.append(".TP\n.B " + esc(m.group(1).strip()))
            if m.group(3):
                out.append(esc(m.group(3).strip()))
        elif line.strip():
            out.append(esc(line.strip()))
    return "\n".join(out)


def cli_page(cli, version):
    top = run(cli, "--help")
    commands = re.findall(r"^  (\w+)\s+(.*)$", top, re.MULTILINE)
    parts = [
        f'.TH ATTNVIZ\\-CLI 1 "{DATE}" "attnviz {version}" "User Commands"',
        ".SH NAME",
        "attnviz\\-cli \\- decode, render, train and evaluate attention models from the command line",
        ".SH SYNOPSIS",
        ".B attnviz\\-cli",
        ".I COMMAND",
        "[\\fIoptions\\fR]",
        ".SH DESCRIPTION",
        "attnviz\\-cli is the headless twin of \\fBattnviz\\fR(1). Models are single safetensors files; the sample",
        "models are installed in \\fI/usr/share/attnviz/sample_models\\fR.",
        ".SH COMMANDS",
    ]
    for name, summary in commands:
        parts += [".TP", f".B {esc(name)}", esc(summary)]
    for name, _ in commands:
        text = run(cli, name, "--help")
        usage = next((l for l in text.split("\n") if l.startswith("usage:")), "")
        parts += [f".SH {esc(name.upper())}", ".nf", esc(usage[len("usage: "):]), ".fi", options_block(text)]
    parts += [".SH EXIT STATUS", "0 on success, 1 when the command failed (the reason is printed on standard error),",
              "2 for a usage error.", ".SH SEE ALSO", "\\fBattnviz\\fR(1)"]
    return "\n".join(parts) + "\n"


def gui_page(gui, version):
    text = run(gui, "--help")
    parts = [
        f'.TH ATTNVIZ 1 "{DATE}" "attnviz {version}" "User Commands"',
        ".SH NAME",
        "attnviz \\- watch attention work inside a sequence\\-to\\-sequence model",
        ".SH SYNOPSIS",
        ".B attnviz",
        "[\\fIoptions\\fR] [\\fImodel\\fR]",
        ".SH DESCRIPTION",
        "attnviz shows the attention weights of a sequence\\-to\\-sequence model as a heatmap that follows what you",
        "type. Without a model it opens the last one, else the default sample model from",
        "\\fI/usr/share/attnviz/sample_models\\fR.",
        options_block(text),
        ".SH SEE ALSO",
        "\\fBattnviz\\-cli\\fR(1)",
    ]
    return "\n".join(parts) + "\n"


def tidy(text):
    """Drops the empty paragraphs that runs of blank help lines leave (".PP" twice, or before a heading)."""
    lines, out = text.split("\n"), []
    for line in lines:
        if line == ".PP" and out and out[-1] == ".PP":
            continue
        if line.startswith(".SH") and out and out[-1] == ".PP":
            out.pop()
        out.append(line)
    return "\n".join(out)


def write_atomically(path, text):
    folder = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(gzip.compress(tidy(text).encode("utf-8"), compresslevel=9, mtime=0))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main():
    if len(sys.argv) != 5:
        raise SystemExit(__doc__)
    cli, gui, version, outdir = sys.argv[1:]
    os.makedirs(outdir, exist_ok=True)
    write_atomically(os.path.join(outdir, "attnviz-cli.1.gz"), cli_page(cli, version))
    write_atomically(os.path.join(outdir, "attnviz.1.gz"), gui_page(gui, version))


if __name__ == "__main__":
    main()
