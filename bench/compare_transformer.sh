#!/usr/bin/env bash
# Issue 16's Transformer speed, attnviz vs PyTorch eager in the same run: d_model 256, 4 heads, 3 + 3 layers,
# dim_feedforward 1024, V_s = V_t = 8000. Greedy decode of one 10-word sentence, 11 steps (bench_decode's
# greedy/Large_Transformer_d256_3x3; target ≥ 5×), training on batches of 64 12-token sentences (bench_train's
# BM_TrainTransformerD256; target ≥ 4×, issue 43). PyTorch: bench/pytorch_transformer_speed.py, one process per
# thread count (1 and 2). Prints medians and the ratios, per thread count and best against best, and the
# single-thread ratios per CPU-second for training, which stay meaningful when other jobs load the machine.
#
# Debian's python3-torch multiplies matrices through libblas.so.3, the reference BLAS unless another is installed.
# TORCH_BLAS_DIR=DIR runs PyTorch with DIR's libblas.so.3 first on LD_LIBRARY_PATH (e.g. OpenBLAS's
# /usr/lib/x86_64-linux-gnu/openblas-pthread) and OPENBLAS_NUM_THREADS set to the thread count.
#
# usage: bench/compare_transformer.sh [BUILD_DIR]     (default build/release; needs bench_decode and bench_train)
# TORCH_SPEED_ARGS="--steps 1 --repeats 3" passes options to pytorch_transformer_speed.py (shorter runs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build/release}
for b in bench_decode bench_train; do
    [[ -x $build/bench/$b ]] || { echo "compare_transformer.sh: $build/bench/$b not found (build it first)" >&2; exit 1; }
done
py=/usr/bin/python3
$py -c 'import torch' 2>/dev/null || { echo "compare_transformer.sh: $py cannot import torch (apt install python3-torch)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
# three processes: on a virtual machine one process's decode can run 30 % slower than the next one's throughout
echo "attnviz: bench_decode greedy/Large_Transformer_d256_3x3 (3 processes of 5 repetitions, median) ..." >&2
for k in 1 2 3; do
    "$build/bench/bench_decode" --benchmark_filter='Large_Transformer_d256_3x3/threads:2' --benchmark_format=json > "$tmp/decode$k.json"
done
echo "attnviz: bench_train BM_TrainTransformerD256 (5 repetitions, medians) ..." >&2
"$build/bench/bench_train" --benchmark_filter='BM_TrainTransformerD256' --benchmark_repetitions=5 \
    --benchmark_min_time=1 --benchmark_report_aggregates_only=true --benchmark_format=json > "$tmp/train.json"
for t in 1 2; do
    echo "pytorch: bench/pytorch_transformer_speed.py, $t thread(s) ..." >&2
    if [[ -n ${TORCH_BLAS_DIR:-} ]]; then
        LD_LIBRARY_PATH=$TORCH_BLAS_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} OPENBLAS_NUM_THREADS=$t \
            "$py" "$here/pytorch_transformer_speed.py" --threads "$t" ${TORCH_SPEED_ARGS:-} > "$tmp/torch$t.json"
    else
        "$py" "$here/pytorch_transformer_speed.py" --threads "$t" ${TORCH_SPEED_ARGS:-} > "$tmp/torch$t.json"
    fi
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

$py - "$tmp" <<'EOF'
import json, sys
d = sys.argv[1]
scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
def decode_median_ms(path):
    b = next(b for b in json.load(open(path))["benchmarks"] if b.get("aggregate_name") == "median")
    return b["real_time"] * scale[b["time_unit"]]
ours_ms = sorted(decode_median_ms(f"{d}/decode{k}.json") for k in (1, 2, 3))[1]
ours_tok, ours_cpu1 = {}, None
for b in json.load(open(f"{d}/train.json"))["benchmarks"]:
    if b.get("aggregate_name") == "median":
        threads = int(b["run_name"].split("threads:")[1].split("/")[0])
        ours_tok[threads] = b["target_tokens_per_s"]
        if threads == 1:  # the whole process runs on the timed thread: real/cpu converts to tokens per CPU-second
            ours_cpu1 = b["target_tokens_per_s"] * b["real_time"] / b["cpu_time"]
pt = {}
for t in (1, 2):
    r = json.load(open(f"{d}/torch{t}.json"))
    pt[t] = r["per_threads"][str(t)]
print(f"torch {r['torch']}; medians, wall time")
print("decode (ms per sentence, 11 steps; attnviz shares each step's generator product with a second core)")
for t in (1, 2):
    print(f"  {t} thread(s): attnviz {ours_ms:8.2f}  pytorch {pt[t]['decode']['ms']:8.2f}"
          f"  ratio {pt[t]['decode']['ms'] / ours_ms:5.2f}x")
best_pt = min(p["decode"]["ms"] for p in pt.values())
print(f"  best vs best: {best_pt / ours_ms:.2f}x  (target >= 5x)")
print("training (target tokens/s, batch 64 of 12-token sentences)")
for t in (1, 2):
    print(f"  {t} thread(s): attnviz {ours_tok[t]:8.0f}  pytorch {pt[t]['train']['tokens_per_s']:8.0f}"
          f"  ratio {ours_tok[t] / pt[t]['train']['tokens_per_s']:5.2f}x")
best_pt = max(p["train"]["tokens_per_s"] for p in pt.values())
print(f"  best vs best: {max(ours_tok.values()) / best_pt:.2f}x  (target >= 4x)")
pt1 = pt[1]["train"]["tokens_per_cpu_s"]
print(f"  per CPU-second, 1 thread: attnviz {ours_cpu1:.0f}, pytorch {pt1:.0f}, ratio {ours_cpu1 / pt1:.2f}x")
EOF
