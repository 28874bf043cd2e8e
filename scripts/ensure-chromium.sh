#!/usr/bin/env bash
# End-to-end tests use Debian's Chromium (never a downloaded browser build) and run pipelines in
# bubblewrap's sandbox: see ensure-packages.sh.
set -euo pipefail
exec bash "$(dirname "$0")/ensure-packages.sh" chromium bubblewrap
