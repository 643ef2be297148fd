"""`vitgrade watch`: a table at start, a new one after each save, Ctrl-C ends it and all it
started."""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from conftest import EXERCISES, SOLUTION


def reader(process: subprocess.Popen) -> queue.Queue:
    """The process's output lines, as they come (None at its end)."""
    lines: queue.Queue = queue.Queue()

    def pump():
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return lines


def read_until(lines: queue.Queue, text: str, seconds: float = 60.0) -> str:
    """What was printed up to and including the line holding `text`."""
    seen, deadline = "", time.monotonic() + seconds
    while text not in seen:
        line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        assert line is not None, f"the watcher ended early:\n{seen}"
        seen += line
    return seen


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for entry in Path("/proc").iterdir():
            try:
                if (entry.name.isdigit()
                        and (entry / "stat").read_text().split(") ")[1].split()[1] == str(parent)):
                    found.append(int(entry.name))
                    todo.append(int(entry.name))
            except (OSError, IndexError):
                continue
    return found


def watching(tmp_path: Path):
    """(the watcher of a copy of the solution, its output lines, the copy)."""
    submission = tmp_path / "vit_exercises.py"
    shutil.copy(SOLUTION, submission)
    process = subprocess.Popen(
        [sys.executable, "-m", "grader.cli", "watch", str(submission), "--exercises",
         str(EXERCISES), "-q"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path,
    )
    return process, reader(process), submission


def helpers_gone(pids: list[int], seconds: float = 30) -> bool:
    """Whether none of `pids` runs (a zombie does not) within `seconds`, a deadline that only
    waits: they go with the watcher, each on its own time."""
    def running(pid: int) -> bool:
        try:
            return (Path(f"/proc/{pid}") / "stat").read_text().split(") ")[1][:1] != "Z"
        except (FileNotFoundError, ProcessLookupError):
            return False

    deadline = time.monotonic() + seconds
    while any(running(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_watch_regrades_on_save_and_stops_on_ctrl_c(tmp_path):
    process, lines, submission = watching(tmp_path)
    try:
        first = read_until(lines, "Ctrl-C to stop")
        assert "109 / 109" in first or "(100%)" in first
        helpers = descendants(process.pid)
        assert helpers  # the zygote it keeps warm
        text = submission.read_text().replace("return (H // P) * (W // P)",
                                              "return (H // P) * (W // P) + 1")
        time.sleep(0.05)
        submission.write_text(text)  # a save
        second = read_until(lines, "Ctrl-C to stop")
        assert "patch-count" in second and "(100%)" not in second
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=20) == 0
        assert helpers_gone(helpers), helpers
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()


def test_watch_ends_without_a_traceback_however_often_ctrl_c_is_pressed(tmp_path):
    process, lines, _ = watching(tmp_path)
    try:
        read_until(lines, "Ctrl-C to stop")
        deadline = time.monotonic() + 20
        while process.poll() is None and time.monotonic() < deadline:  # ^C again until it ends
            process.send_signal(signal.SIGINT)
            time.sleep(0.005)
        assert process.wait(timeout=20) == 0
        rest = "".join(iter(lines.get, None))
        assert "Traceback" not in rest and "KeyboardInterrupt" not in rest, rest
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()


def test_watch_wakes_at_the_save_itself_not_at_its_next_look(tmp_path, monkeypatch):
    """With inotify, the wait ends at the save: were it a poll or the safety look (here set to
    10 minutes), the thread would still be waiting when the join gives up."""
    from grader.commands import watch

    monkeypatch.setattr(watch, "CHECK_SECONDS", 600.0)
    wait = watch._changes([tmp_path])
    waiter = threading.Thread(target=wait, daemon=True)
    waiter.start()
    time.sleep(0.2)
    (tmp_path / "saved.py").write_text("x = 1\n")
    waiter.join(timeout=60)
    assert not waiter.is_alive(), "the save did not end the wait"


def test_watch_polls_where_inotify_is_missing(tmp_path, monkeypatch):
    from grader.commands import watch

    monkeypatch.setitem(sys.modules, "inotify_simple", None)  # its import fails
    monkeypatch.setattr(watch, "POLL_SECONDS", 0.01)
    slept = []
    monkeypatch.setattr(watch.time, "sleep", slept.append)
    watch._changes([tmp_path])()
    assert slept == [0.01]
