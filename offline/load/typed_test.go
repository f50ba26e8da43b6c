package load

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gwsim/gwsim/bench/synth"
	"github.com/gwsim/gwsim/internal/corpus"
	"github.com/gwsim/gwsim/internal/fastpath"
	"github.com/gwsim/gwsim/offline/validate"
)

// TestTypedDecodeMatchesLibrary: loading with admitted objects decoded by
// package jsonin gives exactly the Result of loading with every object
// encoded to JSON and decoded by sigs.k8s.io/json (the reference), with
// validation on and off, over the golden inputs, the gateway-api
// examples, the conformance manifests and a generated set of 1000 routes.
// Objects are compared with reflect.DeepEqual, which tells nil from empty.
func TestTypedDecodeMatchesLibrary(t *testing.T) {
	sets := []struct {
		name string
		opts Options
	}{
		{"golden", Options{Paths: []string{filepath.Join("..", "..", "golden")}, Recursive: true}},
		{"synth", Options{Paths: []string{synthDir(t)}}},
	}
	if modDir, err := corpus.GatewayAPIDir(); err == nil {
		sets = append(sets, struct {
			name string
			opts Options
		}{"examples", Options{Paths: []string{filepath.Join(modDir, "examples")}, Recursive: true}})
	} else {
		corpus.Without(t, "the gateway-api module")
	}
	if files := corpus.ConformanceManifests(); len(files) > 0 {
		var applied bytes.Buffer
		for _, path := range files {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&applied, "---\n%s\n", corpus.Applied(data, "gwsim", "gwsim.dev/gateway-controller"))
		}
		sets = append(sets, struct {
			name string
			opts Options
		}{"conformance", Options{Paths: []string{"-"}, Stdin: bytes.NewReader(applied.Bytes()), Channel: validate.Experimental}})
	} else {
		corpus.Without(t, corpus.ConformanceModule)
	}
	for _, set := range sets {
		for _, noValidation := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/novalidation=%v", set.name, noValidation), func(t *testing.T) {
				opts := set.opts
				opts.NoValidation = noValidation
				stdin, _ := opts.Stdin.(*bytes.Reader)
				got := loadWith(opts, stdin, true)
				want := loadWith(opts, stdin, false)
				if len(want.Objects) == 0 {
					t.Fatal("nothing loaded")
				}
				compareResults(t, got, want)
			})
		}
	}
}

// loadWith loads opts with or without package jsonin, rewinding stdin.
func loadWith(opts Options, stdin *bytes.Reader, fast bool) Result {
	if stdin != nil {
		stdin.Seek(0, 0)
	}
	d := newDecoder(opts.Namespace, opts.Limits, newAdmission(opts.Channel, opts.NoValidation, opts.Fields, opts.Admission, fastpath.Mode{}), fastpath.Mode{})
	if !fast {
		d.typed = nil
	}
	return load(opts, d, nil)
}

func compareResults(t *testing.T, got, want Result) {
	t.Helper()
	if len(got.Objects) != len(want.Objects) {
		t.Fatalf("%d objects, want %d", len(got.Objects), len(want.Objects))
	}
	for i := range want.Objects {
		if !reflect.DeepEqual(got.Objects[i], want.Objects[i]) {
			g, _ := json.Marshal(got.Objects[i])
			w, _ := json.Marshal(want.Objects[i])
			t.Errorf("object %d differs:\n got %s\nwant %s", i, g, w)
		}
	}
	got.Objects, want.Objects = nil, nil
	// Origins hash the inputs with a seed of their own load's.
	got.Origins, want.Origins = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results differ:\n got %+v\nwant %+v", got, want)
	}
}

func synthDir(t *testing.T) string {
	dir := t.TempDir()
	if err := synth.Generate(synth.Standard(1000)).WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}
