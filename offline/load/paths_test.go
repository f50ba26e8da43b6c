package load

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestExpandSkipsTheConfigFile checks that reading a directory, flat or
// recursive, leaves gwsim's config file out, and that naming it with -f
// still reads it (as any file named on the command line is).
func TestExpandSkipsTheConfigFile(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"a.yaml", ConfigFileName, "sub/b.yml", "sub/" + ConfigFileName, "notes.txt"} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rel := func(files []input) []string {
		var out []string
		for _, f := range files {
			r, _ := filepath.Rel(root, f.path)
			out = append(out, filepath.ToSlash(r))
		}
		return out
	}
	files, errs := expand([]string{root}, walkOptions{recursive: true})
	if want := []string{"a.yaml", "sub/b.yml"}; len(errs) > 0 || !slices.Equal(rel(files), want) {
		t.Errorf("expand -R = %v %v, want %v", rel(files), errs, want)
	}
	files, _ = expand([]string{filepath.Join(root, ConfigFileName)}, walkOptions{})
	if want := []string{ConfigFileName}; !slices.Equal(rel(files), want) {
		t.Errorf("expand of the file itself = %v, want %v", rel(files), want)
	}
}
