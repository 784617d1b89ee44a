#!/usr/bin/env bash
# Installs, on a fresh machine, what the test suite needs: Node's package manager.
set -euo pipefail
if ! command -v pnpm >/dev/null 2>&1; then
  npm install --global pnpm@9 >/dev/null
fi
bash "$(dirname "$0")/setup-engine.sh"
