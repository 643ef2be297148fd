"""The notes the error model adds to a slip told without its quiet part (a finite fill where
the slip hides a whole row: error_model/__init__.py's `_told` and `_within`), here so that
report/minimum_fill.py, which says the second as the first where the student's code shows it,
reads them without importing the error model. It imports nothing."""

QUIET_NOTE = (" Fixing this is enough: your code's one other difference shows only in what this"
              " slip leads to (a query left with no key), never where the model solution's code "
              "runs.")
UNSURE_NOTE = (" Fix this first: your code's other difference shows here only in what this slip "
               "leads to (a query left with no key); whether it is also a mistake where the model "
               "solution's code runs, these cases cannot tell.")  # error_model's `_within` pair
