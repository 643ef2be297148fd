"""Packaging the grader for learning platforms and students: the installable project tree
(project_copy.py), the Gradescope autograder zip and what its run_autograder runs
(gradescope_zip.py, gradescope_autograder.py), and the student bundle of `vitgrade dist` with
its visible specs (student_bundle.py).
"""
