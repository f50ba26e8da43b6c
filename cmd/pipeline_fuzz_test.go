package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/corpus"
	"github.com/gwsim/gwsim/translate/explain"
	"github.com/gwsim/gwsim/translate/routetest"
)

// FuzzPipeline runs arbitrary bytes, read as stdin, through the whole
// pipeline (load, fixpoint, translate) and every renderer in every format,
// and checks what must hold for any input (see checkPipeline). Seeds are
// the golden cases' inputs and the conformance suite's manifests; `make
// fuzz` runs it for FUZZTIME.
func FuzzPipeline(f *testing.F) {
	for _, seed := range seedManifests(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkPipeline(t, data)
	})
}

// maxSeedBytes keeps the seeds small enough for the fuzzer to mutate
// quickly; the larger golden inputs add little that the smaller ones lack.
const maxSeedBytes = 32 << 10

// seedManifests returns every golden case's input files joined into one
// stream, and each conformance manifest, up to maxSeedBytes each.
func seedManifests(tb testing.TB) [][]byte {
	tb.Helper()
	var seeds [][]byte
	cases, err := filepath.Glob("../golden/*/input")
	if err != nil {
		tb.Fatal(err)
	}
	for _, dir := range cases {
		var stream [][]byte
		files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			stream = append(stream, b)
		}
		seeds = append(seeds, bytes.Join(stream, []byte("\n---\n")))
	}
	for _, p := range corpus.ConformanceManifests() {
		if b, err := os.ReadFile(p); err == nil {
			seeds = append(seeds, b)
		}
	}
	return slices.DeleteFunc(seeds, func(b []byte) bool { return len(b) > maxSeedBytes })
}

// rendered is everything one run printed, by renderer and format, and
// the exit code the CLI would give.
type rendered struct {
	code     int
	outputs  map[string]string
	findings []string
}

// checkPipeline checks that data, as one input, goes through the
// pipeline and every renderer without a panic (a panic fails the fuzz
// run) and ends with exit 0, 1 or 2, never 3; and that the same documents
// in reverse order give the same exit code, byte-identical routes, IR,
// status and explain output, and the same findings apart from where they
// point.
func checkPipeline(t *testing.T, data []byte) {
	t.Helper()
	got := renderAll(t, data)
	rev, ok := reverseDocuments(data)
	if !ok {
		return
	}
	again := renderAll(t, rev)
	if got.code != again.code {
		t.Fatalf("exit code %d, but %d with the documents reversed\ninput:\n%s", got.code, again.code, data)
	}
	if diff := cmp.Diff(got.outputs, again.outputs); diff != "" {
		t.Fatalf("output differs with the documents reversed (-as given +reversed):\n%s\ninput:\n%s", diff, data)
	}
	if diff := cmp.Diff(got.findings, again.findings); diff != "" {
		t.Fatalf("findings differ with the documents reversed (-as given +reversed):\n%s\ninput:\n%s", diff, data)
	}
}

// fuzzRequest is the request explain traces in every run.
var fuzzRequest = routetest.Request{URL: "http://www.example.com/", Method: "GET"}

// renderAll runs the pipeline once over data and renders its outcome with
// every command's renderer in each of its formats, and explain's.
func renderAll(t *testing.T, data []byte) rendered {
	t.Helper()
	flags := &pipelineFlags{Files: []string{"-"}, ControllerName: defaultControllerName, Namespace: "default"}
	var stderr bytes.Buffer
	out, err := runPipeline(context.Background(), flags, Streams{In: bytes.NewReader(data), Err: &stderr}, Env{})
	r := rendered{outputs: map[string]string{}}
	if err != nil {
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != exitUsage {
			t.Fatalf("pipeline: %v (want exit 2 or a result)\ninput:\n%s", err, data)
		}
		r.code, r.findings = exitUsage, findingKeys(ee.inputErrors)
		return r
	}
	r.code, r.findings = exitOK, findingKeys(out.Findings)
	if out.Failed {
		r.code = exitFindings
	}
	for _, p := range []pipelineCommand{translateCommand(), routesCommand(), irCommand(), statusCommand(), checkCommand()} {
		for _, f := range p.formats {
			var b bytes.Buffer
			if err := p.render(&b, f, out); err != nil {
				t.Fatalf("%s -o %s: %v\ninput:\n%s", p.use, f, err, data)
			}
			if !p.findingsAreOutput && !(p.use == "translate" && f != formatText) {
				r.outputs[p.use+" -o "+string(f)] = b.String()
			}
		}
	}
	req, err := fuzzRequest.Build("default")
	if err != nil {
		t.Fatal(err)
	}
	trace := explain.Explain(explain.NewInput(out.Result.Output, out.Result.Objects, out.Sources), req)
	for _, f := range []format{formatText, formatJSON} {
		var b bytes.Buffer
		if err := renderExplain(&b, f, trace); err != nil {
			t.Fatalf("explain -o %s: %v\ninput:\n%s", f, err, data)
		}
		r.outputs["explain -o "+string(f)] = sourceLines.ReplaceAllString(b.String(), "SOURCE")
	}
	return r
}

// sourceLines matches what names a place in the input, which reversing
// the documents moves: a source, and the "line N" of a parser message.
var sourceLines = regexp.MustCompile(`(?:<stdin>|\\u003cstdin\\u003e):\d+|"line": \d+|\bline \d+\b`)

// findingKeys renders findings without where they point, sorted: the
// same documents in another order give the same keys.
func findingKeys(fs []diag.Finding) []string {
	keys := make([]string, len(fs))
	for i, f := range fs {
		f.Source = diag.Source{}
		keys[i] = sourceLines.ReplaceAllString(f.String()+" ("+f.Reason+")", "SOURCE")
	}
	slices.Sort(keys)
	return keys
}

// reverseDocuments returns data with its `---`-separated documents in
// reverse order, or false when reversing could change what the loader
// reads (a JSON stream, a byte order mark, document end markers or
// directives, a last document without a final newline, which the YAML
// parser reads differently) or when there is only one document.
func reverseDocuments(data []byte) ([]byte, bool) {
	s := string(data)
	if strings.Contains(s, "\ufeff") || strings.Contains(s, "\r") || !strings.HasSuffix(s, "\n") {
		return nil, false
	}
	var docs []string
	var cur strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(line, "...") || strings.HasPrefix(line, "%") || strings.HasPrefix(line, "--- ") || strings.HasPrefix(line, "---\t") {
			return nil, false
		}
		if strings.TrimRight(line, "\n") == "---" {
			docs = append(docs, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteString(line)
	}
	docs = append(docs, cur.String())
	if len(docs) < 2 {
		return nil, false
	}
	for _, d := range docs {
		if strings.HasPrefix(strings.TrimLeft(d, " \t\n"), "{") {
			return nil, false // the first document decides whether a file is a JSON stream
		}
	}
	slices.Reverse(docs)
	return []byte(strings.Join(docs, "---\n")), true
}

func TestReverseDocuments(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{"a: 1\n---\nb: 2\n", "b: 2\n---\na: 1\n", true},
		{"a: 1\n---\nb: 2", "", false},
		{"---\na: 1\n---\nb: 2\n", "b: 2\n---\na: 1\n---\n", true},
		{"a: 1\n", "", false},
		{"{\"a\": 1}\n---\nb: 2\n", "", false},
		{"a: 1\n...\n---\nb: 2\n", "", false},
		{"a: 1\n--- # c\nb: 2\n", "", false},
	} {
		got, ok := reverseDocuments([]byte(tt.in))
		if ok != tt.ok || string(got) != tt.want {
			t.Errorf("reverseDocuments(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// TestPipelineSeeds runs checkPipeline over every seed, so that the
// properties FuzzPipeline checks hold for the corpus in every `go test`.
func TestPipelineSeeds(t *testing.T) {
	for i, seed := range seedManifests(t) {
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkPipeline(t, seed) })
	}
}
