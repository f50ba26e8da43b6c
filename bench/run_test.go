package bench_test

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestRunScript runs bench/run.sh --check (100 routes, one run of each
// command) so that the script docs/performance.md's table comes from keeps
// working: it builds, the bare decode decodes what the generator wrote
// (the script checks), gwsim exits 0, and every row has its numbers. It
// takes a few seconds, mostly linking the binaries; -short skips it.
func TestRunScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds three binaries")
	}
	for _, tool := range []string{"bash", "/usr/bin/time"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("bench/run.sh needs %s: %v", tool, err)
		}
	}
	cmd := exec.Command("bash", "run.sh", "--check")
	cmd.Env = append(cmd.Environ(), "BENCH_DIR="+t.TempDir(), "REPEAT=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bench/run.sh --check: %v\n%s", err, out)
	}
	for _, c := range []string{"bare decode", "translate", "check"} {
		// | routes | objects | YAML MB | command | wall s | CPU s | RSS MB | ratio | µs/route |
		row := regexp.MustCompile(`(?m)^\| 100 \| [1-9][0-9]* \| [0-9.]+ \| ` + c + ` \| [0-9.]+ \| [0-9.]+ \| [1-9][0-9]* \| [0-9.]+ \| [0-9.]+ \|$`)
		if !row.Match(out) {
			t.Errorf("no %q row in the output:\n%s", c, out)
		}
	}
	if !strings.HasPrefix(string(out), "Machine: ") {
		t.Errorf("output does not start with the machine line:\n%s", out)
	}

	cmd = exec.Command("bash", "run.sh", "--check", "--stages")
	cmd.Env = append(cmd.Environ(), "BENCH_DIR="+t.TempDir(), "REPEAT=1")
	out, err = cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bench/run.sh --check --stages: %v\n%s", err, out)
	}
	for _, v := range []string{"true", "false"} {
		for _, stage := range []string{"load", "store", "reconcile", "read", "findings", "render", "total"} {
			row := regexp.MustCompile(`(?m)^\| 100 \| ` + v + ` \| ` + stage + ` \| [0-9.]+ \| [0-9.]+ \|$`)
			if !row.Match(out) {
				t.Errorf("no %s row with validation %s in the --stages output:\n%s", stage, v, out)
			}
		}
	}
	if !regexp.MustCompile(`(?m)^\| 100 \| +\| total \(validation\) / load \(no validation\) \| [0-9.]+ \| +\|$`).Match(out) {
		t.Errorf("no ratio row in the --stages output:\n%s", out)
	}
}
