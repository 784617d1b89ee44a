#!/usr/bin/env bash
# The whole test suite: installs what the tests need, type-checks, runs every *.test.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
# What the machine has, for reading a run's log. The control group's bound: `cgroup_limit <v1
# controller> <v1 file> <v2 file>`, as the group this shell is in has it, or "none".
cgroup_limit() {
  local v1 v2
  v1="$(awk -F: -v c="$1" '$2 == c {print $3}' /proc/self/cgroup)"
  v2="$(awk -F: '$1 == 0 {print $3}' /proc/self/cgroup)"
  cat "/sys/fs/cgroup/$1${v1}/$2" 2>/dev/null || cat "/sys/fs/cgroup${v2}/$3" 2>/dev/null || echo none
}
echo "# machine: $(nproc) cores, $(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo) MB, pid_max $(cat /proc/sys/kernel/pid_max); its control group's bounds: memory $(cgroup_limit memory memory.limit_in_bytes memory.max), tasks $(cgroup_limit pids pids.max pids.max)"
bash test/setup.sh
pnpm install --frozen-lockfile --reporter=silent
pnpm exec tsc -p tsconfig.json
echo "# $(date -u +%T) UTC: set up and type-checked in ${SECONDS} s; the tests start"
# Not under .tmp (scratch, old checkouts with their own tests) nor any dot folder (.build, .git).
# The slowest files first (test/slowest-first.txt), then the others in name order.
mapfile -t files < <({
  grep -v '^#' test/slowest-first.txt | while read -r file; do [[ -f "$file" ]] && echo "$file"; done
  find . -name '*.test.ts' -not -path '*/node_modules/*' -not -path './.*' | sort
} | awk '!seen[$0]++')
# The files run from one build of them (test/support/build-tests.ts: no compiling loader in each
# file's process), its stack traces mapped to the sources.
built="$(node --import tsx test/support/build-tests.ts $$ "${files[@]}")"
# Each file's process ends when its tests do: test/support/exit-watchdog.mjs fails a file that
# something still holds open 2 minutes after its last test, naming what (--test-force-exit would end
# it at once, but also drops other files' last verdicts: nodejs/node#64833). And no test may run
# past five minutes (the slowest whole file takes under two), nor any file past ten: a file whose
# output a process it left still holds would hold the run (run-in-order.mjs). Four files at once:
# much of their time is spent waiting on the engine, not on the two cores.
# test/support/run-in-order.mjs runs them in the order above (`node --test` would sort them by
# name) and names the failed tests again after the summary, where a log's tail shows them.
exec node --enable-source-maps --import ./test/support/exit-watchdog.mjs --test-timeout=300000 \
  test/support/run-in-order.mjs 4 "$built" "${files[@]}"
