"""A top-level loop that swallows every exception, the grader's timeout included: stopped within
the time limit for top-level code (it once ran until the load timeout killed the worker and the
whole submission scored 0); everything defined before and after it is graded."""
import time

from correct_solution import *  # noqa: F401,F403 - every function is the instructor's solution

while True:
    try:
        time.sleep(0.01)
    except BaseException:
        pass
