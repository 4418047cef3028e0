"""The file formats of peviz's lab twin (lab.py imports them): safetensors as core/io/safetensors*.cpp reads and
writes it, atomic writes as core/io/atomic_file.cpp makes them, and numbers as text as run_io.cpp prints them.

Written by `peviz train ... --emit-pytorch DIR` beside DIR/lab.py. PyTorch and the standard library only.
"""
import ctypes
import json
import math
import os
import struct
import sys

import torch


def read_safetensors(path):
    """{name: float32 tensor} and the __metadata__ strings; F32 and F16 (peviz's --half) tensors."""
    with open(path, "rb") as f:
        data = f.read()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    meta = header.pop("__metadata__", {})
    buf, tensors = bytearray(data[8 + n:]), {}
    for name, t in header.items():
        kinds = {"F32": torch.float32, "F16": torch.float16}
        if t["dtype"] not in kinds:
            raise ValueError(f"{path}: tensor {name} is {t['dtype']}, not F32 or F16")
        begin, end = t["data_offsets"]
        flat = torch.frombuffer(buf, dtype=kinds[t["dtype"]], count=(end - begin) // (4 if t["dtype"] == "F32" else 2),
                                offset=begin) if end > begin else torch.zeros(0)
        tensors[name] = flat.float().reshape(t["shape"]).clone()
    return tensors, meta


def write_atomically(path, data):
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    os.replace(tmp, path)


def safetensors_bytes(tensors, meta):
    """F32 tensors in the given order, little-endian; header keys sorted, padded with spaces to 8 bytes."""
    assert sys.byteorder == "little", "little-endian hosts only, as core/io/safetensors"
    header, offset, blobs = {"__metadata__": meta}, 0, []
    for name, t in tensors:
        t = t.detach().to("cpu", torch.float32).contiguous()
        blobs.append(ctypes.string_at(t.data_ptr(), 4 * t.numel()))
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [offset, offset + 4 * t.numel()]}
        offset += 4 * t.numel()
    text = json.dumps(header, sort_keys=True, separators=(",", ":"))
    text += " " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text.encode() + b"".join(blobs)


def shortest(v):
    """run_io.cpp shortest(): 17 significant digits, %g style."""
    return "%.17g" % v


def float_text(v):
    """std::to_chars(float): the fewest digits that read back as the same float32, fixed or scientific."""
    if not math.isfinite(v):
        return "null"
    f32 = lambda x: struct.unpack("<f", struct.pack("<f", x))[0]
    for p in range(1, 10):
        sci = "%.*e" % (p - 1, v)
        if f32(float(sci)) == v:
            break
    mantissa, exp = sci.split("e")
    sign, digits, e = ("-" if v < 0 else ""), mantissa.lstrip("-").replace(".", ""), int(exp)
    if e >= 0:
        fixed = digits + "0" * (e + 1 - len(digits)) if len(digits) <= e + 1 else digits[:e + 1] + "." + digits[e + 1:]
    else:
        fixed = "0." + "0" * (-e - 1) + digits
    return sign + fixed if len(sign + fixed) <= len(sci) else sci
