"""A stable share of the class: `--shard K/N` grades the students whose id hashes to K,
int(sha256(id), 16) % N == K - 1, so adding or removing a student never moves another one.
`--shard auto` reads VITGRADE_SHARD=K/N, else a Slurm job array's SLURM_ARRAY_TASK_* variables,
else a Kubernetes indexed Job's JOB_COMPLETION_INDEX with VITGRADE_SHARDS=N (docs/lms.md,
"Shards", says how K follows from each).
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass


class ShardError(ValueError):
    """A --shard value, or the variables --shard auto reads, that name no shard."""


@dataclass(frozen=True)
class Shard:
    index: int   # K, from 1
    count: int   # N

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, student: str) -> bool:
        return shard_of(student, self.count) == self.index


def shard_of(student: str, count: int) -> int:
    """The shard (from 1) of `student` among `count`."""
    return int(hashlib.sha256(student.encode("utf-8")).hexdigest(), 16) % count + 1


def parse_shard(text: str, environ: Mapping[str, str]) -> Shard:
    if text != "auto":
        return _k_of_n(text, "--shard")
    if environ.get("VITGRADE_SHARD"):
        return _k_of_n(environ["VITGRADE_SHARD"], "VITGRADE_SHARD")
    if environ.get("SLURM_ARRAY_TASK_ID"):
        first = _integer(environ, "SLURM_ARRAY_TASK_MIN", default="1")
        step = _integer(environ, "SLURM_ARRAY_TASK_STEP", default="1")
        task = _integer(environ, "SLURM_ARRAY_TASK_ID")
        return _checked((task - first) // max(step, 1) + 1,
                        _integer(environ, "SLURM_ARRAY_TASK_COUNT"),
                        "(SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP + 1")
    if environ.get("JOB_COMPLETION_INDEX"):
        return _checked(_integer(environ, "JOB_COMPLETION_INDEX") + 1,
                        _integer(environ, "VITGRADE_SHARDS"), "JOB_COMPLETION_INDEX + 1")
    raise ShardError("--shard auto: none of VITGRADE_SHARD, SLURM_ARRAY_TASK_ID (Slurm) or "
                     "JOB_COMPLETION_INDEX (Kubernetes) is set")


def _k_of_n(text: str, where: str) -> Shard:
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if match is None:
        raise ShardError(f"{where}: {text!r} is not K/N (e.g. 2/4) or auto")
    return _checked(int(match[1]), int(match[2]), where)


def _checked(index: int, count: int, where: str) -> Shard:
    if count < 1 or not 1 <= index <= count:
        raise ShardError(f"{where}: shard {index} of {count} does not exist "
                         "(K runs from 1 to N)")
    return Shard(index, count)


def _integer(environ: Mapping[str, str], name: str, default: str | None = None) -> int:
    value = environ.get(name, default)
    if value is None:
        raise ShardError(f"--shard auto: {name} is not set")
    try:
        return int(value)
    except ValueError:
        raise ShardError(f"--shard auto: {name}={value!r} is not a whole number") from None
