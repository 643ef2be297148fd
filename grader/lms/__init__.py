"""Packaging the grader for learning platforms and students.

    project_copy.py         the grader package as an installable project tree
    visible_specs.py        exercise specs without their hidden checks
    gradescope_zip.py       `vitgrade export gradescope OUT.zip`: setup.sh, run_autograder,
                            the specs
    gradescope_autograder.py  what run_autograder runs inside Gradescope's container
    student_bundle.py       `vitgrade dist OUT/`: template, visible specs, the package, a README
"""
