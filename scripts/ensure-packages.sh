#!/usr/bin/env bash
# Installs the Debian packages the project runs with, where missing (apt-get; sudo when not root).
# Arguments name them: `chromium` (the end-to-end tests' browser, never a downloaded build),
# `bubblewrap` (/usr/bin/bwrap: the sandbox pipeline code runs in), and the EDA demo's optional
# tools `iverilog`, `verilator` and `opensta` (the tests run the flow with each tool, and without
# it through IVORY_EDA_TOOLS_PATH). Without arguments: chromium and bubblewrap.
set -euo pipefail
wanted=("$@")
if [ ${#wanted[@]} -eq 0 ]; then wanted=(chromium bubblewrap); fi
missing=()
for package in "${wanted[@]}"; do
  case "$package" in
    chromium) program=/usr/bin/chromium ;;
    bubblewrap) program=/usr/bin/bwrap ;;
    iverilog) program=/usr/bin/iverilog ;;
    verilator) program=/usr/bin/verilator ;;
    opensta) program=/usr/bin/sta ;;
    *) echo "ensure-packages: unknown package $package" >&2; exit 2 ;;
  esac
  if [ ! -x "$program" ]; then missing+=("$package"); fi
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "Installing Debian's ${missing[*]} (needed by Ivory)..."
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
if ! command -v apt-get >/dev/null; then
  echo "ensure-packages: no apt-get here; install ${missing[*]} yourself" >&2
  exit 1
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
