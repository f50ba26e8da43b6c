package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/offline"
)

var update = flag.Bool("update", false, "rewrite the golden output files")

// TestGolden runs every command on every case and compares the output with
// the case's golden files (or rewrites them with -update).
func TestGolden(t *testing.T) {
	for _, c := range loadCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			t.Chdir(c.Dir)
			for _, cm := range c.commands() {
				got := runCase(t, c, cm, defaultRunner)
				if *update {
					if err := os.WriteFile(cm.File, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want := readGolden(t, c, cm)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s/%s differs (-want +got); rerun with -update if intended:\n%s", c.Name, cm.File, diff)
				}
			}
		})
	}
}

// TestStoresAgree runs every case on each store the offline controller
// supports: the store is an implementation detail, so output must not
// change by a byte.
func TestStoresAgree(t *testing.T) {
	stores := []struct {
		name  string
		store offline.StoreFactory
	}{
		{"FakeStore", offline.FakeStore},
		{"IndexedStore", offline.IndexedStore},
	}
	for _, c := range loadCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			t.Chdir(c.Dir)
			for _, cm := range c.commands() {
				want := runCase(t, c, cm, defaultRunner)
				for _, s := range stores {
					got := runCase(t, c, cm, storeRunner(s.store))
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("%s with %s differs from the default store (-default +%s):\n%s", cm.File, s.name, s.name, diff)
					}
				}
			}
		})
	}
}

// readGolden reads one golden file of c; the working directory is c.Dir.
func readGolden(t *testing.T, c goldenCase, cm command) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(c.Dir, cm.File))
	if err != nil {
		t.Fatalf("%v (run `go test ./golden -update` to create it)", err)
	}
	return string(b)
}
