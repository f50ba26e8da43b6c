package egmeasure_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/cmd"
	"github.com/gwsim/gwsim/internal/corpus"
	"github.com/gwsim/gwsim/internal/egmeasure"
	"github.com/gwsim/gwsim/offline/validate"
)

// agreementFloor is the number of cases without EG policy kinds on which
// gwsim agrees with EG today, and admittedFloor the number of cases whose
// input the API server admits (policy ancestors compared) on which it
// does: fewer fails the test, so a regression shows. Raise them when
// gwsim agrees on more.
const (
	agreementFloor = 357
	admittedFloor  = 556
)

var (
	report = flag.String("report", "", "write the per-case results and the difference classes to this file")
	only   = flag.String("case", "", "run only the cases whose name matches this regular expression (the floor is not checked)")
	dump   = flag.String("dump", "", "write each case's manifests, as gwsim reads them, to DIR/NAME.yaml")
)

// gwsimArgs is how the measure runs gwsim: status as JSON, from stdin,
// with EG's controllerName (so that EG's class is gwsim's and selects the
// envoy-gateway profile), no admission (EG's test hands objects to the
// translator unvalidated, as its standalone file provider does) and the
// experimental channel (the test's inputs use its kinds and fields).
var gwsimArgs = []string{"status", "-o", "json", "-f", "-", "--channel", "experimental", "--implementation", "envoy-gateway", "--admission", "none",
	"--validate=false", "--assume", "none", "--controller-name", egmeasure.ControllerName}

type result struct {
	name        string
	policyKinds []string
	unsimulated []string
	// refusals are what the API server says of the objects it refuses.
	refusals []string
	err      string
	diffs    []egmeasure.Difference
}

func (r result) pass() bool { return r.err == "" && len(r.diffs) == 0 }

func TestEnvoyGatewayTranslatorCases(t *testing.T) {
	dir, err := corpus.EnvoyGatewayDir()
	if err != nil {
		corpus.Missing(t, "Envoy Gateway's translator cases", err)
	}
	testdata := filepath.Join(dir, "internal", "gatewayapi", "testdata")
	cases, err := egmeasure.Cases(testdata)
	if err != nil || len(cases) == 0 {
		t.Fatalf("Envoy Gateway's translator cases in %s: %d cases, %v", testdata, len(cases), err)
	}
	base, err := os.ReadFile(filepath.Join(testdata, "base", "base.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if *only != "" {
		re, err := regexp.Compile(*only)
		if err != nil {
			t.Fatal(err)
		}
		cases = slices.DeleteFunc(cases, func(c egmeasure.Case) bool { return !re.MatchString(c.Name) })
	}
	results := make([]result, len(cases))
	v := validate.New(validate.Experimental)
	for i, c := range cases {
		results[i] = runCase(c, base, v)
	}
	total, noPolicy, passNoPolicy, pass, admitted, passAdmitted := 0, 0, 0, 0, 0, 0
	for _, r := range results {
		total++
		if r.pass() {
			pass++
		}
		if len(r.refusals) == 0 {
			admitted++
			if r.pass() {
				passAdmitted++
			}
		}
		if len(r.policyKinds) == 0 {
			noPolicy++
			if r.pass() {
				passNoPolicy++
			}
		}
		if !r.pass() && testing.Verbose() {
			t.Logf("FAIL %s%s", r.name, describe(r))
		}
	}
	summary := fmt.Sprintf("Envoy Gateway translator cases: %d; without EG policy kinds: %d, gwsim agrees on %d (%.1f%%); input the API server admits: %d, agrees on %d (%.1f%%); all cases: agrees on %d (%.1f%%)",
		total, noPolicy, passNoPolicy, percent(passNoPolicy, noPolicy), admitted, passAdmitted, percent(passAdmitted, admitted), pass, percent(pass, total))
	t.Log(summary)
	if *report != "" {
		if err := os.WriteFile(*report, []byte(renderReport(summary, results)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if *only == "" && passNoPolicy < agreementFloor {
		t.Errorf("gwsim agrees with Envoy Gateway on %d cases without policy kinds, fewer than the floor of %d", passNoPolicy, agreementFloor)
	}
	if *only == "" && passAdmitted < admittedFloor {
		t.Errorf("gwsim agrees with Envoy Gateway on %d cases whose input the API server admits, fewer than the floor of %d", passAdmitted, admittedFloor)
	}
}

func runCase(c egmeasure.Case, base []byte, v *validate.Validator) result {
	r := result{name: c.Name}
	inData, err := os.ReadFile(c.In)
	if err != nil {
		r.err = err.Error()
		return r
	}
	in, err := egmeasure.ReadInput(inData)
	if err != nil {
		r.err = "input: " + err.Error()
		return r
	}
	r.policyKinds, r.unsimulated, r.refusals = in.PolicyKinds, in.Unsimulated, in.Refusals(v)
	manifests, implied, err := in.Manifests(base)
	if err != nil {
		r.err = "input: " + err.Error()
		return r
	}
	if *dump != "" {
		if err := os.WriteFile(filepath.Join(*dump, c.Name+".yaml"), manifests, 0o644); err != nil {
			r.err = err.Error()
			return r
		}
	}
	outData, err := os.ReadFile(c.Out)
	if err != nil {
		r.err = err.Error()
		return r
	}
	want, err := egmeasure.ReadExpected(outData)
	if err != nil {
		r.err = "expected output: " + err.Error()
		return r
	}
	want = egmeasure.WithProviderRefusals(egmeasure.WithoutUnnamedBackends(want, in), in)
	var stdout, stderr bytes.Buffer
	code := cmd.Execute(gwsimArgs, cmd.Streams{In: bytes.NewReader(manifests), Out: &stdout, Err: &stderr})
	if code > 1 {
		r.err = fmt.Sprintf("gwsim exit %d: %s", code, firstLine(stderr.String()))
		return r
	}
	got, err := egmeasure.ReadGot(stdout.Bytes())
	if err != nil {
		r.err = "gwsim output: " + err.Error()
		return r
	}
	for _, k := range implied {
		delete(got, k)
	}
	r.diffs = egmeasure.Compare(want, got)
	return r
}

func describe(r result) string {
	if r.err != "" {
		return ": " + r.err
	}
	var b strings.Builder
	for _, d := range r.diffs {
		b.WriteString("\n    " + d.String())
	}
	return b.String()
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func percent(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// renderReport writes the results as Markdown: the summary, the reasons
// for the differences on the cases without policy kinds (each with the
// number of cases it appears in, and its difference classes), and every
// case.
func renderReport(summary string, results []result) string {
	var b strings.Builder
	b.WriteString(summary + "\n\n## Differences on the cases without policy kinds, by reason\n\n")
	b.WriteString(reasonList(results, func(r result) bool { return len(r.policyKinds) == 0 }))
	b.WriteString("\n## Differences on the cases whose input the API server admits, by reason\n\n")
	b.WriteString(reasonList(results, func(r result) bool { return len(r.refusals) == 0 }))
	b.WriteString("\n## Cases\n\n")
	for _, r := range results {
		status := "pass"
		if !r.pass() {
			status = "FAIL"
		}
		refused := ""
		if len(r.refusals) > 0 {
			refused = "; refused by the API server: " + strings.Join(r.refusals, "; ")
		}
		fmt.Fprintf(&b, "- %s %s (policy kinds: %s; not given to gwsim: %s%s)%s\n", status, r.name,
			strings.Join(r.policyKinds, ","), strings.Join(r.unsimulated, ","), refused, describe(r))
	}
	return b.String()
}

// reasonList lists, for the results in, the reasons for their
// differences, each with the number of cases it appears in (and is the
// only reason for), and its difference classes.
func reasonList(results []result, in func(result) bool) string {
	byReason := map[string]map[string]bool{}
	classes := map[string]int{}
	reasonCases := map[string]int{}
	// alone counts the cases a reason is the only one for: what fixing it
	// would gain.
	alone := map[string]int{}
	for _, r := range results {
		if !in(r) {
			continue
		}
		seen := map[string]bool{}
		if r.err != "" {
			seen["run error: "+r.err] = true
		}
		for _, d := range r.diffs {
			seen[d.Class()] = true
		}
		seenReason := map[string]bool{}
		for c := range seen {
			classes[c]++
			reason := egmeasure.Explain(c)
			if reason == "" {
				reason = "no reason recorded"
			}
			if byReason[reason] == nil {
				byReason[reason] = map[string]bool{}
			}
			byReason[reason][c] = true
			seenReason[reason] = true
		}
		for reason := range seenReason {
			reasonCases[reason]++
			if len(seenReason) == 1 {
				alone[reason]++
			}
		}
	}
	var b strings.Builder
	for _, reason := range byCount(reasonCases) {
		fmt.Fprintf(&b, "- %d cases (%d by this alone): %s\n", reasonCases[reason], alone[reason], reason)
		for _, c := range byCount(subset(classes, byReason[reason])) {
			fmt.Fprintf(&b, "  - %d: %s\n", classes[c], c)
		}
	}
	return b.String()
}

// byCount sorts the keys of counts, largest count first, then by name.
func byCount(counts map[string]int) []string {
	names := make([]string, 0, len(counts))
	for c := range counts {
		names = append(names, c)
	}
	sort.Slice(names, func(i, j int) bool {
		if counts[names[i]] != counts[names[j]] {
			return counts[names[i]] > counts[names[j]]
		}
		return names[i] < names[j]
	})
	return names
}

func subset(counts map[string]int, keys map[string]bool) map[string]int {
	out := map[string]int{}
	for k := range keys {
		out[k] = counts[k]
	}
	return out
}
