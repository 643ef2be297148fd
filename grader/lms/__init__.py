"""Packaging the grader for learning platforms and students: the installable project tree
(project_copy.py), specs without their hidden checks (visible_specs.py), the Gradescope
autograder zip and what its run_autograder runs (gradescope_zip.py, gradescope_autograder.py),
and the student bundle of `vitgrade dist` (student_bundle.py).
"""
