"""grader/dataclass_code.py: the methods `dataclasses` writes, compiled once and read back after."""
from __future__ import annotations

import dataclasses
import os
import subprocess
import sys

from grader import dataclass_code
from grader.dataclass_code import CompiledMethods, keep_compiled, read


def make_classes():
    """A frozen class and a plain one, as the grader's are written (defaults, a factory)."""

    @dataclasses.dataclass(frozen=True)
    class Point:
        """A point."""

        x: int
        y: float = 0.5
        tags: tuple = ()

    @dataclasses.dataclass
    class Bag:
        """A bag."""

        items: list = dataclasses.field(default_factory=list)
        name: str = "bag"

    return Point, Bag


def behaviour(Point, Bag) -> list:
    p, bag = Point(1, tags=("a",)), Bag(name="b")
    bag.items.append(3)
    frozen = False
    try:
        p.x = 2
    except dataclasses.FrozenInstanceError:
        frozen = True
    return [repr(p), p == Point(1, 0.5, ("a",)), p == Point(2),
            hash(p) == hash(Point(1, tags=("a",))),
            repr(bag), bag == Bag([3], "b"), frozen, Point.__init__.__annotations__,
            Bag.__init__.__annotations__, [f.name for f in dataclasses.fields(Point)],
            repr(dataclasses.replace(p, y=2.0))]


def test_kept_methods_are_the_methods_dataclasses_compiles(tmp_path, monkeypatch):
    plain = behaviour(*make_classes())
    path = str(tmp_path / "kept.methods")
    first = CompiledMethods(path)
    monkeypatch.setattr(dataclasses, "exec", first.exec, raising=False)
    assert behaviour(*make_classes()) == plain
    assert first.compiled  # compiled here, then written
    first.save()
    assert first.compiled == {} and os.path.exists(path)

    second = CompiledMethods(path)
    monkeypatch.setattr(dataclasses, "exec", second.exec, raising=False)
    assert behaviour(*make_classes()) == plain
    assert second.compiled == {}  # every text was in the file: nothing compiled


def test_a_file_not_this_interpreters_is_ignored(tmp_path):
    path = tmp_path / "kept.methods"
    assert read(str(path)) == {}  # missing
    path.write_bytes(b"\x00\x00\r\n" + b"garbage")
    assert read(str(path)) == {}
    path.write_bytes(dataclass_code.MAGIC_NUMBER + b"not marshal data")
    assert read(str(path)) == {}
    import marshal

    path.write_bytes(dataclass_code.MAGIC_NUMBER + marshal.dumps({"x = 1": 42}))
    assert read(str(path)) == {}  # not code objects


def test_only_the_process_that_installed_it_writes_the_file(tmp_path, monkeypatch):
    path = tmp_path / "kept.methods"
    methods = CompiledMethods(str(path))
    monkeypatch.setattr(dataclasses, "exec", methods.exec, raising=False)
    make_classes()
    methods.pid = os.getpid() + 1  # as in a zygote or a worker forked from this process
    methods.save()
    assert not path.exists()


def test_installed_once(monkeypatch, tmp_path):
    monkeypatch.setattr(dataclass_code, "methods_file", lambda: str(tmp_path / "kept.methods"))
    monkeypatch.setattr(dataclasses, "exec", exec, raising=False)
    monkeypatch.setattr(dataclass_code.sys, "dont_write_bytecode", True)  # no exit handler
    methods = keep_compiled()
    assert methods is not None and dataclasses.exec == methods.exec
    assert keep_compiled() is None


def test_a_worker_keeps_nothing_of_it():
    """Student code finds `dataclasses` as it is without the kept methods (sandbox.py)."""
    code = ("import dataclasses, builtins; from grader.dataclass_code import keep_compiled; "
            "keep_compiled(); assert dataclasses.exec != builtins.exec; "
            "from grader.worker.sandbox import hide_the_grader; hide_the_grader(); "
            "assert 'exec' not in vars(dataclasses); "
            "print(dataclasses.make_dataclass('P', ['x'])(1))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "P(x=1)"


def test_a_file_others_may_write_is_ignored(tmp_path, monkeypatch):
    path = str(tmp_path / "kept.methods")
    methods = CompiledMethods(path)
    monkeypatch.setattr(dataclasses, "exec", methods.exec, raising=False)
    make_classes()
    methods.save()
    assert read(path)
    os.chmod(path, 0o666)
    assert read(path) == {}
    os.chmod(path, 0o644)
    assert read(path)
