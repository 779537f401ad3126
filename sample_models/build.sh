#!/usr/bin/env bash
# Regenerates every corpus and retrains every sample model from the seeds, then evaluates them into
# sample_models/metrics.tsv (the table of sample_models/README.md). The synthetic tasks take about 35 minutes on
# 2 cores; tatoeba (real sentences, larger models) takes hours.
#   sample_models/build.sh            # everything
#   sample_models/build.sh en_fr      # one task (then the table of every model)
#   sample_models/build.sh --eval     # only the tables (and the test metrics in each model's metadata)
#   sample_models/build.sh --compare  # only compare.md: attention distances between every pair of siblings
# ATTNVIZ_MODELS_OUT=DIR trains into DIR instead of sample_models/ (the table then covers DIR's models);
# ATTNVIZ_TRAIN_THREADS=N trains with N threads (default 2).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="$(dirname "$here")"
cli="${ATTNVIZ_CLI:-$top/build/release/app/attnviz-cli}"
out="${ATTNVIZ_MODELS_OUT:-$here}"  # where the trained models go
corpora="${ATTNVIZ_CORPORA:-$top/build/corpora}"
seed=1
eval_only=0
compare_only=0
if [ "${1:-}" = --eval ]; then eval_only=1; shift; fi
if [ "${1:-}" = --compare ]; then eval_only=1; compare_only=1; shift; fi
tasks=("${@:-en_fr en_zh dates tatoeba}")
tasks=(${tasks[*]})

if [ ! -x "$cli" ]; then
  (cd "$top" && cmake --preset release >/dev/null && cmake --build --preset release --target attnviz-cli -j "$(nproc)")
fi
if [ "$eval_only" = 0 ] || [ ! -d "$corpora/en_fr" ] || [ ! -d "$corpora/tatoeba" ]; then
  python3 "$here/corpora/generate.py" --out "$corpora" --seed "$seed"
  python3 "$here/corpora/tatoeba.py" --out "$corpora" --seed "$seed"  # from tatoeba/cmn.txt.xz
fi

# Per task: epochs and learning rate; every model of a task shares sizes, data, seed and schedule.
# tatoeba keeps source words and target characters seen at least twice in training (rarer ones become <unk>).
declare -A epochs=([en_fr]=20 [en_zh]=8 [dates]=2 [tatoeba]=8)
declare -A lr=([en_fr]=0.002 [en_zh]=0.002 [dates]=0.002 [tatoeba]=0.002)
declare -A min_freq=([en_fr]=1 [en_zh]=1 [dates]=1 [tatoeba]=2)
# Every sibling learns its attention by itself (no guidance), so that the scoring toggle shows what each scoring
# learns. One sibling per word task, configs/<task>-bahdanau-additive-guided.json (the same config as the additive
# one), is trained with guided alignment (Chen et al. 2016): this weight times the cross-entropy between the gold
# alignment and the attention is added to the loss, so the window can show learnt against supervised attention with
# the same scoring on the same sentence.
guided_align_weight=1
declare -A about=(
  [en_fr]="English to French: adjectives after the noun, agreement, ne ... pas, du/au contractions"
  [en_zh]="English to Chinese: time words fronted, le, de and measure words"
  [dates]="Dates as people write them to ISO 8601, character level"
  [tatoeba]="English to Chinese on real sentences: Tatoeba (tatoeba.org, CC-BY 2.0 FR), Chinese by character"
)

# Every model is trained in F32 into $f32_dir, converted to F16 (half the size) and decoded on its task's test split
# by f16_check.py: it ships in F16 when no greedy output changes, in F32 otherwise. The tatoeba models ship in F16
# whatever the check says (about 1 output in 1,000 changes; in F32 they alone would break the 50 MB budget of the
# sample models); sample_models/README.md reports the check.
declare -A f16_always=([tatoeba]=1)
f32_dir="$corpora/../models-f32"

# A Transformer sibling (configs/<task>-transformer.json) shares its task's data, min-freq, batch, clipping and dropout,
# with the schedule Transformers need: Adam 0.001 after 400 warm-up updates, more epochs (best validation model kept).
declare -A transformer_epochs=([en_fr]=20 [en_zh]=10 [dates]=15 [tatoeba]=10)
transformer_lr=0.001
transformer_warmup=400

# The subword Marian-layout model (configs/<task>-marian.json, a Hugging Face Marian config: docs/marian.md): its
# own SentencePiece pieces (English, Chinese; seeded) trained on the same split, the Transformer schedule, written as a
# Hugging Face folder <task>-marian/ in F16. Its quality is measured by the same char BLEU (eval scores a SentencePiece
# target's text in characters). tatoeba: 4,000 and 3,000 pieces (its split has 2,773 Chinese characters). en_zh: 256
# English pieces for its 412 words (the rarer words split) and 400 Chinese for its 286 characters and 252 words (the
# trainer takes 290 to 542 there); its epochs are the en_zh Transformer's.
# tatoeba trains with label smoothing 0.1 for 15 epochs (the last model kept), then goes on from that model for 6
# epochs at a tenth of the rate (train --init; the optimizer starts afresh; the best validation model kept):
# sample_models/tatoeba-marian/README.md says what else was tried.
# tatoeba trains on its training split plus as many pairs again as it has lines, each two of its own pairs joined
# (corpora/concat_pairs.py): Tatoeba's sentences are short, and a model that never read a long one loses the thread of
# one. The SentencePiece models are trained on that corpus too.
declare -A marian_epochs=([tatoeba]=15 [en_zh]=10)
declare -A marian_concat=([tatoeba]=1 [en_zh]=0)
declare -A marian_pieces=([tatoeba]=4000,3000 [en_zh]=256,400)
declare -A marian_smoothing=([tatoeba]=0.1 [en_zh]=0)
declare -A marian_more_epochs=([tatoeba]=6 [en_zh]=0)
# The Chinese of both keeps its full-width punctuation ("，", "？"): NFKC, the SentencePiece default, would make it
# ASCII.
declare -A marian_normalization=([tatoeba]=nmt_nfkc,identity [en_zh]=nmt_nfkc,identity)
train_marian() {  # task config-name
  local task=$1 name=$2 first="$out/$2" dtype=f16 data="$corpora/$1/train.tsv"
  [ "${marian_more_epochs[$task]}" -gt 0 ] && first="$f32_dir/$name-first" dtype=f32  # the second run starts from it
  mkdir -p "$f32_dir"
  if [ "${marian_concat[$task]}" != 0 ]; then
    data="$corpora/$task/train-concat.tsv"
    python3 "$here/corpora/concat_pairs.py" --input "$corpora/$task/train.tsv" --output "$data" \
      --attribution "$corpora/$task/train.attribution.txt" --fraction "${marian_concat[$task]}" --seed "$seed"
  fi
  # A run with a second one keeps its last model (no validation): the best by validation loss came earlier than
  # the last and left the second run less to start from (tatoeba-marian/README.md).
  local validation=(--valid "$corpora/$task/valid.tsv" --checkpoint)
  [ "${marian_more_epochs[$task]}" -gt 0 ] && validation=()
  "$cli" train --config "$here/configs/$name.json" --spm-vocab "${marian_pieces[$task]}" \
    --spm-normalization "${marian_normalization[$task]}" --data "$data" "${validation[@]}" \
    --out "$first" --force --dtype "$dtype" \
    --source-lang en --target-lang zh --optimizer adam --lr "$transformer_lr" --warmup "$transformer_warmup" \
    --batch-size 64 --epochs "${marian_epochs[$task]}" --clip 1.0 --dropout 0.1 --seed "$seed" \
    --label-smoothing "${marian_smoothing[$task]}" --threads "${ATTNVIZ_TRAIN_THREADS:-2}"
  [ "${marian_more_epochs[$task]}" -gt 0 ] || return 0
  "$cli" train --init "$first" --data "$data" --valid "$corpora/$task/valid.tsv" \
    --out "$out/$name" --force --dtype f16 --optimizer adam --lr 0.0001 --warmup 100 --batch-size 64 \
    --epochs "${marian_more_epochs[$task]}" --clip 1.0 --dropout 0.1 --seed 2 \
    --label-smoothing "${marian_smoothing[$task]}" --checkpoint --threads "${ATTNVIZ_TRAIN_THREADS:-2}"
}

train_one() {  # task config-name
  local task=$1 name=$2 align=0 description=${about[$1]} trained="$f32_dir/$2.safetensors"
  local lr=${lr[$1]} epochs=${epochs[$1]} warmup=0
  if [[ "$name" == *-transformer ]]; then
    lr=$transformer_lr epochs=${transformer_epochs[$task]} warmup=$transformer_warmup
  fi
  mkdir -p "$f32_dir"
  if [[ "$name" == *-guided ]]; then
    align=$guided_align_weight
    description+="; attention guided by the gold alignments"
  fi
  "$cli" train --config "$here/configs/$name.json" --data "$corpora/$task/train.tsv" --valid "$corpora/$task/valid.tsv" \
    --out "$trained" --task "$task" --description "$description" \
    --optimizer adam --lr "$lr" --warmup "$warmup" --batch-size 64 --epochs "$epochs" --clip 1.0 --dropout 0.1 \
    --min-freq "${min_freq[$task]}" --align-weight "$align" --seed "$seed" --threads "${ATTNVIZ_TRAIN_THREADS:-2}"
  "$cli" convert --dtype f16 "$trained" "$out/$name.safetensors"
  if ! python3 "$here/f16_check.py" "$cli" "$trained" "$out/$name.safetensors" "$corpora/$task/test.tsv" &&
    [ -z "${f16_always[$task]:-}" ]; then
    "$cli" convert --dtype f32 "$trained" "$out/$name.safetensors"  # F16 changed an output: ship F32
  fi
}

for task in "${tasks[@]}"; do
  [ "$eval_only" = 1 ] && break
  for cfg in "$here"/configs/"$task"-*.json; do
    name="$(basename "$cfg" .json)"
    echo "== training $name" >&2
    if [[ "$name" == *-marian ]]; then
      train_marian "$task" "$name"
    else
      train_one "$task" "$name"
    fi
  done
done

if [ "$compare_only" = 0 ]; then
# The quality table: attnviz-cli eval on each task's test split, also recorded in each model's `training` metadata.
{
  printf 'model\texact_match\ttoken_accuracy\tbleu\tchrf\taer\tmean_entropy\n'
  for m in "$out"/*.safetensors "$out"/*-marian; do
    [ -e "$m" ] || continue
    name="$(basename "$m" .safetensors)"
    task="${name%%-*}"
    merge=()
    [ -d "$m" ] && merge=(--merge both)  # a Marian folder's AER is read off its pieces merged into words
    metrics="$("$cli" eval --model "$m" --data "$corpora/$task/test.tsv" --json "${merge[@]}")"
    # a model file records its test metrics in its metadata; a Marian folder has none (its README gives them)
    [ -f "$m" ] && printf '%s' "$metrics" | python3 "$here/record_metrics.py" "$m" "$corpora/$task/test.tsv"
    printf '%s' "$metrics" |
      python3 -c 'import json,sys; n=sys.argv[1]; d=json.load(sys.stdin); f=lambda k: ("%.4f" % d[k]) if d.get(k) is not None else "-"; print("\t".join([n, f("exact_match"), f("token_accuracy"), f("bleu"), f("chrf"), f("aer"), f("mean_entropy")]))' "$name"
  done
} > "$out/metrics.tsv"
cat "$out/metrics.tsv"
fi

# The evidence that the scoring toggle shows something: per task, `attnviz-cli compare` between every pair of models
# on the test split (both forced onto the reference), into compare.md (linked from README.md).
python3 "$here/compare_table.py" "$cli" "$out" "$corpora" "$out/compare.md"
echo "wrote $out/compare.md" >&2
