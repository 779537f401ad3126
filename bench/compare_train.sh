#!/usr/bin/env bash
# Training throughput, attnviz vs the PyTorch tutorial model, same sizes and work (bench/bench_train.cpp,
# bench/pytorch_train.py): bahdanau + additive, E=64, H_e=64, H_d=128, V=500, batch 64, 12-token sentences, Adam,
# clip 1.0. Each side: best of 1 and 2 threads, median of the timed runs. Prints both and the ratio (target ≥ 5×,
# issue 43).
# Also the single-thread ratio per CPU-second, which stays meaningful when other jobs load the machine.
#
# Debian's python3-torch multiplies matrices through libblas.so.3, the reference BLAS unless another is installed.
# TORCH_BLAS_DIR=DIR runs PyTorch with DIR's libblas.so.3 first on LD_LIBRARY_PATH (e.g. OpenBLAS's
# /usr/lib/x86_64-linux-gnu/openblas-pthread) and OPENBLAS_NUM_THREADS set to the thread count.
#
# usage: bench/compare_train.sh [BUILD_DIR]     (default build/release; needs bench_train built there)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build/release}
bench=$build/bench/bench_train
[[ -x $bench ]] || { echo "compare_train.sh: $bench not found (build the bench_train target first)" >&2; exit 1; }
py=/usr/bin/python3
$py -c 'import torch' 2>/dev/null || { echo "compare_train.sh: $py cannot import torch (apt install python3-torch)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "attnviz: bench_train (5 repetitions, medians) ..." >&2
"$bench" --benchmark_filter='BM_TrainBahdanauAdditive' --benchmark_repetitions=5 --benchmark_min_time=1 \
    --benchmark_report_aggregates_only=true --benchmark_format=json > "$tmp/ours.json"
echo "pytorch: bench/pytorch_train.py (1 and 2 threads, medians) ..." >&2
if [[ -n ${TORCH_BLAS_DIR:-} ]]; then  # one process per thread count, so that OpenBLAS gets the same count
    for t in 1 2; do
        LD_LIBRARY_PATH=$TORCH_BLAS_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} OPENBLAS_NUM_THREADS=$t \
            "$py" "$here/pytorch_train.py" --threads "$t" --steps 10 --repeats 5 > "$tmp/torch$t.json"
    done
    "$py" - "$tmp" > "$tmp/torch.json" <<'EOF'
import json, sys
runs = [json.load(open(f"{sys.argv[1]}/torch{t}.json")) for t in (1, 2)]
per = {k: v for r in runs for k, v in r["per_threads"].items()}
best = max(per, key=lambda t: per[t]["tokens_per_s"])
print(json.dumps({"torch": runs[0]["torch"], "per_threads": per, "best_threads": int(best),
                  "tokens_per_s": per[best]["tokens_per_s"], "tokens_per_cpu_s": per[best]["tokens_per_cpu_s"]}))
EOF
else
    "$py" "$here/pytorch_train.py" --steps 10 --repeats 5 > "$tmp/torch.json"
fi

$py - "$tmp/ours.json" "$tmp/torch.json" <<'EOF'
import json, sys
ours = json.load(open(sys.argv[1]))
torch = json.load(open(sys.argv[2]))
wall, cpu1 = {}, None
for b in ours["benchmarks"]:
    if b.get("aggregate_name") != "median":
        continue
    threads = int(b["run_name"].split("threads:")[1].split("/")[0])
    wall[threads] = b["target_tokens_per_s"]
    if threads == 1:  # the whole process runs on the timed thread: real/cpu converts to tokens per CPU-second
        cpu1 = b["target_tokens_per_s"] * b["real_time"] / b["cpu_time"]
best_t = max(wall, key=wall.get)
print(f"attnviz : {wall[best_t]:10.0f} target tokens/s (best of threads {sorted(wall)}: {best_t}); "
      + ", ".join(f"{t} thread(s) {v:.0f}" for t, v in sorted(wall.items())))
print(f"pytorch : {torch['tokens_per_s']:10.0f} target tokens/s (best of threads 1, 2: {torch['best_threads']}); "
      + ", ".join(f"{t} thread(s) {v['tokens_per_s']:.0f}" for t, v in sorted(torch['per_threads'].items())))
print(f"ratio   : {wall[best_t] / torch['tokens_per_s']:.2f}x  (target >= 5x; attnviz target >= 20000 tokens/s)")
t1 = torch["per_threads"].get("1", {}).get("tokens_per_cpu_s")
if cpu1 and t1:
    print(f"per CPU-second, 1 thread: attnviz {cpu1:.0f}, pytorch {t1:.0f}, ratio {cpu1 / t1:.2f}x")
EOF
