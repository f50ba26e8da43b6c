package routetest

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/explain"
)

// outcomes are the evaluator's outcomes a test may expect.
var outcomes = []evaluate.Outcome{
	evaluate.Routed, evaluate.Redirected, evaluate.DirectResponse, evaluate.CORSPreflight, evaluate.AuthDenied,
	evaluate.RouteNotFound, evaluate.NoListener, evaluate.NoGateway, evaluate.Misdirected, evaluate.NoHealthyUpstream,
	evaluate.ConnectionFailed, evaluate.Forwarded, evaluate.Rejected,
	evaluate.FaultAborted, evaluate.CredentialsRequired, evaluate.AuthorizationDenied, evaluate.BadRequest,
	evaluate.PathRedirected, evaluate.ResponseOverridden, evaluate.PolicyInvalid,
}

func outcomeList() string {
	names := make([]string, len(outcomes))
	for i, o := range outcomes {
		names[i] = string(o)
	}
	return strings.Join(names, ", ")
}

// The apiVersion and kind a cases file may declare. Both are optional; a
// file that declares them can sit in a manifests directory, because the
// loader skips this kind.
const (
	APIVersion = "gwsim.dev/v1alpha1"
	Kind       = "RouteTests"
)

// Problem is one mistake in a cases file, at the line it is on.
type Problem struct {
	Source diag.Source
	// Field is the path of the value, e.g. tests[2].expect.route; empty
	// for a problem with the file as a whole.
	Field   string
	Message string
}

// fileDoc and the types below are the cases file as YAML writes it.
type fileDoc struct {
	APIVersion string      `yaml:"apiVersion"`
	Kind       string      `yaml:"kind"`
	Defaults   defaultsDoc `yaml:"defaults"`
	Tests      []caseDoc   `yaml:"tests"`
}

// defaultsDoc is what every test's request gets unless it says otherwise:
// the Gateway, the scheme of URLs written without one, and headers.
type defaultsDoc struct {
	Gateway string            `yaml:"gateway"`
	Scheme  string            `yaml:"scheme"`
	Headers map[string]string `yaml:"headers"`
}

type caseDoc struct {
	Name    string     `yaml:"name"`
	Request requestDoc `yaml:"request"`
	Expect  expectDoc  `yaml:"expect"`
}

type requestDoc struct {
	URL     string            `yaml:"url"`
	Method  string            `yaml:"method"`
	Headers map[string]string `yaml:"headers"`
	SNI     string            `yaml:"sni"`
	Gateway string            `yaml:"gateway"`
	Port    int               `yaml:"port"`
	Address string            `yaml:"address"`
	// ClientIP is the client's address, which authorization rules on
	// client CIDRs see.
	ClientIP string `yaml:"clientIP"`
}

type expectDoc struct {
	Outcome  string           `yaml:"outcome"`
	Status   *int             `yaml:"status"`
	Location string           `yaml:"location"`
	Route    string           `yaml:"route"`
	Backend  string           `yaml:"backend"`
	Backends map[string]int32 `yaml:"backends"`
	Path     string           `yaml:"path"`
	Host     string           `yaml:"host"`
	Headers  headersDoc       `yaml:"headers"`
	// ResponseHeaders are headers the gateway puts on the response.
	ResponseHeaders headersDoc `yaml:"responseHeaders"`
}

type headersDoc struct {
	Present map[string]string `yaml:"present"`
	Absent  []string          `yaml:"absent"`
}

// Parse reads a cases file. file names it in problems; namespace is the
// namespace of a Gateway named without one. Every problem is collected,
// each with its line; the Suite is only usable when there are none.
func Parse(file string, data []byte, namespace string) (Suite, []Problem) {
	p := &parser{file: file, namespace: namespace}
	if err := yaml.Unmarshal(data, &p.root); err != nil {
		return Suite{}, []Problem{p.yamlError(err)}
	}
	var doc fileDoc
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return Suite{}, p.decodeErrors(err)
	}
	s := p.suite(doc)
	return s, p.problems
}

// parser holds the file's node tree, which knows the line of every value.
type parser struct {
	file      string
	namespace string
	defaults  defaultsDoc
	root      yaml.Node
	problems  []Problem
}

// add records a problem at the value path names (see node).
func (p *parser) add(path []any, format string, args ...any) {
	p.problems = append(p.problems, Problem{
		Source:  diag.Source{File: p.file, Line: p.line(path)},
		Field:   fieldPath(path),
		Message: fmt.Sprintf(format, args...),
	})
}

func (p *parser) suite(doc fileDoc) Suite {
	if doc.APIVersion != "" && doc.APIVersion != APIVersion {
		p.add([]any{"apiVersion"}, "want %s, or nothing", APIVersion)
	}
	if doc.Kind != "" && doc.Kind != Kind {
		p.add([]any{"kind"}, "want %s, or nothing", Kind)
	}
	if len(doc.Tests) == 0 {
		p.add([]any{"tests"}, "no tests: the file needs a list of tests, each with a name, a request and what to expect")
	}
	p.defaults = doc.Defaults
	if sc := doc.Defaults.Scheme; sc != "" && !slices.Contains([]string{"http", "https", "grpc", "grpcs", "tcp", "udp", "tls"}, sc) {
		p.add([]any{"defaults", "scheme"}, "unsupported scheme %q (valid: http, https, grpc, grpcs, tcp, udp, tls)", sc)
	}
	var s Suite
	seen := map[string]bool{}
	for i, d := range doc.Tests {
		at := []any{"tests", i}
		c := Case{Name: d.Name, Source: diag.Source{File: p.file, Line: p.line(at)}}
		switch {
		case d.Name == "":
			p.add(append(at, "name"), "a test needs a name")
		case seen[d.Name]:
			p.add(append(at, "name"), "another test has the name %q", d.Name)
		}
		seen[d.Name] = true
		c.Request = p.request(append(at, "request"), d.Request)
		c.Expect = p.expect(append(at, "expect"), d.Expect)
		s.Tests = append(s.Tests, c)
	}
	return s
}

func (p *parser) request(at []any, d requestDoc) explain.Request {
	r := Request{URL: d.URL, Method: d.Method, SNI: d.SNI, Gateway: cmp.Or(d.Gateway, p.defaults.Gateway), Port: d.Port, Address: d.Address, ClientIP: d.ClientIP}
	if p.defaults.Scheme != "" && d.URL != "" && !strings.Contains(d.URL, "://") {
		r.URL = p.defaults.Scheme + "://" + d.URL
	}
	headers := maps.Clone(p.defaults.Headers)
	if headers == nil {
		headers = map[string]string{}
	}
	maps.Copy(headers, d.Headers)
	for _, name := range sortedKeys(headers) {
		r.Headers = append(r.Headers, Header{Name: name, Value: headers[name]})
	}
	if d.URL == "" {
		p.add(append(at, "url"), "a request needs a url")
		return explain.Request{}
	}
	built, err := r.Build(p.namespace)
	if err != nil {
		p.add(append(at, "url"), "%v", err)
	}
	return built
}

func (p *parser) expect(at []any, d expectDoc) Expect {
	e := Expect{Outcome: d.Outcome, Status: d.Status, Location: d.Location, Path: d.Path, Host: d.Host, Absent: d.Headers.Absent, ResponseAbsent: d.ResponseHeaders.Absent}
	if d.Status != nil && (*d.Status < 0 || *d.Status > 599) {
		p.add(append(at, "status"), "status %d is not an HTTP status (0 means no HTTP answer)", *d.Status)
	}
	if d.Route != "" {
		r, err := parseRouteRef(d.Route)
		if err != nil {
			p.add(append(at, "route"), "%v", err)
		}
		e.Route = &r
	}
	if d.Backend != "" {
		b, err := parseBackendRef(d.Backend)
		if err != nil {
			p.add(append(at, "backend"), "%v", err)
		}
		e.Backend = &b
	}
	e.Backends = p.backends(append(at, "backends"), d.Backends)
	for _, name := range sortedKeys(d.Headers.Present) {
		e.Present = append(e.Present, Header{Name: name, Value: d.Headers.Present[name]})
	}
	for _, name := range sortedKeys(d.ResponseHeaders.Present) {
		e.ResponsePresent = append(e.ResponsePresent, Header{Name: name, Value: d.ResponseHeaders.Present[name]})
	}
	if d.Outcome != "" && !slices.Contains(outcomes, evaluate.Outcome(d.Outcome)) {
		p.add(append(at, "outcome"), "unknown outcome %q (valid: %s)", d.Outcome, outcomeList())
	}
	if e.empty() {
		p.add(at, "nothing to check: set outcome, status, location, route, backend, backends, path, host, headers or responseHeaders")
	}
	return e
}

func (p *parser) backends(at []any, d map[string]int32) []WeightedBackend {
	var out []WeightedBackend
	for _, name := range sortedKeys(d) {
		b, err := parseBackendRef(name)
		if err != nil {
			p.add(append(at, name), "%v", err)
		}
		if d[name] <= 0 {
			p.add(append(at, name), "weight %d: a backend in a split has a weight above 0 (leave out those that get no requests)", d[name])
		}
		out = append(out, WeightedBackend{BackendRef: b, Weight: d[name]})
	}
	slices.SortStableFunc(out, func(a, b WeightedBackend) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Port, b.Port))
	})
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// yamlLine finds the line a YAML syntax error quotes.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

func (p *parser) yamlError(err error) Problem {
	prob := Problem{Source: diag.Source{File: p.file}, Message: err.Error()}
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		prob.Source.Line, _ = strconv.Atoi(m[1])
		prob.Message = m[2]
	}
	return prob
}

// decodeErrors turns the decoder's errors (an unknown field, a value of
// the wrong type) into problems at their lines, in the file's terms
// rather than Go's.
func (p *parser) decodeErrors(err error) []Problem {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return []Problem{p.yamlError(err)}
	}
	var out []Problem
	for _, msg := range te.Errors {
		out = append(out, p.typeError(msg))
	}
	return out
}
