#!/usr/bin/env bash
# Starts a Berth process with the runtime settings it is measured with (pnpm bench):
# a small young generation, an old generation that grows by half its live size between full
# collections (not up to four times: V8's default under load), and few malloc arenas keep its
# resident memory low.
# The entry module defaults to the launcher; the benchmark passes its own.
set -euo pipefail
cd "$(dirname "$0")/../.."
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
entry="${1:-shared/runtime/roles-cli.ts}"
shift || true
exec node --max-semi-space-size=4 --heap-growing-percent=50 ${BERTH_NODE_FLAGS:-} --import tsx "$entry" "$@"
