#!/usr/bin/env python3
"""Checks what storing a model's weights in F16 changes: greedy outputs and attention on a test split.

    f16_check.py CLI F32_MODEL F16_MODEL TEST.tsv

Both models decode every source line of TEST.tsv greedily (`attnviz-cli decode --input --json`). Prints the number
of lines whose output tokens differ and, over the lines whose outputs are the same, the largest absolute difference
of an attention weight. Exit status 0 when no output differs, 1 when some do.
"""
import json
import subprocess
import sys
import tempfile


def decode(cli, model, sources):
    out = subprocess.run([cli, "decode", "--model", model, "--input", sources, "--json"],
                         check=True, capture_output=True, text=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def main() -> int:
    if len(sys.argv) != 5:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    cli, f32, f16, test = sys.argv[1:]
    with open(test, encoding="utf-8") as f, tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8") as src:
        for line in f:
            if line.strip():
                src.write(line.split("\t", 1)[0].rstrip("\n") + "\n")
        src.flush()
        a, b = decode(cli, f32, src.name), decode(cli, f16, src.name)
    if len(a) != len(b):
        sys.exit(f"{f32} decoded {len(a)} lines, {f16} {len(b)}")
    changed = [x["line"] for x, y in zip(a, b) if x["target_tokens"] != y["target_tokens"]]
    largest = max((abs(p - q) for x, y in zip(a, b) if x["target_tokens"] == y["target_tokens"]
                   for row_x, row_y in zip(x["attention"], y["attention"]) for p, q in zip(row_x, row_y)),
                  default=0.0)
    print(f"{f16}: {len(changed)} of {len(a)} outputs differ from F32 (lines {changed[:10]}); "
          f"largest attention difference on the others {largest:.2g}")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
