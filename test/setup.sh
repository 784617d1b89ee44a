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
# Debian's chromium, headless, for the test that renders the API reference page.
if ! command -v chromium >/dev/null 2>&1; then
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
# --- Database test images (data-services): PostgreSQL, MariaDB and Redis from Debian's packages,
# cached by content (see test/images/databases/build.sh). Needs the container engine running.
bash "$(dirname "$0")/images/databases/build.sh"
# After the databases: the Node stand-ins start from their Debian tree.
bash "$(dirname "$0")/images/node.sh"
