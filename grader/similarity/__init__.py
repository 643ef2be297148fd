"""Code similarity across a class, per student-API function: advice for a person, never a grade.

    code.py   a submission's functions as fingerprints: parsed (never imported or run),
              identifiers of the function's own variables normalised, winnowed k-grams
    pairs.py  the class's pairs whose functions share fragments nobody else has

Why not copydetect (or compare50): docs/architecture.md, "Similar code".
"""
