"""Compiled expectations: what grading a spec needs from the reference, computed once by the
instructor (`vitgrade compile`) and stored as data next to the spec.

    <exercises>/compiled/<spec stem>.json   the index: format, key, tables of values
    <exercises>/compiled/<spec stem>.npz    the arrays the index points into (no pickle)

docs/architecture.md ("The format") shows the index: its tables (`cases`, `answers`, `standins`:
stand_ins.py), values as JSON whose arrays are markers into one 1-D array per dtype (`encode`,
`decode`: a spec's arrays cost a handful of `.npy` headers, not one each). The parsed specs are
kept apart, one file per folder (parsed_specs.py).

The data is used only while its key matches: the sha256 of the spec file's bytes and
`reference_version()` (the reference's and the input builders' sources, or, in the student
bundle, which has no reference, the version `vitgrade dist` wrote). A stale, missing or
disabled (`VITGRADE_NO_COMPILED=1`) file is ignored, so the grader computes the values itself;
a corrupt one raises CompiledError with one line that names it.
"""
from __future__ import annotations

import functools
import hashlib
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .parsed_specs import FOLDER  # the compiled data's folder beside the specs

# 2: each table value is JSON text of its own, decoded on lookup: a run reads one variant's cases
# and no stand-in answers unless it regrades, so decoding every value at load (every variant's,
# the stand-ins') was most of the catalogue's load time
FORMAT = 2
DISABLE = "VITGRADE_NO_COMPILED"  # set to 1: never read compiled data (the benchmark's baseline)
PACKAGE = Path(__file__).resolve().parents[1]  # the running `grader` package
VERSION_FILE = "REFERENCE_VERSION"  # written into a bundle's grader/ by `vitgrade dist`
# besides grader/reference/*.py, what makes a case's inputs: a change here changes generated cases
# (a change of this module's format bumps FORMAT instead)
INPUT_SOURCES = ("params.py", "checks/inputs.py", "checks/generators.py", "checks/block_params.py",
                 "checks/checkpoint_inputs.py")
# a table: each known-wrong variant a spec lists that is the error model's mistake -> that mistake
# ("patchify_bare_reshape" -> "op:transpose:patchify:grid.transpose-removed"), what the student
# bundle, which has no reference, reads it from (report/discarded.py)
INSTANCES = "instances"


class CompiledError(ValueError):
    """A compiled file that cannot be read (the message names it and says what to do)."""


@functools.cache
def has_reference() -> bool:
    """Whether this grader holds the reference (the student bundle does not): else what grading
    needs from it must be compiled."""
    import importlib.util

    return importlib.util.find_spec("grader.reference") is not None


def reference_version(folder: str | Path | None = None) -> str | None:
    """A hash of the sources the compiled values depend on, with the course's reference files
    of the exercises folder `folder` when its specs declare functions (course.py); in a grader
    without the reference, the version it was built with (None when neither is there: nothing
    compiled is used)."""
    from .course import declarations, reference_files

    version = _shipped_version()
    files = reference_files(folder) if version else []  # none: what the specs declare is moot
    for path in files if files and declarations(folder) else ():
        version = hashlib.sha256(f"{version}\0{path.name}\0".encode()
                                 + path.read_bytes()).hexdigest()[:32]
    return version


@functools.cache
def _shipped_version() -> str | None:
    sources = sorted((PACKAGE / "reference").glob("*.py"))  # error_model/: listed mistakes
    sources += sorted((PACKAGE / "reference" / "error_model").glob("*.py"))  # are its rewrites
    if sources:
        digest = hashlib.sha256()
        for path in sources + [PACKAGE / name for name in INPUT_SOURCES]:
            digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
        return digest.hexdigest()[:32]
    try:
        return (PACKAGE / VERSION_FILE).read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


def paths(spec: Path) -> tuple[Path, Path]:
    """(index, arrays) of the spec file `spec`."""
    spec = Path(spec)
    folder = spec.parent / FOLDER
    return folder / f"{spec.stem}.json", folder / f"{spec.stem}.npz"


def spec_file(exercise) -> Path:
    """The spec file an Exercise was loaded from, wherever the working folder is now: its `path`
    is shown relative to where it was loaded, its `folder` is absolute."""
    path = Path(exercise.path)
    return Path(exercise.folder) / path.name if exercise.folder else path


def spec_sha256(spec: Path) -> str:
    return hashlib.sha256(Path(spec).read_bytes()).hexdigest()


# --- reading ----------------------------------------------------------------------------------

class CompiledSpec:
    """One spec's compiled data: `lookup(table, key)` -> the stored value, or None."""

    def __init__(self, index: dict, pools: dict[str, np.ndarray], where: str):
        self.tables = index["tables"]
        self.pools = pools
        self.where = where

    def values(self) -> dict:
        """table -> key -> value, every value decoded (CompiledError when one cannot be)."""
        return {table: {key: self.lookup(table, key) for key in values}
                for table, values in self.tables.items()}

    def lookup(self, table: str, key: str, deferred: frozenset = frozenset()):
        raw = self.tables.get(table, {}).get(key)
        if raw is None:
            return None
        try:
            return decode(json.loads(raw), self.pools, deferred)
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise CompiledError(f"{self.where}: corrupt ({table} {key!r}: {error}); run "
                                "`vitgrade compile` again") from None


def lookup(spec: Path, table: str, key: str):
    """The value stored under `table`/`key` for the spec file `spec`, or None (nothing compiled,
    stale, or no such entry); CompiledError when the file is corrupt."""
    data = cached(spec)
    return None if data is None else data.lookup(table, key)


def cached(spec: Path) -> CompiledSpec | None:
    """`load(spec)`, read once per process while the files are unchanged."""
    return _cached(Path(spec).resolve(), *_stamp(Path(spec)))


def _stamp(spec: Path) -> tuple:
    stamps = []
    for path in (spec, *paths(spec)):
        try:
            info = path.stat()
            stamps.append((info.st_mtime_ns, info.st_size))
        except OSError:
            stamps.append(None)
    return tuple(stamps)


@functools.lru_cache(maxsize=64)
def _cached(spec: Path, *stamp) -> CompiledSpec | None:
    return load(spec)  # the environment is read once too: VITGRADE_NO_COMPILED is set at start


def state(spec: Path) -> str:
    """'fresh', 'missing', 'stale' or 'corrupt: ...' (for `vitgrade compile --check`): a fresh
    file is read whole, every value decoded."""
    try:
        data = load(spec, even_disabled=True)
        if data is None:
            return "missing" if not paths(spec)[0].is_file() else "stale"
        data.values()
        return "fresh"
    except CompiledError as error:
        return f"corrupt: {error}"


def load(spec: Path, even_disabled: bool = False) -> CompiledSpec | None:
    """The spec's compiled data when its key matches, else None (also while VITGRADE_NO_COMPILED
    is set, unless `even_disabled`); CompiledError when corrupt."""
    if not even_disabled and os.environ.get(DISABLE, "") not in ("", "0"):
        return None
    spec = Path(spec)
    index_path, arrays_path = paths(spec)
    where = f"{index_path.parent.name}/{index_path.name}"
    try:
        text = index_path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise CompiledError(f"{where}: cannot be read ({error})") from None
    try:
        index = json.loads(text)
        if isinstance(index, dict) and index.get("format") != FORMAT:
            return None  # another format's: stale, compiled again by `vitgrade compile`
        ok = (isinstance(index, dict) and isinstance(index.get("tables"), dict)
              and all(isinstance(t, dict) and all(isinstance(v, str) for v in t.values())
                      for t in index["tables"].values()))
    except ValueError as error:
        raise CompiledError(f"{where}: corrupt (not JSON: {error}); run `vitgrade compile` "
                            "again") from None
    if not ok:
        raise CompiledError(f"{where}: corrupt (not a compiled index); run `vitgrade compile`")
    version = reference_version(spec.parent)
    try:
        digest = spec_sha256(spec)
    except OSError:
        return None
    if (index.get("format") != FORMAT or version is None or index.get("reference") != version
            or index.get("spec_sha256") != digest):
        return None  # stale: the grader computes the values itself (or says it cannot)
    return CompiledSpec(index, _pools(arrays_path, where, index.get("arrays_sha256")), where)


def _pools(path: Path, where: str, sha256: str | None = None) -> dict[str, np.ndarray]:
    """The arrays of `path`, checked against the index's `sha256` of the file when given."""
    import io
    import zipfile

    def corrupt(why: str) -> CompiledError:
        return CompiledError(f"{where}: its arrays {path.name} {why}; run `vitgrade compile` again")

    try:
        data = path.read_bytes()
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            pools = {name: archive[name] for name in archive.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise corrupt(f"cannot be read ({error})") from None
    if sha256 is not None and hashlib.sha256(data).hexdigest() != sha256:
        raise corrupt("are not the ones it was written with")
    for name, pool in pools.items():
        if pool.ndim != 1 or pool.dtype.name != name:
            raise corrupt(f"are corrupt ({name} is not a 1-D {name} array)")
        pool.flags.writeable = False  # decode hands out views: none may change another's value
    return pools


@dataclass(frozen=True)
class Deferred:
    """A value decoded only when asked for (`value()`): a case's misconceptions' outputs, with
    their combinations most of a compiled file, are read only after a case failed."""
    raw: object
    pools: dict

    def value(self):
        return decode(self.raw, self.pools)


def decode(raw, pools: dict[str, np.ndarray], deferred: frozenset = frozenset()):
    """The value `raw` (JSON with markers) stands for; arrays are read-only views of the pools
    (nothing in the grading process writes an input or an expected value; the reference, when
    it runs, gets copies). A mapping's value under a key in `deferred` stays a Deferred."""
    if isinstance(raw, list):
        return [decode(x, pools, deferred) for x in raw]
    if not isinstance(raw, dict):
        return raw
    if len(raw) != 1:
        raise ValueError("a value mapping must hold one marker")
    (marker, body), = raw.items()
    if marker == "~array":
        name, offset, shape = body
        size = math.prod(shape)
        chunk = pools[name][offset:offset + size]
        if offset < 0 or chunk.size != size:
            raise IndexError(f"array [{offset}, {offset + size}) outside {name}")
        return chunk.reshape(shape)
    if marker == "~scalar":
        name, offset = body
        return pools[name][offset]
    if marker == "~tuple":
        return tuple(decode(x, pools, deferred) for x in body)
    if marker == "~dict":  # in the order written
        return {k: Deferred(v, pools) if k in deferred else decode(v, pools, deferred)
                for k, v in body.items()}
    raise ValueError(f"unknown marker {marker!r}")


# --- writing ----------------------------------------------------------------------------------

class Pools:
    """The arrays of one file, gathered per dtype while values are encoded; an array stored
    already is pointed to again (the stand-ins' records repeat the cases' inputs)."""

    def __init__(self):
        self.parts: dict[str, list[np.ndarray]] = {}
        self.sizes: dict[str, int] = {}
        self.stored: dict[tuple[str, bytes], int] = {}

    def add(self, array: np.ndarray) -> tuple[str, int]:
        if array.dtype.kind not in "biufc":
            raise TypeError(f"cannot store an array of {array.dtype}")
        name, flat = array.dtype.name, np.ascontiguousarray(array).ravel()
        key = (name, hashlib.sha256(flat.tobytes()).digest())
        if key not in self.stored:
            self.stored[key] = self.sizes.get(name, 0)
            self.parts.setdefault(name, []).append(flat)
            self.sizes[name] = self.stored[key] + array.size
        return name, self.stored[key]

    def arrays(self) -> dict[str, np.ndarray]:
        return {name: np.concatenate(parts) for name, parts in self.parts.items()}


def encode(value, pools: Pools):
    """`value` as JSON with markers (its arrays added to `pools`); TypeError for anything that
    is not data."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.ndarray):
        name, offset = pools.add(value)
        return {"~array": [name, offset, list(value.shape)]}
    if isinstance(value, np.generic):
        return {"~scalar": list(pools.add(np.asarray(value)))}
    if isinstance(value, list):
        return [encode(x, pools) for x in value]
    if isinstance(value, tuple):
        return {"~tuple": [encode(x, pools) for x in value]}
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"~dict": {k: encode(v, pools) for k, v in value.items()}}
    raise TypeError(f"cannot store a {type(value).__name__}")


def write(spec: Path, tables: dict[str, dict], pools: Pools) -> list[Path]:
    """Write the compiled data of `spec` under the key of the spec's bytes as they are now:
    `tables` maps table -> key -> value encoded (`encode`) into `pools` (the parsed spec is kept
    apart, for the whole folder: parsed_specs.py). Returns the files written: none while those
    there hold the same data (`holds`: a recompile on another CPU, whose BLAS changes an array's
    last bits, changes no file), else each whose bytes differ."""
    spec = Path(spec)
    index_path, arrays_path = paths(spec)
    head = {"format": FORMAT, "spec": spec.name, "spec_sha256": spec_sha256(spec),
            "reference": reference_version(spec.parent), "arrays": arrays_path.name}
    arrays = pools.arrays()
    tables = {table: {key: json.dumps(value, separators=(",", ":"))
                      for key, value in values.items()}
              for table, values in tables.items()}  # each decoded on lookup only (FORMAT 2)
    if holds(spec, {**head, "tables": tables}, arrays):
        return []
    data = _npz_bytes(arrays)
    text = json.dumps({**head, "arrays_sha256": hashlib.sha256(data).hexdigest(),
                       "tables": tables}, indent=1)
    index_path.parent.mkdir(parents=True, exist_ok=True)
    written = []
    for path, content in ((arrays_path, data), (index_path, (text + "\n").encode("utf-8"))):
        if not path.is_file() or path.read_bytes() != content:
            path.write_bytes(content)
            written.append(path)
    return written


def holds(spec: Path, index: dict, arrays: dict[str, np.ndarray]) -> bool:
    """Whether the compiled files of `spec` hold `index` (without its "arrays_sha256") with its
    markers into `arrays`: all but the tables' values exactly, their values as `same` compares."""
    index_path, arrays_path = paths(spec)
    try:
        old = json.loads(index_path.read_text(encoding="utf-8"))
        pools = _pools(arrays_path, index_path.name, old.pop("arrays_sha256", None))
        if json.dumps({**old, "tables": None}) != json.dumps({**index, "tables": None}):
            return False
        return same(CompiledSpec(old, pools, "").values(), CompiledSpec(index, arrays, "").values())
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return False  # missing or unreadable (CompiledError is a ValueError): written anew


def same(a, b) -> bool:
    """Equal values of the same types: arrays and numpy scalars by dtype and shape, integers
    exactly, floats to the last few bits (nan included): a matmul's last bits depend on the CPU's
    BLAS kernels, so data compiled on one machine is the same data on another (`write` keeps it;
    tests/test_compiled.py checks the committed data against the reference with it)."""
    if isinstance(a, (np.ndarray, np.generic)) or isinstance(b, (np.ndarray, np.generic)):
        if not (type(a) is type(b) and a.dtype == b.dtype and a.shape == b.shape):
            return False
        if a.dtype.kind in "fc":
            return bool(np.allclose(a, b, rtol=1e-12, atol=1e-12, equal_nan=True))
        return bool(np.array_equal(a, b))
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, dict):
        return type(b) is dict and list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and (a == b or (a != a and b != b))


def _npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    """What np.savez writes (np.load reads it), but the same bytes for the same arrays: no
    timestamps. Not compressed: reading it is on every cold run."""
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name in sorted(arrays):
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            with archive.open(info, "w") as member:
                np.lib.format.write_array(member, arrays[name], allow_pickle=False)
    return buffer.getvalue()

