#!/usr/bin/env bash
# The package's engine against a native build (docs/performance.md, "The package's instruction sets"): issue 16's
# Transformer decode (bench_decode's greedy/Large_Transformer_d256_3x3, 11 greedy steps) and the Tatoeba additive
# model's integrated gradients (bench_explain's run/additive_ig32_10words), run by four sides in turn, ROUNDS times:
#   native    NATIVE_BUILD's programs (-march=native)
#   package   PACKAGE_BUILD's programs (ATTNVIZ_NATIVE=OFF), on the engine copy the dynamic loader picks
#   v3        the same programs with GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F: the x86-64-v3 copy on an AVX-512 CPU
#   baseline  the same with glibc.cpu.hwcaps=-AVX2: the baseline copy, what the package ran before it carried others
# Prints each side's median wall and CPU time over the rounds and the ratios to native (> 1: slower than native).
#
# usage: bench/compare_isa.sh PACKAGE_BUILD NATIVE_BUILD [ROUNDS]    (default 5 rounds; both need bench_decode and
#        bench_explain, e.g. cmake -B build/pkg -DCMAKE_BUILD_TYPE=Release -DATTNVIZ_NATIVE=OFF -DATTNVIZ_BUILD_BENCH=ON)
set -euo pipefail
[[ $# -ge 2 ]] || { sed -n '2,12p' "$0" >&2; exit 2; }
pkg=$1 native=$2 rounds=${3:-5}
for b in "$pkg" "$native"; do
    for p in bench_decode bench_explain; do
        [[ -x $b/bench/$p ]] || { echo "compare_isa.sh: $b/bench/$p not found (build it first)" >&2; exit 1; }
    done
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run_side() {  # side build round [env...]
    local side=$1 build=$2 round=$3
    shift 3
    env "$@" "$build/bench/bench_decode" --benchmark_filter='Large_Transformer_d256_3x3/threads:2' --benchmark_format=json \
        > "$tmp/decode-$side-$round.json"
    env "$@" "$build/bench/bench_explain" --benchmark_filter='run/additive_ig32_10words' --benchmark_repetitions=3 \
        --benchmark_report_aggregates_only=true --benchmark_format=json > "$tmp/ig-$side-$round.json"
}
engine() {  # build [env...]: the engine copy its CLI runs
    local build=$1
    shift
    env "$@" "$build/app/attnviz-cli" --version | sed -n 's/^engine: //p'
}
echo "engines: native $(engine "$native"), package $(engine "$pkg")," \
    "v3 $(engine "$pkg" GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F)," \
    "baseline $(engine "$pkg" GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for ((r = 1; r <= rounds; r++)); do
    echo "round $r of $rounds ..." >&2
    run_side native "$native" "$r"
    run_side package "$pkg" "$r"
    run_side v3 "$pkg" "$r" GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F
    run_side baseline "$pkg" "$r" GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
python3 - "$tmp" "$rounds" <<'EOF'
import json, statistics, sys
d, rounds = sys.argv[1], int(sys.argv[2])
scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
def median_of_run(path):
    b = next(b for b in json.load(open(path))["benchmarks"] if b.get("aggregate_name") == "median")
    return b["real_time"] * scale[b["time_unit"]], b["cpu_time"] * scale[b["time_unit"]]
for work, label in (("decode", "Transformer decode, ms per sentence"), ("ig", "additive ig32, ms per explanation")):
    print(label)
    med = {}
    for side in ("native", "package", "v3", "baseline"):
        runs = [median_of_run(f"{d}/{work}-{side}-{r}.json") for r in range(1, rounds + 1)]
        med[side] = (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs))
        walls = ", ".join(f"{w:.2f}" for w, _ in runs)
        print(f"  {side:8s} wall {med[side][0]:8.2f}  cpu {med[side][1]:8.2f}   (rounds: {walls})")
    for side in ("package", "v3", "baseline"):
        print(f"  {side} / native: wall {med[side][0] / med['native'][0]:.2f}x, cpu {med[side][1] / med['native'][1]:.2f}x")
EOF
