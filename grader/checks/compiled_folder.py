"""One compiled file per exercises folder, so that a cold grade reads one file, opens no `.npz`
zip (nor imports `zipfile`) and encodes none of its cases' inputs (issue 39, item 2):

    <exercises>/compiled/catalogue.compiled
    MAGIC, the header's length (8 bytes, little-endian), the header (JSON), zeros to a multiple
    of 16, the body

The header holds, for each spec whose own compiled files (`<stem>.json`, `<stem>.npz`:
compiled.py) are fresh when `vitgrade compile` writes it: their key (the spec's sha256, the
reference's version, compiled.FORMAT), their tables (each value the same JSON text), where each
dtype's pool lies in the body (one read-only `np.frombuffer` view each, 16-byte aligned), and
each case of the `cases` table's inputs as the channel sends them (`values.EncodedCall`: the JSON
of `[args, kwargs]`, its blobs places in the body: the pools' own bytes where the inputs are
views of them, which they are). It is made from the specs' own files only, written only when its
bytes change, and `vitgrade compile --check` names it when it is not what they make (`state`).

A spec's entry is used only while the spec file's sha256 and `compiled.reference_version` match
(else the spec's own files are read, as before); VITGRADE_NO_COMPILED disables it too. The worker
never sees it: the grading process sends a case's encoded inputs, the same bytes `encode_call`
makes of them (tests/test_compiled_folder.py compares every call).
"""
from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import numpy as np

from grader.worker.values import EncodedCall, encode_call

from . import compiled
from .parsed_specs import FOLDER

FORMAT = 1
NAME = "catalogue.compiled"
MAGIC = b"VITGRADE-COMPILED\n"
ALIGN = 16
CASES = "cases"  # the table whose entries' inputs are kept encoded


def path_of(folder: str | Path) -> Path:
    return Path(folder) / FOLDER / NAME


class FolderSpec(compiled.CompiledSpec):
    """A spec's compiled data read from the folder's file: also its cases' encoded inputs."""

    def __init__(self, index: dict, pools: dict, where: str, calls: dict, body: memoryview):
        super().__init__(index, pools, where)
        self._calls, self._body = calls, body

    def encoded_calls(self, key: str) -> list[EncodedCall] | None:
        """The encoded inputs of the cases stored under `cases`/`key`, in order (None: none)."""
        calls = self._calls.get(key)
        if not isinstance(calls, list):
            return None
        body, out = self._body, []
        try:
            for text, places in calls:
                blobs = tuple(body[start:start + size] for start, size in places)
                if not isinstance(text, str) or any(len(b) != n for b, (_, n) in
                                                    zip(blobs, places, strict=True)):
                    return None
                out.append(EncodedCall(text, blobs))
        except (TypeError, ValueError):
            return None
        return out


def cached(spec: Path) -> compiled.CompiledSpec | None:
    """The spec's compiled data: from the folder's file while its entry is fresh, else from the
    spec's own files (compiled.cached); CompiledError when those are corrupt."""
    if os.environ.get(compiled.DISABLE, "") in ("", "0"):
        found = entry(Path(spec))
        if found is not None:
            return found
    return compiled.cached(spec)


def entry(spec: Path) -> FolderSpec | None:
    """The spec's entry of its folder's file, when there is one and its key matches."""
    read = _stored(spec.parent)
    if read is None:
        return None
    specs, body, version = read
    kept = specs.get(spec.name)
    if not isinstance(kept, dict) or version is None:
        return None
    try:
        digest = compiled.spec_sha256(spec)
    except OSError:
        return None
    if (kept.get("spec_sha256") != digest or kept.get("reference") != version
            or kept.get("format") != compiled.FORMAT):
        return None
    try:
        pools = {}
        for name, (start, count) in kept["pools"].items():
            pool = np.frombuffer(body, np.dtype(name), count, start)
            if pool.dtype.name != name:
                return None
            pools[name] = pool
        return FolderSpec({"tables": kept["tables"]}, pools, f"{FOLDER}/{NAME}",
                          kept.get("calls", {}), body)
    except (KeyError, TypeError, ValueError):
        return None  # a damaged entry: the spec's own files (compile --check names it)


def _stored(folder: Path):
    path = path_of(folder)
    try:
        info = path.stat()
    except OSError:
        return None
    read = _read(path, info.st_mtime_ns, info.st_size)
    if read is None:
        return None
    specs, body = read
    return specs, body, compiled.reference_version(folder)


@functools.lru_cache(maxsize=8)
def _read(path: Path, *stamp) -> tuple[dict, memoryview] | None:
    try:
        data = path.read_bytes()
        return parse(data)
    except (OSError, ValueError):
        return None


def parse(data: bytes) -> tuple[dict, memoryview]:
    """(spec name -> entry, body) of a folder file's bytes; ValueError when it is not one. The
    body is a view of `data`, not a copy: copying its ~2 MB cost a cold grade ~1.6 ms of CPU."""
    if not data.startswith(MAGIC):
        raise ValueError("not a compiled folder file")
    start = len(MAGIC) + 8
    size = int.from_bytes(data[len(MAGIC):start], "little")
    header = json.loads(data[start:start + size].decode("utf-8"))
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueError("another format")
    specs = header.get("specs")
    if not isinstance(specs, dict):
        raise ValueError("no specs")
    body_start = _aligned(start + size)
    return specs, memoryview(data)[body_start:]


def _aligned(n: int) -> int:
    return -(-n // ALIGN) * ALIGN


# --- writing ----------------------------------------------------------------------------------

def make(folder: Path) -> bytes | None:
    """The file's bytes as the specs' own compiled files of `folder` make them (None: no spec
    of it has fresh compiled data)."""
    from grader.spec import spec_files

    body = bytearray()
    specs: dict[str, dict] = {}
    kept = {}
    for spec in spec_files(Path(folder)):
        try:
            data = compiled.load(spec, even_disabled=True)
        except compiled.CompiledError:
            continue
        if data is None:
            continue
        places = {}
        for name in sorted(data.pools):
            pool = np.ascontiguousarray(data.pools[name])
            body.extend(bytes(_aligned(len(body)) - len(body)))
            places[name] = [len(body), int(pool.size)]
            body.extend(pool.tobytes())
        kept[spec.name] = (data, places)
        specs[spec.name] = {"format": compiled.FORMAT, "spec_sha256": compiled.spec_sha256(spec),
                            "reference": compiled.reference_version(spec.parent),
                            "tables": data.tables, "pools": places}
    if not specs:
        return None
    frozen = bytes(body)
    extra: dict[bytes, int] = {}
    for name, (data, places) in kept.items():
        pools = {dtype: np.frombuffer(frozen, np.dtype(dtype), count, start)
                 for dtype, (start, count) in places.items()}
        view = compiled.CompiledSpec({"tables": data.tables}, pools, data.where)
        try:
            view.values()  # every value decodes: else its own files say it is corrupt
            specs[name]["calls"] = {key: _calls(view.lookup(CASES, key), frozen, body, extra)
                                    for key in data.tables.get(CASES, {})}
        except (compiled.CompiledError, KeyError, TypeError, ValueError):
            del specs[name]  # (its pools stay in the body, unused)
    header = json.dumps({"format": FORMAT, "specs": specs}, separators=(",", ":"),
                        sort_keys=True).encode("utf-8")
    head = MAGIC + len(header).to_bytes(8, "little") + header
    return head + bytes(_aligned(len(head)) - len(head)) + bytes(body)


def _calls(entries, frozen: bytes, body: bytearray, extra: dict) -> list:
    """Each case's [encoded JSON, [[start, size] of each blob in the body]]: a blob is the bytes
    of an input that is a view of a pool in `frozen`, else added to `body` once."""
    out = []
    base = np.frombuffer(frozen, np.uint8).ctypes.data
    for entry in entries if isinstance(entries, list) else ():
        args, kwargs = tuple(entry["args"]), dict(entry["kwargs"])
        call = encode_call(args, kwargs)
        arrays = list(_arrays([list(args), kwargs]))
        places = []
        for i, blob in enumerate(call.blobs):
            start = None
            if len(arrays) == len(call.blobs):
                at = arrays[i].ctypes.data - base
                if at >= 0 and frozen[at:at + len(blob)] == blob:
                    start = at
            if start is None:
                blob = bytes(blob)
                if blob not in extra:
                    body.extend(bytes(_aligned(len(body)) - len(body)))
                    extra[blob] = len(body)
                    body.extend(blob)
                start = extra[blob]
            places.append([start, len(blob)])
        out.append([call.json, places])
    return out


def _arrays(value):
    """The arrays of `value` in the order values.Encoder numbers them."""
    if isinstance(value, np.ndarray):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _arrays(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _arrays(item)


def write(folder: Path) -> list[Path]:
    """Write the folder's file from its specs' compiled files (removed when none is fresh);
    returns it when its bytes changed."""
    path, data = path_of(folder), make(folder)
    old = path.read_bytes() if path.is_file() else None
    if data == old:
        return []
    if data is None:
        path.unlink()
        return []
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return [path]


def state(folder: Path) -> str:
    """'fresh', 'missing' or 'stale' (not what the specs' compiled files make)."""
    path = path_of(folder)
    data = make(folder)
    if not path.is_file():
        return "fresh" if data is None else "missing"
    return "fresh" if path.read_bytes() == data else "stale"
