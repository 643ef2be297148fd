"""System V IPC of the worker's own (issue 35, item 1): as root with namespaces, what a submission
creates through shmget/msgget dies with its worker's IPC namespace, so nothing stays pinned on
the host and a later student's worker cannot read it; where unshare(CLONE_NEWIPC) is refused,
the file system view and the network namespace stay and --verbose says what is shared.

Started inside a session keyring holding a secret, the worker joins a new one before student code
runs (issue 35, item 5).
"""
from __future__ import annotations

import contextlib
import ctypes
import errno
import json
import os
import platform
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from grader.hiding_note import VIEW, hiding_note
from grader.worker import hiding, linux
from grader.worker.outcomes import Hiding

ROOT = Path(__file__).resolve().parents[1]
AS_ROOT = os.geteuid() == 0
LINUX = sys.platform.startswith("linux")
# the same condition as tests/test_hiding.py's: namespaces are the grader's as root on Linux
needs_root = pytest.mark.skipif(not (AS_ROOT and LINUX),
                                reason="the worker's namespaces need root on Linux")
VITGRADE = Path(sys.executable).with_name("vitgrade")  # the console script, as users run it
COMMAND = [str(VITGRADE)] if VITGRADE.is_file() else [sys.executable, "-m", "grader.cli"]
IPC_CREAT = 0o1000

# Each leaves what it made or found in its folder's scratch/ (the worker's user may write there).
LEAVER = '''
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
KEY, MARKER = {key}, {marker!r}
segment = libc.shmget(KEY, 4096, {creat} | 0o666)
if segment >= 0:
    address = libc.shmat(segment, None, 0)
    ctypes.memmove(address, MARKER.encode(), len(MARKER))  # attached, never removed
queue = libc.msgget(KEY, {creat} | 0o666)
with open(os.path.join(os.path.dirname(__file__), "scratch", "leaver"), "a") as out:
    out.write(f"{{os.getuid()}} {{segment}} {{queue}}\\n")
'''
READER = '''
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
KEY = {key}
found = {{}}
segment = libc.shmget(KEY, 0, 0)
if segment < 0:
    found["shm"] = f"errno {{ctypes.get_errno()}}"
else:
    address = libc.shmat(segment, None, 0o10000)  # SHM_RDONLY
    found["shm"] = "read " + ctypes.string_at(address, 40).decode(errors="replace")
queue = libc.msgget(KEY, 0)
found["msg"] = f"errno {{ctypes.get_errno()}}" if queue < 0 else f"queue {{queue}}"
with open(os.path.join(os.path.dirname(__file__), "scratch", "reader"), "a") as out:
    out.write(repr(found) + "\\n")
'''


def sysvipc(kind: str) -> list[dict[str, int]]:
    """The host's /proc/sysvipc/<kind> (shm, msg): each entry's key and owner uid."""
    lines = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()
    names = lines[0].split()
    return [{name: int(value) for name, value in zip(names, line.split(), strict=False)
             if name in ("key", "uid")} for line in lines[1:]]


def remove_key(key: int) -> None:
    """Remove what the leaver left on the host (today's code leaves it)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if (segment := libc.shmget(key, 0, 0)) >= 0:
        libc.shmctl(segment, 0, None)  # IPC_RMID
    if (queue := libc.msgget(key, 0)) >= 0:
        libc.msgctl(queue, 0, None)


@needs_root
@pytest.mark.parametrize("namespaces", [True, False], ids=["namespaces", "fallback"])
def test_ipc_a_submission_made_dies_with_its_worker_and_reaches_no_later_student(namespaces):
    """With an IPC namespace of its own, what the worker made dies with it; without one
    (VITGRADE_NO_NAMESPACES=1) student code cannot make any (EPERM): either way nothing stays on
    the host and a later student's worker finds nothing."""
    key = 0x76000000 + secrets.randbelow(2**24)
    marker = f"vitgrade-ipc-{key}"
    base = Path(tempfile.mkdtemp(prefix="vitgrade-ipc-"))
    try:
        submissions = base / "submissions"
        (submissions / "scratch").mkdir(parents=True)
        (submissions / "leaver.py").write_text(LEAVER.format(key=key, marker=marker,
                                                             creat=IPC_CREAT))
        (submissions / "reader.py").write_text(READER.format(key=key))
        for folder in (base, submissions):
            folder.chmod(0o755)
        (submissions / "scratch").chmod(0o777)
        before = {kind: sysvipc(kind) for kind in ("shm", "msg")}
        assert not [entry for kind in before for entry in before[kind] if entry["key"] == key]
        printed, env = {}, {**os.environ, hiding.NO_NAMESPACES: str(int(not namespaces))}
        for name in ("leaver", "reader"):  # one after the other, as grade-all's students
            done = subprocess.run([*COMMAND, "grade", str(submissions / f"{name}.py"),
                                   "--exercises", str(ROOT / "exercises"), "--verbose",
                                   "--json", str(base / f"{name}.json"), "--load-timeout", "10"],
                                  env=env, cwd=base, capture_output=True, text=True, timeout=300)
            printed[name] = done.stdout + done.stderr
            assert (base / f"{name}.json").is_file(), printed[name][-3000:]
        made = (submissions / "scratch" / "leaver").read_text().split()
        assert made and (int(made[1]) >= 0 and int(made[2]) >= 0) == namespaces, made
        worker_uids = {int(uid) for uid in made[::3]}
        after = {kind: sysvipc(kind) for kind in ("shm", "msg")}
        for kind, entries in after.items():
            left = [entry for entry in entries
                    if entry["key"] == key or entry["uid"] in worker_uids]
            assert left == [], f"{kind} left on the host: {left}"
        found = [eval(line) for line in  # noqa: S307 (our own repr of a dict of strings)
                 (submissions / "scratch" / "reader").read_text().splitlines()]
        assert found, printed["reader"][-3000:]
        unknown = f"errno {errno.ENOENT if namespaces else errno.EPERM}"
        assert all(one == {"shm": unknown, "msg": unknown} for one in found), found
        if not namespaces:
            assert hiding.IPC_REFUSED in printed["leaver"], printed["leaver"][-3000:]
            return
        note = [line for line in printed["leaver"].splitlines() if line.startswith(VIEW)]
        assert len(note) == 1 and "are the host's" not in note[0], printed["leaver"][-3000:]
        assert "its own processes, System V IPC, host name, session keyring" in note[0], note
    finally:
        remove_key(key)
        shutil.rmtree(base, ignore_errors=True)


@needs_root
def test_refused_ipc_namespace_keeps_the_view_and_says_so(tmp_path):
    """unshare(CLONE_NEWIPC | CLONE_NEWUTS) refused (EPERM) where mount and network succeed: the
    view and the network namespace stay, and the --verbose line says IPC is the host's."""
    workdir = tmp_path / "work"
    workdir.mkdir()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # hide() chroots: in a child of its own
        try:
            real = linux.unshare

            def refusing(flags: int) -> None:
                if flags & linux.CLONE_NEWIPC:
                    raise OSError(errno.EPERM, os.strerror(errno.EPERM))
                real(flags)

            linux.unshare = refusing
            report = hiding.hide([], [str(workdir), str(tmp_path)])
            devices = Path("/proc/self/net/dev").read_text().splitlines()[2:]
            report["net"] = sorted(line.split(":")[0].strip() for line in devices)
            os.write(write, json.dumps(report).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        report = json.loads(pipe.read() or "{}")
    os.waitpid(pid, 0)
    assert report.get("mechanism") == "view", report
    assert report["net"] == ["lo"], report  # the network namespace of its own stayed
    note = hiding_note(Hiding(**{key: tuple(value) if type(value) is list else value
                                 for key, value in report.items() if key != "net"}))
    assert note.startswith(f"{VIEW}: ") and "System V IPC and the host name are the host's" in note
    assert "Operation not permitted" in note, note


# Looks for the grader's key in every keyring it can reach, and plants one of its own.
KEY_THIEF = '''
import ctypes, os, re
libc = ctypes.CDLL(None, use_errno=True)
KEYCTL, ADD_KEY, SESSION = {keyctl}, {add_key}, -3
found = []
try:
    found.append(open("/proc/keys").read())
except OSError as exc:
    found.append(str(exc))
serials = [int(s, 16) for s in re.findall(r"^([0-9a-f]+) ", found[0], re.M)]
for keyring in (SESSION, -4, -5, -2, -1):  # session, user, user session, process, thread
    serial = libc.syscall(KEYCTL, 10, keyring, b"user", b"{name}", 0)  # KEYCTL_SEARCH
    if serial > 0:
        serials.append(serial)
for serial in serials:
    buffer = ctypes.create_string_buffer(4096)
    size = libc.syscall(KEYCTL, 11, serial, buffer, 4096)  # KEYCTL_READ
    if size > 0:
        found.append(buffer.raw[:size].decode(errors="replace"))
planted = libc.syscall(ADD_KEY, b"user", b"planted", b"by the student", 14, SESSION)
found.append(f"planted {{planted}}")
FOUND = " | ".join(found)

def patch_dim(*args, **kwargs):
    raise RuntimeError(FOUND)
'''
# Runs the grade inside a session keyring of its own that holds the secret, then lists that
# keyring: the grader's, as a CI runner's or sudo's would be.
IN_A_KEYRING = '''
import ctypes, json, subprocess, sys
libc = ctypes.CDLL(None, use_errno=True)
KEYCTL, ADD_KEY, SESSION = {keyctl}, {add_key}, -3
assert libc.syscall(KEYCTL, 1, b"vitgrade-test-session") > 0  # KEYCTL_JOIN_SESSION_KEYRING
assert libc.syscall(ADD_KEY, b"user", b"{name}", b"{secret}", {size}, SESSION) > 0
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
buffer = ctypes.create_string_buffer(4096)
size = libc.syscall(KEYCTL, 11, SESSION, buffer, 4096)  # the keyring's keys: 4 bytes each
print(json.dumps({{"keys": size // 4, "out": done.stdout + done.stderr}}))
'''
# keyctl(2)'s and add_key(2)'s numbers (glibc wraps neither)
KEY_CALLS = {"x86_64": (250, 248), "i386": (288, 286), "i686": (288, 286),
             "aarch64": (219, 217), "riscv64": (219, 217)}


@pytest.mark.skipif(not LINUX or platform.machine() not in KEY_CALLS,
                    reason="keyctl(2) is Linux's (numbers known here for a few machines)")
@pytest.mark.parametrize("namespaces", [True, False], ids=["namespaces", "fallback"])
def test_the_graders_session_keyring_is_out_of_student_codes_reach(tmp_path, namespaces):
    """Started inside a session keyring that holds a secret (issue 35, item 5), the worker joins
    a new one before student code runs: the submission neither reads the secret into its
    feedback nor adds a key to the grader's keyring."""
    name, secret = "vitgrade-secret", f"s3cret-{secrets.token_hex(8)}"
    numbers = dict(zip(("keyctl", "add_key"), KEY_CALLS[platform.machine()], strict=True))
    submission = tmp_path / "thief.py"
    submission.write_text(KEY_THIEF.format(name=name, **numbers))
    tmp_path.chmod(0o755)
    out = tmp_path / "results.json"
    script = IN_A_KEYRING.format(name=name, secret=secret, size=len(secret), **numbers)
    done = subprocess.run([sys.executable, "-c", script, *COMMAND, "grade", str(submission),
                           "--exercises", str(ROOT / "exercises"), "--json", str(out)],
                          env={**os.environ, hiding.NO_NAMESPACES: str(int(not namespaces))},
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout)
    results = out.read_text()
    assert "patch_dim" in results and "planted" in seen["out"] + results, seen["out"][-3000:]
    assert secret not in results and secret not in seen["out"]
    assert seen["keys"] == 1  # the secret alone: nothing planted


# Lists every process its /proc shows, with its command line.
PROCESS_LISTER = '''
import os
seen = [f"self {os.getpid()}"]
for name in sorted(os.listdir("/proc")):
    if name.isdigit():
        try:
            line = open(f"/proc/{name}/cmdline", "rb").read().replace(b"\\0", b" ")
            seen.append(f"{name} {line.decode(errors='replace')}")
        except OSError as exc:
            seen.append(f"{name} {exc}")
with open(os.path.join(os.path.dirname(__file__), "scratch", "seen"), "a") as out:
    out.write("\\n".join(seen) + "\\n")
'''


@needs_root
def test_student_code_sees_no_process_but_its_own(tmp_path):
    """A PID namespace and a /proc of the worker's own (issue 35, item 7): other gradings' command
    lines (their submission and results paths) and the grader's own are not listed, only the
    worker, which is pid 1 there."""
    marker = f"vitgrade-bystander-{secrets.token_hex(6)}"
    bystander = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", marker])
    try:
        (tmp_path / "scratch").mkdir()
        (tmp_path / "scratch").chmod(0o777)
        tmp_path.chmod(0o755)
        (tmp_path / "lister.py").write_text(PROCESS_LISTER)
        out = tmp_path / f"results-{marker}.json"
        done = subprocess.run([*COMMAND, "grade", str(tmp_path / "lister.py"), "--verbose",
                               "--exercises", str(ROOT / "exercises"), "--json", str(out)],
                              cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert out.is_file(), (done.stdout + done.stderr)[-3000:]
    finally:
        bystander.kill()
        bystander.wait()
    seen = (tmp_path / "scratch" / "seen").read_text().splitlines()
    assert seen[0] == "self 1"  # pid 1 of a PID namespace of its own: all it starts dies with it
    assert "1 " in {line[:2] for line in seen[1:]}, seen  # it lists itself
    assert not [line for line in seen if marker in line or "grader.cli" in line], seen
    assert "among the host's" not in done.stdout


# Makes eight 64 MB shared memory segments, never attached (so RLIMIT_AS does not count them), a
# message queue and a semaphore set; writes how many MB it got and each call's errno.
SHM_PINNER = '''
import ctypes, json, os
libc = ctypes.CDLL(None, use_errno=True)
made, errors = 0, []
for _ in range(8):
    if libc.shmget(0, 64 << 20, 0o1000 | 0o600) >= 0:  # IPC_PRIVATE, IPC_CREAT
        made += 64
    else:
        errors.append(ctypes.get_errno())
for result in (libc.msgget(0, 0o1000 | 0o600), libc.semget(0, 1, 0o1000 | 0o600)):
    errors.append(ctypes.get_errno() if result < 0 else 0)
with open(os.path.join(os.path.dirname(__file__), "scratch", "made"), "w") as out:
    json.dump({"made": made, "errors": errors, "uid": os.getuid()}, out)
'''


@needs_root
@pytest.mark.parametrize("namespaces", [True, False], ids=["namespaces", "fallback"])
def test_shared_memory_is_bounded_by_the_memory_limit(namespaces):
    """In the worker's IPC namespace shared memory holds at most --memory-mb in all: a segment
    made and never attached, which the address-space limit does not see, pins no more. Without
    one (VITGRADE_NO_NAMESPACES=1), where the host's shmall was the only bound (512 MB pinned
    under --memory-mb 256), System V IPC is refused (EPERM) and --verbose says so."""
    tmp_path = Path(tempfile.mkdtemp(prefix="vitgrade-ipc-"))  # its user must reach it: no view
    try:
        (tmp_path / "scratch").mkdir()
        (tmp_path / "scratch").chmod(0o777)
        tmp_path.chmod(0o755)
        (tmp_path / "pinner.py").write_text(SHM_PINNER)
        env = {**os.environ, hiding.NO_NAMESPACES: "0" if namespaces else "1"}
        done = subprocess.run([*COMMAND, "grade", str(tmp_path / "pinner.py"), "--memory-mb",
                               "256", "--verbose", "--exercises", str(ROOT / "exercises"),
                               "--json", str(tmp_path / "out.json")],
                              env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        printed = done.stdout + done.stderr
        seen = json.loads((tmp_path / "scratch" / "made").read_text())
        left = [entry for kind in ("shm", "msg") for entry in sysvipc(kind)
                if entry["uid"] == seen["uid"]]
        assert left == [], left
        if namespaces:
            assert 0 < seen["made"] <= 256, (seen, printed[-2000:])
        else:
            assert seen == {"made": 0, "errors": [errno.EPERM] * 10, "uid": seen["uid"]}, seen
            assert hiding.IPC_REFUSED in printed, printed[-2000:]
    finally:
        shutil.rmtree(tmp_path, ignore_errors=True)


def test_the_seccomp_filter_refuses_system_v_ipc_and_nothing_else():
    """linux.deny_sysv_ipc, in a child: shmget, msgget, semget fail with EPERM; files, numpy and
    fork still work."""
    if linux.SYSV_IPC_CALLS is None or not LINUX:
        pytest.skip("the filter knows System V IPC's calls on x86_64 and aarch64 only")

    def body() -> dict:
        libc = ctypes.CDLL(None, use_errno=True)
        linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)
        linux.deny_sysv_ipc()
        errors = []
        for result in (libc.shmget(0, 4096, IPC_CREAT | 0o600), libc.msgget(0, IPC_CREAT | 0o600),
                       libc.semget(0, 1, IPC_CREAT | 0o600)):
            errors.append(ctypes.get_errno() if result < 0 else 0)
        child = os.fork()
        if child == 0:
            os._exit(7)
        import numpy
        return {"errors": errors, "child": os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]),
                "sum": float(numpy.arange(4).sum()), "read": len(Path(__file__).read_text()) > 0}

    assert _child_report(os.fork, body) == {"errors": [errno.EPERM] * 3, "child": 7,
                                           "sum": 6.0, "read": True}


def _leave_ipc_as(uid: int, key: int, stay: bool) -> int:
    """A child that becomes `uid` and makes a segment and a queue of `key`; it exits, or with
    `stay` sleeps until killed -> its pid."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            libc = ctypes.CDLL(None, use_errno=True)
            made = libc.shmget(key, 4096, IPC_CREAT | 0o600) >= 0
            made &= libc.msgget(key, IPC_CREAT | 0o600) >= 0
            os.write(write, b"1" if made else b"0")
            if stay:
                signal.pause()
        finally:
            os._exit(0)
    os.close(write)
    made = os.read(read, 1)  # not until EOF: a child that stays keeps its end open
    os.close(read)
    assert made == b"1"
    if not stay:
        os.waitpid(pid, 0)
    return pid


@needs_root
def test_what_a_killed_zygotes_workers_left_is_removed_at_the_next_start(tmp_path):
    """Without namespaces and without the seccomp filter (a kernel that refuses it), a worker's
    user may leave System V IPC objects; a zygote SIGKILLed before it reaped that worker removes
    nothing. The next grading's zygote removes what workers' users with no process left made,
    and leaves a live worker's alone."""
    from grader.worker import sandbox, zygote

    base = sandbox.WORKER_UID_BASE + secrets.randbelow(sandbox.WORKER_UIDS - 2)
    gone_key, live_key = (0x78000000 + secrets.randbelow(2**24) for _ in range(2))
    _leave_ipc_as(base, gone_key, stay=False)
    live = _leave_ipc_as(base + 1, live_key, stay=True)
    try:
        assert {e["uid"] for e in sysvipc("shm") if e["key"] in (gone_key, live_key)} == {
            base, base + 1}
        done = subprocess.run([*COMMAND, "grade", str(ROOT / "solutions" / "vit_exercises.py"),
                               "--exercises", str(ROOT / "exercises"),
                               "--json", str(tmp_path / "out.json")],
                              cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert (tmp_path / "out.json").is_file(), (done.stdout + done.stderr)[-2000:]
        for kind in ("shm", "msg"):
            keys = {entry["key"] for entry in sysvipc(kind)}
            assert gone_key not in keys and live_key in keys, kind
        os.kill(live, signal.SIGKILL)
        os.waitpid(live, 0)
        assert zygote.remove_ipc_of_gone_workers() >= 2  # its segment and its queue
        for kind in ("shm", "msg"):
            assert live_key not in {entry["key"] for entry in sysvipc(kind)}, kind
    finally:
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(live, signal.SIGKILL)
            os.waitpid(live, 0)
        remove_key(gone_key)
        remove_key(live_key)


def _child_report(fork, body) -> dict:
    """Fork with `fork`; the child runs `body()` -> the dict it returned (as JSON)."""
    read, write = os.pipe()
    pid = fork()
    if pid == 0:
        try:
            os.close(read)
            os.write(write, json.dumps(body()).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        report = json.loads(pipe.read() or "{}")
    os.waitpid(pid, 0)
    return report


@needs_root
def test_the_zygotes_fork_makes_each_worker_pid_1_and_comes_back_to_its_own_namespace():
    """hiding.fork: the child is pid 1 of a new PID namespace; this process's next children are
    born in its own namespace again, each fork a namespace of its own."""
    own = os.stat("/proc/self/ns/pid").st_ino

    def where() -> dict:
        return {"pid": os.getpid(), "ns": os.stat("/proc/self/ns/pid").st_ino}

    first, second = (_child_report(hiding.fork, where) for _ in range(2))
    plain = _child_report(os.fork, where)
    assert first["pid"] == second["pid"] == 1
    assert len({first["ns"], second["ns"], own}) == 3
    assert plain["ns"] == own and plain["pid"] != 1
    assert os.stat("/proc/self/ns/pid_for_children").st_ino == own


@needs_root
def test_a_refused_pid_namespace_keeps_the_view_and_says_so(tmp_path):
    """unshare(CLONE_NEWPID) refused: the worker is forked all the same, in the host's PID
    namespace, its /proc still lists only its user's processes, and --verbose says so."""
    workdir = tmp_path / "work"
    workdir.mkdir()
    real = linux.unshare

    def refusing(flags: int) -> None:
        if flags & linux.CLONE_NEWPID:
            raise OSError(errno.EPERM, os.strerror(errno.EPERM))
        real(flags)

    def hide() -> dict:
        report = hiding.hide([], [str(workdir), str(tmp_path)])
        return {**report, "pid": os.getpid()}

    linux.unshare = refusing
    try:
        report = _child_report(hiding.fork, hide)
    finally:
        linux.unshare = real
    assert report.get("mechanism") == "view" and report["pid"] != 1, report
    note = hiding_note(Hiding(**{key: tuple(value) if type(value) is list else value
                                 for key, value in report.items() if key != "pid"}))
    assert "its processes have the host's ids (no PID namespace)" in note, note
    assert "its own System V IPC, host name, session keyring" in note, note
