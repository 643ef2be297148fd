"""40 000 newlines printed at import: a load report of more than 64 kB of JSON. It once crashed
the grading process (no results file); now it is graded like the solution it wraps."""
print("\n" * 40_000)

from correct_solution import *  # noqa: E402,F401,F403 - every function is the instructor's solution
