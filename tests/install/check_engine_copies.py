#!/usr/bin/env python3
"""The engine's copies for each instruction set give the same answers (docs/performance.md, "The package's
instruction sets").

A build without ATTNVIZ_NATIVE carries the engine for the baseline x86-64 and for the levels of ATTNVIZ_ISA_LEVELS
(x86-64-v3: AVX2 and FMA; x86-64-v4: AVX-512); the dynamic loader picks the best copy the CPU runs, and
GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F (or -AVX2) makes it pass over the copies that need those. This script runs
the CLI each way, checks from `--version` which copy each run got (and that the program and the baseline copy use no
AVX register), and compares every copy other than the baseline with the baseline on a greedy and a forced decode
(tokens, log-probabilities, attention) and on the explanation by gradients (grad_input and integrated gradients), for
an additive model and a Transformer.

The copies cannot agree bit for bit: Eigen sums a dot product in packets of 4 floats on the baseline, of 8 with fused
multiply-adds on x86-64-v3 and of 16 on x86-64-v4, so each sum is rounded differently (float32 round-off). Tokens and
every string must be equal; every number within ABS_TOL + REL_TOL * |value| of the baseline's.

    check_engine_copies.py CLI MODELS_DIR     (exit 77: this CPU or this build runs only the baseline copy)
"""
import json
import os
import re
import shutil
import subprocess
import sys

ABS_TOL = 1e-5
REL_TOL = 1e-4
BASELINE_ENV = {"GLIBC_TUNABLES": "glibc.cpu.hwcaps=-AVX2"}
# the environments that make the loader pass over the copies a CPU with AVX-512, then one with AVX2, would get
COPY_ENVS = ({}, {"GLIBC_TUNABLES": "glibc.cpu.hwcaps=-AVX512F"})
SENTENCE = "i ate an apple yesterday"


def run(cli, args, extra_env):
    env = dict(os.environ, **extra_env)
    r = subprocess.run([cli, *args], env=env, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        sys.exit(f"engine copies: {' '.join(args)} failed ({r.returncode}): {r.stderr.strip()}")
    return r.stdout


def engine_level(cli, extra_env):
    for line in run(cli, ["--version"], extra_env).splitlines():
        if line.startswith("engine: "):
            return line[len("engine: "):]
    sys.exit("engine copies: attnviz-cli --version names no engine")


def baseline_uses_avx(cli):
    """The program and the baseline copy of the engine it loads, if either has an instruction on AVX registers (ymm,
    zmm): a flag such as -march leaking into them would crash them on a CPU without AVX. "" when neither has one, or
    when ldd or objdump is missing."""
    if not shutil.which("ldd") or not shutil.which("objdump"):
        return ""
    env = dict(os.environ, **BASELINE_ENV)
    lines = subprocess.run(["ldd", cli], env=env, capture_output=True, text=True, timeout=60).stdout.splitlines()
    engine = [ln.split("=>")[1].split("(")[0].strip() for ln in lines if "libattnviz_core" in ln and "=>" in ln]
    for path in [cli] + engine:
        code = subprocess.run(["objdump", "-d", "--no-show-raw-insn", path], capture_output=True, text=True,
                              timeout=300).stdout
        if re.search(r"%[yz]mm[0-9]", code):
            return path
    return ""


def compare(a, b, where, worst):
    """Raises on the first difference beyond the bound; worst[0] keeps the largest share of its bound a difference
    takes, |a - b| / (ABS_TOL + REL_TOL * |a|)."""
    if isinstance(a, bool) or isinstance(a, str) or a is None:
        if a != b:
            raise ValueError(f"{where}: {a!r} against {b!r}")
    elif isinstance(a, (int, float)):
        if not isinstance(b, (int, float)):
            raise ValueError(f"{where}: {a!r} against {b!r}")
        if isinstance(a, int) and isinstance(b, int) and a != b:
            raise ValueError(f"{where}: {a} against {b}")
        diff, bound = abs(a - b), ABS_TOL + REL_TOL * abs(a)
        if diff > bound:
            raise ValueError(f"{where}: {a!r} against {b!r} (difference {diff:.3g})")
        worst[0] = max(worst[0], diff / bound)
    elif isinstance(a, list):
        if not isinstance(b, list) or len(a) != len(b):
            raise ValueError(f"{where}: lists of different lengths")
        for i, (x, y) in enumerate(zip(a, b)):
            compare(x, y, f"{where}[{i}]", worst)
    elif isinstance(a, dict):
        if not isinstance(b, dict) or sorted(a) != sorted(b):
            raise ValueError(f"{where}: different keys")
        for k in a:
            compare(a[k], b[k], f"{where}.{k}", worst)
    else:
        raise ValueError(f"{where}: unexpected {type(a).__name__}")


def compare_runs(cli, models, env):
    """Compares the copy `env` selects with the baseline; returns the number of failed comparisons."""
    failed = 0
    for model in ("en_zh-bahdanau-additive", "en_zh-transformer"):
        path = os.path.join(models, model + ".safetensors")
        for label, args in (
            ("greedy decode", ["decode", "--json", "--model", path, SENTENCE]),
            ("forced decode", ["decode", "--json", "--model", path, "--target", "我 昨天 吃 了 一个 苹果", SENTENCE]),
            ("grad_input and ig", ["explain", "--json", "--method", "grad_input,ig", "--threads", "1",
                                   "--model", path, SENTENCE]),
        ):
            a = json.loads(run(cli, args, BASELINE_ENV))
            b = json.loads(run(cli, args, env))
            worst = [0.0]
            try:
                compare(a, b, "", worst)
                print(f"  {model} {label}: same tokens, the largest difference {worst[0]:.0%} of its bound")
            except ValueError as e:
                print(f"  {model} {label}: FAILED at {e}")
                failed += 1
    return failed


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    cli, models = sys.argv[1], sys.argv[2]
    base = engine_level(cli, BASELINE_ENV)
    if base != "x86-64":
        sys.exit(f"engine copies: with {BASELINE_ENV} the engine is {base}, not the baseline x86-64")
    avx = baseline_uses_avx(cli)
    if avx:
        sys.exit(f"engine copies: {avx} is meant for the baseline x86-64 but uses AVX registers")
    copies = {}
    for env in COPY_ENVS:
        level = engine_level(cli, env)
        if level != base:
            copies.setdefault(level, env)
    if not copies:
        print("SKIP: only the baseline copy runs here (no other copy built, or a CPU without AVX2 and FMA)")
        return 77
    failed = 0
    for level, env in copies.items():
        print(f"engine copies: {level} against {base}")
        failed += compare_runs(cli, models, env)
    print(f"engine copies: {6 * len(copies) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
