#!/usr/bin/env bash
# Installs, on a fresh machine, what the test suite needs: Node's package manager.
set -euo pipefail
if ! command -v pnpm >/dev/null 2>&1; then
  npm install --global pnpm@9 >/dev/null
fi
# A real NATS with JetStream for the bus tests (they start their own server on a free port).
if ! command -v nats-server >/dev/null 2>&1; then
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nats-server >/dev/null
fi
bash "$(dirname "$0")/setup-engine.sh"
