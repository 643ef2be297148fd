"""ANSWERS['positions'] = 'cls'."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'why-positions': 'positions:cls'}

ANSWERS["positions"] = "cls"
