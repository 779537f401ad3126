"""The attnviz model file (docs/model-format.md) in standard-library Python: a safetensors writer and reader, the
model metadata, and the three tokenizers. No torch and no numpy, so scripts and CI can make and read model files
with nothing but Python; attnviz_torch.py builds on it.

    from attnviz_format import Tensor, write_safetensors, model_metadata
    tensors = {"encoder.fc.bias": Tensor([2], [0.5, -1.0])}          # F32 unless Tensor(shape, data, "F16")
    write_safetensors("m.safetensors", tensors, model_metadata(config, src_vocab, trg_vocab))

Tensor data are little-endian bytes of exactly the right length, or numbers (a flat or nested list).
"""
import json
import math
import os
import re
import struct
import tempfile
import unicodedata
from collections import namedtuple

# dtype -> (struct code, bytes per value); BF16 has no struct code: written from bytes only, read by attnviz_torch
DTYPES = {"F32": ("f", 4), "F16": ("e", 2), "F64": ("d", 8), "BF16": (None, 2)}
SPECIALS = ["<pad>", "<unk>", "<sos>", "<eos>"]
PAD, UNK, SOS, EOS = 0, 1, 2, 3
CONFIG_DEFAULTS = {"span": "global", "window": 5, "input_feeding": False,
                   "tokenizer": {"source": "whitespace", "target": "whitespace", "lowercase": False}}


class Tensor(namedtuple("Tensor", "shape data dtype", defaults=("F32",))):
    """shape: list of ints; data: bytes (little-endian, row-major) or numbers; dtype: F32, F16, F64 or BF16."""


def _flatten(values, name):
    out, stack = [], [values]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(reversed(v))
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out.append(v)
        else:
            raise TypeError(f"tensor '{name}': values must be numbers, not {type(v).__name__} ({v!r})")
    return out


def as_tensor(name, t):
    """t as a Tensor: a Tensor, or a (shape, data) or (shape, data, dtype) tuple."""
    if not isinstance(t, (tuple, list)) or len(t) not in (2, 3):
        raise TypeError(f"tensor '{name}': give Tensor(shape, data, dtype) or (shape, data), not {type(t).__name__}")
    return Tensor(*t)


def encode_tensor(name, t):
    """The tensor's bytes after checking its name, dtype, shape and data (a clear error naming the tensor)."""
    if not isinstance(name, str) or not name or name == "__metadata__":
        raise ValueError(f"tensor name {name!r}: must be a non-empty string other than '__metadata__'")
    shape, data, dtype = as_tensor(name, t)
    if dtype not in DTYPES:
        raise ValueError(f"tensor '{name}': dtype {dtype!r} is not one of {', '.join(DTYPES)}")
    if not isinstance(shape, (list, tuple)) or any(type(d) is not int or d < 0 for d in shape):
        raise ValueError(f"tensor '{name}': shape must be a list of non-negative integers, not {shape!r}")
    count = math.prod(shape)
    code, size = DTYPES[dtype]
    if isinstance(data, (bytes, bytearray, memoryview)):
        data = bytes(data)
        if len(data) != count * size:
            raise ValueError(f"tensor '{name}': shape {list(shape)} of {dtype} needs {count * size} bytes, "
                             f"got {len(data)}")
        return data
    if code is None:
        raise ValueError(f"tensor '{name}': {dtype} is written from bytes only; give F32, F16 or F64 numbers")
    values = _flatten(data, name)
    if len(values) != count:
        raise ValueError(f"tensor '{name}': shape {list(shape)} needs {count} values, got {len(values)}")
    try:
        return struct.pack(f"<{count}{code}", *values)
    except (OverflowError, struct.error) as e:
        raise ValueError(f"tensor '{name}': a value does not fit {dtype} ({e})") from None


def write_safetensors(path, tensors, metadata=None):
    """Writes tensors (name -> Tensor) and metadata (str -> str) to path as safetensors, atomically: the file is
    complete or untouched. The header is padded with spaces to 8 bytes so the data stay aligned."""
    metadata = dict(metadata or {})
    for k, v in metadata.items():
        if not isinstance(k, str) or not isinstance(v, str):
            raise TypeError(f"metadata {k!r}: keys and values must be strings, not {type(v).__name__}")
    header, blobs, offset = {"__metadata__": metadata}, [], 0
    for name, t in tensors.items():
        blob = encode_tensor(name, t)
        header[name] = {"dtype": as_tensor(name, t).dtype, "shape": list(t[0]),
                        "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    text = json.dumps(header, ensure_ascii=False).encode("utf-8")
    text += b" " * (-len(text) % 8)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".attnviz-", suffix=".tmp", dir=folder)
    try:
        os.fchmod(fd, _file_mode(path))  # mkstemp's file is private (0600); a model file is an ordinary one
        with os.fdopen(fd, "wb") as f:
            f.write(struct.pack("<Q", len(text)) + text)
            for blob in blobs:
                f.write(blob)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _file_mode(path):
    """The mode of the file being replaced, else 0666 less the umask."""
    try:
        return os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def read_safetensors(path):
    """(tensors: name -> Tensor with bytes data, metadata: dict) of a safetensors file; ValueError naming what is
    wrong for a malformed one."""
    with open(path, "rb") as f:
        blob = f.read()
    if len(blob) < 8:
        raise ValueError(f"{path}: {len(blob)} bytes, too short for a safetensors header length")
    (n,) = struct.unpack_from("<Q", blob)
    if n > len(blob) - 8:
        raise ValueError(f"{path}: header of {n} bytes does not fit a file of {len(blob)} bytes")
    try:
        header = json.loads(blob[8:8 + n].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: the header is not UTF-8 JSON ({e})") from None
    if not isinstance(header, dict):
        raise ValueError(f"{path}: the header is not a JSON object")
    data, tensors = blob[8 + n:], {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        try:
            dtype, shape, (begin, end) = entry["dtype"], entry["shape"], entry["data_offsets"]
        except (TypeError, KeyError, ValueError):
            raise ValueError(f"{path}: tensor '{name}': needs dtype, shape and data_offsets [begin, end]") from None
        if not 0 <= begin <= end <= len(data):
            raise ValueError(f"{path}: tensor '{name}': data_offsets {[begin, end]} outside {len(data)} data bytes")
        tensors[name] = Tensor(shape, data[begin:end], dtype)
        encode_tensor(name, tensors[name])  # checks dtype and that the byte count matches the shape
    return tensors, header.get("__metadata__", {})


def decode_values(t):
    """A Tensor's values as a flat list of Python floats (F32, F16, F64; BF16 through F32)."""
    code, size = DTYPES[t.dtype]
    if code is None:  # BF16: the upper half of an F32
        halves = struct.unpack(f"<{len(t.data) // 2}H", t.data)
        return list(struct.unpack(f"<{len(halves)}f", struct.pack(f"<{len(halves)}I", *(h << 16 for h in halves))))
    return list(struct.unpack(f"<{len(t.data) // size}{code}", t.data))


def complete_config(config):
    """The config with every default filled in, after the checks a Python user needs before the engine's own."""
    c = {**config, "tokenizer": {**CONFIG_DEFAULTS["tokenizer"], **config.get("tokenizer", {})}}
    for key, value in CONFIG_DEFAULTS.items():
        c.setdefault(key, value)
    if c.get("decoder") == "transformer":
        raise NotImplementedError("decoder 'transformer' (spec transformer.md, nn.Transformer tutorial models) is "
                                  "not supported: the attnviz engine has no transformer kind yet")
    if c.get("decoder") not in ("bahdanau", "luong"):
        raise ValueError(f"config: decoder must be 'bahdanau' or 'luong', not {c.get('decoder')!r}")
    if c.get("score") not in ("additive", "dot", "scaled_dot", "general"):
        raise ValueError(f"config: score must be additive, dot, scaled_dot or general, not {c.get('score')!r}")
    for key in ("emb_dim", "enc_hid_dim", "dec_hid_dim"):
        if type(c.get(key)) is not int or c[key] < 1:
            raise ValueError(f"config: {key} must be a positive integer, not {c.get(key)!r}")
    if c["span"] not in ("global", "local_m", "local_p") or (c["span"] != "global" and c["decoder"] != "luong"):
        raise ValueError(f"config: span {c['span']!r} (local spans need decoder 'luong')")
    if c["score"] in ("dot", "scaled_dot") and c["dec_hid_dim"] != 2 * c["enc_hid_dim"]:
        raise ValueError(f"config: score {c['score']} needs dec_hid_dim == 2 * enc_hid_dim")
    return c


def model_metadata(config, src_vocab, trg_vocab, task=None, description=None, training=None):
    """The __metadata__ of an attnviz.seq2seq v1 file; the vocabularies must start with the four specials."""
    for side, vocab in (("source", src_vocab), ("target", trg_vocab)):
        if not all(isinstance(w, str) for w in vocab):
            raise TypeError(f"{side} vocabulary: every entry must be a string")
        if list(vocab[:4]) != SPECIALS:
            raise ValueError(f"{side} vocabulary must start with {SPECIALS}, not {list(vocab[:4])}")
        if len(set(vocab)) != len(vocab):
            dup = next(w for i, w in enumerate(vocab) if w in vocab[:i])
            raise ValueError(f"{side} vocabulary: {dup!r} appears twice")
    meta = {"format": "attnviz.seq2seq", "format_version": "1", "config": json.dumps(config),
            "source_vocab": json.dumps(list(src_vocab), ensure_ascii=False),
            "target_vocab": json.dumps(list(trg_vocab), ensure_ascii=False)}
    for key, value in (("task", task), ("description", description)):
        if value is not None:
            meta[key] = str(value)
    if training is not None:
        meta["training"] = training if isinstance(training, str) else json.dumps(training)
    return meta


# Unicode White_Space (what the engine splits on; str.split() also splits on U+001C..U+001F, which are not)
_SPACE = re.compile("[\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+")


def tokenize(text, kind="whitespace", lowercase=False):
    """docs/model-format.md's tokenizers: whitespace, word (also every P* / S* character alone) or char (whitespace runs
    between tokens as one U+2581); lowercase is the simple one-to-one case mapping."""
    if lowercase:  # Python's lower() is the full mapping; U+0130 is the one letter whose full and simple differ
        text = "".join("i" if c == "\u0130" else c.lower() if len(c.lower()) == 1 else c for c in text)
    words = [w for w in _SPACE.split(text) if w]
    if kind == "whitespace":
        return words
    if kind == "word":
        return [t for w in words for t in _split_punct(w)]
    if kind == "char":
        return [t for i, w in enumerate(words) for t in (["\u2581"] if i else []) + list(w)]
    raise ValueError(f"tokenizer must be whitespace, word or char, not {kind!r}")


def _split_punct(word):
    out, current = [], ""
    for c in word:
        if unicodedata.category(c)[0] in "PS":
            out += [current, c] if current else [c]
            current = ""
        else:
            current += c
    return out + ([current] if current else [])


def text_ids(text, config, vocab, side="source"):
    """The ids of a sentence as attnviz reads it: source [<sos>] + ids + [<eos>], target ids + [<eos>]; an unknown
    word (or a special typed as text) is <unk>. config is complete (complete_config)."""
    tc = config["tokenizer"]
    index = {w: i for i, w in enumerate(vocab)}
    ids = [UNK if w in SPECIALS else index.get(w, UNK) for w in tokenize(text, tc[side], tc["lowercase"])]
    return ([SOS] if side == "source" else []) + ids + [EOS]
