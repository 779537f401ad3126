#!/usr/bin/env python3
"""Writes the PyTorch checkpoint fixtures of tests/engine/test_torch_checkpoint.cpp into this folder.

Run with a Python that imports torch (Debian's python3-torch: /usr/bin/python3 make_fixtures.py). The files are
committed, so the tests need no torch. Values follow one formula, which the C++ test computes again:
    f(i) = ((37 * i) % 101 - 50) / 64        exact in float32, float16 and bfloat16
    the float64 tensor holds f(i) / 3 (rounded to float32 by the reader)

Real files, written by torch.save in both forms (zip.bin, legacy.bin), hold the same state dict:
    w32        float32 [3, 4]          f(0..11)
    w32.tied   the same storage as w32, another tensor object
    w32.t      w32.t(): [4, 3], strides (1, 4)
    w32.row    w32[1]: offset 4, [4]
    w32.col    w32[:, 2]: offset 2, [3], stride (4,)
    h16        float16 [2, 3]          f(0..5)
    bf16       bfloat16 [5]            f(0..4)
    f64        float64 [2, 2]          f(0..3) / 3
    scalar     float32 []              2.5
    empty      float32 [0, 4]
    param      nn.Parameter float32 [2]   f(0..1)   (torch._utils._rebuild_parameter)
and the dict carries `_metadata` as a module's state_dict() does (BUILD on the OrderedDict).

(legacy.bin's storage keys are memory addresses, so it differs from run to run; the values do not.)
Hostile files are written from hand-made pickles (a Pickler whose persistent ids are storages of our choosing) and
hand-made archives; each is described where it is made.
"""
import collections
import io
import os
import pickle
import struct
import zipfile
import zlib

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
PWNED = "/tmp/attnviz-torch-fixture-ran"  # the hostile pickles would create this; the test checks they did not


def f(i):
    return ((37 * i) % 101 - 50) / 64


def values(n, dtype, scale=1.0):
    return torch.tensor([f(i) / scale for i in range(n)], dtype=torch.float64).to(dtype)


def state_dict():
    sd = collections.OrderedDict()
    w = values(12, torch.float32).reshape(3, 4)
    sd["w32"] = w
    sd["w32.tied"] = w.view(3, 4)
    sd["w32.t"] = w.t()
    sd["w32.row"] = w[1]
    sd["w32.col"] = w[:, 2]
    sd["h16"] = values(6, torch.float16).reshape(2, 3)
    sd["bf16"] = values(5, torch.bfloat16)
    sd["f64"] = values(4, torch.float64, 3.0).reshape(2, 2)
    sd["scalar"] = torch.tensor(2.5)
    sd["empty"] = torch.zeros(0, 4)
    sd["param"] = torch.nn.Parameter(values(2, torch.float32))
    sd._metadata = collections.OrderedDict([("", {"version": 1})])
    return sd


def path(name):
    return os.path.join(HERE, name)


# ---- hand-made pickles and containers ----

class Storage:
    """A storage the hostile pickles name: ('storage', type, key, 'cpu', numel[, None])."""

    def __init__(self, key, numel, type_=torch.FloatStorage):
        self.key, self.numel, self.type_ = key, numel, type_


class Tensor:
    """Pickles as torch._utils._rebuild_tensor_v2(storage, offset, size, stride, False, OrderedDict())."""

    def __init__(self, storage, offset, size, stride):
        self.storage, self.offset, self.size, self.stride = storage, offset, tuple(size), tuple(stride)

    def __reduce__(self):
        return (torch._utils._rebuild_tensor_v2,
                (self.storage, self.offset, self.size, self.stride, False, collections.OrderedDict()))


class Evil:
    """What a malicious checkpoint holds: a call of a dangerous global when unpickled."""

    def __init__(self, fn, arg):
        self.fn, self.arg = fn, arg

    def __reduce__(self):
        return (self.fn, (self.arg,))


def dumps(obj, legacy=False):
    buf = io.BytesIO()
    p = pickle.Pickler(buf, protocol=2)

    def persistent_id(o):
        if isinstance(o, Storage):
            pid = ("storage", o.type_, o.key, "cpu", o.numel)
            return pid + (None,) if legacy else pid
        return None

    p.persistent_id = persistent_id
    p.dump(obj)
    return buf.getvalue()


def write_zip(name, pkl, storages, compression=zipfile.ZIP_STORED, prefix="archive", byteorder=None):
    with zipfile.ZipFile(path(name), "w", compression) as z:
        if byteorder:  # as PyTorch >= 2.1 writes it
            z.writestr(zipfile.ZipInfo(prefix + "/byteorder"), byteorder, compress_type=zipfile.ZIP_STORED)
        z.writestr(zipfile.ZipInfo(prefix + "/data.pkl"), pkl, compress_type=zipfile.ZIP_STORED)
        for key, data in storages.items():
            z.writestr(zipfile.ZipInfo(prefix + "/data/" + key), data, compress_type=compression)
        z.writestr(zipfile.ZipInfo(prefix + "/version"), b"3\n", compress_type=zipfile.ZIP_STORED)


def legacy_bytes(sd_pickle, storages):
    """storages: [(key, numel, bytes)] in file order."""
    out = pickle.dumps(0x1950A86A20F9469CFC6C, protocol=2) + pickle.dumps(1001, protocol=2)
    out += pickle.dumps({"protocol_version": 1001, "little_endian": True,
                         "type_sizes": {"short": 2, "int": 4, "long": 4}}, protocol=2)
    out += sd_pickle + pickle.dumps([k for k, _, _ in storages], protocol=2)
    for _, numel, data in storages:
        out += struct.pack("<q", numel) + data
    return out


def f32(n):
    return struct.pack("<%df" % n, *[f(i) for i in range(n)])


def one_tensor(size, stride, numel, offset=0, type_=torch.FloatStorage, legacy=False):
    return dumps(collections.OrderedDict([("x", Tensor(Storage("0", numel, type_), offset, size, stride))]), legacy)


def overlapping_zip(name):
    """Two stored entries where the bytes of archive/data/0 hold the whole of archive/data/1 (local header and data).
    Every local header agrees with the central directory, so libzip's consistency checks pass."""
    inner_name, outer_name = b"archive/data/1", b"archive/data/0"
    inner_data = f32(2)

    def local(name_bytes, data):
        return struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0x21, zlib.crc32(data), len(data), len(data),
                           len(name_bytes), 0) + name_bytes

    def central(name_bytes, data, offset):
        return struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 0, 0, 0x21, zlib.crc32(data), len(data),
                           len(data), len(name_bytes), 0, 0, 0, 0, 0, offset) + name_bytes

    pkl = dumps(collections.OrderedDict([("a", Tensor(Storage("0", 16), 0, (16,), (1,))),
                                         ("b", Tensor(Storage("1", 2), 0, (2,), (1,)))]))
    pkl_name = b"archive/data.pkl"
    out = local(pkl_name, pkl) + pkl
    outer_offset = len(out)
    outer_header_len = 30 + len(outer_name)
    inner_offset = outer_offset + outer_header_len
    inner = local(inner_name, inner_data) + inner_data
    outer_data = inner + b"\0" * (64 - len(inner))  # 16 floats: the inner entry (52 bytes) and padding
    out += local(outer_name, outer_data) + outer_data
    cd = central(pkl_name, pkl, 0) + central(outer_name, outer_data, outer_offset) + \
        central(inner_name, inner_data, inner_offset)
    eocd = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 3, 3, len(cd), len(out), 0)
    with open(path(name), "wb") as fh:
        fh.write(out + cd + eocd)


def hostile():
    # Pickles that call a dangerous global: what they would run creates PWNED.
    evil = Evil(os.system, "touch " + PWNED)  # pickles as posix.system
    write_zip("evil_posix_system.bin", dumps(collections.OrderedDict([("x", evil)])), {})
    with open(path("evil_legacy_eval.bin"), "wb") as fh:
        fh.write(legacy_bytes(dumps(Evil(eval, "open('%s', 'w')" % PWNED), legacy=True), []))
    # Containers.
    good = dumps(collections.OrderedDict([("a", Tensor(Storage("0", 6), 0, (2, 3), (3, 1))),
                                          ("b", Tensor(Storage("1", 2), 0, (2,), (1,)))]))
    write_zip("zip_missing_entry.bin", good, {"0": f32(6)})
    with zipfile.ZipFile(path("zip_duplicate_entry.bin"), "w") as z:
        for name, data in [("archive/data.pkl", good), ("archive/data/0", f32(6)), ("archive/data/1", f32(2)),
                           ("archive/data/0", f32(6))]:  # zipfile warns and writes the second one
            z.writestr(zipfile.ZipInfo(name), data)
    write_zip("zip_compressed.bin", good, {"0": f32(6), "1": f32(2)}, zipfile.ZIP_DEFLATED)
    overlapping_zip("zip_overlap.bin")
    write_zip("zip_entry_too_short.bin", good, {"0": f32(5), "1": f32(2)})
    write_zip("zip_big_endian.bin", good, {"0": f32(6), "1": f32(2)}, byteorder=b"big")
    write_zip("zip_little_endian.bin", good, {"0": f32(6), "1": f32(2)}, byteorder=b"little")
    # Views that do not fit their storage.
    write_zip("storage_too_short.bin", one_tensor((2, 3), (4, 1), 6), {"0": f32(6)})
    write_zip("negative_stride.bin", one_tensor((3,), (-1,), 6, offset=2), {"0": f32(6)})
    write_zip("huge_stride.bin", one_tensor((2,), (1 << 62,), 6), {"0": f32(6)})
    write_zip("numel_2_40.bin", one_tensor((1 << 20, 1 << 20), (1 << 20, 1), 1 << 40), {"0": f32(6)})
    write_zip("zero_stride.bin", one_tensor((2, 3), (0, 1), 6), {"0": f32(6)})
    write_zip("more_than_storage.bin", one_tensor((4, 3), (0, 1), 3), {"0": f32(3)})
    write_zip("int64_storage.bin", one_tensor((3,), (1,), 3, type_=torch.LongStorage), {"0": b"\0" * 24})
    with open(path("legacy_numel_2_40.bin"), "wb") as fh:
        fh.write(legacy_bytes(one_tensor((1 << 20, 1 << 20), (1 << 20, 1), 1 << 40, legacy=True),
                              [("0", 6, f32(6))]))


def main():
    sd = state_dict()
    torch.save(sd, path("zip.bin"))
    torch.save(sd, path("legacy.bin"), _use_new_zipfile_serialization=False)
    # Truncated copies: the zip without its end (no central directory), the legacy file inside its pickles and
    # inside its storages.
    for src, name, keep in [("zip.bin", "zip_truncated.bin", 0.6), ("legacy.bin", "legacy_truncated_pickle.bin", 0.3),
                            ("legacy.bin", "legacy_truncated_storage.bin", 0.97)]:
        with open(path(src), "rb") as fh:
            data = fh.read()
        with open(path(name), "wb") as fh:
            fh.write(data[: int(len(data) * keep)])
    hostile()


if __name__ == "__main__":
    main()
