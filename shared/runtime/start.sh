#!/usr/bin/env bash
# Starts a Berth process with the runtime settings it is measured with (pnpm bench): from one build
# of its TypeScript (build.ts: no compiling loader beside it), with a small young generation (4 MB
# semi-spaces: 8 MB made the commands 3-9 % cheaper with 1-2 ms less p99 in paired loads, but cost
# project.one about 10 % of its throughput and 10 MB of resident memory, 201.7 MB after one
# benchmark run: over its target), an old generation that grows by half its live size between full
# collections (not up to four times: V8's default under load), and few malloc arenas, which keep
# its resident memory low.
# `pnpm start [start|api|projections|relay|reactors]` runs the launcher; the benchmark passes its
# own entry module (a .ts path) first.
set -euo pipefail
# The paths the caller gave relative to its own folder stay its own: made absolute before the cd
# below, which would otherwise put them in the checkout. (Unset, the data folder is the checkout's.)
# pnpm runs this in the checkout and names the caller's folder in INIT_CWD; run elsewhere, this
# shell was not started by pnpm for this script (its INIT_CWD, if any, is an outer run's).
caller="$PWD"
if [[ -n "${INIT_CWD:-}" && "$PWD" == "${PNPM_SCRIPT_SRC_DIR:-}" ]]; then caller="$INIT_CWD"; fi
for variable in BERTH_DATA_DIR BERTH_PROXY_DIR BERTH_INSTANCE_KEY_FILE BERTH_DATABASE_PROFILES; do
  value="${!variable:-}"
  if [[ -n "$value" && "$value" != /* ]]; then export "$variable=$caller/$value"; fi
done
cd "$(dirname "$0")/../.."
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
entry=shared/runtime/roles-cli.ts
if [[ "${1:-}" == *.ts ]]; then entry="$1"; shift; fi
# This shell is the build's user: exec makes it the process that runs it.
built="$(node --import tsx shared/runtime/build.ts "$entry" $$)"
exec node --max-semi-space-size=4 --heap-growing-percent=50 ${BERTH_NODE_FLAGS:-} "$built" "$@"
