"""Reports of a graded submission: terminal text and platform JSON (no pytest in here).

Import the module you need (terminal.py, gradescope.py, outputs.py, safe_files.py, ...): this
package imports nothing itself, so that `vitgrade grade` can check its output paths before
numpy and the checks are loaded.
"""
