"""ANSWERS['positions'] = 'speed'."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'why-positions': 'positions:speed'}

ANSWERS["positions"] = "speed"
