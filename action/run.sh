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
#   GWSIM_FILES        manifest files and directories, separated by spaces or
#                      newlines, each passed with -f (required: a repository
#                      holds other YAML, such as its workflows, that is not
#                      Kubernetes manifests)
#   GWSIM_RECURSIVE    "true" adds -R, reading directories recursively
#                      (default true)
#   GWSIM_ARGS         more arguments for check, e.g. "--strict"
#   GWSIM_SARIF        "true" also writes SARIF to GWSIM_SARIF_FILE when the
#                      installed gwsim has -o sarif (default true)
#   GWSIM_SARIF_FILE   default gwsim.sarif
#
# check prints findings as GitHub annotations (-o github) on stdout, writes
# exit-code and sarif-file (empty when no SARIF was written) to GITHUB_OUTPUT
# when it is set, and exits with gwsim's exit code: 0 clean, 1 findings,
# 2 usage or input error.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
module="github.com/gwsim/gwsim"

output() {
	if [ -n "${GITHUB_OUTPUT:-}" ]; then
		printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
	fi
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
		echo "$dir" >>"$GITHUB_PATH"
	fi
	output path "$dir/gwsim"
	"$dir/gwsim" version
}

# supports_sarif reports whether the gwsim on PATH lists sarif among
# check's output formats.
supports_sarif() {
	gwsim check --help 2>/dev/null | grep -Eq -- '--output .*sarif'
}

check() {
	local files=() extra=()
	local f
	if [ -z "${GWSIM_FILES:-}" ]; then
		echo "::error title=gwsim::no manifests: set the action's files input (GWSIM_FILES)"
		output exit-code 2
		output sarif-file ""
		return 2
	fi
	for f in $GWSIM_FILES; do
		files+=(-f "$f")
	done
	if [ "${GWSIM_RECURSIVE:-true}" = "true" ]; then
		files+=(-R)
	fi
	# GWSIM_ARGS is split on spaces, as a shell would split unquoted words.
	read -r -a extra <<<"${GWSIM_ARGS:-}"

	local code=0
	gwsim check "${files[@]}" ${extra[@]+"${extra[@]}"} -o github || code=$?

	local sarif=""
	if [ "${GWSIM_SARIF:-true}" = "true" ]; then
		if supports_sarif; then
			sarif="${GWSIM_SARIF_FILE:-gwsim.sarif}"
			# The exit code is the annotations run's; this run only writes
			# the same findings in another format.
			gwsim check "${files[@]}" ${extra[@]+"${extra[@]}"} -o sarif >"$sarif" 2>/dev/null || true
		else
			echo "::notice title=gwsim::this gwsim has no -o sarif; SARIF is not written (annotations are)"
		fi
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
