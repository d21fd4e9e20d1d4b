#!/bin/sh
# Regenerates README.md from readme_head.md and the generator's --counts output.
cd "$(dirname "$0")" && { cat readme_head.md; ../../../.venv/bin/python make_set_j.py --counts; } > README.md
