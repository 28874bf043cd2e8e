#!/usr/bin/env bash
# End-to-end tests use Debian's Chromium (never a downloaded browser build), run pipelines in
# bubblewrap's sandbox, and run the EDA flow with its optional tools: see ensure-packages.sh.
set -euo pipefail
exec bash "$(dirname "$0")/ensure-packages.sh" chromium bubblewrap iverilog verilator opensta
