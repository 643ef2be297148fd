"""The worker protocol: framed messages (a JSON header plus .npy arrays) and the data-only values.

Why this shape: the grading side must be able to read an answer without running anything the
submission made. JSON and .npy bytes are read by parsers, never by calling objects, and nothing is
pickled in either direction. Every size is bounded before it is read, so a hostile or broken
worker can waste at most a bounded amount of memory and never raise outside `ProtocolError`.

Values: None, bool, int, float (NaN and infinities included), complex, str, list, tuple (kept
apart from list), dict with str keys, numeric/bool `np.ndarray` and numpy scalars (which keep
their dtype, so `np.int64(196)` never turns into `196.0`). In the worker anything else becomes a
`ForeignObject`; on the grading side it is a programming error (`NotData`).
"""

from __future__ import annotations

import functools
import io
import json
import math
import os
import re
import reprlib
import socket
import struct
import time
from dataclasses import dataclass


class _NumpyOnFirstUse:
    """Stands in for numpy until first used: the grading process can then import this package and
    start the zygote (which imports numpy meanwhile) before paying numpy's import itself."""

    def __getattr__(self, name):
        global np
        import numpy as np

        return getattr(np, name)


np = _NumpyOnFirstUse()

MAX_DEPTH = 20  # nesting of lists/tuples/dicts in one value
MAX_ARRAY_BYTES = 256 * 2**20  # array data in one message (a request: the grader's own inputs)
MAX_ARRAYS = 10_000  # arrays in one message
MAX_HEADER_BYTES = 32 * 2**20  # the JSON part of one message (strings, lists of numbers, ...)
MAX_INT_BITS = 4096  # a Python int wider than this is not data, it is an attack or a bug
MAX_NDIM = 32
MAX_SUMMARY = 200  # characters of a ForeignObject's repr
NUMERIC_KINDS = "biufc"  # bool, int, uint, float, complex: the only dtypes that cross

_NPY_HEADER_ROOM = 4096  # per array, on top of its data: the .npy magic and header


@dataclass(frozen=True)
class Bounds:
    """What one side accepts in one message. Checked before anything is parsed or allocated."""

    header_bytes: int  # the JSON part
    array_bytes: int  # all array data together
    containers: int  # JSON lists and objects ("[" and "{", counted in the raw bytes, strings too)


# Requests carry the grader's own inputs (images, a model's weights). Replies come from student
# code: what they may hold is many times the largest answer (a (196, 16, 16, 3) patch array as
# nested lists is 50 000 lists), and parsing the largest reply costs the grading process ~100 MB
# whatever is in it (without the container count, 8 MB of empty lists would cost 350 MB).
REQUEST = Bounds(header_bytes=MAX_HEADER_BYTES, array_bytes=MAX_ARRAY_BYTES, containers=2_000_000)
REPLY = Bounds(header_bytes=8 * 2**20, array_bytes=64 * 2**20, containers=100_000)

_PREFIX = struct.Struct("<I")  # length of the JSON header that follows
_READ_AHEAD = 2**16
_MAX_PARTS = 512  # buffers in one gathering write (the system allows 1024)
_REUSED_BODY_MAX = 32 * 2**20  # a connection keeps a receive buffer up to this size


class ProtocolError(Exception):
    """The other side sent something that is not a valid message (or a value out of bounds)."""


class ConnectionClosed(ProtocolError):
    """The other side hung up (a worker that died, or a grader that went away)."""


class MessageTooLarge(ValueError):
    """A message to send is larger than the bounds the receiver accepts."""


class NotData(ValueError):
    """A grading-side value that cannot cross: the grader's bug, never the student's."""


@dataclass(frozen=True)
class ForeignObject:
    """A returned value that is not plain data, described by the worker (the grader never sees it)."""

    type_name: str
    summary: str  # a bounded repr (<= 200 chars), computed in the worker


# ---------------------------------------------------------------------------------------------
# Values <-> JSON tree + .npy blobs


class Encoder:
    """Turns values into a JSON-able tree; arrays go to `blobs` as .npy bytes.

    `lenient` is the worker's mode: whatever is not data (or breaks a bound) becomes a
    ForeignObject in place, so one odd element does not hide the rest of an answer. The grading
    side is strict: it raises `NotData`, since its own values must always be sendable.
    """

    def __init__(self, *, lenient: bool = False, max_array_bytes: int = MAX_ARRAY_BYTES,
                 max_containers: int | None = None):
        self.blobs: list[tuple] = []  # each the parts of one .npy file, see npy_parts
        self._lenient = lenient
        self._array_bytes = 0
        self._max_array_bytes = max_array_bytes
        self._max_containers = self._containers_left = max_containers

    def encode(self, value):
        try:
            return self._encode(value, 0)
        except _TooManyContainers:  # refused whole, and at once: no point reading the rest
            self.blobs, self._array_bytes = [], 0
            return self._refuse(value, f"more than {self._max_containers} lists, tuples and dicts")

    def _encode(self, value, depth):
        if value is None or type(value) in (bool, str):
            return value
        if depth > MAX_DEPTH and isinstance(value, (list, tuple, dict)):
            return self._refuse(value, f"nested deeper than {MAX_DEPTH} levels")
        try:
            return self._convert(value, depth)
        except (NotData, _TooManyContainers):
            raise
        except Exception as exc:  # a student object whose conversion raised (worker side only)
            if not self._lenient:
                raise
            return self._refuse(value, f"could not be converted ({type(exc).__name__}: {_bounded_str(exc)})")

    def _convert(self, value, depth):
        if isinstance(value, np.generic):  # before float: np.float64 is a float subclass
            return self._scalar(value)
        if isinstance(value, int):  # bool was handled above (it cannot be subclassed)
            return self._int(int(value))
        if isinstance(value, float):
            return _encode_float(float(value))
        if isinstance(value, complex):
            return {"__complex__": [_encode_float(value.real), _encode_float(value.imag)]}
        if isinstance(value, str):
            return str(value)
        if isinstance(value, np.ndarray):
            return self._array(np.asarray(value))  # a subclass leaves the worker as a plain ndarray
        if isinstance(value, (tuple, list, dict)) and self._containers_left is not None:
            self._containers_left -= 1
            if self._containers_left < 0 or (  # a long list of lists: counted in one pass, not recursed into
                len(value) > self._containers_left and type(value) in (list, tuple)
                and sum(type(item) in (list, tuple, dict) for item in value) > self._containers_left
            ):
                raise _TooManyContainers
        if isinstance(value, tuple):
            return {"__tuple__": [self._encode(item, depth + 1) for item in value]}
        if isinstance(value, list):
            return [self._encode(item, depth + 1) for item in value]
        if isinstance(value, dict):
            return self._dict(value, depth)
        return self._refuse(value, None)

    def _int(self, value):
        if value.bit_length() > MAX_INT_BITS:
            return self._refuse(value, f"an integer wider than {MAX_INT_BITS} bits")
        return value

    def _scalar(self, value):
        dtype = value.dtype
        if not _is_numeric(dtype):
            return self._refuse(value, f"a numpy scalar of dtype {dtype}")
        return {"__npscalar__": [dtype.str, _scalar_payload(value)]}

    def _array(self, array):
        if not _is_numeric(array.dtype):
            return self._refuse(array, f"an array of dtype {array.dtype} (only numbers and bools cross)")
        if array.ndim > MAX_NDIM:
            return self._refuse(array, f"an array with more than {MAX_NDIM} dimensions")
        if self._array_bytes + array.nbytes > self._max_array_bytes:  # nbytes: no view is copied to know
            return self._refuse(array, f"arrays in one message are limited to {self._max_array_bytes // 2**20} MB")
        if len(self.blobs) >= MAX_ARRAYS:
            return self._refuse(array, f"more than {MAX_ARRAYS} arrays in one message")
        self._array_bytes += array.nbytes
        self.blobs.append(npy_parts(array))
        return {"__ndarray__": len(self.blobs) - 1}

    def _dict(self, value, depth):
        items = list(dict.items(value)) if type(value) is dict else list(dict(value).items())
        if not all(type(key) is str for key, _ in items):
            return self._refuse(value, "a dict whose keys are not all strings")
        tree = {key: self._encode(item, depth + 1) for key, item in items}
        # A dict that looks like one of our markers is wrapped, so it decodes as a dict.
        return {"__dict__": tree} if len(tree) == 1 and next(iter(tree)) in _MARKERS else tree

    def _refuse(self, value, reason):
        type_name = _type_name(value)
        if not self._lenient:
            raise NotData(f"cannot send {type_name}: {reason or 'not plain data'}")
        summary = f"not sent: {reason}" if reason else _summary(value, type_name)
        return {"__foreign__": [type_name, summary[:MAX_SUMMARY]]}


@dataclass(frozen=True)
class EncodedCall:
    """A call's arguments as they cross: JSON trees and the .npy blobs they refer to.

    `arguments` is the call's JSON, serialised once: a grader that sends the same case to
    submission after submission only writes the request around it again."""

    args: object
    kwargs: object
    blobs: tuple

    @functools.cached_property
    def sizes(self) -> list[int]:
        """Bytes of each blob, as the header lists them."""
        return [sum(map(len, blob)) for blob in self.blobs]

    @functools.cached_property
    def arguments(self) -> bytes:
        """[args, kwargs] as JSON: this call's entry in a request (batches.CallBatch)."""
        args, kwargs = _json_encoder.encode(self.args), _json_encoder.encode(self.kwargs)
        return f"[{args},{kwargs}]".encode()


def encode_call(args=(), kwargs=None) -> EncodedCall:
    """Encode the grader's arguments for a call (strict: NotData for anything that is not data)."""
    encoder = Encoder()
    encoded_args, encoded_kwargs = encoder.encode(tuple(args)), encoder.encode(kwargs or {})
    return EncodedCall(encoded_args, encoded_kwargs, tuple(encoder.blobs))


class _TooManyContainers(Exception):
    """Raised through an Encoder's recursion when a value holds too many containers."""


class Decoder:
    """Builds plain Python/numpy values from a JSON tree and .npy blobs, checking every bound.

    Decoding only ever constructs data (lists, dicts, numbers, fresh writeable arrays): it never
    calls a method of anything the other side made. Any defect raises ProtocolError.
    """

    def __init__(self, blobs, *, foreign_ok: bool = False):
        self._blobs = blobs
        self._foreign_ok = foreign_ok

    def decode(self, tree):
        try:
            return self._decode(tree, 0)
        except ProtocolError:
            raise
        except Exception as exc:  # numpy or int conversions refusing a forged value
            raise ProtocolError(f"invalid value ({type(exc).__name__}: {exc})") from None

    def _decode(self, node, depth):
        kind = type(node)
        if kind is dict:
            if len(node) == 1:
                ((key, payload),) = node.items()
                if key == "__ndarray__":  # the most common node of all
                    return self._array(payload, depth)
                if key in _MARKERS:
                    return getattr(self, _MARKERS[key])(payload, depth)
            return self._dict(node, depth)
        if node is None or kind in (bool, str, float):
            return node
        if kind is int:
            return _checked_int(node)
        if kind is list:
            return [self._decode(item, depth + 1) for item in _container(node, depth)]
        raise ProtocolError(f"unexpected JSON node {kind.__name__}")

    def _tuple(self, payload, depth):
        return tuple(self._decode(item, depth + 1) for item in _container(_expect(payload, list), depth))

    def _dict(self, payload, depth):
        items = _container(_expect(payload, dict), depth).items()
        return {key: self._decode(item, depth + 1) for key, item in items}

    def _float(self, payload, depth):
        return _decode_float({"__float__": payload})

    def _complex(self, payload, depth):
        real, imag = _pair(payload)
        return complex(_decode_float(real), _decode_float(imag))

    def _foreign(self, payload, depth):
        if not self._foreign_ok:
            raise ProtocolError("a foreign object cannot be sent to the worker")
        type_name, summary = _pair(payload)
        return ForeignObject(_expect(type_name, str)[:MAX_SUMMARY], _expect(summary, str)[:MAX_SUMMARY])

    def _scalar(self, payload, depth):
        dtype_str, value = _pair(payload)
        dtype = _numeric_dtype(_expect(dtype_str, str))
        if dtype.kind == "b":
            return dtype.type(_expect(value, bool))
        if dtype.kind in "iu":
            return dtype.type(_checked_int(_expect(value, int)))
        if dtype.kind == "f":
            return dtype.type(_decode_float(value))
        real, imag = _pair(value)
        return dtype.type(complex(_decode_float(real), _decode_float(imag)))

    def _array(self, payload, depth):
        index = _expect(payload, int)
        if not 0 <= index < len(self._blobs):
            raise ProtocolError(f"array #{index} was not sent")
        return read_npy(self._blobs[index])


_MARKERS = {
    "__tuple__": "_tuple",
    "__dict__": "_dict",
    "__float__": "_float",
    "__complex__": "_complex",
    "__ndarray__": "_array",
    "__npscalar__": "_scalar",
    "__foreign__": "_foreign",
}


def fresh_copy(value):
    """A copy of data deep enough that nothing done to it reaches `value`: arrays, lists, tuples
    and dicts are copied; the rest data may hold (numbers, strings, numpy scalars) is immutable.
    The worker gives each call its own copy of remembered inputs; the grader gives the reference one."""
    kind = type(value)
    if kind is np.ndarray:
        return value.copy()
    if kind is tuple:
        return tuple(fresh_copy(item) for item in value)
    if kind is list:
        return [fresh_copy(item) for item in value]
    if kind is dict:
        return {key: fresh_copy(item) for key, item in value.items()}
    return value


def npy_parts(array: np.ndarray) -> tuple[bytes, memoryview]:
    """The bytes np.save(array, allow_pickle=False) writes, as (header, data), the data a view.

    Sending the array's own memory saves two copies of every image that crosses.
    """
    fortran_order = array.flags.f_contiguous and not array.flags.c_contiguous
    data = array.T if fortran_order else array
    if not data.flags.c_contiguous:
        data = data.copy(order="C")
    return _npy_header_for(array.dtype, array.shape, fortran_order), memoryview(data.reshape(-1).view(np.uint8))


@functools.lru_cache(maxsize=256)
def _npy_header_for(dtype: np.dtype, shape: tuple, fortran_order: bool) -> bytes:
    """A .npy version 1.0 header, written here rather than by numpy: a fresh worker writes one per
    new shape, and numpy's writer costs ~60 us where this costs ~2. np.load reads it (tested)."""
    text = f"{{'descr': '{dtype.str}', 'fortran_order': {fortran_order}, 'shape': {tuple(shape)!r}, }}"
    room = 64 - (10 + len(text) + 1) % 64  # the data starts 64-byte aligned, as in numpy's files
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text) + room + 1) + text.encode() + b" " * room + b"\n"


def read_npy(blob) -> np.ndarray:
    """A fresh, writeable, aligned array from .npy bytes, as np.load(allow_pickle=False) reads it.

    The header is read with numpy's own .npy header reader and checked (numeric dtype, shape that
    matches the bytes) before anything is allocated; the data is then plain bytes copied into a
    new array. Calling np.load afterwards would only parse the same header a second time.
    """
    header_size, shape, fortran_order, dtype, count = _npy_header(_npy_header_bytes(blob))
    if count * dtype.itemsize != len(blob) - header_size:
        raise ProtocolError(f"array of shape {shape} does not match its {len(blob)} bytes")
    if not fortran_order and count:  # the common case, in a third of the time: bytes into a new array
        array = np.empty(shape, dtype)
        try:
            memoryview(array).cast("B")[:] = blob[header_size:]
            return array
        except (ValueError, TypeError, NotImplementedError):  # a format memoryview cannot cast (complex, '>f8')
            pass
    flat = np.frombuffer(blob, dtype=dtype, count=count, offset=header_size) if count else np.empty(0, dtype)
    array = flat.reshape(shape[::-1]).T if fortran_order else flat.reshape(shape)
    return array.copy(order="K")


def _npy_header_bytes(blob) -> bytes:
    """The magic, version and header of a .npy blob (their length is in the first 12 bytes)."""
    start = bytes(blob[:12])  # one copy of the fixed part: cheaper than indexing a memoryview
    if len(start) < 12 or start[:6] != b"\x93NUMPY" or start[6] not in (1, 2):
        raise ProtocolError("not a .npy array of version 1 or 2")
    size = 10 + (start[8] | start[9] << 8) if start[6] == 1 else 12 + int.from_bytes(start[8:12], "little")
    if size > min(len(blob), _NPY_HEADER_ROOM):
        raise ProtocolError("invalid .npy header (too long)")
    return bytes(blob[:size])


@functools.lru_cache(maxsize=4096)  # the same shapes cross again and again (a class: some 300)
def _npy_header(head: bytes) -> tuple[int, tuple, bool, np.dtype, int]:
    """(header size, shape, fortran_order, dtype, element count) of a .npy blob, from its first bytes."""
    fast = _STANDARD_HEADER.fullmatch(head, 10) if head[6] == 1 else None
    if fast is not None:  # what npy_parts and np.save write: parsed without numpy's ast-based reader
        descr, fortran, dims = fast.groups()
        dtype = _numeric_dtype(descr.decode())
        shape = tuple(int(n) for n in dims.split(b",") if n.strip())
        return _checked_header(len(head), shape, fortran == b"True", dtype)
    stream = io.BytesIO(head)
    try:
        version = np.lib.format.read_magic(stream)
        if version == (1, 0):
            shape, fortran_order, dtype = np.lib.format.read_array_header_1_0(stream)
        elif version == (2, 0):
            shape, fortran_order, dtype = np.lib.format.read_array_header_2_0(stream)
        else:
            raise ProtocolError(f"unsupported .npy version {version}")
    except ProtocolError:
        raise
    except Exception as exc:  # numpy's reader refusing a malformed or truncated header
        raise ProtocolError(f"invalid .npy header ({type(exc).__name__}: {exc})") from None
    return _checked_header(stream.tell(), shape, fortran_order, dtype)


# The header numpy writes for a plain numeric array, e.g. {'descr': '<f8', 'fortran_order': False,
# 'shape': (2, 3), } then spaces and a newline. Anything else goes through numpy's own reader.
_STANDARD_HEADER = re.compile(
    rb"\{'descr': '([<>|=][biufc][0-9]{1,2})', 'fortran_order': (True|False), "
    rb"'shape': \(((?:[0-9]{1,20}, )*[0-9]{1,20},?|)\), \} *\n"
)


def _checked_header(size: int, shape: tuple, fortran_order: bool, dtype: np.dtype) -> tuple:
    """(size, shape, fortran_order, dtype, element count), once the array is known acceptable."""
    if not _is_numeric(dtype):
        raise ProtocolError(f"refused an array of dtype {dtype}: only numbers and bools cross")
    if len(shape) > MAX_NDIM or not all(type(n) is int and n >= 0 for n in shape):
        raise ProtocolError(f"refused an array of shape {shape}")
    if math.prod(shape) * dtype.itemsize > MAX_ARRAY_BYTES:
        raise ProtocolError(f"refused an array of shape {shape}: larger than {MAX_ARRAY_BYTES // 2**20} MB")
    return size, shape, fortran_order, dtype, math.prod(shape)


def _is_numeric(dtype: np.dtype) -> bool:
    return dtype.kind in NUMERIC_KINDS and not dtype.hasobject and dtype.fields is None and dtype.shape == ()


def _numeric_dtype(text: str) -> np.dtype:
    try:
        dtype = np.dtype(text)
    except Exception:
        raise ProtocolError(f"unknown dtype {text[:40]!r}") from None
    if not _is_numeric(dtype):
        raise ProtocolError(f"refused a scalar of dtype {dtype}")
    return dtype


def _scalar_payload(value: np.generic):
    kind = value.dtype.kind
    if kind == "b":
        return bool(value)
    if kind in "iu":
        return int(value)
    if kind == "f":  # float16/32/64 are exact as float64; longdouble is sent as its float64 value
        return _encode_float(float(value))
    return [_encode_float(float(value.real)), _encode_float(float(value.imag))]


def _encode_float(value: float):
    if math.isfinite(value):
        return value
    return {"__float__": "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")}


def _decode_float(node) -> float:
    if type(node) is float:
        return node
    if type(node) is int:  # JSON writes 1e300 as a float, but be tolerant of integral floats
        return float(_checked_int(node))
    if type(node) is dict and len(node) == 1 and node.get("__float__") in ("nan", "inf", "-inf"):
        return float(node["__float__"])
    raise ProtocolError(f"not a float: {str(node)[:40]}")


def _checked_int(value: int) -> int:
    if value.bit_length() > MAX_INT_BITS:
        raise ProtocolError(f"integer wider than {MAX_INT_BITS} bits")
    return value


def _container(node, depth):
    if depth > MAX_DEPTH:
        raise ProtocolError(f"value nested deeper than {MAX_DEPTH} levels")
    return node


def _expect(node, kind):
    if type(node) is not kind:
        raise ProtocolError(f"expected {kind.__name__}, got {type(node).__name__}")
    return node


def _pair(node):
    if type(node) is not list or len(node) != 2:
        raise ProtocolError("expected a pair")
    return node


def _type_name(value) -> str:
    """'Agreeable', or 'vit_exercises.Agreeable' (a student's class may hide both; then 'object')."""
    kind = type(value)
    try:
        module, name = kind.__module__, kind.__qualname__
        return name if module in (None, "builtins") else f"{module}.{name}"
    except Exception:
        return "object"


_repr = reprlib.Repr()
_repr.maxstring = _repr.maxother = MAX_SUMMARY


def _summary(value, type_name: str) -> str:
    """A bounded repr, computed in the worker (a student's __repr__ may raise or lie; both are fine)."""
    try:
        return _repr.repr(value)[:MAX_SUMMARY]
    except BaseException as exc:  # noqa: BLE001 - student code; the call wrapper has the rest
        return f"<{type_name} object; repr failed with {type(exc).__name__}>"


def _bounded_str(exc: BaseException) -> str:
    try:
        return str(exc)[:MAX_SUMMARY]
    except Exception:
        return "?"


# ---------------------------------------------------------------------------------------------
# Messages over a stream socket


def _refuse_constant(name):
    raise ProtocolError(f"JSON constant {name} is not allowed")


_json_decoder = json.JSONDecoder(parse_constant=_refuse_constant)
_json_encoder = json.JSONEncoder(allow_nan=False, separators=(",", ":"))


class Connection:
    """One end of a worker socket: sends and receives whole messages, each within a deadline.

    A message is a 4-byte length, a JSON header whose "blobs" lists the .npy sizes, then the
    blobs back to back. `deadline` is a time.monotonic() value, or None to block. Reads fetch up
    to 64 KB ahead, so a small message costs one system call, and several queued messages may
    arrive in one; what is fetched ahead is kept for the next message.
    """

    def __init__(self, sock: socket.socket, *, send: Bounds = REQUEST, receive: Bounds = REQUEST):
        self.sock = sock
        self.send_bounds, self.receive_bounds = send, receive  # what the other side accepts; what we do
        self._ahead = bytearray()
        self._body = bytearray()  # reused for large bodies: fresh pages cost a fault each

    def send(self, header: dict | bytes, blobs=(), deadline: float | None = None,
             sizes: list[int] | None = None) -> None:
        """Send `header` and `blobs`, each blob a tuple of bytes-like parts (see npy_parts).
        `header` may come serialised, "blobs" (their `sizes`) included (EncodedCall.header).
        MessageTooLarge, before anything is sent, when the other side would refuse the message."""
        bounds = self.send_bounds
        if sizes is None:
            sizes = [sum(map(len, blob)) for blob in blobs]
        data = header if type(header) is bytes else _json_encoder.encode({**header, "blobs": sizes}).encode()
        if len(data) > bounds.header_bytes:
            raise MessageTooLarge(f"the message is larger than {bounds.header_bytes // 2**20} MB of JSON")
        if containers(data) > bounds.containers:
            raise MessageTooLarge(f"the message holds more than {bounds.containers} lists and dicts")
        parts = [_PREFIX.pack(len(data)), data, *(part for blob in blobs for part in blob if len(part))]
        if len(data) + sum(sizes) <= _READ_AHEAD:
            parts = [b"".join(parts)]  # the common small message: one system call
        while parts:  # a gathering write of what is left; the kernel may take only part of it
            self._set_timeout(deadline)
            sent = self.sock.sendmsg(parts[:_MAX_PARTS])
            while parts and sent >= len(parts[0]):
                sent -= len(parts.pop(0))
            if sent:
                parts[0] = memoryview(parts[0])[sent:]

    def receive(self, deadline: float | None = None) -> tuple[dict, list[memoryview]]:
        """The next message: (header, blobs). The blobs are views valid until the next receive:
        decode them (Decoder copies arrays out) before reading another message."""
        bounds = self.receive_bounds
        (size,) = _PREFIX.unpack(self._read(_PREFIX.size, deadline, at_start=True))
        if size > bounds.header_bytes:
            raise ProtocolError(f"message header of {size} bytes exceeds {bounds.header_bytes}")
        data = self._read(size, deadline)
        if containers(data) > bounds.containers:
            raise ProtocolError(f"message header holds more than {bounds.containers} lists and dicts")
        try:
            header = _json_decoder.decode(str(data, "utf-8"))
        except (ValueError, RecursionError) as exc:
            raise ProtocolError(f"malformed message header ({type(exc).__name__})") from None
        sizes = header.pop("blobs", None) if type(header) is dict else None
        if type(sizes) is not list or len(sizes) > MAX_ARRAYS or not all(type(n) is int and n >= 0 for n in sizes):
            raise ProtocolError("malformed message header (blob sizes)")
        if sum(sizes) > bounds.array_bytes + _NPY_HEADER_ROOM * len(sizes):
            raise ProtocolError(f"arrays in one message are limited to {bounds.array_bytes // 2**20} MB")
        body = memoryview(self._read(sum(sizes), deadline))
        blobs, start = [], 0
        for n in sizes:
            blobs.append(body[start : start + n])
            start += n
        return header, blobs

    def close(self) -> None:
        self.sock.close()

    def _read(self, size: int, deadline: float | None, at_start: bool = False):
        """Exactly `size` bytes: first those fetched ahead, then from the socket."""
        ahead = self._ahead
        while len(ahead) < size and size <= _READ_AHEAD:
            self._set_timeout(deadline)
            chunk = self.sock.recv(_READ_AHEAD)
            if not chunk:
                raise ConnectionClosed("connection closed" + ("" if at_start and not ahead else " mid-message"))
            ahead += chunk
        if len(ahead) >= size:
            data = ahead[:size]
            del ahead[:size]
            return data
        if size > _REUSED_BODY_MAX:
            data = memoryview(bytearray(size))  # rare and huge: not worth keeping
        else:
            if len(self._body) < size:
                self._body = bytearray(size)
            data = memoryview(self._body)[:size]  # a large body: straight into the reused buffer
        view, got = data, len(ahead)
        view[:got] = ahead
        ahead.clear()
        while got < size:
            self._set_timeout(deadline)
            n = self.sock.recv_into(view[got:], size - got)
            if n == 0:
                raise ConnectionClosed("connection closed mid-message")
            got += n
        return data

    def _set_timeout(self, deadline: float | None) -> None:
        if deadline is None:
            self.sock.settimeout(None)
            return
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("deadline passed")
        self.sock.settimeout(remaining)


def containers(data) -> int:
    """An upper bound on the lists and objects JSON `data` holds (brackets in strings count too)."""
    return data.count(b"[") + data.count(b"{")


def read_captured(fd: int, limit: int, dropped: int = 0) -> str:
    """What a worker wrote to its output file (fds 1 and 2), cut at `limit` bytes.

    The output file is the second channel between the two sides: the worker reads it after each
    call, the grading side after a worker died. `dropped` counts bytes already discarded.
    """
    size = os.fstat(fd).st_size
    text = os.pread(fd, min(size, limit), 0).decode("utf-8", "replace") if size else ""
    if size > limit or dropped:
        text += f"\n[... output truncated: only the first {limit} bytes are kept]"
    return text
