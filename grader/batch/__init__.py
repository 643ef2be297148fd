"""Grading a whole class at once: `vitgrade grade-all SUBMISSIONS_DIR --jobs N --out DIR`.

grade_all.py runs it: discover.py finds the submissions, pool.py hands them to long-lived job.py
processes (each grading with the driver; progress.py counts), records.py and fingerprints.py keep
each result and what it was graded from, class_files.py writes the class's files; shards.py and
merge.py split a class and join it again. Student code never runs in any of these processes: a
fresh worker forked from the job's zygote loads each submission, as in `vitgrade grade`.
"""

# a file or folder name up to its first dot: alice.py, alice/ -> alice
DEFAULT_ID_PATTERN = r"^(?P<id>[^.]+)"
