package load

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

func TestDuplicates(t *testing.T) {
	v1beta1 := strings.ReplaceAll(routeYAML, "/v1\n", "/v1beta1\n") + "  hostnames: [b.example.com]\n"
	v1 := routeYAML + "  hostnames: [a.example.com]\n"
	dir := writeFiles(t, map[string]string{"x.yaml": v1beta1, "y.yaml": v1})
	res := Load(Options{Paths: []string{dir}})
	got := summarize(dir, res)
	want := summary{
		Objects: []string{"HTTPRoute default/r gateway.networking.k8s.io/v1 @ y.yaml:1"},
		Findings: []string{"x.yaml:1: error: HTTPRoute default/r: defined 2 times; also defined at y.yaml:1; " +
			"keeping the one at y.yaml:1 and dropping this one: the definitions differ; " +
			"gwsim keeps the one whose JSON sorts first, so that the order of the input does not matter"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Load (-want +got):\n%s", diff)
	}
	if h := res.Objects[0].(*gwv1.HTTPRoute).Spec.Hostnames; len(h) != 1 || h[0] != "a.example.com" {
		t.Errorf("kept hostnames %v, want [a.example.com]", h)
	}
}

func TestDuplicatesIdentical(t *testing.T) {
	dir := writeFiles(t, map[string]string{"b.yaml": classYAML, "a.yaml": "# x\n" + strings.ReplaceAll(classYAML, "/v1\n", "/v1beta1\n")})
	got := summarize(dir, Load(Options{Paths: []string{dir}}))
	want := summary{
		Objects: []string{"GatewayClass eg gateway.networking.k8s.io/v1 @ a.yaml:2"},
		Findings: []string{"b.yaml:1: warning: GatewayClass eg: defined 2 times; also defined at a.yaml:2; " +
			"keeping the one at a.yaml:2 and dropping this one: the definitions are identical"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Load (-want +got):\n%s", diff)
	}
}

// TestOrderIndependence loads the same documents in several orders and file
// layouts: the objects must be byte-identical, and so must the findings once
// their locations (source, and the locations a duplicate's message names) are
// left out. Findings sort by source first, so they are compared re-sorted
// without it.
func TestOrderIndependence(t *testing.T) {
	docs := []string{
		routeYAML + "  hostnames: [a.example.com]\n",
		strings.ReplaceAll(routeYAML, "/v1\n", "/v1beta1\n") + "  hostnames: [b.example.com]\n",
		routeYAML + "  hostnames: [c.example.com]\n",
		gatewayYAML, classYAML, deploymentYAML,
		"apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 80}], bogus: 1}\n",
	}
	layouts := []func([]string) map[string]string{
		func(d []string) map[string]string { return map[string]string{"all.yaml": strings.Join(d, "---\n")} },
		func(d []string) map[string]string {
			return map[string]string{"all.yaml": strings.Join(reversed(d), "---\n")}
		},
		func(d []string) map[string]string {
			m := map[string]string{}
			for i, doc := range d {
				m[fmt.Sprintf("%02d.yaml", len(d)-i)] = doc
			}
			return m
		},
		func(d []string) map[string]string {
			return map[string]string{"z.yaml": strings.Join(d[:3], "---\n"), "a/b.yaml": strings.Join(d[3:], "---\n")}
		},
	}
	var first string
	for i, layout := range layouts {
		dir := writeFiles(t, layout(docs))
		res := Load(Options{Paths: []string{dir}, Recursive: true})
		for j := range res.Findings {
			res.Findings[j].Source = diag.Source{}
			if res.Findings[j].Reason == diag.ReasonDuplicate {
				res.Findings[j].Message = ""
			}
		}
		slices.SortFunc(res.Findings, diag.Finding.Compare)
		out, err := json.Marshal(struct {
			Objects, Findings any
		}{res.Objects, res.Findings})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = string(out)
			if len(res.Objects) != 4 || len(res.Findings) != 4 {
				t.Fatalf("layout 0: got %d objects and %d findings, want 4 and 4: %v", len(res.Objects), len(res.Findings), res.Findings)
			}
			continue
		}
		if diff := cmp.Diff(first, string(out)); diff != "" {
			t.Errorf("layout %d differs from layout 0 (-0 +%d):\n%s", i, i, diff)
		}
	}
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

// TestSortByRef checks the two-halves sort against a stable sort by
// reference, on more objects than it sorts in one piece, with duplicates
// spread over both halves.
func TestSortByRef(t *testing.T) {
	var all []loaded
	for i := range parallelSortMin + 501 {
		ref := diag.ObjectRef{Kind: []string{"Service", "HTTPRoute", "Gateway"}[i%3], Namespace: fmt.Sprintf("ns-%d", i%7), Name: fmt.Sprintf("n-%d", (i*7919)%1000)}
		all = append(all, loaded{ref: ref, src: diag.Source{File: "f", Line: i}})
	}
	for _, n := range []int{0, 1, 2, 100, len(all)} {
		want := slices.Clone(all[:n])
		slices.SortStableFunc(want, func(a, b loaded) int { return a.ref.Compare(b.ref) })
		got := sortByRef(slices.Clone(all[:n]))
		if !slices.EqualFunc(got, want, func(a, b loaded) bool { return a.ref == b.ref && a.src == b.src }) {
			t.Errorf("%d objects: sortByRef differs from a stable sort by reference", n)
		}
	}
}

// TestDuplicatesManyCopies: each duplicate's finding names at most a few
// other places and counts the rest, so that a thousand copies of a file
// give output that grows with the copies, not with their square.
func TestDuplicatesManyCopies(t *testing.T) {
	files := map[string]string{}
	for i := range 6 {
		files[fmt.Sprintf("c%d.yaml", i)] = classYAML
	}
	dir := writeFiles(t, files)
	got := summarize(dir, Load(Options{Paths: []string{dir}}))
	if len(got.Findings) != 5 {
		t.Fatalf("findings = %q, want 5", got.Findings)
	}
	want := "c1.yaml:1: warning: GatewayClass eg: defined 6 times; also defined at c0.yaml:1, c2.yaml:1, c3.yaml:1 and 2 more; " +
		"keeping the one at c0.yaml:1 and dropping this one: the definitions are identical"
	if got.Findings[0] != want {
		t.Errorf("first finding:\n%s\nwant\n%s", got.Findings[0], want)
	}
	want = "c5.yaml:1: warning: GatewayClass eg: defined 6 times; also defined at c0.yaml:1, c1.yaml:1, c2.yaml:1 and 2 more; " +
		"keeping the one at c0.yaml:1 and dropping this one: the definitions are identical"
	if got.Findings[4] != want {
		t.Errorf("last finding:\n%s\nwant\n%s", got.Findings[4], want)
	}
}
