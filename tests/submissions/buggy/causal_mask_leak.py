"""ANSWERS['causal_mask'] = 'leak'."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'causal_mask:leak'}

ANSWERS["causal_mask"] = "leak"
