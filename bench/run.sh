#!/usr/bin/env bash
# bench/run.sh [--plain] [--check] [ROUTES...] times gwsim's binary against
# the bare-decode floor (issue 7) and prints a Markdown table that
# docs/performance.md takes as is.
#
# For each route count (default: 1000 10000 100000) it writes the standard
# synthetic set (bench/gen, see bench/synth) and runs, REPEAT times each
# (default 3):
#   bare decode   bench/decode DIR: decode every document into its typed
#                 object on GOMAXPROCS goroutines and nothing else (package
#                 bench/baseline), the floor gwsim is compared against;
#   translate     gwsim -f DIR: load, reconcile, translate, render routes +
#                 IR + status (output discarded);
#   check         gwsim check -f DIR.
# It prints for each the minimum over the runs of the wall time, the CPU time
# (user + sys) and the peak RSS, as /usr/bin/time -v reports them (wall time
# is taken from bash's clock, to the microsecond, as /usr/bin/time rounds it
# to 10 ms): on a shared machine the minimum is the run least disturbed by
# others. Then the ratio of the wall time to the bare decode's at that size,
# and the wall time per route. A second table puts the cost per route of
# each size next to the previous size's: a ratio near 1 from 10k to 100k is
# what shows that no stage is quadratic.
#
# --stages prints, instead, the split of `gwsim -f DIR` into its stages
# (--profile=stages: load, store, reconcile, read, findings, render, total)
# with and without validation, per size: the minimum over REPEAT runs of
# each stage's wall time, the same per route, the peak RSS, and the ratio
# issue 18 asks for, the whole default run (validation on) to the load stage
# of --validate=false (gwsim's own parallel decode) measured in the same
# runs.
#
# --plain prints aligned columns instead of Markdown. --check is the quick
# run `go test ./bench` makes: 100 routes, one run each, unless ROUTES or
# REPEAT say otherwise. Any command that exits non-zero stops the script
# with its output; so does a bare decode that does not decode as many
# objects as the generator wrote. Sets and binaries go to BENCH_DIR (default
# a new temporary directory, removed at the end; each set is removed once
# measured, as the 100k one is about 130 MB).
set -euo pipefail
shopt -s inherit_errexit
export LC_ALL=C # a decimal point in $EPOCHREALTIME and awk's numbers

cd "$(dirname "$0")/.."

format=markdown
check=false
stages=false
sizes=()
for arg in "$@"; do
	case $arg in
	--plain) format=plain ;;
	--check) check=true ;;
	--stages) stages=true ;;
	-*)
		echo "usage: bench/run.sh [--plain] [--check] [--stages] [ROUTES...]" >&2
		exit 2
		;;
	*) sizes+=("$arg") ;;
	esac
done
if $check; then
	repeat=${REPEAT:-1}
	[ ${#sizes[@]} -gt 0 ] || sizes=(100)
else
	repeat=${REPEAT:-3}
	[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000 100000)
fi
timer=/usr/bin/time
if [ ! -x "$timer" ]; then
	echo "bench/run.sh: $timer (GNU time) is needed for CPU time and peak RSS" >&2
	exit 1
fi

work=${BENCH_DIR:-}
keep=true
if [ -z "$work" ]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/gwsim-bench.XXXXXX")
	keep=false
	trap 'rm -rf "$work"' EXIT
	trap 'exit 130' INT TERM
fi
mkdir -p "$work"

# --check leaves out the symbol tables, which only shortens linking.
ldflags=""
! $check || ldflags="-s -w"
go build -ldflags="$ldflags" -o "$work/" . ./bench/gen ./bench/decode

# machine prints the one-line description of the machine and toolchain.
machine() {
	local cpu mem load
	cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
	mem=$(awk '/^MemTotal:/ { printf "%.1f GiB RAM", $2 / 1048576 }' /proc/meminfo 2>/dev/null || true)
	# The load average says how shared the machine was when the runs began.
	load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo unknown)
	printf '%s, %s cores, %s, %s, %s %s; min of %s runs, load average %s at start\n' \
		"${cpu:-unknown CPU}" "$(nproc)" "${mem:-unknown RAM}" "$(go env GOVERSION)" \
		"$(uname -s)" "$(uname -r)" "$repeat" "$load"
}

# measure runs a command once and prints "wall_s cpu_s rss_mb", or prints the
# command's output and fails if it does not exit 0. Its stdout goes to
# $work/out, for callers that read it.
measure() {
	local log="$work/time.log" start end status=0
	start=$EPOCHREALTIME
	"$timer" -v -o "$log" "$@" >"$work/out" 2>"$work/err" || status=$?
	end=$EPOCHREALTIME
	if [ "$status" != 0 ]; then
		echo "bench/run.sh: $* exited $status; its output ends:" >&2
		tail -n 20 "$work/out" "$work/err" >&2
		return 1
	fi
	awk -F': ' -v start="$start" -v end="$end" '
		/User time/ { cpu += $2 }
		/System time/ { cpu += $2 }
		/Maximum resident set size/ { rss = $2 / 1024 }
		END { printf "%.6f %.2f %.0f\n", end - start, cpu, rss }' "$log"
}

# best runs a command $repeat times and prints the minimum of each column.
best() {
	local runs=()
	for _ in $(seq "$repeat"); do
		runs+=("$(measure "$@")")
	done
	printf '%s\n' "${runs[@]}" | awk '
		!seen || $1 < w { w = $1 }
		!seen || $2 < c { c = $2 }
		!seen || $3 < r { r = $3 }
		{ seen = 1 }
		END { printf "%s %s %s\n", w, c, r }'
}

# row prints one line of a table in the chosen format.
row() {
	if [ "$format" = markdown ]; then
		local IFS='|'
		printf '|%s|\n' "$*" | sed 's/|/ | /g; s/^ //; s/ $//'
	else
		# ASCII, so that printf's byte widths are column widths.
		local cells=("${@//µ/u}")
		cells=("${cells[@]//×/x}")
		printf '%-18s' "${cells[@]}"
		echo
	fi
}

# rule prints the Markdown header rule for columns given as l (left) or r.
rule() {
	[ "$format" = markdown ] || return 0
	local cells=()
	for a in "$@"; do
		if [ "$a" = l ]; then cells+=("---"); else cells+=("---:"); fi
	done
	row "${cells[@]}"
}

# stageRuns runs gwsim -f DIR with --profile=stages and the given flags
# $repeat times and prints "stage seconds" lines, the minimum of each stage
# over the runs, then "rss MB", the minimum peak RSS.
stageRuns() {
	local dir=$1
	shift
	for _ in $(seq "$repeat"); do
		"$timer" -v -o "$work/time.log" "$work/gwsim" -f "$dir" --profile=stages "$@" >/dev/null 2>"$work/err" || {
			echo "bench/run.sh: gwsim -f $dir $* failed:" >&2
			tail -n 20 "$work/err" >&2
			return 1
		}
		awk '/^gwsim: stage / { sub(/s$/, "", $4); print $3, $4 }' "$work/err"
		awk -F': ' '/Maximum resident set size/ { printf "rss %.0f\n", $2 / 1024 }' "$work/time.log"
	done | awk '!($1 in m) || $2 < m[$1] { m[$1] = $2; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
		END { for (i = 1; i <= n; i++) print order[i], m[order[i]] }'
}

if $stages; then
	echo "Machine: $(machine)"
	echo
	row routes validation stage "wall s" "µs/route"
	rule r l l r r
	for n in "${sizes[@]}"; do
		dir="$work/set-$n"
		rm -rf "$dir"
		"$work/gen" -routes "$n" -o "$dir" >/dev/null
		declare -A took=()
		for v in true false; do
			while read -r name secs; do
				took["$v $name"]=$secs
				if [ "$name" = rss ]; then
					row "$n" "$v" "peak RSS MB" "$secs" ""
				else
					row "$n" "$v" "$name" "$secs" "$(awk -v s="$secs" -v n="$n" 'BEGIN { printf "%.1f", s / n * 1e6 }')"
				fi
			done < <(stageRuns "$dir" --validate="$v")
		done
		row "$n" "" "total (validation) / load (no validation)" \
			"$(awk -v a="${took["true total"]}" -v b="${took["false load"]}" 'BEGIN { printf "%.2f", a / b }')" ""
		unset took
		$keep || rm -rf "$dir"
	done
	exit 0
fi

commands=("bare decode" translate check)
declare -A perRoute # "command size" -> µs of wall per route

echo "Machine: $(machine)"
echo
row routes objects "YAML MB" command "wall s" "CPU s" "peak RSS MB" "× bare decode" "µs/route"
rule r r r l r r r r r
for n in "${sizes[@]}"; do
	dir="$work/set-$n"
	rm -rf "$dir"
	info=$("$work/gen" -routes "$n" -o "$dir")
	objects=$(echo "$info" | sed -E 's/.* ([0-9]+) objects.*/\1/')
	mb=$(echo "$info" | sed -E 's/.* ([0-9]+) bytes.*/\1/' | awk '{ printf "%.1f", $1 / 1e6 }')
	floor=""
	for cmd in "${commands[@]}"; do
		case $cmd in
		"bare decode") args=("$work/decode" "$dir") ;;
		translate) args=("$work/gwsim" -f "$dir") ;;
		check) args=("$work/gwsim" check -f "$dir") ;;
		esac
		m=$(best "${args[@]}")
		read -r wall cpu rss <<<"$m"
		if [ "$cmd" = "bare decode" ]; then
			floor=$wall
			decoded=$(awk '{ print $1 }' "$work/out")
			if [ "$decoded" != "$objects" ]; then
				echo "bench/run.sh: bare decode of $n routes decoded $decoded objects, the generator wrote $objects" >&2
				exit 1
			fi
		fi
		ratio=$(awk -v w="$wall" -v f="$floor" 'BEGIN { printf "%.2f", w / f }')
		us=$(awk -v w="$wall" -v n="$n" 'BEGIN { printf "%.1f", w / n * 1e6 }')
		perRoute["$cmd $n"]=$us
		row "$n" "$objects" "$mb" "$cmd" "$(printf '%.3f' "$wall")" "$cpu" "$rss" "$ratio" "$us"
	done
	$keep || rm -rf "$dir"
done

[ ${#sizes[@]} -gt 1 ] || exit 0
echo
header=(command)
cols=(l)
for n in "${sizes[@]}"; do
	header+=("µs/route at $n")
	cols+=(r)
done
for ((i = 1; i < ${#sizes[@]}; i++)); do
	header+=("${sizes[i]} / ${sizes[i - 1]}")
	cols+=(r)
done
row "${header[@]}"
rule "${cols[@]}"
for cmd in "${commands[@]}"; do
	cells=("$cmd")
	for n in "${sizes[@]}"; do
		cells+=("${perRoute["$cmd $n"]}")
	done
	for ((i = 1; i < ${#sizes[@]}; i++)); do
		cells+=("$(awk -v a="${perRoute["$cmd ${sizes[i]}"]}" -v b="${perRoute["$cmd ${sizes[i - 1]}"]}" 'BEGIN { printf "%.2f", a / b }')")
	done
	row "${cells[@]}"
done
