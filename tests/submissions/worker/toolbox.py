"""A submission that exercises the worker: data of every kind, and every way to misbehave."""
import ctypes
import os
import sys

import numpy as np

ANSWERS = {"positions": "permutation", "medical": "pretrained"}
NOT_A_FUNCTION = 3


def echo(x):
    return x


def count_patches(H, W, P):
    return np.int64((H // P) * (W // P))


def half():
    return np.float32(2.5)


def shapes():
    return (2, 3), [2, 3]


def special_floats():
    return [float("nan"), float("inf"), -float("inf"), np.float64("nan")]


def double(image):
    image *= 2  # arrays arrive writeable
    return image


def check_input(image):
    if image.ndim != 3:
        raise ValueError(f"expected (H, W, C), got shape {image.shape}")
    return image.shape


def patchify(image, P):
    return check_input(image.reshape(-1))


def spin():
    while True:
        pass


def die():
    os._exit(3)


def segfault():
    return ctypes.string_at(0)


def leave():
    sys.exit(2)


def interrupt():
    raise KeyboardInterrupt


def chatter(n):
    print("x" * n)
    return "done"


def say(text):
    print(text)
    return len(text)


class Tagged(np.ndarray):
    pass


def tagged():
    return np.arange(6.0).view(Tagged)


class Agreeable:
    def __eq__(self, other):
        return True


def agreeable():
    return Agreeable()


def object_array():
    return np.array([1, "two", None], dtype=object)


def surroundings():
    return os.getcwd(), sorted(os.listdir(".")), dict(os.environ)


def loaded_modules():
    return sorted(sys.modules)


def pid():
    return identity("self")


def identity(pid):
    """A process's PID namespace, pid there and start time: as root the worker is pid 1 of a
    namespace of its own, and the tests look for it among the host's processes
    (test_worker.alive, process_table.identity)."""
    start = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[19]
    inner = open(f"/proc/{pid}/status").read().split("NSpid:")[1].split("\n")[0].split()[-1]
    return f"{os.stat(f'/proc/{pid}/ns/pid').st_ino}:{inner}:{start}"


def start_sleeper():
    import subprocess
    import time

    sleeper = subprocess.Popen(["sleep", "60"]).pid
    for _ in range(1000):  # its /proc entry is readable (hidepid) once it exec'd: dumpable again
        try:
            return identity(sleeper)
        except OSError:
            time.sleep(0.002)
    return identity(sleeper)


def hog(n_bytes):
    return np.ones(n_bytes // 8).sum()


def nested(depth):
    value = []
    for _ in range(depth):
        value = [value]
    return value


def mixed():
    return [np.zeros(2), Agreeable(), {"ok": 1}]
