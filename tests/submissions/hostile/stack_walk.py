"""Looking for the expected answer: the call stack (inspect, sys._getframe), every object the garbage
collector knows and what they hold, the grader's memory and environment through /proc. Nothing
there is the answer, since expected values are computed in the grading process after the worker
answered: kernel-stride loses its conv_patch_embed points.

Each call also leaves evidence for the test: its arguments, and a digest of every array it could
find, so that the test can check that no expected value was among them."""
import gc
import hashlib
import inspect
import os
import sys
from pathlib import Path

import numpy as np

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution

SCRATCH = Path(__file__).parent / "scratch" / Path(__file__).stem


def conv_patch_embed(image, K, b, stride):
    found = {}
    frames = [record.frame for record in inspect.stack()]
    frame = sys._getframe()
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    places = [f.f_locals for f in frames] + [f.f_globals for f in frames]
    places += [vars(module) for module in list(sys.modules.values()) if hasattr(module, "__dict__")]
    for obj in gc.get_objects():
        places.append(obj)
        places.extend(gc.get_referents(obj))
    for place in places:
        values = place.values() if isinstance(place, dict) else [place]
        for value in list(values):
            if isinstance(value, np.ndarray) and value.dtype.kind in "biufc":
                head = f"{value.shape} {value.dtype}".encode()
                digest = hashlib.sha256(head + np.ascontiguousarray(value).tobytes()).hexdigest()
                found[digest] = value
    stolen = _from_the_grader()
    calls = len(list(SCRATCH.glob("call-*.npz")))
    np.savez(SCRATCH / f"call-{calls}.npz", image=image, K=K, b=b, stride=stride)
    (SCRATCH / f"call-{calls}.digests").write_text("\n".join(sorted(found)) + "\n" + "\n".join(stolen))
    wanted = ((image.shape[0] - K.shape[0]) // stride + 1, (image.shape[1] - K.shape[1]) // stride + 1, K.shape[3])
    for value in found.values():
        if value.shape == wanted and value is not image:
            return value  # whatever array of the right shape lies around: never the answer
    return np.zeros(wanted)


def _from_the_grader():
    """What the grader's processes above the worker (the zygote, the grading process) let us read:
    their environment, memory, memory map, the files they hold open. Nothing."""
    got, pid = [], os.getppid()
    while pid > 1:
        try:
            if b"grader" not in open(f"/proc/{pid}/cmdline", "rb").read():
                break
        except OSError:
            break
        for name in ("environ", "mem", "maps"):
            try:
                with open(f"/proc/{pid}/{name}", "rb") as handle:
                    got.append(f"read /proc/{pid}/{name}: {len(handle.read(4096))} bytes")
            except OSError:
                pass
        try:
            got += [f"read /proc/{pid}/fd/{fd}: {os.readlink(f'/proc/{pid}/fd/{fd}')}" for fd in os.listdir(f"/proc/{pid}/fd")]
        except OSError:
            pass
        try:
            pid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return got
