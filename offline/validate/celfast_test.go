package validate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/bench/synth"
	"github.com/gwsim/gwsim/internal/corpus"
	"github.com/gwsim/gwsim/internal/fastpath/admission"
)

// celCase is one object of a differential run, with where it came from.
type celCase struct {
	name string
	gvk  schema.GroupVersionKind
	obj  map[string]any
}

// celTally counts a differential run's outcomes.
type celTally struct {
	compared    int // objects that passed the schema steps
	libPassed   int // of those, the library's CEL found no error
	fastPassed  int // celFast said yes (each checked against the library)
	missed      int // the library passed, celFast said no
	schemaFails int // objects the schema steps rejected (not compared)
}

func (t celTally) String() string {
	return fmt.Sprintf("%d compared, library passed %d, celFast passed %d, missed %d (%d rejected by the schema steps)",
		t.compared, t.libPassed, t.fastPassed, t.missed, t.schemaFails)
}

// schemaSteps runs the library's create path on obj up to the CEL rules:
// prune, default, metadata, schema, list types. It returns the errors of
// those steps.
func schemaSteps(c *compiled, obj map[string]any) field.ErrorList {
	delete(obj, "status")
	structuralpruning.PruneWithOptions(obj, c.structural, true, structuralschema.UnknownFieldPathOptions{})
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(obj, c.structural)
	structuraldefaulting.Default(obj, c.structural)
	errs := c.validateMeta(obj, false)
	errs = append(errs, apiservervalidation.ValidateCustomResource(nil, obj, c.schemaValidator)...)
	errs = append(errs, schemaobjectmeta.Validate(context.TODO(), nil, obj, c.structural, false)...)
	return append(errs, structurallisttype.ValidateListSetsAndMaps(nil, c.structural, obj)...)
}

// compareCEL admits obj's schema steps, then asks celFast and the library's
// CEL validator. celFast saying yes where the library has an error, or
// with another cost than the library charged, fails the test.
func compareCEL(t testing.TB, v *Validator, cs celCase, tally *celTally) {
	t.Helper()
	c, err := v.compiled(cs.gvk)
	if err != nil || c.cel == nil {
		return
	}
	if errs := schemaSteps(c, cs.obj); len(errs) > 0 {
		tally.schemaFails++
		return
	}
	tally.compared++
	ok, cost := c.celCheck().Check(cs.obj)
	libErrs, remaining := c.cel.Validate(context.TODO(), nil, c.structural, cs.obj, nil, celconfig.RuntimeCELCostBudget)
	libCost := celconfig.RuntimeCELCostBudget - remaining
	if len(libErrs) == 0 {
		tally.libPassed++
	}
	switch {
	case ok && len(libErrs) > 0:
		t.Errorf("%s (%s): celFast passes, the library reports %v", cs.name, cs.gvk.Kind, libErrs)
	case ok && cost != libCost:
		t.Errorf("%s (%s): celFast charges %d, the library %d", cs.name, cs.gvk.Kind, cost, libCost)
	case ok:
		tally.fastPassed++
	case len(libErrs) == 0:
		tally.missed++
		t.Logf("%s (%s): celFast says no, the library passes", cs.name, cs.gvk.Kind)
	}
}

var docSeparator = regexp.MustCompile(`(?m)^---\s*$`)

// gatewayObjects decodes the Gateway API objects of the YAML files.
func gatewayObjects(t testing.TB, files []string, rewrite func([]byte) []byte) []celCase {
	t.Helper()
	var out []celCase
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if rewrite != nil {
			data = rewrite(data)
		}
		for i, doc := range docSeparator.Split(string(data), -1) {
			obj, gvk, ok := decodeGatewayObject(doc)
			if ok {
				out = append(out, celCase{name: fmt.Sprintf("%s#%d", filepath.Base(file), i), gvk: gvk, obj: obj})
			}
		}
	}
	return out
}

func decodeGatewayObject(doc string) (map[string]any, schema.GroupVersionKind, bool) {
	js, err := yaml.YAMLToJSON([]byte(doc))
	if err != nil {
		return nil, schema.GroupVersionKind{}, false
	}
	var obj map[string]any
	if err := kjson.UnmarshalCaseSensitivePreserveInts(js, &obj); err != nil || obj == nil {
		return nil, schema.GroupVersionKind{}, false
	}
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	gvk := schema.FromAPIVersionAndKind(apiVersion, kind)
	return obj, gvk, Handles(gvk.GroupKind())
}

// differentialSets are the object sets the differential tests run: the
// conformance manifests (as the suite applies them), the golden inputs and
// the generated set.
func differentialSets(t testing.TB, generated int) map[string][]celCase {
	t.Helper()
	sets := map[string][]celCase{}
	if files := corpus.ConformanceManifests(); len(files) > 0 {
		sets["conformance"] = gatewayObjects(t, files, func(b []byte) []byte { return corpus.Applied(b, "gwsim", "gwsim.dev/controller") })
	} else {
		corpus.Without(t, corpus.ConformanceModule)
	}
	golden, _ := filepath.Glob("../../golden/*/input/*.yaml")
	sets["golden"] = gatewayObjects(t, golden, nil)
	dir := t.TempDir()
	if err := synth.Generate(synth.Standard(generated)).WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	var gen []string
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			gen = append(gen, path)
		}
		return err
	})
	sets["generated"] = gatewayObjects(t, gen, nil)
	return sets
}

// TestCELFastAgreesWithLibrary runs every object of the differential sets
// and mutants of them through both CEL checkers, in both channels.
// GWSIM_CEL_MUTANTS sets the mutants per object (default 4). Under -short
// (the race run) it takes the golden inputs and a small generated set in
// the standard channel only, one mutant each.
func TestCELFastAgreesWithLibrary(t *testing.T) {
	generated, mutantsPerObject := 100, 4
	if n, err := strconv.Atoi(os.Getenv("GWSIM_CEL_MUTANTS")); err == nil {
		mutantsPerObject = n
	}
	channels, setNames := []Channel{Standard, Experimental}, []string{"conformance", "golden", "generated"}
	if testing.Short() {
		generated, mutantsPerObject = 20, 1
		channels, setNames = channels[:1], setNames[1:]
	}
	sets := differentialSets(t, generated)
	for _, channel := range channels {
		t.Run(string(channel), func(t *testing.T) {
			t.Parallel()
			v := New(channel)
			for _, name := range setNames {
				var plain, mutated celTally
				for _, cs := range sets[name] {
					for i, m := range celMutants(cs.obj, mutantsPerObject) {
						compareCEL(t, v, celCase{name: fmt.Sprintf("%s mutant %d", cs.name, i), gvk: cs.gvk, obj: m}, &mutated)
					}
					compareCEL(t, v, celCase{name: cs.name, gvk: cs.gvk, obj: admission.CopyJSONValue(cs.obj).(map[string]any)}, &plain)
				}
				t.Logf("%s: %v", name, plain)
				t.Logf("%s mutants: %v", name, mutated)
				if plain.missed > 0 {
					t.Errorf("%s: celFast said no to %d objects the library passes", name, plain.missed)
				}
			}
		})
	}
}

// BenchmarkCELLibrary is the library's CEL validator alone on the
// generated HTTPRoutes (pruned, defaulted and schema-checked beforehand),
// the baseline of BenchmarkCELFast.
func BenchmarkCELLibrary(b *testing.B) {
	c, objs := celBenchRoutes(b)
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		if errs, _ := c.cel.Validate(context.TODO(), nil, c.structural, objs[n%len(objs)], nil, celconfig.RuntimeCELCostBudget); len(errs) > 0 {
			b.Fatal(errs)
		}
		n++
	}
}

// BenchmarkCELFast is celFast alone on the same objects, its memo warm
// from earlier iterations as it is after the first routes of a run.
func BenchmarkCELFast(b *testing.B) {
	c, objs := celBenchRoutes(b)
	fast := c.celCheck()
	h0, m0 := fast.MemoStats()
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		if !fast.Passes(objs[n%len(objs)]) {
			b.Fatal("celFast says no to a generated route")
		}
		n++
	}
	b.StopTimer()
	h, m := fast.MemoStats()
	if h+m > h0+m0 {
		b.ReportMetric(float64(h-h0)/float64(h+m-h0-m0), "hit-rate")
	}
}

// celBenchRoutes are the HTTPRoutes of the generated 1k set (or of
// GWSIM_CEL_BENCH_ROUTES routes), admitted up to the CEL rules.
func celBenchRoutes(b *testing.B) (*compiled, []map[string]any) {
	v := New(Standard)
	c, err := v.compiled(httpRouteV1)
	if err != nil {
		b.Fatal(err)
	}
	var objs []map[string]any
	size := 1000
	if n, err := strconv.Atoi(os.Getenv("GWSIM_CEL_BENCH_ROUTES")); err == nil {
		size = n
	}
	for _, doc := range synthRoutes(b, size) {
		obj := object(b, doc)
		if errs := schemaSteps(c, obj); len(errs) > 0 {
			b.Fatal(errs)
		}
		objs = append(objs, obj)
	}
	return c, objs
}

// BenchmarkCELFastCold is BenchmarkCELFast with the memo emptied before
// each pass over the set, so that each route is seen once per memo, as in
// a gwsim run over the 1k set.
func BenchmarkCELFastCold(b *testing.B) {
	c, objs := celBenchRoutes(b)
	fast := c.celCheck()
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	var hits, misses int64
	for b.Loop() {
		if n%len(objs) == 0 {
			b.StopTimer()
			h, m := fast.MemoStats()
			hits, misses = hits+h, misses+m
			fast.ResetMemo()
			b.StartTimer()
		}
		if !fast.Passes(objs[n%len(objs)]) {
			b.Fatal("celFast says no to a generated route")
		}
		n++
	}
	b.StopTimer()
	h, m := fast.MemoStats()
	if hits, misses = hits+h, misses+m; hits+misses > 0 {
		b.ReportMetric(float64(hits)/float64(hits+misses), "hit-rate")
	}
}

// BenchmarkCompileCELFast is the one-time cost of celFast for HTTPRoute:
// compiling all its rules (with the library's Compile) and analysing
// them. A run compiles only the nodes its objects have values at.
func BenchmarkCompileCELFast(b *testing.B) {
	c, err := New(Standard).compiled(httpRouteV1)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		admission.NewCEL(c.structural).CompileAll()
	}
}
