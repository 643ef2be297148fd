"""ANSWERS['medical'] = 'scratch': a from-scratch ViT on 800 scans."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'pretrained-or-scratch': 'medical:scratch'}

ANSWERS["medical"] = "scratch"
