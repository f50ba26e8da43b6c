package conformance

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// adapterFiles are the files that stand between the suite's clients and
// gwsim's evaluator: they turn the suite's requests into evaluator
// requests and the evaluator's answers into responses. The echo Pods
// (echo*.go), the kubelet and the crypto of TLS handshakes (backendtls.go,
// the verification in clientcert.go) are not the gateway and are not
// listed; clientcert.go is, because it decides when to ask for a client
// certificate only as the evaluator says.
var adapterFiles = []string{"roundtrip.go", "grpcclient.go", "websocket.go", "network.go", "clientcert.go", "loopback.go"}

// TestAdapterDecidesNothing fails when an adapter file makes a decision
// that belongs to the evaluator (the brief: an answer that only a test
// harness gives is a bug): an HTTP status of its own, a gRPC status other
// than the UNAVAILABLE of a connection that fails, a read of the IR or
// result fields the data plane decides with (endpoints, weights, retries,
// timeouts, mirrors, response headers, validity, TLS modes), a header
// change, an endpoint pick, or a random draw other than seeding the
// explicit source the evaluator draws from.
func TestAdapterDecidesNothing(t *testing.T) {
	for _, file := range adapterFiles {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range adapterDecisions(t, file, src) {
			t.Errorf("%s: the adapter decides what the evaluator must (move it to translate/evaluate)", v)
		}
	}
}

// TestAdapterCheckFindsDecisions makes sure the check above is not blind:
// each decision a harness used to make is caught.
func TestAdapterCheckFindsDecisions(t *testing.T) {
	tests := map[string]string{
		"status":      `func f(c *call) { c.response(evaluate.Response{Status: http.StatusServiceUnavailable}) }`,
		"literal":     `func f() int { return 421 }`,
		"endpoints":   `func f(cl *ir.Cluster) bool { return len(cl.Endpoints) == 0 }`,
		"retry":       `func f(res evaluate.Result) bool { return res.Retry != nil }`,
		"headers":     `func f(h http.Header, res evaluate.Result) { evaluate.ModifyHeaders(h, res.ResponseHeaders) }`,
		"random":      `func f(n int) int { return rand.IntN(n) }`,
		"grpc status": `func f() codes.Code { return codes.Unimplemented }`,
		"tls mode":    `func f(c evaluate.ConnectionResult) bool { return c.TLSMode == "Passthrough" }`,
	}
	for name, body := range tests {
		if got := adapterDecisions(t, name+".go", []byte("package conformance\n"+body)); len(got) == 0 {
			t.Errorf("%s: %s is not reported", name, body)
		}
	}
	clean := `func f(res evaluate.Result) bool { rnd := rand.New(rand.NewPCG(rand.Uint64(), 1)); _ = rnd; return res.Status == 0 && 443 > 0 }`
	if got := adapterDecisions(t, "clean.go", []byte("package conformance\n"+clean)); len(got) > 0 {
		t.Errorf("a clean adapter is reported: %v", got)
	}
}

// decidedFields are the fields of the IR and of the evaluator's results
// that only the data plane acts on.
var decidedFields = []string{
	"Endpoints", "Backends", "Weight", "Retry", "Timeouts", "Mirrors", "CORSHeaders", "ResponseHeaders",
	"Invalid", "Reject", "Mode", "TLSMode", "FrontendValidation", "VirtualHosts", "Listeners", "Routes",
	"Redirect", "DirectResponse", "NoReadyEndpoints", "Codes", "Attempts",
}

// allowedRand are the math/rand/v2 names that seed an explicit source.
var allowedRand = []string{"New", "NewPCG", "Uint64", "Rand"}

// adapterDecisions lists the decisions in one Go file, "file:line: what".
func adapterDecisions(t *testing.T, name string, src []byte) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	report := func(n ast.Node, format string, args ...any) {
		out = append(out, fmt.Sprintf("%s: %s", fset.Position(n.Pos()), fmt.Sprintf(format, args...)))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if v, err := strconv.Atoi(n.Value); err == nil && n.Kind == token.INT && v >= 100 && v <= 599 && v != 443 {
				report(n, "status-like literal %d", v)
			}
		case *ast.SelectorExpr:
			pkg, _ := n.X.(*ast.Ident)
			switch {
			case pkg != nil && pkg.Name == "http" && strings.HasPrefix(n.Sel.Name, "Status"):
				report(n, "HTTP status %s", n.Sel.Name)
			case pkg != nil && pkg.Name == "codes" && n.Sel.Name != "Unavailable" && n.Sel.Name != "Code":
				report(n, "gRPC status %s", n.Sel.Name)
			case pkg != nil && pkg.Name == "rand" && !slices.Contains(allowedRand, n.Sel.Name):
				report(n, "random draw rand.%s", n.Sel.Name)
			case pkg != nil && pkg.Name == "evaluate" && (n.Sel.Name == "ModifyHeaders" || n.Sel.Name == "PickEndpoint"):
				report(n, "evaluate.%s, which the evaluator calls itself", n.Sel.Name)
			case slices.Contains(decidedFields, n.Sel.Name):
				report(n, "reads .%s", n.Sel.Name)
			}
		}
		return true
	})
	return out
}
