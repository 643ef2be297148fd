"""The student-code worker: data-only round trips, student errors, timeouts, crashes, isolation.

Most tests run the fixture submission tests/submissions/worker/toolbox.py in a worker forked by
the shared zygote; small submissions that only one test needs are written inline.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from process_table import identity

from grader.worker import (
    CallOutcome,
    ForeignObject,
    Limits,
    LoadProblem,
    StudentWorker,
    Zygote,
    values,
)
from grader.worker.limits import DEFAULT_LIMITS

RETRY_SECONDS = DEFAULT_LIMITS.retry_timeout

TOOLBOX = Path(__file__).parent / "submissions" / "worker" / "toolbox.py"
QUICK = Limits(call_timeout=5.0, load_timeout=5.0)
# A call timeout no correct grader waits for in these tests: what was cut short by a shorter
# limit (a retry, a deadline) is told from it by a bound that a loaded machine cannot reach.
LONG = Limits(call_timeout=30.0, load_timeout=5.0)
pytestmark = pytest.mark.usefixtures("zygote")  # tests/conftest.py


@pytest.fixture
def toolbox():
    with StudentWorker(TOOLBOX, QUICK) as worker:
        yield worker


def write(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / name
    path.write_text(source)
    return path


def echo(worker: StudentWorker, value):
    outcome = worker.call("echo", (value,))
    assert outcome.status == "ok", outcome
    return outcome.value


def eventually(condition, seconds: float = 30.0) -> bool:
    """Whether `condition()` comes true within `seconds` (a deadline that only waits)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def alive(process: str) -> bool:
    """Running (a zombie or a missing process is not), read from /proc."""
    return state(process) not in (None, "Z", "X")


def state(process: str) -> str | None:
    """The state letter of `process`, as the toolbox names one (process_table.identity: as root
    a worker is pid 1 of a namespace of its own); None when none is."""
    for name in filter(str.isdigit, os.listdir("/proc")):
        if identity(name) == process:
            try:
                return Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:  # it ended meanwhile
                continue
    return None


# -- data round trips ---------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.uint8, np.bool_,
                                   np.complex128])
def test_arrays_round_trip_with_their_dtype(toolbox, dtype):
    array = (np.arange(24).reshape(2, 3, 4) % 3).astype(dtype)
    back = echo(toolbox, array)
    assert type(back) is np.ndarray and back.dtype == array.dtype
    np.testing.assert_array_equal(back, array)


def test_fortran_ordered_and_strided_arrays_round_trip(toolbox):
    image = np.random.default_rng(0).random((5, 4, 3))
    for array in (np.asfortranarray(image), image[::2, :, 1], image.T):
        np.testing.assert_array_equal(echo(toolbox, array), array)


def test_numpy_integer_count_stays_a_numpy_integer(toolbox):
    count = toolbox.call("count_patches", (224, 224, 16)).value
    assert type(count) is np.int64 and count == 196


def test_numpy_float32_scalar_keeps_its_dtype(toolbox):
    assert type(toolbox.call("half").value) is np.float32


def test_tuple_and_list_stay_distinct(toolbox):
    assert toolbox.call("shapes").value == ((2, 3), [2, 3])
    assert type(toolbox.call("shapes").value[0]) is tuple


def test_dicts_nested_lists_and_scalars_round_trip(toolbox):
    value = {"a": [1, [2.5, [None, True]], "x"], "b": {"c": 2**70, "d": 1 + 2j}, "__tuple__": 1}
    assert echo(toolbox, value) == value


def test_nan_and_infinities_round_trip(toolbox):
    nan, inf, minus_inf, np_nan = toolbox.call("special_floats").value
    assert np.isnan(nan) and inf == float("inf") and minus_inf == -float("inf")
    assert type(np_nan) is np.float64 and np.isnan(np_nan)


def test_arguments_arrive_as_fresh_writeable_arrays(toolbox):
    image = np.ones((2, 2))
    assert toolbox.call("double", (image,)).value.tolist() == [[2, 2], [2, 2]]
    assert image.tolist() == [[1, 1], [1, 1]]  # the grader's array is untouched


def test_keyword_arguments_are_passed(toolbox):
    assert toolbox.call("count_patches", (224,), {"W": 224, "P": 14}).value == 256


def test_get_returns_a_top_level_dict_as_data(toolbox):
    assert toolbox.get("ANSWERS").value == {"positions": "permutation", "medical": "pretrained"}


# -- what is not data ---------------------------------------------------------------------------


def test_ndarray_subclass_comes_back_as_plain_ndarray(toolbox):
    value = toolbox.call("tagged").value
    assert type(value) is np.ndarray and value.tolist() == [0, 1, 2, 3, 4, 5]


def test_object_claiming_equality_comes_back_as_foreign_object(toolbox):
    value = toolbox.call("agreeable").value
    assert isinstance(value, ForeignObject) and value.type_name == "toolbox.Agreeable"
    assert value != 0 and len(value.summary) <= 200


def test_object_dtype_array_is_refused_without_failing_the_call(toolbox):
    value = toolbox.call("object_array").value
    assert isinstance(value, ForeignObject) and "dtype object" in value.summary


def test_foreign_element_leaves_the_rest_of_an_answer_intact(toolbox):
    array, odd, plain = toolbox.call("mixed").value
    assert array.tolist() == [0, 0] and isinstance(odd, ForeignObject) and plain == {"ok": 1}


def test_answer_nested_too_deep_is_cut_at_the_bound(toolbox):
    value = toolbox.call("nested", (50,)).value
    for _ in range(values.MAX_DEPTH + 1):
        value = value[0]
    assert isinstance(value, ForeignObject) and "deeper" in value.summary


def test_grader_cannot_send_an_object_array():
    with StudentWorker(TOOLBOX, QUICK) as worker, pytest.raises(values.NotData):
        worker.call("echo", (np.array([None], dtype=object),))


ARRAY_SAMPLES = (
    np.arange(6.0).reshape(2, 3), np.asfortranarray(np.eye(3, dtype=np.float32)), np.ones(()),
    np.arange(5, dtype=">i4"), np.zeros((0, 4), np.uint8), np.array([True, False]),
    np.ones((1, 2, 3, 4, 5), np.complex64), np.arange(4, dtype=np.float16).reshape(4, 1),
    np.lib.stride_tricks.as_strided(np.zeros(1), (3,), (0,)), np.zeros(7, np.uint64),
)


def round_trip(value, lenient=False):
    encoder = values.Encoder(lenient=lenient)
    tree = json.loads(json.dumps(encoder.encode(value)))  # as it crosses
    return values.Decoder(encoder.blobs, foreign_ok=True).decode(tree)


def test_arrays_of_every_numeric_layout_cross_with_dtype_shape_and_values():
    for array in ARRAY_SAMPLES:
        got = round_trip(array)
        assert got.dtype == array.dtype and got.shape == array.shape and got.flags.writeable
        np.testing.assert_array_equal(got, array)


def test_an_array_whose_bytes_do_not_match_its_shape_is_refused():
    encoder = values.Encoder()
    tree = encoder.encode(np.zeros((2, 3)))
    tree["__ndarray__"][2] = [99999, 100000]  # a forged shape: refused before any allocation
    with pytest.raises(values.ProtocolError, match="does not match"):
        values.Decoder(encoder.blobs).decode(tree)


@pytest.mark.parametrize("dtype", ["|O", "<U8", "V8", "[('a', '<f8')]", "<M8[s]"])
def test_arrays_of_dtypes_that_are_not_numbers_are_refused(dtype):
    tree = {"__ndarray__": [0, dtype, [1]]}
    with pytest.raises(values.ProtocolError):
        values.Decoder([b"\0" * 8]).decode(tree)


def test_one_blob_listed_many_times_is_refused_not_decoded_again():
    tree = [{"__ndarray__": [0, "<f8", [1]]}] * 16
    with pytest.raises(values.ProtocolError, match="used twice"):
        values.Decoder([b"\0" * 8]).decode(tree)


def test_huge_integer_and_deep_value_are_refused_by_the_decoder():
    with pytest.raises(values.ProtocolError):
        values.Decoder([]).decode(2**5000)
    with pytest.raises(values.ProtocolError):
        values.Decoder([]).decode(json.loads("[" * 30 + "]" * 30))


def test_an_array_in_a_dict_is_checked_as_anywhere_else():
    """A parameter dict's arrays take the decoder's short way: the same refusals, the same
    depth limit (one level deeper than the encoder's: its refusal sits there)."""
    array = {"__ndarray__": [0, "<f8", [1]]}

    def nested(levels: int) -> dict:
        tree = {"w": array}
        for _ in range(levels):
            tree = {"d": tree}
        return tree

    assert values.Decoder([b"\0" * 8]).decode(nested(values.MAX_DEPTH))  # the deepest taken
    with pytest.raises(values.ProtocolError, match="deeper"):
        values.Decoder([b"\0" * 8]).decode(nested(values.MAX_DEPTH + 1))
    with pytest.raises(values.ProtocolError, match="used twice"):
        values.Decoder([b"\0" * 8]).decode({"a": array, "b": array})
    with pytest.raises(values.ProtocolError):
        values.Decoder([b"\0" * 8]).decode({"a": {"__ndarray__": [0, "|O", [1]]}})
    got = values.Decoder([memoryview(bytes(8))]).decode({"a": array})["a"]
    assert got.flags.writeable and got.flags.aligned  # a read-only message's array is copied


def test_the_mutation_check_names_each_changed_array_by_its_place():
    from grader.worker import mutation

    params = {"W_q": np.zeros(2), "heads": 2, "b": np.zeros(1)}
    args, kwargs = [np.zeros(3), params, [np.zeros(1), "s"]], {"gamma": np.ones(2)}
    kept = mutation.snapshot(args, kwargs)
    assert len(kept) == 5 and mutation.changed(kept) == []
    args[0][0], params["W_q"][1], args[2][0][0], kwargs["gamma"][0] = 1, 1, 1, 0
    assert mutation.changed(kept) == ["#0", "#1['W_q']", "#2[0]", "gamma"]
    many = [np.zeros(1) for _ in range(mutation.MOST_KEPT + 10)]
    assert len(mutation.snapshot([many], {"x": np.zeros(1)})) == mutation.MOST_KEPT


def test_the_mutation_check_says_which_changed_array_holds_the_value_returned():
    """`x -= m; return x` leaves the returned value in the caller's `x`: the same array, or one
    equal to it; an array changed to anything else is not said to hold it."""
    from grader.worker import mutation

    x, y, z = np.arange(3.0), np.arange(2.0), np.arange(4.0)
    kept = mutation.snapshot([x, y, z], {})
    x -= 1
    y[0], z[0] = 5, 9
    returned = z.copy()
    assert mutation.holding(kept, ["#0", "#1", "#2"], x) == ["#0"]
    assert mutation.holding(kept, ["#0", "#1", "#2"], returned) == ["#2"]
    assert mutation.holding(kept, ["#1"], (x, y)) == []  # not an array: none said to hold it


# -- student errors -----------------------------------------------------------------------------


def test_student_exception_shows_only_the_students_frames(toolbox):
    outcome = toolbox.call("patchify", (np.zeros((4, 4, 3)), 2))
    assert outcome.status == "raised"
    assert outcome.error.type == "ValueError" and "expected (H, W, C)" in outcome.error.message
    assert outcome.error.where == "toolbox.py:39"
    assert outcome.error.traceback == (
        '  File "toolbox.py", line 44, in patchify\n    return check_input(image.reshape(-1))\n'
        '  File "toolbox.py", line 39, in check_input\n'
        '    raise ValueError(f"expected (H, W, C), got shape {image.shape}")\n'
    )
    assert "grader" not in outcome.error.traceback


def test_wrong_number_of_arguments_is_an_exception_without_frames(toolbox):
    outcome = toolbox.call("count_patches", (1,))
    assert (outcome.status == "raised" and outcome.error.type == "TypeError"
            and outcome.error.where is None)


def test_missing_name_is_reported(toolbox):
    missing = CallOutcome("missing", message="toolbox.py does not define vit_forward")
    assert toolbox.call("vit_forward") == missing


def test_non_callable_name_is_reported(toolbox):
    outcome = toolbox.call("ANSWERS")
    assert outcome.status == "not_callable" and "dict" in outcome.message


@pytest.mark.parametrize("name, kind", [("leave", "SystemExit"),
                                        ("interrupt", "KeyboardInterrupt")])
def test_sys_exit_and_keyboard_interrupt_are_exceptions_and_the_worker_survives(
        toolbox, name, kind):
    before = toolbox.call("pid").value
    outcome = toolbox.call(name)
    assert outcome.status == "raised" and outcome.error.type == kind
    assert toolbox.call("pid").value == before


def test_memory_limit_turns_a_huge_allocation_into_memory_error():
    with StudentWorker(TOOLBOX, Limits(memory_mb=1024)) as worker:
        outcome = worker.call("hog", (4 * 2**30,))
        assert outcome.status == "raised" and outcome.error.type == "MemoryError"


# -- timeouts and crashes -----------------------------------------------------------------------


DID_NOT_RETURN = "`{}` did not return within {:g} s; its other cases were not run"


def test_an_infinite_loop_is_stopped_by_the_workers_alarm_and_named(toolbox):
    before = toolbox.call("pid").value
    outcome = toolbox.call("spin", timeout=5.0)
    assert outcome.status == "timeout" and outcome.message == DID_NOT_RETURN.format("spin", 5)
    # the worker's own alarm (at 4 s) answered, with the seconds it measured: killed at the
    # deadline, the call would have lasted the whole 5 s. The 1 s between them is some 100 times
    # what the alarm's reply takes (at 1 s, 0.2 s apart, two busy cores made it miss)
    assert outcome.seconds < 5.0
    assert toolbox.slow == {"spin": "5 s"}
    assert eventually(lambda: not alive(before))  # with whatever it started
    assert toolbox.call("count_patches", (32, 32, 16)).value == 4
    assert toolbox.call("pid").value != before  # a fresh process answers calls


def test_a_loop_deaf_to_the_alarm_is_killed_at_the_deadline_and_blamed(tmp_path):
    source = ("import signal\ndef deaf():\n    signal.pthread_sigmask(signal.SIG_BLOCK, "
              "[signal.SIGALRM])\n    while True:\n        pass\n\n"
              "def pid():\n    import os\n    start = open('/proc/self/stat').read()"
              ".rsplit(')', 1)[1].split()[19]\n"
              "    inner = open('/proc/self/status').read().split('NSpid:')[1]"
              ".split('\\n')[0].split()[-1]\n"
              "    return f\"{os.stat('/proc/self/ns/pid').st_ino}:{inner}:{start}\"\n")
    with StudentWorker(write(tmp_path, "deaf.py", source), LONG) as worker:
        before = worker.call("pid").value
        outcome = worker.call("deaf", timeout=0.3)
        assert outcome.status == "timeout"
        assert outcome.message == DID_NOT_RETURN.format("deaf", 0.3)
        # at its 0.3 s deadline (no alarm answered), long before the 30 s call timeout
        assert 0.3 <= outcome.seconds < LONG.call_timeout / 3
        assert eventually(lambda: not alive(before))  # killed, however busy the machine
        assert worker.call("pid").value != before  # a fresh worker


def test_a_function_that_did_not_return_fails_at_once_in_callers_and_gets_one_short_retry(
        tmp_path):
    source = ("def spin(n):\n    while n:\n        pass\n    return n\n\n"
              "def caller(n):\n    return spin(n)\n")
    with StudentWorker(write(tmp_path, "spin.py", source), LONG) as worker:
        # the innermost of the student's functions is named: the worker's alarm (at 0.8 s) saw
        # it running, with 0.2 s to spare before the deadline, at which `caller` would be named
        assert worker.call("caller", (1,), timeout=1.0).message == DID_NOT_RETURN.format(
            "spin", 1)
        again = worker.call("caller", (0,))  # spin(0) returns at once: it was not even run
        assert again.status == "timeout" and again.message == DID_NOT_RETURN.format("spin", 1)
        assert again.seconds < RETRY_SECONDS  # no alarm waited for (it takes microseconds)
        assert worker.call("spin", (0,)).value == 0  # a retry: it returns on this input
        retried = worker.call("spin", (1,))  # and not on this one, but soon fails
        assert retried.message == DID_NOT_RETURN.format("spin", 1)
        # stopped by its short retry (RETRY_SECONDS), not by the 30 s call timeout
        assert retried.seconds < LONG.call_timeout / 3
        # a retry that did not return is the last: it fails at once from now on, not run
        given_up = worker.call("spin", (0,))
        assert given_up.message == DID_NOT_RETURN.format("spin", 1) and given_up.seconds == 0


def test_os_exit_is_a_crash_with_its_exit_code_and_the_next_call_works(toolbox):
    outcome = toolbox.call("die")
    assert (outcome.status == "crashed" and outcome.message
            == "`die` crashed the worker: the worker process exited with code 3; its other cases "
               "were not run")
    assert toolbox.call("count_patches", (32, 32, 16)).value == 4


def test_segfault_is_a_crash_naming_the_signal_and_the_next_call_works(toolbox):
    outcome = toolbox.call("segfault")
    assert (outcome.status == "crashed" and outcome.message
            == "`segfault` crashed the worker: the worker process died (signal 11: SIGSEGV); its "
               "other cases were not run")
    assert toolbox.call("half").status == "ok"


def test_top_level_code_that_never_ends_makes_the_submission_unloadable(tmp_path):
    # A plain `while True: pass` is stopped by the top-level time budget (tests/test_hostile.py);
    # this one turns the budget's alarm off, so only the load timeout can end it.
    source = ("import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\ndef f():\n"
              "    return 1\n\nwhile True:\n    pass\n")
    path = write(tmp_path, "forever.py", source)
    with StudentWorker(path, Limits(load_timeout=0.3)) as worker:
        report = worker.load()
        assert not report.ok
        assert report.problems == (LoadProblem("forever.py",
                                               "top-level code ran longer than 0.3 s"),)
        outcome = worker.call("f")
        assert outcome.status == "unloadable" and "longer than 0.3 s" in outcome.message


def test_top_level_code_that_kills_the_worker_makes_the_submission_unloadable(tmp_path):
    with StudentWorker(write(tmp_path, "quits.py", "import os\nos._exit(4)\n")) as worker:
        report = worker.load()
        message = "the worker process exited with code 4 while loading the submission"
        assert not report.ok and report.problems == (LoadProblem("quits.py", message),)


# -- output ---------------------------------------------------------------------------------------


def test_printed_output_is_captured_per_call(toolbox):
    assert toolbox.call("say", ("hello",)).stdout == "hello\n"
    assert toolbox.call("half").stdout == ""


def test_printing_five_megabytes_neither_hangs_nor_keeps_it_all(toolbox):
    outcome = toolbox.call("chatter", (5_000_000,))
    # "ok": it returned within its call timeout (5 s; it takes some 10 ms)
    assert outcome.status == "ok" and outcome.value == "done"
    assert QUICK.max_output_bytes <= len(outcome.stdout) < QUICK.max_output_bytes + 200
    assert outcome.stdout.endswith("bytes are kept]")


def test_output_printed_before_a_timeout_is_kept(tmp_path):
    path = write(tmp_path, "chatty.py",
                 "def count():\n    print('started')\n    while True:\n        pass\n")
    with StudentWorker(path) as worker:
        outcome = worker.call("count", timeout=0.3)
        assert outcome.status == "timeout" and outcome.stdout == "started\n"


# -- loading ------------------------------------------------------------------------------------


def test_failing_demo_statement_does_not_hide_the_functions_after_it(tmp_path):
    source = (
        "import numpy as np\n"
        "def before():\n    return 1\n"
        "print('demo', undefined_image.shape)\n"
        "input('press enter')\n"
        "def after():\n    return 2\n"
        "x = 1; y = 1 / 0; z = 3\n"
    )
    with StudentWorker(write(tmp_path, "demo.py", source)) as worker:
        report = worker.load()
        assert report.ok and set(report.names) == {"np", "before", "after", "x", "z"}
        assert report.names["before"] == "function" and report.names["np"] == "module"
        assert report.problems == (
            LoadProblem("demo.py:4", "NameError: name 'undefined_image' is not defined"),
            LoadProblem("demo.py:5", "EOFError: EOF when reading a line"),
            LoadProblem("demo.py:8", "ZeroDivisionError: division by zero"),
        )
        assert report.stdout == "press enter"
        assert worker.call("after").value == 2


def test_syntax_error_makes_the_load_fail_with_file_and_line(tmp_path):
    with StudentWorker(write(tmp_path, "broken.py",
                             "def f():\n    return 1\n\ndef g(:\n    pass\n")) as worker:
        report = worker.load()
        assert not report.ok and report.problems[0].where == "broken.py:4"
        assert report.problems[0].message.startswith("SyntaxError")
        assert worker.call("f").status == "unloadable"


def test_missing_or_unsupported_file_makes_the_load_fail(tmp_path):
    cases = [(tmp_path / "absent.py", "file not found"),
             (write(tmp_path, "notes.txt", "x"), "not a Python")]
    for path, message in cases:
        with StudentWorker(path) as worker:
            report = worker.load()
            assert not report.ok and message in report.problems[0].message


def test_future_annotations_and_dataclasses_work(tmp_path):
    source = (
        "from __future__ import annotations\n"
        "from dataclasses import dataclass\n\n"
        "@dataclass\nclass Config:\n    patch: int\n    sizes: list[int]\n\n"
        "def patch_of(n):\n    return Config(n, [n]).patch\n"
    )
    with StudentWorker(write(tmp_path, "configured.py", source)) as worker:
        assert worker.load().problems == ()
        assert worker.call("patch_of", (16,)).value == 16


def test_notebook_runs_through_the_worker_and_failures_name_their_cell(tmp_path):
    """End to end only: the notebook's own rules (numbering, magics) are notebook.py's tests."""
    cells = [
        {"cell_type": "markdown", "source": "# Patches"},
        {"cell_type": "code", "source": ["import numpy as np\n", "P = 16"]},
        {"cell_type": "code", "source": "print(undefined)"},
        {"cell_type": "code", "source": "def num_patches(H, W, P):\n    if H % P:\n"
         "        raise ValueError('no')\n    return (H // P) * (W // P)"},
    ]
    notebook = {"cells": cells, "nbformat": 4, "nbformat_minor": 5, "metadata": {}}
    with StudentWorker(write(tmp_path, "work.ipynb", json.dumps(notebook))) as worker:
        report = worker.load()
        assert report.ok and [problem.where.split(" (")[0]
                              for problem in report.problems] == ["cell 2"]
        assert report.problems[0].message.startswith("NameError: name 'undefined' is not defined")
        assert worker.call("num_patches", (224, 224, 16)).value == 196
        error = worker.call("num_patches", (225, 224, 16)).error
        assert (error.where == "cell 3:3"
                and 'File "cell 3", line 3, in num_patches' in error.traceback)


# -- isolation ------------------------------------------------------------------------------------


def test_worker_runs_in_an_empty_temporary_directory_with_a_scrubbed_environment(monkeypatch):
    monkeypatch.setenv("VITGRADE_TEST_SECRET", "s3cr3t")
    with Zygote() as fresh, StudentWorker(TOOLBOX, QUICK, zygote=fresh) as worker:
        cwd, listing, environ = worker.call("surroundings").value
    assert Path(cwd).name.startswith("vitgrade-worker-") and listing == []
    assert (environ["HOME"] == cwd and environ["MPLBACKEND"] == "Agg"
            and environ["OMP_NUM_THREADS"] == "1")
    assert "VITGRADE_TEST_SECRET" not in environ
    assert not Path(cwd).exists()  # removed on close


def test_grading_process_never_imports_the_submission(toolbox):
    assert toolbox.call("half").status == "ok"
    assert "toolbox" not in sys.modules and "toolbox" in toolbox.call("loaded_modules").value


def test_zygote_holds_nothing_of_the_reference_specs_or_checks(zygote):
    modules = zygote.loaded_modules()
    assert "numpy" in modules
    forbidden = ("grader.reference", "grader.spec", "grader.checks")
    assert not [name for name in modules if name.startswith(forbidden)]


def test_student_code_runs_with_the_garbage_collector_on(tmp_path):
    """The zygote imports with it off (zygote.py); its workers, forked after, have it back on:
    cyclic garbage a submission makes is collected, as in any Python."""
    path = write(tmp_path, "collector.py",
                 "import gc\n\ndef collector():\n    return gc.isenabled()\n")
    with Zygote() as fresh, StudentWorker(path, QUICK, zygote=fresh) as worker:
        assert worker.call("collector").value is True


def test_close_leaves_no_zombie_and_kills_what_the_student_started(zygote):
    worker = StudentWorker(TOOLBOX, QUICK)
    pid, sleeper = worker.call("pid").value, worker.call("start_sleeper").value
    assert alive(pid) and alive(sleeper)
    worker.close()
    assert state(pid) is None  # reaped, not a zombie of the zygote
    # SIGKILLed with the group; it dies on its own time
    assert eventually(lambda: not alive(sleeper))
    worker.close()  # twice is fine


def test_closing_a_zygote_ends_it_and_its_workers():
    zygote = Zygote()
    worker = StudentWorker(TOOLBOX, QUICK, zygote=zygote)
    pid = worker.call("pid").value
    zygote.close()
    assert zygote.process.returncode == 0 and not alive(pid)
    worker.close()


def test_without_fork_each_worker_is_spawned_with_the_same_sandbox(monkeypatch):
    monkeypatch.setattr("grader.worker.student_worker.FORK_AVAILABLE", False)
    with StudentWorker(TOOLBOX, QUICK) as worker:
        cwd, listing, _ = worker.call("surroundings").value
        assert listing == [] and worker.call("count_patches", (32, 32, 16)).value == 4
        assert worker.call("segfault").status == "crashed"
        assert worker.call("half").status == "ok"


def test_an_error_without_a_message_is_shown_without_a_dangling_colon():
    from grader.checks.describe import outcome_lines
    from grader.worker import CallOutcome
    from grader.worker.outcomes import StudentError

    def shown(message):
        error = StudentError("NotImplementedError", message, "", None)
        return outcome_lines(CallOutcome("raised", error=error))[0]

    assert shown("") == "got:      NotImplementedError"
    assert shown("patchify first") == "got:      NotImplementedError: patchify first"
