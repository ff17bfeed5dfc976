#!/usr/bin/env bash
# Installs the system libraries TxLedger links (SQLite, libsodium) when they are missing.
# Debian/Ubuntu: apt-get (as root, or through sudo). macOS: Homebrew. Safe to run repeatedly.
set -euo pipefail

have_linux_deps() {
  command -v pkg-config >/dev/null 2>&1 &&
    pkg-config --exists libsodium sqlite3 2>/dev/null
}

case "$(uname -s)" in
  Linux)
    if ! have_linux_deps; then
      echo "setup: installing libsqlite3-dev libsodium-dev pkg-config" >&2
      sudo_cmd=()
      [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
      export DEBIAN_FRONTEND=noninteractive
      "${sudo_cmd[@]}" apt-get update -qq
      "${sudo_cmd[@]}" apt-get install -y -qq libsqlite3-dev libsodium-dev pkg-config >/dev/null
    fi
    ;;
  Darwin)
    # SQLite ships with the macOS SDK; libsodium comes from Homebrew.
    if ! pkg-config --exists libsodium 2>/dev/null; then
      command -v brew >/dev/null 2>&1 || { echo "setup: Homebrew is required to install libsodium (https://brew.sh)" >&2; exit 1; }
      echo "setup: installing libsodium pkg-config with Homebrew" >&2
      brew install libsodium pkg-config
    fi
    ;;
  *)
    echo "setup: unsupported system $(uname -s); install SQLite and libsodium development files yourself" >&2
    ;;
esac
command -v swift >/dev/null 2>&1 || { echo "setup: the Swift toolchain (6.0 or later) is required: https://www.swift.org/install" >&2; exit 1; }
