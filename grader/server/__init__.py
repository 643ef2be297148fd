"""The warm grading server: `vitgrade grade` without paying Python's, pytest's and numpy's start-up.

Students grade dozens of times an evening. After a run at a terminal, `vitgrade grade` leaves a
small server behind (one per user, Python and vit-grader install; it exits after 15 idle
minutes; VITGRADE_SERVER=1 starts one without a terminal, VITGRADE_SERVER=0 never). It holds
pytest, numpy, the grader and the exercise specs already imported and loaded, the cases already
built and their expected values computed, and a *spare*: a forked copy of itself, waiting, with
its own freshly started zygote. The next `vitgrade grade` hands its command line, working folder,
environment and terminal (its file descriptors) to the spare, which runs exactly what the command
would have run, pytest and all, and reports the exit code. Output, colours, `--json` paths and
^C behave as in a local run.

Nothing of the trust boundary changes: the spare is a grading process like any other, student
code runs in workers forked from the spare's own clean zygote, and the server answers only its own
user (SO_PEERCRED). It is never used where it cannot help or must not linger: under CI, on
autograder platforms (--gradescope, --classroom, --prairielearn), or with VITGRADE_SERVER=0. A
server whose code, Python or packages changed since it started refuses the request and exits;
the command then runs locally, as it always can.

    paths.py    where the socket lives, and the fingerprint that tells a stale server
    client.py   the `vitgrade grade` side: hand the command over, or say it was not served
    daemon.py   the server and its spares (`python -m grader.server.daemon`)
"""
