#!/usr/bin/env bash
# bench/run.sh [ROUTES...] builds gwsim, writes the standard synthetic set
# (bench/gen, see bench/synth) for each route count (default: 1000 10000
# 100000) and prints the wall time, CPU time and peak RSS of the binary,
# measured with /usr/bin/time -v, for `gwsim -f DIR` (load, reconcile,
# translate, render routes + IR + status; output discarded) and for
# `gwsim check -f DIR`. Each command runs REPEAT times (default 3) and the
# minimum of each column is printed: on a shared machine the minimum is the
# run least disturbed by others. Sets and binaries go to BENCH_DIR (default
# a new temporary directory, removed at the end).
set -euo pipefail

cd "$(dirname "$0")/.."
repeat=${REPEAT:-3}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000 100000)
work=${BENCH_DIR:-}
if [ -z "$work" ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"

go build -o "$work/gwsim" .
go build -o "$work/gen" ./bench/gen

# measure prints "wall_s cpu_s rss_mb" for one run of gwsim with the given
# arguments, or fails if gwsim does not exit 0.
measure() {
	local log="$work/time.log"
	if ! /usr/bin/time -v "$work/gwsim" "$@" >/dev/null 2>"$log"; then
		echo "gwsim $* failed:" >&2
		tail -n 30 "$log" >&2
		return 1
	fi
	awk -F': ' '
		/Elapsed \(wall clock\)/ { n = split($2, p, ":"); wall = 0; for (i = 1; i <= n; i++) wall = wall * 60 + p[i] }
		/User time/ { cpu += $2 }
		/System time/ { cpu += $2 }
		/Maximum resident set size/ { rss = $2 / 1024 }
		END { printf "%.2f %.2f %.0f\n", wall, cpu, rss }' "$log"
}

printf '%-8s %-9s %8s %6s %9s %8s %8s %8s\n' routes command objects MB wall_s cpu_s rss_MB runs
for n in "${sizes[@]}"; do
	dir="$work/set-$n"
	rm -rf "$dir"
	info=$("$work/gen" -routes "$n" -o "$dir")
	objects=$(echo "$info" | sed -E 's/.* ([0-9]+) objects.*/\1/')
	bytes=$(echo "$info" | sed -E 's/.* ([0-9]+) bytes.*/\1/')
	for cmd in translate check; do
		args=(-f "$dir")
		[ "$cmd" = check ] && args=(check -f "$dir")
		best=""
		for _ in $(seq "$repeat"); do
			m=$(measure "${args[@]}")
			best=$(printf '%s\n%s\n' "$best" "$m" | awk 'NF == 3 {
				if (!seen || $1 < w) w = $1
				if (!seen || $2 < c) c = $2
				if (!seen || $3 < r) r = $3
				seen = 1 }
				END { printf "%s %s %s", w, c, r }')
		done
		read -r wall cpu rss <<<"$best"
		printf '%-8s %-9s %8s %6.1f %9s %8s %8s %8s\n' "$n" "$cmd" "$objects" "$(echo "$bytes" | awk '{print $1/1e6}')" "$wall" "$cpu" "$rss" "$repeat"
	done
done
