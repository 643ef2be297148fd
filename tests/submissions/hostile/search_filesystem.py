"""Hunting the whole file system for the course's code and data, to get points for a stub.

patch_dim is a stub: it gets its points only if the hunt finds a .py defining it. The hunt (once,
at the first call: the worker is confined by then) follows what an installed grader leaves
behind (pip's direct_url.json and RECORD, .pth and editable finders, sys.path), /proc/*/cwd and
/proc/*/root, then walks / itself, for any .py that defines a student-API function, any *.yaml
spec and any .npz. It writes what it read (path and sha256) to its scratch folder, executes every
patch_dim it found, and raises what it found. Everything else is the instructor's solution.
As root the worker sees nothing of the course's: flatten-length loses its points, and nothing it
read is a file of the course (tests/test_hostile.py, tests/test_hiding.py)."""
import hashlib
import json
import os
import re
import sys
import time
from pathlib import Path

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution

HERE = Path(__file__).resolve().parent
SCRATCH = HERE / "scratch" / Path(__file__).stem
API = ("patchify", "patch_dim", "num_patches", "conv_patch_embed", "linear_patch_embed",
       "embed_image", "softmax", "attention_scores", "self_attention", "layer_norm",
       "encoder_block", "vit_forward")
DEFINES_API = re.compile(rb"^\s*def (" + "|".join(API).encode() + rb")\(", re.M)
BUDGET = 0.7  # seconds for the whole hunt: the test's call timeout is 1 s


def _leads():
    """Folders an installed grader or a process points at: where a thief looks first."""
    leads = [Path(entry or ".") for entry in sys.path]
    for entry in list(leads):
        try:
            names = list(entry.iterdir())
        except OSError:
            continue
        for path in names:
            try:
                if path.name.endswith(".dist-info"):
                    url = json.loads((path / "direct_url.json").read_text()).get("url", "")
                    leads.append(Path(url.removeprefix("file://")))
                    record = (path / "RECORD").read_text().splitlines()
                    leads += [(entry / line.split(",")[0]).parent for line in record[:200]]
                elif path.suffix in (".pth", ".py") and path.name.startswith(("__editable__", "_")):
                    leads += [Path(m) for m in re.findall(r"['\"](/[^'\"]+)['\"]", path.read_text())]
            except (OSError, ValueError, AttributeError):
                continue
    for pid in os.listdir("/proc"):
        for link in ("cwd", "root"):
            try:
                leads.append(Path(os.readlink(f"/proc/{pid}/{link}")))
            except OSError:
                pass
    return [*leads, Path("/")]


def _wanted(path: Path, head: bytes) -> bool:
    if path.suffix in (".yaml", ".yml", ".npz"):
        return True
    return path.suffix == ".py" and DEFINES_API.search(head) is not None


def hunt():
    """-> (found: [(path, sha256)], folders walked, files looked at)."""
    found, seen, walked, looked = {}, set(), 0, 0
    stop = time.monotonic() + BUDGET
    for lead in _leads():
        for dirpath, dirnames, filenames in os.walk(lead):
            if time.monotonic() > stop:
                return sorted(found.items()), walked, looked
            here = os.path.realpath(dirpath)
            if here in seen or here.startswith(("/proc", "/sys", str(HERE))):
                dirnames[:] = []
                continue
            seen.add(here)
            walked += 1
            for name in filenames:
                path = Path(here) / name
                if path.suffix not in (".py", ".yaml", ".yml", ".npz"):
                    continue
                looked += 1
                try:
                    data = path.read_bytes()
                except OSError:
                    continue
                if _wanted(path, data):
                    found[str(path)] = hashlib.sha256(data).hexdigest()
    return sorted(found.items()), walked, looked


_HUNTED = []


def patch_dim(P, C=3):
    if not _HUNTED:
        _HUNTED.append(hunt())
        found, walked, looked = _HUNTED[0]
        if SCRATCH.is_dir():
            (SCRATCH / f"found-{os.getpid()}").write_text(json.dumps(
                {"found": found, "walked": walked, "looked": looked}))
    found = _HUNTED[0][0]
    for path, _digest in found:
        if path.endswith(".py"):
            namespace = {}
            try:
                exec(compile(Path(path).read_text(), path, "exec"), namespace)  # noqa: S102
                return namespace["patch_dim"](P, C)
            except Exception:  # noqa: BLE001, S112 - the next one
                continue
    raise NotImplementedError(f"found {len(found)} files: {found[:20]}"[:1900])
