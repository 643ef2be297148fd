"""Grading a whole class at once: `vitgrade grade-all SUBMISSIONS_DIR --jobs N --out DIR`.

    discover.py   which submissions a folder holds, and whose they are
    records.py    one student's result on disk (atomic JSON), and reading them back
    grade_one.py  grading one submission in-process, specs loaded once
    job.py        a long-lived grading process: submission after submission, one zygote
    pool.py       the jobs, from the coordinating side: dispatch, deadlines, restarts
    progress.py   a tqdm bar, or a plain counter without tqdm
    grade_all.py  the whole run: skip what is graded, grade the rest, write CSV, feedback, report

Student code never runs in any of these processes: each submission is loaded by a fresh worker
forked from the job's zygote (grader/worker), exactly as in `vitgrade grade`.
"""

# a file or folder name up to its first dot: alice.py, alice/ -> alice
DEFAULT_ID_PATTERN = r"^(?P<id>[^.]+)"
