package conformance

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	upstream "sigs.k8s.io/gateway-api/conformance"
	confv1 "sigs.k8s.io/gateway-api/conformance/apis/v1"
	"sigs.k8s.io/gateway-api/conformance/tests"
	"sigs.k8s.io/gateway-api/conformance/utils/config"
	"sigs.k8s.io/gateway-api/conformance/utils/suite"
	"sigs.k8s.io/gateway-api/pkg/features"
)

var updateDoc = flag.Bool("update-doc", false, "rewrite the results table in ../docs/conformance.md")

// childEnv tells the test binary that it is the child run of the suite.
const childEnv = "GWSIM_CONFORMANCE_CHILD"

// TestUpstreamSuite runs every upstream conformance test against gwsim (in
// a child process, see childTestName) and checks each outcome:
//   - a test gwsim skips must have a reason from the fixed list (skips.go);
//   - a failing test must be in expected-failures.txt with the spec rule
//     gwsim lacks, and a test listed there must still fail, so that the
//     list only shrinks;
//   - every upstream test must have an outcome.
//
// With -v it prints the results table and the summary line.
func TestUpstreamSuite(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("this is the child run")
	}
	if testing.Short() {
		t.Skip("the upstream suite takes a while; run without -short")
	}
	expectedFile, err := os.Open("expected-failures.txt")
	if err != nil {
		t.Fatal(err)
	}
	expected, err := parseExpectedFailures(expectedFile)
	expectedFile.Close()
	if err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(os.Args[0], "-test.run=^"+childTestName+"$", "-test.v", "-test.count=1", "-test.timeout=20m")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stdout
	start := time.Now()
	runErr := cmd.Run()
	elapsed := time.Since(start)
	// The whole child output is kept for reading failures in full.
	logPath := filepath.Join(os.TempDir(), "gwsim-conformance-child.log")
	if err := os.WriteFile(logPath, stdout.Bytes(), 0o644); err != nil {
		t.Logf("keeping the child output: %v", err)
	}
	parsed, err := parseChildOutput(bytes.NewReader(stdout.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(parsed) == 0 {
		t.Fatalf("the child run printed no results (%v):\n%s", runErr, lastLines(stdout.String(), 60))
	}

	var results []TestResult
	for _, test := range tests.ConformanceTests {
		res := TestResult{Name: test.ShortName, Outcome: Missing}
		if p := parsed[test.ShortName]; p != nil {
			res = *p
		}
		reason, isExpected := expected[test.ShortName]
		skip, isSkipped := skipFor(test.ShortName, featureNames(test.Features))
		switch res.Outcome {
		case Passed:
			if isExpected {
				t.Errorf("%s passes now: remove it from expected-failures.txt (it said: %s)", res.Name, reason)
			}
		case Skipped:
			if !isSkipped {
				t.Errorf("%s was skipped with a reason that is not on the harness's list: %s", res.Name, res.Reason)
			} else {
				res.Reason = skip.String()
			}
			if isExpected {
				t.Errorf("%s is skipped (%s) and also listed in expected-failures.txt", res.Name, res.Reason)
			}
		case Failed:
			if !isExpected {
				t.Errorf("%s fails and is not in expected-failures.txt:\n%s", res.Name, lastLines(strings.Join(res.Log, "\n"), 40))
			}
			res.Reason = reason
		case Missing:
			t.Errorf("%s has no outcome: the child run did not report it", res.Name)
		}
		results = append(results, res)
		delete(parsed, test.ShortName)
		delete(expected, test.ShortName)
	}
	for name := range expected {
		t.Errorf("expected-failures.txt lists %s, which is not an upstream test", name)
	}
	if runErr != nil && len(parsed) > 0 {
		t.Logf("child run: %v", runErr)
	}

	var table bytes.Buffer
	writeTable(&table, results)
	if testing.Verbose() {
		fmt.Printf("\n%s(child run took %s; its full output is in %s)\n", table.String(), elapsed.Round(time.Second), logPath)
	}
	if *updateDoc {
		if err := updateDocTable(filepath.Join("..", "docs", "conformance.md"), table.String()); err != nil {
			t.Fatal(err)
		}
	}
}

// TestUpstreamSuiteChild is the child run: it builds the suite against a
// Cluster and runs every upstream test as a subtest, skipping those on the
// harness's skip list. Failures here are reported to the parent through the
// output, which the parent parses.
func TestUpstreamSuiteChild(t *testing.T) {
	if os.Getenv(childEnv) == "" {
		t.Skip("runs only as the child of TestUpstreamSuite")
	}
	cluster, err := NewCluster(DefaultControllerName, suiteGatewayClass())
	if err != nil {
		t.Fatal(err)
	}
	network := NewNetwork(cluster)
	s, err := suite.NewConformanceTestSuite(suiteOptions(cluster, network))
	if err != nil {
		t.Fatal(err)
	}
	s.Setup(t, tests.ConformanceTests)
	for _, test := range tests.ConformanceTests {
		t.Run(test.ShortName, func(t *testing.T) {
			if skip, ok := skipFor(test.ShortName, featureNames(test.Features)); ok {
				t.Skip(skip.String())
			}
			// The test's sockets close after its own cleanup has run.
			closeLoopback := network.OpenLoopback()
			t.Cleanup(func() {
				if err := closeLoopback(); err != nil {
					t.Errorf("loopback network: %v", err)
				}
			})
			test.Run(t, s)
		})
	}
}

// suiteOptions configures the upstream suite for an in-process run.
func suiteOptions(cluster *Cluster, network *Network) suite.ConformanceOptions {
	opts := suite.ConformanceOptions{
		Client:          cluster,
		Clientset:       Clientset(network),
		RoundTripper:    &RoundTripper{Network: network},
		GRPCClient:      &GRPCClient{Network: network},
		WebSocketDialer: &WebSocketDialer{Network: network},
		ManifestFS:      []fs.FS{upstream.Manifests},
	}
	opts.GatewayClassName = DefaultGatewayClassName
	opts.SupportedFeatures = gatewayFeatures()
	opts.CleanupBaseResources = false
	opts.CleanupTestResources = true
	opts.TimeoutConfig = shortTimeouts()
	opts.UsableNetworkAddresses = UsableStaticAddresses()
	opts.UnusableNetworkAddresses = UnusableStaticAddresses()
	opts.Implementation = confv1.Implementation{
		Organization: "gwsim", Project: "gwsim", URL: "https://github.com/gwsim/gwsim",
		Version: "dev", Contact: []string{"https://github.com/gwsim/gwsim/issues"},
	}
	return opts
}

// gatewayFeatures is every feature of the suite but the mesh ones: the run
// asks every gateway test to run and skips (with a reason) what it cannot.
func gatewayFeatures() []features.FeatureName {
	mesh := features.SetsToNamesSet(features.MeshCoreFeatures, features.MeshExtendedFeatures)
	all := features.SetsToNamesSet(features.AllFeatures).Difference(mesh)
	return sets.List(all)
}

// shortTimeouts shortens the suite's waits. gwsim's world is settled before
// any read, so what is not true at the first poll never becomes true; the
// waits only decide how long a failing test takes. A failed request check
// retries after a fixed second (AwaitConvergence), so MaxTimeToConsistency
// allows two tries.
func shortTimeouts() config.TimeoutConfig {
	const wait = 2 * time.Second
	tc := config.DefaultTimeoutConfig()
	tc.TestIsolation = 0
	tc.CreateTimeout, tc.DeleteTimeout, tc.GetTimeout = wait, wait, wait
	tc.GatewayMustHaveAddress, tc.GatewayMustHaveCondition = wait, wait
	tc.GatewayStatusMustHaveListeners, tc.GatewayListenersMustHaveConditions = wait, wait
	tc.ListenerSetMustHaveCondition, tc.ListenerSetListenersMustHaveConditions = wait, wait
	tc.GWCMustBeAccepted = wait
	tc.HTTPRouteMustNotHaveParents, tc.HTTPRouteMustHaveCondition = wait, wait
	tc.TLSRouteMustHaveCondition, tc.TCPRouteMustHaveCondition, tc.UDPRouteMustHaveCondition = wait, wait, wait
	tc.RouteMustHaveParents = wait
	tc.ManifestFetchTimeout = wait
	tc.MaxTimeToConsistency = 2500 * time.Millisecond
	tc.NamespacesMustBeReady = wait
	tc.RequestTimeout = wait
	tc.LatestObservedGenerationSet = wait
	tc.DefaultTestTimeout = 10 * time.Second
	tc.DefaultPollInterval = 50 * time.Millisecond
	tc.RequiredConsecutiveSuccesses = 1
	return tc
}

// suiteGatewayClass is the GatewayClass the suite is pointed at; the
// suite's caller creates it before a run.
func suiteGatewayClass() *gwv1.GatewayClass {
	return &gwv1.GatewayClass{
		TypeMeta:   metav1.TypeMeta{APIVersion: gwv1.GroupVersion.String(), Kind: "GatewayClass"},
		ObjectMeta: metav1.ObjectMeta{Name: DefaultGatewayClassName},
		Spec:       gwv1.GatewayClassSpec{ControllerName: gwv1.GatewayController(DefaultControllerName)},
	}
}

func featureNames(fs []features.FeatureName) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = string(f)
	}
	return out
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// updateDocTable replaces what lies between the results markers of the
// document at path with table.
func updateDocTable(path, table string) error {
	const begin, end = "<!-- BEGIN conformance results -->\n", "<!-- END conformance results -->"
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	doc := string(data)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %q ... %q markers", path, strings.TrimSpace(begin), end)
	}
	stamp := fmt.Sprintf("Run on %s against gateway-api conformance v1.6.3.\n\n", time.Now().UTC().Format("2006-01-02"))
	doc = doc[:i+len(begin)] + stamp + table + doc[j:]
	return os.WriteFile(path, []byte(doc), 0o644)
}
