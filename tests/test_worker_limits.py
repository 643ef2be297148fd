"""A worker's limits: an exercise's own (`limits:` in its spec) while it is graded, the command
line's over them, a bad value named by its flag; and a reply forged on the worker's socket is at
most the student's own answer. (Moved from tests/test_hostile.py, whose attacks are graded in an
arena; these grade a probe in-process.)
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
AS_ROOT = os.geteuid() == 0

PROBE = '''
import os, resource, socket

def limits():
    return [resource.getrlimit(kind)[0]
            for kind in (resource.RLIMIT_AS, resource.RLIMIT_NPROC, resource.RLIMIT_FSIZE)]

def chatter():
    print("x" * 10_000)

def forge(number):
    """Write a reply numbered `number` on the worker's socket, then answer 2."""
    from grader.worker import channel
    conn = channel.Connection(socket.socket(fileno=os.dup(3)), send=channel.REPLY,
                              receive=channel.REQUEST)
    conn.send({"seq": number, "index": 0, "status": "ok", "value": 1, "stdout": "", "seconds": 0.0})
    return 2
'''


def limited_spec(tmp_path: Path, limits: str) -> Path:
    """flatten-length with a `limits:` mapping."""
    folder = tmp_path / "exercises"
    folder.mkdir()
    text = (ROOT / "exercises" / "flatten-length.yaml").read_text()
    (folder / "flatten-length.yaml").write_text(
        text.replace("uses: [patch_dim]", f"uses: [patch_dim]\nlimits: {limits}"))
    return folder / "flatten-length.yaml"


def probe_session(tmp_path: Path, exercises=(), **settings):
    from grader.session import GradingSession
    from grader.settings import GraderSettings

    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    return GradingSession(GraderSettings(student=probe, exercises=tmp_path / "exercises",
                                         **settings), list(exercises))


def test_an_exercises_limits_apply_while_it_is_graded(tmp_path):
    from grader import load_spec

    exercise = load_spec(limited_spec(
        tmp_path, "{memory_mb: 300, max_processes: 5, output_kb: 2, file_mb: 3}"))
    session = probe_session(tmp_path, [exercise])
    try:
        session.worker.use_limits(session.settings.limits(exercise))
        memory, processes, file_size = session.worker.call("limits").value
        assert (memory, file_size) == (300 * 2**20, 3 * 2**20)
        assert processes == 5 or not AS_ROOT  # not root: the user's other processes count too
        assert len(session.worker.call("chatter").stdout) < 2_200
    finally:
        session.close()


def test_the_command_line_wins_over_an_exercises_limits(tmp_path):
    from grader import load_spec

    exercise = load_spec(limited_spec(tmp_path, "{memory_mb: 300, file_mb: 3}"))
    session = probe_session(tmp_path, [exercise], memory_mb=400)
    try:
        limits = session.settings.limits(exercise)
        assert (limits.memory_mb, limits.file_mb, limits.max_processes) == (400, 3, 64)
    finally:
        session.close()


@pytest.mark.parametrize("flag, value", [("output_kb", "1000"), ("max_processes", "0"),
                                         ("file_mb", "big"), ("load_timeout", "-1")])
def test_a_bad_limit_on_the_command_line_names_its_flag(tmp_path, flag, value):
    from grader.settings import SettingsError, resolve_settings

    options = {"student": "x.py", "exercises": str(ROOT / "exercises"), flag: value}
    with pytest.raises(SettingsError, match="--" + flag.replace("_", "-")):
        resolve_settings(lambda name: options.get(name), tmp_path)


def test_a_forged_reply_is_at_most_the_students_own_answer_and_one_out_of_order_is_refused(
        tmp_path):
    from grader.worker import StudentWorker

    (tmp_path / "probe.py").write_text(PROBE)
    with StudentWorker(tmp_path / "probe.py") as worker:
        # request 1: the forged reply is the student's answer
        assert worker.call("forge", (1,)).value == 1
        late = worker.call("forge", (2,))  # the worker's own reply to request 1 comes first now
        assert late.status == "crashed" and "invalid answer" in late.message
        outcome = worker.call("forge", (99,))  # a fresh worker: a reply to no request
        assert outcome.status == "crashed" and "invalid answer" in outcome.message
