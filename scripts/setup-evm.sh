#!/usr/bin/env bash
# A Python virtual environment at .build/evm with eth-tester and its py-evm backend, the real
# EVM that EVMSpeedUpTests drives (Tests/Fixtures/evm/speed_up.py). Made once; safe to run
# repeatedly. Without python3, its venv module or PyPI, it says so and the suite skips that test.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build/evm
packages=("eth-tester[py-evm]==0.14.0b1" "py-evm==0.12.1b1")
[ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import eth_tester" 2>/dev/null && exit 0

if [ "$(uname -s)" = Linux ] && ! python3 -m venv --help >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  echo "setup-evm: installing python3 and python3-venv" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq && "${sudo_cmd[@]}" apt-get install -y -qq python3 python3-venv >/dev/null || true
fi
rm -rf "$venv"
mkdir -p .build
if python3 -m venv "$venv" && "$venv/bin/pip" install -q --disable-pip-version-check "${packages[@]}"; then
  echo "setup-evm: eth-tester installed in $venv" >&2
else
  rm -rf "$venv"
  echo "setup-evm: could not install eth-tester; EVMSpeedUpTests will be skipped" >&2
fi
