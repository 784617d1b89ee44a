#!/usr/bin/env bash
# The whole test suite: installs what the tests need, type-checks, runs every *.test.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
bash test/setup.sh
pnpm install --frozen-lockfile --reporter=silent
pnpm exec tsc -p tsconfig.json
# Not under .tmp (scratch, old checkouts with their own tests) nor any dot folder (.build, .git).
# The slowest files first (test/slowest-first.txt), then the others in name order.
mapfile -t files < <({
  grep -v '^#' test/slowest-first.txt | while read -r file; do [[ -f "$file" ]] && echo "$file"; done
  find . -name '*.test.ts' -not -path '*/node_modules/*' -not -path './.*' | sort
} | awk '!seen[$0]++')
# Each file's process ends when its tests do: test/support/exit-watchdog.mjs fails a file that
# something still holds open 2 minutes after its last test, naming what (--test-force-exit would end
# it at once, but also drops other files' last verdicts: nodejs/node#64833). And no test may run
# past five minutes (the slowest whole file takes under one). Four files at once: most of their
# time is spent waiting on the engine, not on the two cores (three took 20 minutes, two 23).
# The second reporter names the failed tests again after the summary, where a log's tail shows them.
exec node --import tsx --import ./test/support/exit-watchdog.mjs --test --test-concurrency=4 \
  --test-timeout=300000 \
  --test-reporter=tap --test-reporter-destination=stdout \
  --test-reporter=./test/support/failures-reporter.mjs --test-reporter-destination=stderr \
  "${files[@]}"
