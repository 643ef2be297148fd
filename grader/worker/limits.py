"""What a worker running student code may use: `Limits`, whose fields' defaults are the only
copy of the grader's defaults (settings.py's flags and resolver read them; no heavy import)."""
from __future__ import annotations

from dataclasses import dataclass

KB = 1000  # bytes in the kB of --output-kb and of a spec's `output_kb`


@dataclass(frozen=True)
class Limits:
    """All but `call_timeout` and `submission_timeout` are fixed when a worker starts: a call
    under other limits (`StudentWorker.use_limits`) gets a fresh worker."""

    call_timeout: float = 10.0  # seconds per call, wall clock (student_worker.py: then what)
    # Seconds for loading the submission. Top-level code is stopped after a third of it (a
    # statement, a notebook cell), two thirds in all, and the rest still runs; past all of it
    # the worker is killed and the submission is unloadable.
    load_timeout: float = 30.0
    memory_mb: int = 4096  # address space of the worker (RLIMIT_AS): past it, MemoryError
    output_kb: int = 64  # captured stdout+stderr kept per call/load
    max_processes: int = 64  # processes and threads at once (RLIMIT_NPROC): past it, fork fails
    file_mb: int = 64  # the largest file the worker may write, its output included (RLIMIT_FSIZE)
    # seconds for the whole submission (the session's deadline): inside the platforms' limits
    submission_timeout: float = 90.0
    # a function that did not return once gets this many seconds a call from then on, until
    # one such retry does not return either (then none), and no call more than 1/call_share
    # of the submission's time left (student_worker.py)
    retry_timeout: float = 1.0
    call_share: int = 8
    # paths the worker must not see, covered as root (grader/secret_paths.py, worker/hiding.py)
    hide: tuple[str, ...] = ()
    # the course's setup code (file name, source), run in the submission's namespace before it:
    # data the worker is given, never read from the exercises folder (checks/course_file.py)
    setup: tuple[str, str] | None = None

    @property
    def load_budget(self) -> tuple[float, float]:
        """Seconds for top-level code: per statement or cell, and in all (worker/top_level.py)."""
        return self.load_timeout / 3, self.load_timeout * 2 / 3

    @property
    def max_output_bytes(self) -> int:
        return self.output_kb * KB

    def fixed_at_start(self) -> tuple:
        """The limits a running worker cannot change."""
        return (self.load_timeout, self.memory_mb, self.output_kb, self.max_processes,
                self.file_mb, self.hide, self.setup)


DEFAULT_LIMITS = Limits()
