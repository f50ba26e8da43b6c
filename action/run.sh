#!/usr/bin/env bash
# The logic of gwsim's GitHub Action (action.yml at the repository root),
# kept here so that it can be run and tested outside of GitHub:
#
#   action/run.sh install   installs gwsim GWSIM_VERSION into GWSIM_INSTALL_DIR
#   action/run.sh check     runs `gwsim check` on GWSIM_FILES
#
# Inputs come from the environment (action.yml maps its inputs onto them):
#   GWSIM_VERSION      a module version (v1.2.3), "latest", or "source" to
#                      build the checkout this script is in (default latest)
#   GWSIM_INSTALL_DIR  where install puts the binary (default
#                      $RUNNER_TEMP/gwsim-bin, else a temporary directory);
#                      it is added to GITHUB_PATH when that is set
#   GWSIM_FILES        manifest files and directories, one per line, each
#                      passed with -f (required: a repository holds other
#                      YAML, such as its workflows, that is not Kubernetes
#                      manifests); spaces inside a line are part of the path
#   GWSIM_RECURSIVE    "true" adds -R, reading directories recursively
#                      (default true)
#   GWSIM_ARGS         more arguments for check, one per line, passed as
#                      they are (no quotes needed: --exclude and my team/*
#                      on two lines)
#   GWSIM_SARIF        "true" also writes SARIF to GWSIM_SARIF_FILE when the
#                      installed gwsim can (default true)
#   GWSIM_SARIF_FILE   default gwsim.sarif
#
# Lines of GWSIM_FILES and GWSIM_ARGS are trimmed of surrounding blanks,
# and empty lines are skipped.
#
# check runs gwsim once: findings become GitHub annotations (-o github) on
# stdout, SARIF goes to GWSIM_SARIF_FILE and a Markdown summary to
# GITHUB_STEP_SUMMARY (both with --output-file). gwsim's stderr, which
# holds text from the manifests (file names, names), is printed between
# ::stop-commands:: and its unguessable token, so that the runner acts on
# no workflow command in it. exit-code and sarif-file (empty when no SARIF
# was written) go to GITHUB_OUTPUT in the delimiter form (name<<DELIM), so
# that no value can add an output. check exits with gwsim's exit code:
# 0 clean, 1 findings, 2 usage or input error, 3 a bug in gwsim.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
module="github.com/gwsim/gwsim"

# token prints a random token that no input can guess.
token() {
	od -An -N16 -tx1 /dev/urandom | tr -d ' \n'
}

# output writes name=value to GITHUB_OUTPUT, when it is set, in the
# delimiter form, with a delimiter the value cannot hold.
output() {
	if [ -z "${GITHUB_OUTPUT:-}" ]; then
		return
	fi
	local delim
	delim="gwsim_$(token)"
	if [[ "$2" == *"$delim"* ]]; then
		echo "::error title=gwsim::output $1 holds its delimiter" >&2
		return 1
	fi
	printf '%s<<%s\n%s\n%s\n' "$1" "$delim" "$2" "$delim" >>"$GITHUB_OUTPUT"
}

# lines reads the non-empty lines of $1, trimmed, into the array LINES
# (a global: bash 3, which macOS ships, has no array references).
lines() {
	local line
	LINES=()
	while IFS= read -r line || [ -n "$line" ]; do
		line="${line#"${line%%[![:space:]]*}"}"
		line="${line%"${line##*[![:space:]]}"}"
		if [ -n "$line" ]; then
			LINES+=("$line")
		fi
	done <<<"$1"
}

install() {
	local version="${GWSIM_VERSION:-latest}"
	local dir="${GWSIM_INSTALL_DIR:-}"
	if [ -z "$dir" ]; then
		if [ -n "${RUNNER_TEMP:-}" ]; then
			dir="$RUNNER_TEMP/gwsim-bin"
		else
			dir="$(mktemp -d)"
		fi
	fi
	mkdir -p "$dir"
	dir="$(cd "$dir" && pwd)"
	if [ "$version" = "source" ]; then
		(cd "$here/.." && go build -o "$dir/gwsim" .)
	else
		GOBIN="$dir" go install "$module@$version"
	fi
	if [ -n "${GITHUB_PATH:-}" ]; then
		printf '%s\n' "$dir" >>"$GITHUB_PATH"
	fi
	output path "$dir/gwsim"
	"$dir/gwsim" version
}

# supports reports whether the gwsim on PATH has check's flag $1.
supports() {
	gwsim check --help 2>/dev/null | grep -q -- "$1"
}

# quoted prints gwsim's stderr (file $1) where the runner acts on no
# workflow command: between ::stop-commands:: and a token that only this
# run knows.
quoted() {
	if [ ! -s "$1" ]; then
		return
	fi
	local t
	t="$(token)"
	echo "::stop-commands::$t"
	cat "$1"
	echo "::$t::"
}

check() {
	local paths=() args=() files=() reports=()
	local p
	lines "${GWSIM_FILES:-}"
	paths=(${LINES[@]+"${LINES[@]}"})
	if [ "${#paths[@]}" -eq 0 ]; then
		echo "::error title=gwsim::no manifests: set the action's files input (GWSIM_FILES)"
		output exit-code 2
		output sarif-file ""
		return 2
	fi
	for p in "${paths[@]}"; do
		files+=(-f "$p")
	done
	if [ "${GWSIM_RECURSIVE:-true}" = "true" ]; then
		files+=(-R)
	fi
	lines "${GWSIM_ARGS:-}"
	args=(${LINES[@]+"${LINES[@]}"})

	local sarif="" summary="" errors
	errors="$(mktemp)"
	if supports --output-file; then
		if [ "${GWSIM_SARIF:-true}" = "true" ]; then
			sarif="${GWSIM_SARIF_FILE:-gwsim.sarif}"
			# A file left from an earlier run must not pass for this one's.
			rm -f -- "$sarif"
			reports+=(--output-file "sarif=$sarif")
		fi
		if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
			summary="$(mktemp)"
			reports+=(--output-file "markdown=$summary")
		fi
	elif [ "${GWSIM_SARIF:-true}" = "true" ]; then
		echo "::notice title=gwsim::this gwsim has no --output-file; SARIF and the job summary are not written (annotations are)"
	fi

	local code=0
	gwsim check "${files[@]}" ${args[@]+"${args[@]}"} -o github ${reports[@]+"${reports[@]}"} 2>"$errors" || code=$?
	quoted "$errors"
	rm -f "$errors"
	if [ -n "$summary" ]; then
		cat "$summary" >>"$GITHUB_STEP_SUMMARY"
		rm -f "$summary"
	fi
	if [ -n "$sarif" ] && [ ! -s "$sarif" ]; then
		# gwsim stopped before writing it (a mistake in the arguments).
		sarif=""
	fi
	output exit-code "$code"
	output sarif-file "$sarif"
	return "$code"
}

case "${1:-}" in
install) install ;;
check) check ;;
*)
	echo "usage: $0 install|check" >&2
	exit 2
	;;
esac
