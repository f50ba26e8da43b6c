package diag

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// moduleRoot is gwsim's root, relative to this package.
const moduleRoot = ".."

var codeID = regexp.MustCompile(`^GWS([1-9])\d{3}$`)

// TestCodesTable checks the table's own rules: codes are well-formed,
// unique and in their group's thousand; every entry explains itself; and
// each Reason has exactly one entry that matches all its findings, so that no finding of a known Reason goes without a code.
func TestCodesTable(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range codes {
		m := codeID.FindStringSubmatch(c.ID)
		if m == nil || m[1] != strconv.Itoa(int(c.Group)) {
			t.Errorf("%s: want GWS%dnnn for group %s", c.ID, int(c.Group), c.Group)
		}
		if seen[c.ID] {
			t.Errorf("%s: used twice", c.ID)
		}
		seen[c.ID] = true
		if c.Reason == "" || c.Title == "" || c.Help == "" {
			t.Errorf("%s: needs a Reason, a Title and Help", c.ID)
		}
		if slices.Contains(healthyReasons, c.Reason) {
			t.Errorf("%s: reason %s is listed as healthy-only", c.ID, c.Reason)
		}
	}
	for reason, cs := range byReason {
		catchAll := 0
		for _, c := range cs {
			if c.narrow() == 0 {
				catchAll++
			}
		}
		if catchAll != 1 {
			t.Errorf("reason %s: has %d entries without Kinds, Severities or Marker, want exactly 1", reason, catchAll)
		}
	}
}

func TestCodeFor(t *testing.T) {
	tests := []struct {
		f    Finding
		want string
	}{
		{Finding{Reason: ReasonParseError, Severity: Error}, "GWS1002"},
		{Finding{Reason: ReasonParseError, Severity: Warning}, "GWS1001"},
		{Finding{Reason: "UnsupportedProtocol", Object: ObjectRef{Kind: "Gateway"}}, "GWS2002"},
		{Finding{Reason: "UnsupportedProtocol", Object: ObjectRef{Kind: "GRPCRoute"}}, "GWS3004"},
		{Finding{Reason: "UnsupportedProtocol", Object: ObjectRef{Kind: "HTTPRoute"},
			Message: "spec.rules[0].backendRefs[0]: BackendTLSPolicy app/b applies to Service app/b port 443 and " + MarkerBackendTLSNotMet + " (Invalid)"}, "GWS6012"},
		{Finding{Reason: "UnsupportedProtocol", Object: ObjectRef{Kind: "HTTPRoute"}, Message: `appProtocol "example.com/x" is not supported`}, "GWS3004"},
		{Finding{Reason: ReasonAssumed}, "GWS7001"},
		{Finding{Reason: ReasonAssumed, Object: ObjectRef{Kind: "Gateway"}}, "GWS7002"},
		{Finding{Reason: ReasonAssumed, Object: ObjectRef{Kind: "HTTPRoute"}}, "GWS7003"},
		{Finding{Reason: "NoSuchReason"}, ""},
	}
	for _, tt := range tests {
		c, _ := CodeFor(tt.f)
		if c.ID != tt.want {
			t.Errorf("CodeFor(%s on %q at %s) = %q, want %q", tt.f.Reason, tt.f.Object.Kind, tt.f.Severity, c.ID, tt.want)
		}
	}
	fs := WithCodes([]Finding{{Reason: ReasonDuplicate}, {Reason: ReasonDuplicate, Code: "GWS9999"}})
	if fs[0].Code != "GWS1004" || fs[1].Code != "GWS9999" {
		t.Errorf("WithCodes = %v, want the missing code set and the given one kept", fs)
	}
}

// TestEveryReasonHasACode fails when a finding Reason gwsim can emit has
// no code: every Reason constant of this package, and every Gateway API
// condition reason gwsim's code names (outside tests), unless it is listed
// in healthyReasons. A helper adding a Reason adds its line to codes.
func TestEveryReasonHasACode(t *testing.T) {
	reasons := diagReasons(t)
	for _, r := range gatewayAPIReasons(t) {
		if !slices.Contains(healthyReasons, r) {
			reasons = append(reasons, r)
		}
	}
	if len(reasons) < 40 {
		t.Fatalf("found only %d reasons; the scan is broken", len(reasons))
	}
	for _, r := range reasons {
		if _, ok := byReason[r]; !ok {
			t.Errorf("reason %s has no code: add a line to codes in codes.go and a section to docs/findings.md", r)
		}
	}
}

// TestFindingsDocCoversEveryCode keeps docs/findings.md and the table in
// step: a section per code, and no section for a code that does not exist.
func TestFindingsDocCoversEveryCode(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(moduleRoot, "docs", "findings.md"))
	if err != nil {
		t.Fatal(err)
	}
	heading := regexp.MustCompile(`(?m)^### (GWS\d{4})\b`)
	documented := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(string(b), -1) {
		documented[m[1]] = true
		if _, ok := LookupCode(m[1]); !ok {
			t.Errorf("docs/findings.md documents %s, which is not in the table", m[1])
		}
	}
	for _, c := range codes {
		if !documented[c.ID] {
			t.Errorf("docs/findings.md has no section `### %s`", c.ID)
		}
	}
}

// diagReasons returns the values of this package's Reason constants.
func diagReasons(t *testing.T) []string {
	t.Helper()
	consts := stringConsts(t, ".")
	var out []string
	for name, v := range consts {
		if strings.HasPrefix(name, "Reason") {
			out = append(out, v)
		}
	}
	return out
}

// gatewayAPIReasons returns the values of the gateway-api constants whose
// name holds "Reason" that gwsim's non-test code refers to.
func gatewayAPIReasons(t *testing.T) []string {
	t.Helper()
	const gwapi = "sigs.k8s.io/gateway-api"
	modDir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", gwapi).Output()
	if err != nil {
		t.Fatalf("locating %s: %v", gwapi, err)
	}
	used := map[string][]string{} // import path -> constant names
	walkGo(t, moduleRoot, func(f *ast.File) {
		imports := map[string]string{}
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			if im.Name != nil {
				imports[im.Name.Name] = path
			} else {
				imports[filepath.Base(path)] = path
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || !strings.Contains(sel.Sel.Name, "Reason") {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && strings.HasPrefix(imports[x.Name], gwapi+"/apis") {
				used[imports[x.Name]] = append(used[imports[x.Name]], sel.Sel.Name)
			}
			return true
		})
	})
	var out []string
	for path, names := range used {
		consts := stringConsts(t, filepath.Join(strings.TrimSpace(string(modDir)), strings.TrimPrefix(path, gwapi)))
		for _, name := range names {
			v, ok := consts[name]
			if !ok {
				t.Fatalf("%s.%s is not a string constant in the gateway-api sources", path, name)
			}
			out = append(out, v)
		}
	}
	return out
}

// walkGo parses every non-test Go file of gwsim's main module.
func walkGo(t *testing.T, root string, visit func(*ast.File)) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || isModule(path)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		visit(f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// isModule reports whether dir holds a nested module (conformance/).
func isModule(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "go.mod"))
	return err == nil
}

// stringConsts returns the string constants declared in the non-test
// files of the package in dir, by name.
func stringConsts(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	out := map[string]string{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						out[name.Name], _ = strconv.Unquote(lit.Value)
					}
				}
			}
		}
	}
	return out
}
