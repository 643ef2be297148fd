"""ANSWERS['positions'] = 'resolution'."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'why-positions': 'positions:resolution'}

ANSWERS["positions"] = "Resolution "
