"""The values that cross between grader and worker: plain data, as a JSON tree plus raw arrays.

Why this shape: the grading side must read an answer without running anything the submission
made. Nothing is ever unpickled, and no method of an object the other side built is ever called.

Values: None, bool, int, float (NaN and infinities included), complex, str, list, tuple (kept
apart from list), dict with str keys, numeric or bool `np.ndarray`, and numpy scalars (which
keep their dtype, so `np.int64(196)` never turns into `196.0`). In the worker anything else
becomes a `ForeignObject` that describes it; on the grading side it is the grader's bug
(`NotData`).

An array is `{"__ndarray__": [blob index, dtype, shape]}` (docs/architecture.md, "The
channel"), decoded as a view of its message's own buffer. Each blob may be referenced once: a
reply cannot make the grader decode the same 64 MB sixteen times, and no two arrays share memory.
"""

from __future__ import annotations

import functools
import json
import math
import reprlib
from dataclasses import dataclass

import numpy as np

MAX_DEPTH = 20  # nesting of lists, tuples and dicts in one value
MAX_INT_BITS = 4096  # a Python int wider than this is not data: an attack or a bug
MAX_NDIM = 32
MAX_SUMMARY = 200  # characters of a ForeignObject's description
NUMERIC_KINDS = "biufc"  # bool, int, uint, float, complex: the only dtypes that cross


class ProtocolError(Exception):
    """The other side sent something that is not valid data, or data out of bounds."""


class NotData(ValueError):
    """A grading-side value that cannot be sent: the grader's bug, never the student's."""


@dataclass(frozen=True)
class ForeignObject:
    """A returned value that is not plain data, as the worker described it."""

    type_name: str
    summary: str  # a bounded repr (at most MAX_SUMMARY characters), made in the worker


class TooLarge(Exception):
    """Raised through an Encoder's recursion when a value breaks the message's bounds."""


class Encoder:
    """Turns values into a JSON-able tree; array bytes go to `blobs`.

    `lenient` is the worker's mode: what is not data becomes a ForeignObject in place, so one odd
    element does not hide the rest of an answer. The grading side is strict: `NotData`.
    `max_bytes` and `max_containers` bound the arrays and the lists/tuples/dicts of everything
    encoded; past them `TooLarge` is raised.
    """

    def __init__(self, *, lenient: bool = False, max_bytes: int = 2**31,
                 max_containers: int = 10**7, max_arrays: int = 10_000):
        self.blobs: list[bytes] = []
        self.lenient = lenient
        self.max_bytes, self.max_containers, self.max_arrays = max_bytes, max_containers, max_arrays
        self.bytes_left, self.containers_left = max_bytes, max_containers

    def encode(self, value, depth: int = 0):
        if value is None or type(value) in (bool, str):
            return value
        if type(value) is float:
            return _float(value)
        if type(value) is int and value.bit_length() > MAX_INT_BITS:
            return self._refuse(value, f"an integer wider than {MAX_INT_BITS} bits")
        if type(value) is int:
            return value
        if depth > MAX_DEPTH:
            return self._refuse(value, f"nested deeper than {MAX_DEPTH} levels")
        try:
            return self._convert(value, depth)
        except (NotData, TooLarge):
            raise
        except Exception as exc:  # a student object whose conversion raised (worker side only)
            if not self.lenient:
                raise
            return self._refuse(value, f"could not be converted ({type(exc).__name__})")

    def _convert(self, value, depth):
        if isinstance(value, np.generic):  # before float: np.float64 is a float subclass
            return self._scalar(value)
        if isinstance(value, int):  # subclasses of the plain types (bool cannot be subclassed)
            return self.encode(int(value))
        if isinstance(value, float):
            return _float(float(value))
        if isinstance(value, str):
            return str(value)
        if isinstance(value, complex):
            return {"__complex__": [_float(value.real), _float(value.imag)]}
        if isinstance(value, np.ndarray):
            return self._array(np.asarray(value))  # a subclass leaves as a plain ndarray
        if isinstance(value, (list, tuple, dict)):
            self.containers_left -= 1
            if self.containers_left < 0:
                raise TooLarge(f"more than {self.max_containers} lists, tuples and dicts")
            if isinstance(value, dict):
                return self._dict(value, depth)
            items = [self.encode(item, depth + 1) for item in list(value)]
            return {"__tuple__": items} if isinstance(value, tuple) else items
        return self._refuse(value, None)

    def _scalar(self, value: np.generic):
        if not is_numeric(value.dtype):
            return self._refuse(value, f"a numpy scalar of dtype {value.dtype}")
        kind = value.dtype.kind
        payload = (bool(value) if kind == "b" else int(value) if kind in "iu"
                   else _float(float(value)) if kind == "f"
                   else [_float(float(value.real)), _float(float(value.imag))])
        return {"__npscalar__": [value.dtype.str, payload]}

    def _array(self, array: np.ndarray):
        if not is_numeric(array.dtype):
            return self._refuse(array, f"an array of dtype {array.dtype} "
                                       "(only numbers and bools cross)")
        if array.ndim > MAX_NDIM:
            return self._refuse(array, f"an array with more than {MAX_NDIM} dimensions")
        if len(self.blobs) >= self.max_arrays:
            raise TooLarge(f"more than {self.max_arrays} arrays")
        self.bytes_left -= array.nbytes  # nbytes: known without copying
        if self.bytes_left < 0:
            raise TooLarge(f"arrays in one message are limited to {self.max_bytes // 2**20} MB")
        self.blobs.append(np.ascontiguousarray(array).tobytes())  # a copy: the value at return
        return {"__ndarray__": [len(self.blobs) - 1, array.dtype.str, list(array.shape)]}

    def _dict(self, value: dict, depth: int):
        items = list(dict.items(value))
        if not all(type(key) is str for key, _ in items):
            return self._refuse(value, "a dict whose keys are not all strings")
        tree = {key: self.encode(item, depth + 1) for key, item in items}
        # A dict that looks like one of our markers is wrapped, so that it decodes as a dict.
        return {"__dict__": tree} if len(tree) == 1 and next(iter(tree)).startswith("__") else tree

    def _refuse(self, value, reason: str | None):
        type_name = type_name_of(value)
        if not self.lenient:
            raise NotData(f"cannot send {type_name}: {reason or 'not plain data'}")
        summary = f"not sent: {reason}" if reason else bounded_repr(value, type_name)
        return {"__foreign__": [type_name, summary[:MAX_SUMMARY]]}


@dataclass(frozen=True)
class EncodedCall:
    """A call's arguments as they cross: `[args, kwargs]` as JSON text, the arrays it numbers
    from 0. Encoded once per planned case, sent to submission after submission."""

    json: str
    blobs: tuple[bytes, ...]

    @property
    def nbytes(self) -> int:
        return sum(map(len, self.blobs))


def encode_call(args=(), kwargs=None) -> EncodedCall:
    """Encode the grader's own arguments (strict: NotData for anything that is not data)."""
    encoder = Encoder()
    tree = [encoder.encode(list(args)), encoder.encode(dict(kwargs or {}))]
    text = json.dumps(tree, allow_nan=False, separators=(",", ":"))
    return EncodedCall(text, tuple(encoder.blobs))


class Decoder:
    """Builds plain values from a JSON tree and a message's blobs, checking every bound.

    It only ever constructs data (lists, dicts, numbers, fresh writeable arrays). Any defect
    raises ProtocolError, whatever the tree holds.
    """

    def __init__(self, blobs: list, *, foreign_ok: bool = False):
        self.blobs, self.foreign_ok, self.used = blobs, foreign_ok, set()

    def decode(self, tree):
        try:
            return self._decode(tree, 0)
        except ProtocolError:
            raise
        except Exception as exc:  # numpy or int conversions refusing a forged value
            raise ProtocolError(f"invalid value ({type(exc).__name__})") from None

    def _decode(self, node, depth: int):
        if depth > MAX_DEPTH + 1:  # + 1: the encoder's refusal of a deeper value sits there
            raise ProtocolError(f"a value nested deeper than {MAX_DEPTH} levels")
        kind = type(node)
        if node is None or kind in (bool, str, float):
            return node
        if kind is int:
            return _checked_int(node)
        if kind is list:
            return [self._decode(item, depth + 1) for item in node]
        if kind is not dict:
            raise ProtocolError(f"unexpected JSON value of type {kind.__name__}")
        if len(node) == 1:
            ((key, payload),) = node.items()
            if key == "__ndarray__":
                return self._array(payload)
            if key == "__tuple__":
                return tuple(self._decode(item, depth + 1) for item in _expect(payload, list))
            if key == "__dict__":
                return self._dict(_expect(payload, dict), depth)
            if key == "__float__":
                return _decode_float(node)
            if key == "__complex__":
                real, imag = _pair(payload)
                return complex(_decode_float(real), _decode_float(imag))
            if key == "__npscalar__":
                return _scalar(*_pair(payload))
            if key == "__foreign__":
                if not self.foreign_ok:
                    raise ProtocolError("a foreign object cannot be sent to the worker")
                name, summary = (_expect(part, str)[:MAX_SUMMARY] for part in _pair(payload))
                return ForeignObject(name, summary)
        return self._dict(node, depth)

    def _dict(self, node: dict, depth: int) -> dict:
        return {key: self._decode(item, depth + 1) for key, item in node.items()}

    def _array(self, payload) -> np.ndarray:
        if type(payload) is not list or len(payload) != 3:
            raise ProtocolError("malformed array")
        index, dtype_text, shape = payload
        if type(index) is not int or not 0 <= index < len(self.blobs):
            raise ProtocolError(f"array #{str(index)[:20]} was not sent")
        if index in self.used:
            raise ProtocolError(f"array #{index} is used twice")
        self.used.add(index)
        dtype = numeric_dtype(_expect(dtype_text, str))
        if type(shape) is not list or len(shape) > MAX_NDIM:
            raise ProtocolError("malformed array shape")
        blob = self.blobs[index]
        # (np.ndarray below refuses whatever is not a shape)
        if math.prod(shape) * dtype.itemsize != len(blob):
            raise ProtocolError(f"an array of shape {tuple(shape)[:8]} does not match its "
                                f"{len(blob)} bytes")
        array = np.ndarray(shape, dtype, blob)  # a view of this message's own buffer, used once
        return array if array.flags.aligned and array.flags.writeable else array.copy()


def is_numeric(dtype: np.dtype) -> bool:
    return (dtype.kind in NUMERIC_KINDS and not dtype.hasobject and dtype.fields is None
            and dtype.shape == ())


@functools.lru_cache(maxsize=256)  # the few dozen dtypes that cross, each checked once
def numeric_dtype(text: str) -> np.dtype:
    try:
        dtype = np.dtype(text[:40])
    except Exception:
        raise ProtocolError(f"unknown dtype {text[:40]!r}") from None
    if not is_numeric(dtype):
        raise ProtocolError(f"refused data of dtype {dtype}")
    return dtype


def _scalar(dtype_text, value):
    dtype = numeric_dtype(_expect(dtype_text, str))
    if dtype.kind == "b":
        return dtype.type(_expect(value, bool))
    if dtype.kind in "iu":
        return dtype.type(_checked_int(_expect(value, int)))
    if dtype.kind == "f":
        return dtype.type(_decode_float(value))
    real, imag = _pair(value)
    return dtype.type(complex(_decode_float(real), _decode_float(imag)))


def _float(value: float):
    if math.isfinite(value):
        return value
    return {"__float__": "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")}


def _decode_float(node) -> float:
    if type(node) is float:
        return node
    if type(node) is int:
        return float(_checked_int(node))
    if type(node) is dict and len(node) == 1 and node.get("__float__") in ("nan", "inf", "-inf"):
        return float(node["__float__"])
    raise ProtocolError(f"not a float: {str(node)[:40]}")


def _checked_int(value: int) -> int:
    if value.bit_length() > MAX_INT_BITS:
        raise ProtocolError(f"an integer wider than {MAX_INT_BITS} bits")
    return value


def _expect(node, kind):
    if type(node) is not kind:
        raise ProtocolError(f"expected {kind.__name__}, got {type(node).__name__}")
    return node


def _pair(node) -> list:
    if type(node) is not list or len(node) != 2:
        raise ProtocolError("expected a pair")
    return node


def fresh_copy(value):
    """A copy of data deep enough that nothing done to it reaches `value`: the reference gets
    one, so a case's inputs stay as planned whatever it does."""
    kind = type(value)
    if kind is np.ndarray:
        return value.copy()
    if kind in (tuple, list):
        return kind(fresh_copy(item) for item in value)
    if kind is dict:
        return {key: fresh_copy(item) for key, item in value.items()}
    return value


def type_name_of(value) -> str:
    """'Agreeable', or 'vit_exercises.Agreeable' (a student's class may hide both: 'object')."""
    kind = type(value)
    try:
        module, name = kind.__module__, kind.__qualname__
        return name if module in (None, "builtins") else f"{module}.{name}"
    except Exception:
        return "object"


_repr = reprlib.Repr()
_repr.maxstring = _repr.maxother = MAX_SUMMARY


def bounded_repr(value, type_name: str) -> str:
    """A repr of at most MAX_SUMMARY characters (a student's __repr__ may raise or lie)."""
    try:
        return _repr.repr(value)[:MAX_SUMMARY]
    except BaseException as exc:  # noqa: BLE001 - student code
        return f"<{type_name} object; repr failed with {type(exc).__name__}>"
