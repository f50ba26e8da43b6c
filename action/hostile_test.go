package action

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// delimitedOutputs reads GITHUB_OUTPUT as the runner does: name=value
// lines, and name<<DELIM blocks whose value runs to the DELIM line.
func delimitedOutputs(t *testing.T, file string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		if name, delim, ok := strings.Cut(lines[i], "<<"); ok {
			var value []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				value = append(value, lines[i])
			}
			if i == len(lines) {
				t.Fatalf("output %s: no closing delimiter %q", name, delim)
			}
			out[name] = strings.Join(value, "\n")
			continue
		}
		name, value, _ := strings.Cut(lines[i], "=")
		out[name] = value
	}
	return out
}

// annotation is a workflow command gwsim itself prints.
var annotation = regexp.MustCompile(`^::(error|warning|notice)( (file|line|title)=[^:,]*(,(file|line|title)=[^:,]*)*)?::`)

// commandsActedOn lists the lines of a step's output the runner would
// act on as workflow commands (after trimming leading blanks, as it does),
// leaving out what ::stop-commands::TOKEN ... ::TOKEN:: encloses.
func commandsActedOn(out string) []string {
	var acted []string
	stopped := ""
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimLeft(line, " \t")
		switch {
		case stopped != "":
			if line == "::"+stopped+"::" {
				stopped = ""
			}
		case strings.HasPrefix(line, "::stop-commands::"):
			stopped = strings.TrimPrefix(line, "::stop-commands::")
		case strings.HasPrefix(line, "::"):
			acted = append(acted, line)
		}
	}
	return acted
}

// checkCommands fails on a workflow command in out that gwsim did not
// mean: one that is not an annotation, or a forged one.
func checkCommands(t *testing.T, out string) {
	t.Helper()
	for _, c := range commandsActedOn(out) {
		if !annotation.MatchString(c) || strings.HasPrefix(c, "::error title=Forged") {
			t.Errorf("the runner would act on %q", c)
		}
	}
}

// TestActionHostileInputs runs the action's check as a pull request from
// an attacker could set it up: a manifest path with spaces and one whose
// name holds a newline and workflow commands, a backendRef name that
// holds them too, an argument with quotes and spaces, and a sarif-file
// holding a newline. The runner acts on no command gwsim did not mean,
// the outputs keep their values, one gwsim run writes annotations, SARIF
// and the job summary.
func TestActionHostileInputs(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("action/run.sh needs bash")
	}
	bin := installSource(t)
	repo := t.TempDir()
	team := filepath.Join(repo, "my team")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(team, 0o755); err != nil {
		t.Fatal(err)
	}
	shop, err := os.ReadFile("../examples/shop.yaml")
	if err != nil {
		t.Fatal(err)
	}
	hostile := strings.Replace(string(shop), "name: recommendations\n      port:", "name: \"recommendations\\n::stop-commands::x\\n::error title=Forged::fake\"\n      port:", 1)
	if hostile == string(shop) {
		t.Fatal("examples/shop.yaml no longer has the backendRef the test changes")
	}
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(team, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("shop.yaml", hostile)
	write("skip 'me'.yaml", "not: [a manifest")

	ghOut, summary := filepath.Join(repo, "out"), filepath.Join(repo, "summary.md")
	sarif := filepath.Join(repo, "gwsim\n::error title=Forged::x\nexit-code=0.sarif")
	env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"GWSIM_FILES=\n  " + team + "  \n\n", "GWSIM_ARGS=--exclude\nskip 'me'.yaml\n--namespace\napps",
		"GWSIM_SARIF_FILE=" + sarif, "GITHUB_OUTPUT=" + ghOut, "GITHUB_STEP_SUMMARY=" + summary}
	stdout, code := runScript(t, env, "check")
	if code != 1 {
		t.Fatalf("check exit %d, want 1:\n%s", code, stdout)
	}
	checkCommands(t, stdout)
	if !strings.Contains(stdout, "::error file=my team/shop.yaml,line=") {
		t.Errorf("no annotation on my team/shop.yaml, relative to the repository:\n%s", stdout)
	}
	out := delimitedOutputs(t, ghOut)
	if out["exit-code"] != "1" || out["sarif-file"] != sarif || len(out) != 2 {
		t.Errorf("outputs = %q, want exit-code 1 and sarif-file %q", out, sarif)
	}
	if b, err := os.ReadFile(sarif); err != nil || !strings.Contains(string(b), `"uri": "my%20team/shop.yaml"`) {
		t.Errorf("SARIF not written at the path given, or not located in the repository (%v):\n%.400s", err, b)
	}
	b, err := os.ReadFile(summary)
	if err != nil || !strings.HasPrefix(string(b), "### gwsim check\n\n**2 errors, ") || strings.Contains(string(b), "\n::") {
		t.Errorf("job summary (%v):\n%s", err, b)
	}

	// A file whose name holds workflow commands: its YAML error loses only
	// that document (exit 1), and the finding that names it cannot issue them.
	write("x\n::error title=Forged::name.yaml", "kind: [")
	stdout, code = runScript(t, env, "check")
	if code != 1 || !strings.Contains(stdout, "title=GWS1002 ParseError::") {
		t.Fatalf("check exit %d, want 1 with the file's parse error:\n%s", code, stdout)
	}
	checkCommands(t, stdout)
}
