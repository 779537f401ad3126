#!/usr/bin/env python3
"""Records a model's test-split metrics (the JSON of `attnviz-cli eval --json`) in its `training` metadata.

    attnviz-cli eval --model M --data test.tsv --json | record_metrics.py M test.tsv

The tensors are copied unchanged; only the header's `training` JSON gains a "test" object. The file is replaced
atomically (temporary file in the same folder, fsync, rename), so a failure leaves the old model in place.
"""
import json
import os
import struct
import sys
import tempfile

KEYS = ("exact_match", "token_accuracy", "bleu", "chrf", "aer", "mean_entropy", "lines")


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    path, data_name = sys.argv[1], os.path.basename(sys.argv[2])
    metrics = json.load(sys.stdin)
    with open(path, "rb") as f:
        blob = f.read()
    if len(blob) < 8:
        sys.exit(f"{path}: too short for a safetensors file")
    (n,) = struct.unpack("<Q", blob[:8])
    if n > len(blob) - 8:
        sys.exit(f"{path}: header length {n} runs past the end of the file")
    header = json.loads(blob[8:8 + n].decode("utf-8"))
    meta = header.setdefault("__metadata__", {})
    training = json.loads(meta.get("training", "{}"))
    training["test"] = {"data": data_name, **{k: metrics[k] for k in KEYS if k in metrics}}
    meta["training"] = json.dumps(training, ensure_ascii=False, separators=(",", ":"))
    text = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)  # the data stays 8-byte aligned, as the writers pad it
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".record-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(struct.pack("<Q", len(text)) + text + blob[8 + n:])
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())
