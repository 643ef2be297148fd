"""A one-node Slurm cluster of this machine, for tests/test_engines.py: munged, slurmctld and
slurmd from Debian's packages (`slurmctld slurmd slurm-client munge`, which .ci/run installs),
started in the foreground in a temporary folder and stopped by pid.

Its own munge key and socket, its own ports (free ones, on 127.0.0.1), its own state, spool and
logs: nothing of the machine's configuration is read or changed, and the daemons never outlive
`stop()`. It runs as root (SlurmUser=root; munged as the user munge, through runuser): jobs then
run as root too, as the submitting user. Finished jobs are logged to `jobcomp.log`
(jobcomp/filetxt), so a job's end state can be read after slurmctld has forgotten it.
"""
from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

DAEMONS = ("munged", "mungekey", "runuser", "slurmctld", "slurmd", "sbatch", "squeue",
           "scancel", "sinfo")
# MinJobAge=16: `sbatch --wait` polls every 8 s (it sleeps 2 s, then 4x longer while that is
# under MinJobAge / 2, up to 32 s), and a finished task's record stays 16 s, so it is seen.
CONF = """\
ClusterName=vitgrade-test
SlurmctldHost={node}(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={munge_socket}
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
JobCompType=jobcomp/filetxt
JobCompLoc={folder}/jobcomp.log
MinJobAge=16
StateSaveLocation={folder}/state
SlurmdSpoolDir={folder}/spool
SlurmctldPidFile={folder}/slurmctld.pid
SlurmdPidFile={folder}/slurmd.pid
SlurmctldLogFile={folder}/slurmctld.log
SlurmdLogFile={folder}/slurmd.log
ReturnToService=2
NodeName={node} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=test Nodes={node} Default=YES MaxTime=30 State=UP
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(ready: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {seconds:.0f} s")
        time.sleep(0.25)


class SlurmCluster:
    def __init__(self, folder: Path):
        self.folder = folder
        self.conf = folder / "slurm.conf"
        self.jobcomp = folder / "jobcomp.log"
        self.node = socket.gethostname().split(".")[0]
        self.munge_dir: Path | None = None
        self.processes: list[tuple[str, subprocess.Popen]] = []
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("SLURM_", "SBATCH_", "SQUEUE_", "VITGRADE_"))}
        self.env["SLURM_CONF"] = str(self.conf)
        # the jobs run `vitgrade`: this environment's
        self.env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{self.env.get('PATH', '')}"

    def start(self) -> None:
        # munged (user munge) must reach its folder: not under pytest's root-only tmp folders
        self.munge_dir = Path(tempfile.mkdtemp(prefix="vitgrade-munge-"))
        munge = pwd.getpwnam("munge")
        os.chown(self.munge_dir, munge.pw_uid, munge.pw_gid)
        self.munge_dir.chmod(0o755)  # the socket's folder must be searchable by everyone
        key, munge_socket = self.munge_dir / "munge.key", self.munge_dir / "munge.socket"
        self.run(["runuser", "-u", "munge", "--", "mungekey", "--create", f"--keyfile={key}"])
        self._spawn("munged", ["runuser", "-u", "munge", "--", "munged", "--foreground",
                               f"--key-file={key}", f"--socket={munge_socket}",
                               f"--pid-file={self.munge_dir}/munged.pid",
                               f"--log-file={self.munge_dir}/munged.log",
                               f"--seed-file={self.munge_dir}/munged.seed"])
        wait_for(munge_socket.exists, 20, "munged's socket")
        for sub in ("state", "spool"):
            (self.folder / sub).mkdir(exist_ok=True)
        self.conf.write_text(CONF.format(node=self.node, ctld_port=free_port(),
                                         slurmd_port=free_port(), munge_socket=munge_socket,
                                         folder=self.folder, cpus=os.cpu_count()))
        self._spawn("slurmctld", ["slurmctld", "-D", "-i", "-f", str(self.conf)])
        self._spawn("slurmd", ["slurmd", "-D", "-N", self.node, "-f", str(self.conf)])
        wait_for(self._node_idle, 60, f"node {self.node} idle in sinfo")

    def run(self, command: list[str], timeout: float = 30,
            **kwargs) -> subprocess.CompletedProcess:
        return subprocess.run(command, env=self.env, capture_output=True, text=True,
                              timeout=timeout, check=kwargs.pop("check", True), **kwargs)

    def _spawn(self, name: str, command: list[str]) -> None:
        with open(self.folder / f"{name}.out", "w") as log:
            self.processes.append((name, subprocess.Popen(
                command, env=self.env, stdin=subprocess.DEVNULL, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True)))
        time.sleep(0.2)
        if self.processes[-1][1].poll() is not None:
            raise RuntimeError(f"{name} exited at once: {self.log(name)}")

    def _node_idle(self) -> bool:
        for name, process in self.processes:
            if process.poll() is not None:
                raise RuntimeError(f"{name} exited: {self.log(name)}")
        state = self.run(["sinfo", "-h", "-o", "%t"], check=False)
        return state.returncode == 0 and state.stdout.strip() == "idle"

    def log(self, name: str) -> str:
        path = self.folder / f"{name}.out"
        return path.read_text(errors="replace")[-2000:] if path.exists() else "(no log)"

    def finished_jobs(self) -> list[dict[str, str]]:
        """One dict per job slurmctld logged as finished (jobcomp.log), in order."""
        if not self.jobcomp.exists():
            return []
        return [dict(field.split("=", 1) for field in line.split() if "=" in field)
                for line in self.jobcomp.read_text().splitlines()]

    def queue(self) -> str:
        return self.run(["squeue", "-h", "-o", "%i %j %T %r"], check=False).stdout.strip()

    def stop(self) -> None:
        """Cancel every job, then stop the daemons this cluster started, by pid, last first."""
        try:
            if any(name == "slurmctld" and p.poll() is None for name, p in self.processes):
                jobs = self.run(["squeue", "-h", "-o", "%A"], check=False).stdout.split()
                if jobs:
                    self.run(["scancel", *jobs], check=False)
                    try:
                        wait_for(lambda: not self.queue(), 30, "jobs cancelled")
                    except TimeoutError:
                        pass
        finally:
            for name, process in reversed(self.processes):
                if name == "munged" and self._stop_munged():
                    try:  # runuser ends when munged has: then munged is reaped, not orphaned
                        process.wait(timeout=15)
                    except subprocess.TimeoutExpired:
                        pass
                _stop(process)
            self.processes.clear()
            if self.munge_dir is not None:
                shutil.rmtree(self.munge_dir, ignore_errors=True)

    def _stop_munged(self) -> bool:
        """munged is runuser's child: its own pid is in its pid file. True when signalled."""
        try:
            pid = int((self.munge_dir / "munged.pid").read_text())
            if str(self.munge_dir) in Path(f"/proc/{pid}/cmdline").read_text():
                os.kill(pid, signal.SIGTERM)
                return True
        except (OSError, ValueError):
            pass
        return False


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=15)
