"""Code similarity across a class, per student-API function: advice for a person, never a grade.
code.py turns a submission's functions into fingerprints (parsed, never run), pairs.py finds the
pairs whose functions share fragments nobody else has. Why not copydetect (or compare50):
docs/architecture.md, "Similar code".
"""
