#!/usr/bin/python3
"""Issue 42's PyTorch side of the Marian speed ratio: greedy decoding of 20 output tokens by the plain eager
reference (python/marian_reference.py: one position a step, each decoder layer's keys and values cached, the
cross-attention's keys and values computed once) at one thread, on a random folder of opus-mt-en-zh's size (d 512,
6 + 6 layers, 8 heads, F 2048, V 65,001, F32 model.safetensors, swish, tied table, ~300 MB).

The BLAS matters more than anything else here: Debian's python3-torch 1.13 (BLAS_INFO=generic) multiplies through
libblas.so.3, which is the reference BLAS unless OpenBLAS or BLIS is installed, and the reference BLAS is about 12x
slower on these products. The script prints which library was loaded; to time PyTorch on OpenBLAS without
installing it, unpack libopenblas0-pthread's .deb and run with
LD_LIBRARY_PATH=<unpacked>/usr/lib/x86_64-linux-gnu/openblas-pthread OPENBLAS_NUM_THREADS=1.

The folder is written by scripts/make_marian_folder.py into a temporary directory (or into --out, kept, so that
attnviz's benchmark can open the same one) with final_logits_bias[</s>] = -1e4, so that every decode runs exactly
20 steps. The source is 12 ids and </s> (a 10-word English sentence is about that many pieces).
Prints the medians of --repeats decodes: ms per decode and per step, wall and process CPU time (the CPU figures are
robust to other load on the machine), the encoder's share, the folder's load time, then one JSON line.

    /usr/bin/python3 bench/pytorch_marian_speed.py [--repeats 15] [--out DIR | --folder DIR]

Exits 77 when torch does not import.
"""
import argparse
import json
import os
import sys
import tempfile
import time

try:
    import torch
except ImportError as e:
    print(f"SKIP: torch does not import ({e})", file=sys.stderr)
    sys.exit(77)

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "python"))
sys.path.insert(0, os.path.join(here, "..", "scripts"))
from make_marian_folder import FolderSpec, opus_mt_en_zh, write_folder  # noqa: E402
from marian_reference import MarianReference  # noqa: E402
from torch_timing import timed  # noqa: E402

STEPS = 20
SOURCE = [100 + 37 * i for i in range(12)] + [0]  # 12 pieces and </s>


def blas_library():
    """The BLAS library this process loaded (torch's matrix products go through it): Debian's python3-torch links
    libblas.so.3, the reference BLAS unless an optimised one (OpenBLAS, BLIS) is installed as its alternative."""
    with open("/proc/self/maps") as f:
        paths = {line.split()[-1] for line in f if "blas" in line.rsplit("/", 1)[-1]}
    return sorted(os.path.realpath(p) for p in paths) or ["(none found)"]


def make_folder(path):
    t0 = time.perf_counter()
    write_folder(path, FolderSpec(**opus_mt_en_zh(), eos_bias=-1e4, seed=42))
    size = os.path.getsize(os.path.join(path, "model.safetensors"))
    print(f"wrote {path}: {size / 1e6:.0f} MB of weights in {time.perf_counter() - t0:.1f} s", file=sys.stderr)


def measure(folder, repeats):
    t0 = time.perf_counter()
    m = MarianReference(folder)
    load_s = time.perf_counter() - t0

    def decode():
        tokens, _, _ = m.greedy(SOURCE, STEPS)
        assert len(tokens) == STEPS, f"greedy stopped after {len(tokens)} tokens"

    def encode():
        with torch.no_grad():
            m.encode(SOURCE)

    wall, cpu = timed(decode, repeats, warmup=2)
    enc_wall, enc_cpu = timed(encode, repeats, warmup=1)
    return {"load_s": load_s, "decode_ms": wall * 1e3, "decode_cpu_ms": cpu * 1e3, "step_ms": wall * 1e3 / STEPS,
            "step_cpu_ms": cpu * 1e3 / STEPS, "encode_ms": enc_wall * 1e3, "encode_cpu_ms": enc_cpu * 1e3,
            "step_ms_without_encoder": (wall - enc_wall) * 1e3 / STEPS,
            "step_cpu_ms_without_encoder": (cpu - enc_cpu) * 1e3 / STEPS}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=15, help="decodes timed; the median is reported")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--out", help="write the random folder here and keep it")
    where.add_argument("--folder", help="time this Marian folder instead (it must not stop before 20 tokens)")
    a = ap.parse_args()
    torch.set_num_threads(1)
    if a.folder:
        res = measure(a.folder, a.repeats)
    elif a.out:
        make_folder(a.out)
        res = measure(a.out, a.repeats)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            make_folder(tmp)
            res = measure(tmp, a.repeats)
    print(f"pytorch {torch.__version__} eager, 1 thread: greedy {STEPS} tokens {res['decode_ms']:.1f} ms "
          f"(CPU {res['decode_cpu_ms']:.1f} ms), {res['step_ms']:.2f} ms a step "
          f"(CPU {res['step_cpu_ms']:.2f}; {res['step_ms_without_encoder']:.2f}, CPU "
          f"{res['step_cpu_ms_without_encoder']:.2f}, without the encoder's {res['encode_ms']:.1f} ms); "
          f"folder loaded in {res['load_s']:.2f} s (median of {a.repeats})", file=sys.stderr)
    print(f"BLAS: {', '.join(blas_library())}", file=sys.stderr)
    print(json.dumps({"torch": torch.__version__, "blas": blas_library(), "threads": 1, "steps": STEPS,
                      "source_len": len(SOURCE), **res}))


if __name__ == "__main__":
    main()
