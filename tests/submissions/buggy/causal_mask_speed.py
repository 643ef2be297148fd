"""ANSWERS['causal_mask'] = 'speed'."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'causal_mask:speed'}

ANSWERS["causal_mask"] = "speed"
