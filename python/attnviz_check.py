"""`python3 python/attnviz_torch.py check MODEL "a sentence"`: decodes the sentence in PyTorch (attnviz_torch.load)
and with `attnviz-cli decode --json`, and prints the largest differences of tokens, attention and log-probs.
Exit status 0 when both agree (same tokens, differences within --tol), 1 otherwise."""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys

from attnviz_format import text_ids

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def find_cli(explicit=None):
    """--cli, else $ATTNVIZ_CLI, else attnviz-cli on PATH, else the newest build/*/app/attnviz-cli of this checkout."""
    if explicit or os.environ.get("ATTNVIZ_CLI"):
        return explicit or os.environ["ATTNVIZ_CLI"]
    found = shutil.which("attnviz-cli") or \
        sorted(glob.glob(os.path.join(ROOT, "build", "*", "app", "attnviz-cli")), key=os.path.getmtime)[-1:]
    if not found:
        raise FileNotFoundError("attnviz-cli not found on PATH nor in build/*/app/: pass --cli PATH")
    return found if isinstance(found, str) else found[0]


def cli_decode(cli, model_path, sentence, target=None):
    """attnviz-cli's decode object (docs/cli.md); RuntimeError with its message when it fails."""
    cmd = [cli, "decode", "--model", model_path, "--json"] + (["--target", target] if target is not None else [])
    run = subprocess.run(cmd + [sentence], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({run.returncode}): {run.stderr.strip()}")
    return json.loads(run.stdout)


def check(model_path, sentence, cli=None, target=None, model=None):
    """Decodes in both; -> dict of the differences (see main for their meaning)."""
    import attnviz_torch  # torch only here: find_cli and cli_decode serve the torch-free tests too

    model = model or attnviz_torch.load(model_path)
    got = cli_decode(find_cli(cli), model_path, sentence, target)
    src = text_ids(sentence, model.config, model.src_vocab)
    # PyTorch decodes attnviz's source ids, so a tokenizer difference is reported once and not twice
    trg = None if target is None else text_ids(target, model.config, model.trg_vocab, "target")
    ids, rows, log_probs = model.decode(got["source_ids"], target_ids=trg)
    first = next((i for i, (a, b) in enumerate(zip(ids, got["target_ids"])) if a != b), None)
    if first is None and len(ids) != len(got["target_ids"]):
        first = min(len(ids), len(got["target_ids"]))
    n = len(ids) if first is None else first + 1  # rows up to and including the first different token compare
    n = min(n, len(rows), len(got["attention"]))
    att = max(((abs(x - y), i, j) for i in range(n) for j, (x, y) in enumerate(zip(rows[i], got["attention"][i]))),
              default=(0.0, 0, 0))
    lp = max(((abs(x - y) / (1 + abs(x)), i) for i, (x, y) in enumerate(zip(log_probs[:n], got["log_probs"]))),
             default=(0.0, 0))
    return {"source_ids": got["source_ids"], "python_source_ids": src, "torch_ids": ids,
            "attnviz_ids": got["target_ids"], "first_token_difference": first, "attention": att, "log_probs": lp,
            "target_tokens": got["target_tokens"]}


def agrees(d, tol):
    return d["source_ids"] == d["python_source_ids"] and d["first_token_difference"] is None and \
        d["attention"][0] <= tol and d["log_probs"][0] <= tol


def report(d, model, tol):
    vocab = model.trg_vocab

    def word(ids, i):
        return "(ended)" if i >= len(ids) else vocab[ids[i]] if 0 <= ids[i] < len(vocab) else f"#{ids[i]}"

    print(f"source ids   : {'same' if d['source_ids'] == d['python_source_ids'] else 'DIFFER'} "
          f"(attnviz {d['source_ids']}, Python tokenizer {d['python_source_ids']})")
    first = d["first_token_difference"]
    if first is None:
        print(f"target tokens: same ({len(d['torch_ids'])}: {' '.join(d['target_tokens'])})")
    else:
        print(f"target tokens: DIFFER at position {first}: attnviz {word(d['attnviz_ids'], first)}, "
              f"PyTorch {word(d['torch_ids'], first)}")
    (att, row, col), (lp, token) = d["attention"], d["log_probs"]
    print(f"attention    : largest difference {att:.3g} (row {row}, column {col})")
    print(f"log-probs    : largest difference {lp:.3g} (token {token}; |diff| / (1 + |log p|))")
    ok = agrees(d, tol)
    print(f"{'agree' if ok else 'DISAGREE'} (tolerance {tol:g})")
    return ok


def main(argv=None):
    ap = argparse.ArgumentParser(prog="attnviz_torch.py", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="decode in PyTorch and with attnviz-cli; print the largest differences")
    c.add_argument("model", help="an attnviz .safetensors model file")
    c.add_argument("sentence")
    c.add_argument("--target", help="forced decoding onto this reference instead of greedy search")
    c.add_argument("--cli", help="the attnviz-cli program (default: PATH, then build/*/app/)")
    c.add_argument("--tol", type=float, default=1e-5, help="largest accepted difference (default 1e-5)")
    args = ap.parse_args(argv)
    import attnviz_torch

    try:
        model = attnviz_torch.load(args.model)
        print(f"model        : {args.model} ({json.dumps(model.config)})")
        print(f"attnviz-cli  : {find_cli(args.cli)}")
        d = check(args.model, args.sentence, args.cli, args.target, model)
    except (OSError, ValueError, RuntimeError, KeyError, NotImplementedError) as e:
        print(f"attnviz_torch.py check: {e}", file=sys.stderr)
        return 1
    return 0 if report(d, model, args.tol) else 1
