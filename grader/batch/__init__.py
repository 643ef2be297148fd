"""Grading a whole class at once: `vitgrade grade-all SUBMISSIONS_DIR --jobs N --out DIR`.

    discover.py   which submissions a folder holds, and whose they are
    records.py    one student's result on disk (atomic JSON), and reading them back
    fingerprints.py  what a record was graded from: submission, specs, grader (never stale)
    manifest.py   OUT/batch.json: the shard, the versions and the students of an output
    shards.py     --shard K/N and auto: a stable share of the class by a hash of the id
    grade_one.py  grading one submission in-process, specs loaded once
    job.py        a long-lived grading process: submission after submission, one zygote
    pool.py       the jobs, from the coordinating side: dispatch, deadlines, restarts
    progress.py   a tqdm bar, or a plain counter without tqdm
    grade_all.py  the whole run: reuse what is unchanged, grade the rest, write CSV, feedback,
                  report
    class_files.py  grades.csv, feedback/ and report.html from the records (run and merge alike)
    merge.py      `vitgrade merge`: shard outputs joined into one, versions never mixed

Student code never runs in any of these processes: each submission is loaded by a fresh worker
forked from the job's zygote (grader/worker), exactly as in `vitgrade grade`.
"""

# a file or folder name up to its first dot: alice.py, alice/ -> alice
DEFAULT_ID_PATTERN = r"^(?P<id>[^.]+)"
