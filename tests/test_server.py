"""The warm grading server (grader/server/): served runs are the same runs, only faster.

Each test gets its own runtime folder, so its server is its own; servers are stopped at the end.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import EXERCISES, ROOT, SOLUTION, SUBMISSIONS

from grader.server import client, paths
from grader.spec import load_specs

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the server is Linux-only (SO_PEERCRED)")
HANG = SUBMISSIONS / "hostile" / "infinite_loop.py"


def full_marks() -> str:
    """The total line's 'N / N' of a full-marks run on the course's exercises."""
    exercises, _ = load_specs(EXERCISES)
    total = sum(e.points for e in exercises)
    return f"{total:g} / {total:g}"


@pytest.fixture
def server_env(tmp_path):
    """An environment whose `vitgrade grade` may use a server of its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("VITGRADE_SERVER", "CI")}
    env.update({paths.RUNTIME_VARIABLE: str(tmp_path / "runtime"), paths.IDLE_VARIABLE: "120"})
    yield env
    stop_servers(Path(env[paths.RUNTIME_VARIABLE]))


@pytest.fixture
def server(server_env):
    """A running server (prepared with the course's exercises); its Popen."""
    process = subprocess.Popen([sys.executable, "-m", "grader.server.daemon", "--warm", str(EXERCISES)],
                               env=server_env, cwd=ROOT, stderr=subprocess.PIPE, text=True)
    wait_for_socket(Path(server_env[paths.RUNTIME_VARIABLE]))
    yield process
    process.terminate()
    process.wait(timeout=10)


def vitgrade(env, *args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "grader.cli", *map(str, args)], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=120, check=False)


def wait_for_socket(runtime: Path, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not (runtime.is_dir() and any(p.suffix == ".sock" for p in runtime.iterdir())):
        assert time.monotonic() < deadline, "no server socket appeared"
        time.sleep(0.05)


def stop_servers(runtime: Path) -> None:
    log = runtime / "server.log"
    for pid in re.findall(r"\(pid (\d+)\)", log.read_text() if log.exists() else ""):
        try:
            os.kill(int(pid), 15)
        except OSError:
            pass


def served_commands(server) -> list[str]:
    """The commands the server logged as handed over, read after stopping it."""
    server.terminate()
    _, log = server.communicate(timeout=10)
    return [line.split("grading: ", 1)[1] for line in log.splitlines() if "grading: " in line]


def without_timing(text: str) -> str:
    return re.sub(r"in \d+\.\d+s", "in Xs", text)


def test_a_served_run_is_the_local_run(server, server_env, tmp_path):
    served = vitgrade(server_env, "grade", SOLUTION, "--json", tmp_path / "served.json")
    local = vitgrade({**server_env, "VITGRADE_SERVER": "0"}, "grade", SOLUTION, "--json", tmp_path / "local.json")
    assert served.returncode == local.returncode == 0
    assert without_timing(served.stdout) == without_timing(local.stdout).replace("local.json", "served.json")
    assert full_marks() in served.stdout
    results = [json.loads((tmp_path / f"{name}.json").read_text()) for name in ("served", "local")]
    for r in results:
        r.pop("execution_time")
        for test in r["tests"]:
            test.pop("execution_time", None)
    assert results[0] == results[1]
    assert served_commands(server) == [f"vitgrade grade {SOLUTION} --json {tmp_path / 'served.json'} (in {ROOT})"]


def test_relative_paths_errors_and_exit_codes_are_the_clients(server, server_env, tmp_path):
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "mine.py").write_text(SOLUTION.read_text().replace("return (H // P) * (W // P)",
                                                                           "return (H - P + 1) * (W - P + 1)"))
    buggy = vitgrade(server_env, "grade", "mine.py", "--exercises", EXERCISES, cwd=tmp_path / "work")
    missing = vitgrade(server_env, "grade", "nowhere.py", cwd=tmp_path / "work")
    local = vitgrade({**server_env, "VITGRADE_SERVER": "0"}, "grade", "nowhere.py", cwd=tmp_path / "work")
    assert buggy.returncode == 1 and "overlapping" in buggy.stdout.lower()
    assert missing.returncode == local.returncode == 2
    assert without_timing(missing.stdout + missing.stderr) == without_timing(local.stdout + local.stderr)
    assert len(served_commands(server)) == 2


def test_a_hostile_submission_cannot_hurt_the_server(server, server_env):
    hung = vitgrade(server_env, "grade", HANG, "--call-timeout", "1", "--exercises", EXERCISES)
    assert hung.returncode == 1 and "timed out after 1 s" in hung.stdout
    again = vitgrade(server_env, "grade", SOLUTION)
    assert again.returncode == 0 and full_marks() in again.stdout
    assert len(served_commands(server)) == 2  # both served, by one server that outlived the first


def test_a_stale_server_refuses_and_exits(server, server_env, monkeypatch):
    monkeypatch.setattr(os, "environ", {**server_env})
    monkeypatch.setattr(paths, "fingerprint", lambda: "code that changed since the server started")
    assert client.served(["grade", str(SOLUTION)]) is None  # the command then runs locally
    assert server.wait(timeout=10) == 0


def test_a_client_needing_another_sandbox_is_not_served(server, server_env, monkeypatch):
    monkeypatch.setattr(os, "environ", {**server_env, "VITGRADE_SANDBOX": "bwrap --unshare-all --"})
    assert client.served(["grade", str(SOLUTION)]) is None  # its workers must start in that sandbox
    assert server.wait(timeout=10) == 0


def test_a_local_run_leaves_a_server_that_serves_the_next(server_env):
    runtime = Path(server_env[paths.RUNTIME_VARIABLE])
    script = vitgrade(server_env, "grade", SOLUTION, "-q")  # no terminal: a script's run leaves nothing
    assert script.returncode == 0 and not (runtime / "server.log").exists()
    first = vitgrade({**server_env, "VITGRADE_SERVER": "1"}, "grade", SOLUTION, "-q")  # as at a terminal
    assert first.returncode == 0
    wait_for_socket(runtime)
    second = vitgrade(server_env, "grade", SOLUTION, "-q")
    assert second.returncode == 0 and full_marks() in second.stdout
    assert "grading: vitgrade grade" in (runtime / "server.log").read_text()
    assert oct(runtime.stat().st_mode & 0o777) == "0o700"


def test_an_idle_server_exits(server_env):
    server_env[paths.IDLE_VARIABLE] = "0.5"
    process = subprocess.Popen([sys.executable, "-m", "grader.server.daemon"], env=server_env, cwd=ROOT)
    assert process.wait(timeout=60) == 0
    assert not list(Path(server_env[paths.RUNTIME_VARIABLE]).glob("*.sock"))


def test_no_server_without_a_private_runtime_folder(server_env, monkeypatch):
    runtime = Path(server_env[paths.RUNTIME_VARIABLE])
    runtime.mkdir(mode=0o755)
    runtime.chmod(0o755)
    monkeypatch.setattr(os, "environ", server_env)
    with pytest.raises(ValueError, match="not a private folder"):
        paths.socket_path(server_env)
    assert client.served(["grade", str(SOLUTION)]) is None


def test_only_a_terminal_or_an_explicit_request_starts_a_server():
    assert paths.should_start({}, interactive=True)
    assert paths.should_start({"VITGRADE_SERVER": "1"}, interactive=False)
    assert not paths.should_start({}, interactive=False)


@pytest.mark.parametrize("argv, environ, wanted", [
    (["grade", "a.py"], {}, True),
    (["grade", "a.py", "--json", "out.json"], {}, True),
    (["grade", "a.py"], {"CI": "true"}, False),
    (["grade", "a.py"], {"VITGRADE_SERVER": "0"}, False),
    (["grade", "a.py", "--gradescope"], {}, False),
    (["grade", "a.py", "--prairielearn=out.json"], {}, False),
    (["grade", "a.py", "--classroom"], {}, False),
    (["grade", "--help"], {}, False),
    (["validate"], {}, False),
    ([], {}, False),
])
def test_when_the_server_is_used(argv, environ, wanted):
    assert paths.wanted(argv, environ) is wanted


def test_ctrl_c_reaches_the_served_run_as_it_would_a_local_one(server, server_env):
    command = [sys.executable, "-m", "grader.cli", "grade", str(HANG), "--call-timeout", "60", "--exercises", str(EXERCISES)]
    process = subprocess.Popen(command, env=server_env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    time.sleep(4)  # grading, stuck in the infinite loop
    process.send_signal(2)
    output, _ = process.communicate(timeout=30)
    assert process.returncode == 2, output
    assert "KeyboardInterrupt" in output
    assert len(served_commands(server)) == 1


def test_files_a_served_run_writes_follow_the_clients_umask(server, server_env, tmp_path):
    command = [sys.executable, "-m", "grader.cli", "grade", str(SOLUTION), "-q",
               "--junitxml", str(tmp_path / "r.xml")]
    done = subprocess.run(command, env=server_env, cwd=ROOT, capture_output=True, text=True,
                          timeout=120, umask=0o077, check=False)
    assert done.returncode == 0
    assert oct((tmp_path / "r.xml").stat().st_mode & 0o777) == "0o600"  # pytest's own writer: plain open()
    assert len(served_commands(server)) == 1
