#!/usr/bin/env bash
# CLI start-up: wall time of `graft --help` and `graft tables` on the demo catalog, through npx
# and through the bin script directly (npx adds npm's own start-up), then the time to open the
# embedded catalog alone; printed (docs/BENCHMARKS.md, "CLI start-up", quotes them).
# Usage: bash bench/cli-startup.sh [runs]   (default 3)
# Needs the demo catalog in $GRAFT_HOME (default /tmp/graft-bench-home; built on first use).
set -euo pipefail
runs="${1:-3}"
export GRAFT_HOME="${GRAFT_HOME:-/tmp/graft-bench-home}"
# The CLI as `npm ci` installs it: dist/ compiled from the current sources. A dist/ older than
# the sources sends bin/graft.mjs to tsx (bin/entry.mjs), which users do not run, and the last rows
# import dist/ directly.
npm run --silent build >/dev/null
[ -d "$GRAFT_HOME/db" ] || node bin/graft.mjs demo >/dev/null
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for cmd in "npx graft --help" "node bin/graft.mjs --help" "npx graft tables" "node bin/graft.mjs tables"; do
  times=()
  for _ in $(seq "$runs"); do
    s=$(date +%s.%N); $cmd >/dev/null 2>&1; e=$(date +%s.%N)
    times+=("$(echo "$e - $s" | bc)")
  done
  printf '%-28s median %.2f s  (runs: %s)\n' "$cmd" "$(printf '%s\n' "${times[@]}" | median)" "${times[*]}"
done
# The floor under every catalog command: opening the embedded catalog alone (the CLI's own
# opener, compiled in dist/, on the demo catalog, baseline wasm compiler as the short commands
# use), in a fresh process each run, with PostgreSQL's default buffer pool (long-running commands)
# and the small one (one-shot commands); the catalog must not be held by another process.
for pool in default small; do
  times=()
  for _ in $(seq "$runs"); do
    times+=("$(node --liftoff-only --input-type=module -e "
      const { openPglite } = await import('./dist/src/catalog/sqlDriver.js');
      const t0 = performance.now();
      const { driver } = await openPglite(process.argv[1], process.argv[2]);
      const ms = performance.now() - t0;
      await driver.close();
      process.stdout.write((ms / 1000).toFixed(3));" "$GRAFT_HOME/db" "$pool")")
  done
  printf '%-28s median %.2f s  (runs: %s)\n' "PGlite open ($pool pool)" "$(printf '%s\n' "${times[@]}" | median)" "${times[*]}"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, node $(node --version)"
