package validate

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/bench/synth"
	"github.com/gwsim/gwsim/internal/corpus"
	"github.com/gwsim/gwsim/internal/fastpath/admission"
)

// TestFastAdmitMatchesLibrary is the differential test of the fast
// admission walk: on every Gateway API object of the golden cases, the
// gateway-api module's examples, the conformance manifests and generated
// sets, and on mutants of them (each field deleted, retyped, emptied, set
// out of bounds), under both channels, Admit gives exactly what the
// library alone gives: the same errors, the same pruned paths and the same
// resulting object. Where the walk declines an object, the object must be
// as it was before the walk. It also requires the walk to take every
// generated object, and logs the share it takes of the others.
func TestFastAdmitMatchesLibrary(t *testing.T) {
	corpora := []struct {
		name    string
		objects func(t testing.TB) []corpusObject
		min     float64 // least share of objects the walk must take
	}{
		{name: "golden", objects: goldenObjects},
		{name: "examples", objects: exampleObjects},
		{name: "conformance", objects: conformanceObjects},
		{name: "synth", objects: synthObjects, min: 1},
	}
	short := testing.Short()
	seen := map[string]bool{} // mutants already made, across corpora
	for _, c := range corpora {
		t.Run(c.name, func(t *testing.T) {
			objs := c.objects(t)
			if len(objs) == 0 {
				t.Fatal("no Gateway API objects")
			}
			d := newDifferential(short)
			for i, o := range objs {
				if short && i%4 != 0 {
					continue
				}
				d.check(t, o.gvk, o.obj, o.where)
			}
			share := float64(d.fast) / float64(d.total)
			t.Logf("%s: fast walk took %d of %d objects (%.1f%%); declined at %v", c.name, d.fast, d.total, 100*share, d.declined)
			if share < c.min {
				t.Errorf("fast walk took %.1f%% of the objects, want at least %.0f%%", 100*share, 100*c.min)
			}
			m := newDifferential(short)
			for _, mu := range mutants(objs, seen, mutantStride(short)) {
				m.check(t, mu.gvk, mu.obj, mu.where)
			}
			t.Logf("%s: %d mutants, fast walk took %d", c.name, m.total, m.fast)
		})
	}
}

// differential runs objects through both paths under both channels.
type differential struct {
	validators  []*Validator
	fast, total int
	// declined counts the paths where the walk declined objects.
	declined map[string]int
}

// newDifferential checks under both channels, or only the standard one
// when short.
func newDifferential(short bool) *differential {
	d := &differential{validators: []*Validator{New(Standard)}, declined: map[string]int{}}
	if !short {
		d.validators = append(d.validators, New(Experimental))
	}
	return d
}

// check admits a copy of obj both ways under each channel that serves gvk
// and fails t on any difference.
func (d *differential) check(t testing.TB, gvk schema.GroupVersionKind, obj map[string]any, where string) {
	t.Helper()
	for _, v := range d.validators {
		c, err := v.compiled(gvk)
		if err != nil {
			continue
		}
		d.total++
		if compareAdmission(t, c, obj, where+" ("+string(v.channel)+")", d.declined) {
			d.fast++
		}
	}
}

// compareAdmission admits copies of obj through the fast path and through
// the library and fails t when the results or the objects differ. It
// reports whether the fast walk took the object.
func compareAdmission(t testing.TB, c *compiled, obj map[string]any, where string, declinedAt map[string]int) bool {
	t.Helper()
	declined := admission.CopyJSONValue(obj).(map[string]any)
	delete(declined, "status")
	before := admission.CopyJSONValue(declined)
	_, at, took := admission.Walk(c.walk, declined)
	if !took && declinedAt != nil {
		declinedAt[at]++
	}
	if !took && !reflect.DeepEqual(declined, before) {
		t.Errorf("%s: the fast walk declined the object but did not restore it:\n got %v\nwant %v", where, declined, before)
	}
	fast := admission.CopyJSONValue(obj).(map[string]any)
	lib := admission.CopyJSONValue(obj).(map[string]any)
	got := c.admit(fast)
	want := c.admitLibrary(lib)
	// The library's own order of schema errors follows Go map iteration,
	// so it varies from run to run: compare the lists sorted.
	sortErrors(got.Errors)
	sortErrors(want.Errors)
	if !reflect.DeepEqual(errorStrings(got), errorStrings(want)) || !reflect.DeepEqual(got.Errors, want.Errors) {
		t.Errorf("%s: errors differ (fast walk took it: %v)\n got %q\nwant %q", where, took, errorStrings(got), errorStrings(want))
	}
	if !reflect.DeepEqual(got.Pruned, want.Pruned) {
		t.Errorf("%s: pruned paths differ (fast walk took it: %v)\n got %q\nwant %q", where, took, got.Pruned, want.Pruned)
	}
	if !reflect.DeepEqual(fast, lib) {
		t.Errorf("%s: admitted objects differ (fast walk took it: %v)\n got %v\nwant %v", where, took, fast, lib)
	}
	return took
}

// corpusObject is a decoded Gateway API object and where it comes from.
type corpusObject struct {
	gvk   schema.GroupVersionKind
	obj   map[string]any
	where string
}

// goldenObjects are the objects of the golden cases' inputs.
func goldenObjects(t testing.TB) []corpusObject {
	inputs, err := filepath.Glob(filepath.Join("..", "..", "golden", "*", "input"))
	if err != nil {
		t.Fatal(err)
	}
	var objs []corpusObject
	for _, dir := range inputs {
		objs = append(objs, treeObjects(t, dir, nil)...)
	}
	return objs
}

func exampleObjects(t testing.TB) []corpusObject {
	dir, err := corpus.GatewayAPIDir()
	if err != nil {
		corpus.Missing(t, "the gateway-api module", err)
	}
	return treeObjects(t, filepath.Join(dir, "examples"), nil)
}

func conformanceObjects(t testing.TB) []corpusObject {
	dir := corpus.ConformanceDir()
	if dir == "" {
		corpus.Missing(t, corpus.ConformanceModule, nil)
	}
	applied := func(data []byte) []byte { return corpus.Applied(data, "gwsim", "gwsim.dev/controller") }
	var objs []corpusObject
	for _, sub := range []string{"tests", "base"} {
		objs = append(objs, treeObjects(t, filepath.Join(dir, sub), applied)...)
	}
	return objs
}

func synthObjects(t testing.TB) []corpusObject {
	var objs []corpusObject
	for _, n := range []int{10, 100} {
		set := synth.Generate(synth.Options{Routes: n, TLS: true})
		for _, f := range set.Files {
			objs = append(objs, fileObjects(t, f.Data, "synth/"+f.Name)...)
		}
	}
	return objs
}

// treeObjects decodes the Gateway API objects of every YAML file under dir,
// after transform when it is not nil.
func treeObjects(t testing.TB, dir string, transform func([]byte) []byte) []corpusObject {
	t.Helper()
	var objs []corpusObject
	err := corpus.EachYAMLFile(dir, func(path string, data []byte) error {
		if transform != nil {
			data = transform(data)
		}
		objs = append(objs, fileObjects(t, data, path)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

var yamlDocSeparator = regexp.MustCompile(`(?m)^---.*$`)

// fileObjects decodes each document of a YAML file that is a Gateway API
// object (items of a List included) as the loader does: numbers as int64
// where they are integers.
func fileObjects(t testing.TB, data []byte, name string) []corpusObject {
	var objs []corpusObject
	for i, doc := range yamlDocSeparator.Split(string(data), -1) {
		if strings.TrimSpace(doc) == "" {
			continue
		}
		js, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil || !bytes.HasPrefix(bytes.TrimSpace(js), []byte("{")) {
			continue
		}
		var obj map[string]any
		if err := kjson.UnmarshalCaseSensitivePreserveInts(js, &obj); err != nil {
			continue
		}
		where := name + "#" + strconv.Itoa(i)
		if items, ok := obj["items"].([]any); ok && obj["kind"] == "List" {
			for j, it := range items {
				if m, ok := it.(map[string]any); ok {
					objs = appendObject(objs, m, where+".items["+strconv.Itoa(j)+"]")
				}
			}
			continue
		}
		objs = appendObject(objs, obj, where)
	}
	return objs
}

func appendObject(objs []corpusObject, obj map[string]any, where string) []corpusObject {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil || !Handles(gv.WithKind(kind).GroupKind()) {
		return objs
	}
	return append(objs, corpusObject{gvk: gv.WithKind(kind), obj: obj, where: where})
}

func sortErrors(errs field.ErrorList) {
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
}

// mutantStride is how many of the mutants TestFastAdmitMatchesLibrary
// skips per one it checks, to keep `make test` within seconds: it keeps
// every fourth (every fortieth with -short, which the race run uses);
// GWSIM_ALL_MUTANTS=1 keeps all.
func mutantStride(short bool) int {
	switch {
	case os.Getenv("GWSIM_ALL_MUTANTS") != "":
		return 1
	case short:
		return 40
	}
	return 4
}
