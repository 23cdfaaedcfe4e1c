#!/bin/bash
set -euo pipefail
pip install -q transformers datasets accelerate
mkdir -p "$HF_HOME"
