package baseline_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/bench/baseline"
	"github.com/gwsim/gwsim/bench/synth"
	"github.com/gwsim/gwsim/offline/load"
)

// TestDecodeMatchesLoader keeps the floor honest: on a small generated set
// it must decode exactly the objects gwsim's loader loads, whatever the
// number of workers, or the ratio to it compares different work.
func TestDecodeMatchesLoader(t *testing.T) {
	dir := t.TempDir()
	set := synth.Generate(synth.Standard(100))
	if err := set.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	// Files gwsim does not read are not decoded either.
	if err := os.WriteFile(filepath.Join(dir, "README.txt"), []byte("not: [a manifest"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := load.Load(load.Options{Paths: []string{dir}})
	if len(res.Errors) > 0 {
		t.Fatalf("loader: %v", res.Errors[0])
	}
	if len(res.Objects) != set.Documents() {
		t.Fatalf("loader loaded %d objects, the set has %d documents", len(res.Objects), set.Documents())
	}
	for _, workers := range []int{0, 1, 4} {
		objs, err := baseline.Decode(dir, workers)
		if err != nil {
			t.Fatalf("workers=%d: %v", workers, err)
		}
		if len(objs) != len(res.Objects) {
			t.Errorf("workers=%d: decoded %d objects, loader loaded %d", workers, len(objs), len(res.Objects))
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string // nil: the directory does not exist
		want  string
	}{
		{"missing directory", nil, "no such file"},
		{"unknown kind", map[string]string{"a.yaml": "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"}, "a.yaml"},
		{"bad yaml", map[string]string{"b.yml": "apiVersion: v1\nkind: Service\n---\nkind: [\n"}, "b.yml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "set")
			if tt.files != nil {
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				for name, data := range tt.files {
					if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			_, err := baseline.Decode(dir, 2)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}
