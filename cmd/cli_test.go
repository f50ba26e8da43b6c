package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/offline"
	"github.com/gwsim/gwsim/offline/controller"
)

// gatewayYAML is a Gateway of class gwsim with one HTTP listener; the class
// itself is in classYAML so that tests choose whether gwsim must assume it.
const gatewayYAML = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
spec:
  gatewayClassName: gwsim
  listeners:
  - name: http
    port: 80
    protocol: HTTP
`

const classYAML = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: gwsim
spec:
  controllerName: gwsim.dev/gateway-controller
`

// routeYAML routes example.com/api to Service api, which serviceYAML defines.
const routeYAML = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  parentRefs:
  - name: gw
  hostnames: ["example.com"]
  rules:
  - matches:
    - path: {type: PathPrefix, value: /api}
    backendRefs:
    - name: api
      port: 8080
`

const serviceYAML = `apiVersion: v1
kind: Service
metadata:
  name: api
spec:
  ports:
  - port: 8080
`

// otherServiceYAML is a Service that no route uses: with it, the input
// shows it holds the Services of namespace default.
const otherServiceYAML = `apiVersion: v1
kind: Service
metadata:
  name: other
spec:
  ports:
  - port: 80
`

// cliResult is what one run of the CLI produced; paths under the test's
// temporary directory are printed relative to it.
type cliResult struct {
	code           int
	stdout, stderr string
}

// runCLI runs gwsim in-process with files written to a fresh directory:
// arguments of the form @name are replaced by the file's path.
func runCLI(t *testing.T, env Env, files map[string]string, stdin string, args ...string) cliResult {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	full := make([]string, len(args))
	for i, a := range args {
		if name, ok := strings.CutPrefix(a, "@"); ok {
			a = filepath.Join(dir, name)
		}
		full[i] = a
	}
	var out, errOut bytes.Buffer
	code := ExecuteWith(full, Streams{In: strings.NewReader(stdin), Out: &out, Err: &errOut}, env)
	rel := func(s string) string { return strings.ReplaceAll(s, dir+string(filepath.Separator), "") }
	return cliResult{code: code, stdout: rel(out.String()), stderr: rel(errOut.String())}
}

func TestUsageErrors(t *testing.T) {
	files := map[string]string{"gw.yaml": gatewayYAML}
	tests := []struct {
		name       string
		args       []string
		wantStderr string
	}{
		{"no input", []string{"routes"},
			"gwsim: error: no input: pass manifests with -f FILE, -f DIR, -f - (stdin) or -k DIR\nRun 'gwsim routes --help' for usage.\n"},
		{"no input on the default command", nil,
			"gwsim: error: no input: pass manifests with -f FILE, -f DIR, -f - (stdin) or -k DIR\nRun 'gwsim --help' for usage.\n"},
		{"bad output format", []string{"routes", "-f", "@gw.yaml", "-o", "xml"},
			"gwsim: error: unknown output format \"xml\" (valid: text, wide, yaml, json)\nRun 'gwsim routes --help' for usage.\n"},
		{"check formats", []string{"check", "-f", "@gw.yaml", "-o", "yaml"},
			"gwsim: error: unknown output format \"yaml\" (valid: text, json, github, sarif, junit, gitlab, markdown)\nRun 'gwsim check --help' for usage.\n"},
		{"unknown flag", []string{"status", "--bogus"},
			"gwsim: error: unknown flag: --bogus\nRun 'gwsim status --help' for usage.\n"},
		{"unknown command", []string{"rotes"},
			"gwsim: error: unknown command \"rotes\" for \"gwsim\" (did you mean routes?)\nRun 'gwsim --help' for usage.\n"},
		{"file without -f", []string{"check", "gw.yaml"},
			"gwsim: error: unexpected argument \"gw.yaml\" for \"gwsim check\" (pass manifests with -f gw.yaml)\nRun 'gwsim check --help' for usage.\n"},
		{"empty controller name", []string{"ir", "-f", "@gw.yaml", "--controller-name="},
			"gwsim: error: --controller-name must not be empty\nRun 'gwsim ir --help' for usage.\n"},
		{"byte limit not a quantity", []string{"check", "-f", "@gw.yaml", "--max-file-bytes", "lots"},
			"gwsim: error: --max-file-bytes: \"lots\" is not a positive number of bytes (examples: 64Mi, 1Gi, 1048576)\nRun 'gwsim check --help' for usage.\n"},
		{"byte limit zero", []string{"check", "-f", "@gw.yaml", "--max-total-bytes=0"},
			"gwsim: error: --max-total-bytes: \"0\" is not a positive number of bytes (examples: 64Mi, 1Gi, 1048576)\nRun 'gwsim check --help' for usage.\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runCLI(t, Env{}, files, "", tt.args...)
			if got.code != exitUsage {
				t.Errorf("exit code = %d, want %d", got.code, exitUsage)
			}
			if got.stdout != "" {
				t.Errorf("stdout = %q, want nothing", got.stdout)
			}
			if diff := cmp.Diff(tt.wantStderr, got.stderr); diff != "" {
				t.Errorf("stderr mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestByteLimitFlags: --max-file-bytes, --max-total-bytes and
// --max-total-expanded-bytes reach the loader; an input over them is an input error (exit 2) naming the flag.
func TestByteLimitFlags(t *testing.T) {
	files := map[string]string{"gw.yaml": gatewayYAML}
	got := runCLI(t, Env{}, files, "", "check", "-f", "@gw.yaml", "--max-file-bytes", "100")
	want := "gw.yaml: error[GWS1009]: not read: larger than 100 bytes, the limit per input (--max-file-bytes)\n"
	if got.code != exitUsage || got.stderr != want {
		t.Errorf("exit code = %d, stderr = %q; want %d, %q", got.code, got.stderr, exitUsage, want)
	}
	total := strconv.Itoa(len(gatewayYAML) + 1) // room for one copy, not two
	got = runCLI(t, Env{}, files, "", "check", "-f", "@gw.yaml", "-f", "@gw.yaml", "--max-total-bytes", total, "--max-file-bytes=1Mi")
	if got.code != exitUsage || !strings.Contains(got.stderr, "gw.yaml: error[GWS1009]: not read: with it, the inputs would hold more than "+total+" bytes in total") {
		t.Errorf("exit code = %d, stderr = %q; want the total limit", got.code, got.stderr)
	}
	files["aliases.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  a: &x hello\n  b: *x\n"
	got = runCLI(t, Env{}, files, "", "check", "-f", "@aliases.yaml", "--max-total-expanded-bytes", "10")
	want = "aliases.yaml:1: error[GWS1009]: aliases expand this 79-byte document to 101 bytes: more than 10 bytes in total (--max-total-expanded-bytes); gwsim refuses it rather than run out of memory\n"
	if got.code != exitUsage || got.stderr != want {
		t.Errorf("exit code = %d, stderr = %q; want %d, %q", got.code, got.stderr, exitUsage, want)
	}
}

func TestInputErrorsPointAtTheFile(t *testing.T) {
	files := map[string]string{
		"gw.yaml": gatewayYAML,
		// A list in a file named with -f is not a manifest: an input
		// error, unlike a list in a directory, which is skipped.
		"bad.yaml": "# not a manifest\n\n\n\n- name: a\n",
	}
	for _, command := range []string{"translate", "routes", "ir", "status", "check"} {
		t.Run(command, func(t *testing.T) {
			got := runCLI(t, Env{}, files, "", command, "-f", "@gw.yaml", "-f", "@bad.yaml", "-o", "json")
			if got.code != exitUsage {
				t.Errorf("exit code = %d, want %d", got.code, exitUsage)
			}
			// check -o json explains its exit 2 on stdout too; the other
			// commands have no output to give.
			wantStdout := command == "check"
			if gotStdout := strings.Contains(got.stdout, `"reason": "ParseError"`); gotStdout != wantStdout || (!wantStdout && got.stdout != "") {
				t.Errorf("stdout = %q, want the parse error in JSON: %v", got.stdout, wantStdout)
			}
			if !strings.HasPrefix(got.stderr, "bad.yaml:5: error[GWS1002]: ") {
				t.Errorf("stderr = %q, want a bad.yaml:5 error", got.stderr)
			}
		})
	}
}

func TestExitCodes(t *testing.T) {
	clean := map[string]string{"all.yaml": classYAML + "---\n" + gatewayYAML + "---\n" + routeYAML + "---\n" + serviceYAML}
	noService := map[string]string{"all.yaml": classYAML + "---\n" + gatewayYAML + "---\n" + routeYAML}
	noClass := map[string]string{"all.yaml": gatewayYAML + "---\n" + routeYAML + "---\n" + serviceYAML}
	withOther := map[string]string{"all.yaml": classYAML + "---\n" + gatewayYAML + "---\n" + routeYAML + "---\n" + otherServiceYAML}
	tests := []struct {
		name  string
		files map[string]string
		extra []string
		want  int
	}{
		{"clean", clean, nil, exitOK},
		{"missing backend Service, closed world", noService, []string{"--assume", "none"}, exitFindings},
		{"missing backend Service in a namespace holding others", withOther, nil, exitFindings},
		{"assumed backend Service is fine", noService, nil, exitOK},
		{"assumed backend Service with --strict", noService, []string{"--strict"}, exitFindings},
		{"assumed GatewayClass is fine", noClass, nil, exitOK},
		{"assumed GatewayClass with --strict", noClass, []string{"--strict"}, exitFindings},
	}
	commands := [][]string{
		{"check"}, {"check", "-o", "json"}, {"check", "-o", "github"},
		{}, {"translate", "-o", "json"}, {"routes"}, {"routes", "-o", "yaml"},
		{"ir"}, {"ir", "-o", "json"}, {"status"}, {"status", "-o", "json"},
	}
	for _, tt := range tests {
		for _, command := range commands {
			args := append(append(append([]string{}, command...), "-f", "@all.yaml"), tt.extra...)
			t.Run(tt.name+"/"+strings.Join(command, " "), func(t *testing.T) {
				got := runCLI(t, Env{}, tt.files, "", args...)
				if got.code != tt.want {
					t.Errorf("exit code = %d, want %d\nstdout:\n%s\nstderr:\n%s", got.code, tt.want, got.stdout, got.stderr)
				}
			})
		}
	}
}

// TestCheckMissingBackend: the input holds a Service in the route's
// namespace, so it is taken as complete there and the missing one is an
// error, not an assumption.
func TestCheckMissingBackend(t *testing.T) {
	files := map[string]string{"all.yaml": classYAML + "---\n" + gatewayYAML + "---\n" + routeYAML + "---\n" + otherServiceYAML}
	got := runCLI(t, Env{}, files, "", "check", "-f", "@all.yaml")
	if got.code != exitFindings {
		t.Errorf("exit code = %d, want %d", got.code, exitFindings)
	}
	lines := strings.Split(strings.TrimSuffix(got.stdout, "\n"), "\n")
	// The warning is the rule's: with its only backend missing, every
	// request it matches gets a 500 (GWS5008).
	if last := lines[len(lines)-1]; last != "1 error, 1 warning, 0 infos" {
		t.Errorf("summary = %q, want %q\n%s", last, "1 error, 1 warning, 0 infos", got.stdout)
	}
	// The HTTPRoute is the 3rd document, after 6 + 1 + 10 + 1 lines: its
	// rule is at line 28, the backendRef naming the missing Service at 31.
	// Each finding sits at the field it is about.
	want := []string{
		"all.yaml:28: warning[GWS5008]: HTTPRoute default/web: spec.rules[0]: ",
		"all.yaml:31: error[GWS3001]: HTTPRoute default/web: status.parents[gw]: ResolvedRefs=False (BackendNotFound): spec.rules[0].backendRefs[0]: Service default/api does not exist",
	}
	for i, w := range want {
		if i >= len(lines) || !strings.HasPrefix(lines[i], w) {
			t.Errorf("finding %d = %q, want prefix %q\n%s", i, lines[min(i, len(lines)-1)], w, got.stdout)
		}
	}

	got = runCLI(t, Env{}, files, "", "check", "-f", "@all.yaml", "-o", "json")
	var doc struct {
		Findings []struct {
			Severity string `json:"severity"`
			Reason   string `json:"reason"`
		} `json:"findings"`
		Summary summary `json:"summary"`
	}
	if err := json.Unmarshal([]byte(got.stdout), &doc); err != nil {
		t.Fatalf("check -o json is not JSON: %v\n%s", err, got.stdout)
	}
	if got.code != exitFindings || doc.Summary != (summary{Errors: 1, Warnings: 1}) || len(doc.Findings) != 2 || doc.Findings[1].Reason != "BackendNotFound" {
		t.Errorf("check -o json: exit %d, %+v", got.code, doc)
	}
}

func TestRoutesFromStdin(t *testing.T) {
	stdin := classYAML + "---\n" + gatewayYAML + "---\n" + routeYAML + "---\n" + serviceYAML
	got := runCLI(t, Env{}, nil, stdin, "routes", "-f", "-")
	want := "" +
		"GATEWAY     PORT/PROTO  HOST         MATCH            ROUTE                    BACKENDS\n" +
		"default/gw  80/HTTP     example.com  PathPrefix /api  HTTPRoute default/web#0  default/api:8080\n"
	if got.code != exitOK || got.stderr != "" {
		t.Errorf("exit code = %d, stderr = %q", got.code, got.stderr)
	}
	if diff := cmp.Diff(want, got.stdout); diff != "" {
		t.Errorf("stdout mismatch (-want +got):\n%s", diff)
	}
}

func TestControllerNameNarrowsClasses(t *testing.T) {
	files := map[string]string{"all.yaml": classYAML + "---\n" + gatewayYAML + "---\n" + routeYAML + "---\n" + serviceYAML}
	got := runCLI(t, Env{}, files, "", "routes", "-f", "@all.yaml", "--controller-name", "example.com/other")
	if got.code != exitOK {
		t.Errorf("exit code = %d, want 0; stderr:\n%s", got.code, got.stderr)
	}
	if want := "No routes: no accepted Gateway has an attached route.\n"; got.stdout != want {
		t.Errorf("stdout = %q, want %q", got.stdout, want)
	}
}

func TestVerbose(t *testing.T) {
	files := map[string]string{"all.yaml": gatewayYAML + "---\n" + routeYAML + "---\n" + serviceYAML}
	got := runCLI(t, Env{}, files, "", "ir", "-f", "@all.yaml", "-v")
	for _, want := range []string{
		// At the Gateway's gatewayClassName: the assumed class is in no file.
		"\nall.yaml:6: info[GWS7001]: assumed 1 object not in the input: GatewayClass gwsim",
		"gwsim: 0 errors, 0 warnings, 1 info (run gwsim check for the full list)\n",
		"gwsim: loaded 3 objects, assumed 1\n",
		"gwsim: objects: 1 Gateway, 1 GatewayClass, 1 HTTPRoute, 1 Service\n",
		"gwsim: fixpoint after ",
	} {
		if !strings.Contains(got.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, got.stderr)
		}
	}
	quiet := runCLI(t, Env{}, files, "", "ir", "-f", "@all.yaml")
	if want := "gwsim: 0 errors, 0 warnings, 1 info (run gwsim check for the full list)\n"; quiet.stderr != want {
		t.Errorf("stderr without -v = %q, want %q", quiet.stderr, want)
	}
}

// TestStoresAgree runs every command over the fake client and the indexed
// store: the CLI must not depend on which store the controller used.
func TestStoresAgree(t *testing.T) {
	files := map[string]string{"all.yaml": gatewayYAML + "---\n" + routeYAML}
	for _, command := range []string{"translate", "check"} {
		t.Run(command, func(t *testing.T) {
			indexed := runCLI(t, Env{}, files, "", command, "-f", "@all.yaml", "-o", "json")
			fake := runCLI(t, Env{Store: offline.FakeStore}, files, "", command, "-f", "@all.yaml", "-o", "json")
			if diff := cmp.Diff(indexed, fake, cmp.AllowUnexported(cliResult{})); diff != "" {
				t.Errorf("indexed and fake stores differ (-indexed +fake):\n%s", diff)
			}
		})
	}
}

func TestVersionAndHelp(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"version command", []string{"version"}, "gwsim (devel)\ngateway-api v1.6.3\n"},
		{"version flag", []string{"--version"}, "gwsim (devel)\ngateway-api v1.6.3\n"},
		{"help", []string{"--help"}, "gwsim runs a Gateway API controller offline"},
		{"command help", []string{"check", "--help"}, "Print every finding"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runCLI(t, Env{}, nil, "", tt.args...)
			if got.code != exitOK || got.stderr != "" {
				t.Errorf("exit code = %d, stderr = %q", got.code, got.stderr)
			}
			if !strings.HasPrefix(got.stdout, tt.want) {
				t.Errorf("stdout = %q, want prefix %q", got.stdout, tt.want)
			}
		})
	}
}

// TestRunFailures checks that a store or controller that fails, or a
// panic on any goroutine, is reported as a bug of gwsim's: exit 3, "bug",
// and the version to report it against, never a bare error or a crash.
func TestRunFailures(t *testing.T) {
	files := map[string]string{"gw.yaml": gatewayYAML}
	report := "this is a bug in gwsim; please report it with the input that causes it and this version:\n" + versionString() + "\n"
	tests := []struct {
		name       string
		store      offline.StoreFactory
		wantStderr string
	}{
		{"store error", func(*runtime.Scheme, []client.Object, []controller.Index) (client.Client, error) {
			return nil, errors.New("store is full")
		}, "gwsim: bug: store is full\n" + report},
		{"panic", func(*runtime.Scheme, []client.Object, []controller.Index) (client.Client, error) {
			panic("boom")
		}, "gwsim: bug: panic: boom\n" + report + "\ngoroutine "},
		{"panic in a reconcile worker", func(s *runtime.Scheme, objs []client.Object, idx []controller.Index) (client.Client, error) {
			c, err := offline.IndexedStore(s, objs, idx)
			return panickyClient{c}, err
		}, "gwsim: bug: panic: get boom\n" + report + "\ngoroutine "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runCLI(t, Env{Store: tt.store}, files, "", "check", "-f", "@gw.yaml")
			if got.code != exitBug {
				t.Errorf("exit code = %d, want %d", got.code, exitBug)
			}
			if !strings.HasPrefix(got.stderr, tt.wantStderr) {
				t.Errorf("stderr = %q, want prefix %q", got.stderr, tt.wantStderr)
			}
		})
	}
}

// panickyClient panics on every Get, which reconcilers call on worker
// goroutines.
type panickyClient struct{ client.Client }

func (panickyClient) Get(context.Context, client.ObjectKey, client.Object, ...client.GetOption) error {
	panic("get boom")
}

// TestProfileFlags checks the hidden measuring flags: --profile=stages
// names every stage on stderr and leaves stdout as it is, --profile=cpu
// writes a profile, --profile=stage-heaps one per stage and
// --profile=peak-heap a file, and an unknown kind is a usage error.
func TestProfileFlags(t *testing.T) {
	files := map[string]string{"all.yaml": gatewayYAML + "---\n" + routeYAML + "---\n" + serviceYAML}
	plain := runCLI(t, Env{}, files, "", "routes", "-f", "@all.yaml")
	timed := runCLI(t, Env{}, files, "", "routes", "-f", "@all.yaml", "--profile", "stages")
	if timed.code != plain.code || timed.stdout != plain.stdout {
		t.Errorf("--profile=stages changed the run: exit %d, stdout %q; want exit %d, stdout %q", timed.code, timed.stdout, plain.code, plain.stdout)
	}
	for _, stage := range []string{"load", "store", "reconcile", "read", "findings", "render", "total"} {
		if !strings.Contains(timed.stderr, "gwsim: stage "+stage+" ") {
			t.Errorf("stderr lacks stage %s:\n%s", stage, timed.stderr)
		}
	}
	out := filepath.Join(t.TempDir(), "cpu.pprof")
	if got := runCLI(t, Env{}, files, "", "routes", "-f", "@all.yaml", "--profile", "cpu", "--profile-output", out); got.code != plain.code {
		t.Errorf("--profile=cpu: exit %d, want %d (stderr %s)", got.code, plain.code, got.stderr)
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 {
		t.Errorf("--profile=cpu wrote no profile: %v", err)
	}
	heaps := filepath.Join(t.TempDir(), "heap")
	if got := runCLI(t, Env{}, files, "", "routes", "-f", "@all.yaml", "--profile", "stage-heaps", "--profile-output", heaps); got.code != plain.code || got.stdout != plain.stdout {
		t.Errorf("--profile=stage-heaps changed the run: exit %d, stdout %q (stderr %s)", got.code, got.stdout, got.stderr)
	}
	for _, stage := range []string{"load", "store", "reconcile", "read", "findings", "render"} {
		if st, err := os.Stat(heaps + "." + stage); err != nil || st.Size() == 0 {
			t.Errorf("--profile=stage-heaps wrote no profile for stage %s: %v", stage, err)
		}
	}
	peak := filepath.Join(t.TempDir(), "peak.pprof")
	if got := runCLI(t, Env{}, files, "", "routes", "-f", "@all.yaml", "--profile", "peak-heap", "--profile-output", peak); got.code != plain.code || got.stdout != plain.stdout {
		t.Errorf("--profile=peak-heap changed the run: exit %d, stdout %q (stderr %s)", got.code, got.stdout, got.stderr)
	}
	if st, err := os.Stat(peak); err != nil || st.Size() == 0 {
		t.Errorf("--profile=peak-heap wrote no profile: %v", err)
	}
	if got := runCLI(t, Env{}, files, "", "routes", "-f", "@all.yaml", "--profile", "gpu"); got.code != exitUsage {
		t.Errorf("--profile=gpu: exit %d, want %d", got.code, exitUsage)
	}
}

// TestSummaryFollowsOutput checks the order a terminal shows, where stdout
// and stderr meet: stdout is buffered, and must be written out before the
// findings and summary line on stderr.
func TestSummaryFollowsOutput(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "all.yaml")
	broken := strings.Replace(routeYAML, "name: api", "name: missing", 1)
	if err := os.WriteFile(path, []byte(gatewayYAML+"---\n"+broken), 0o644); err != nil {
		t.Fatal(err)
	}
	var both bytes.Buffer
	code := ExecuteWith([]string{"routes", "-f", path}, Streams{In: strings.NewReader(""), Out: &both, Err: &both}, Env{})
	out := both.String()
	table, summary := strings.Index(out, "GATEWAY"), strings.Index(out, "gwsim: ")
	if code == exitUsage || table < 0 || summary < 0 || summary < table {
		t.Errorf("exit %d; want the table (at %d) before the summary (at %d):\n%s", code, table, summary, out)
	}
}
