package admission

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestPatternMatchersMatchRegexp: each hand-written matcher answers as
// its regexp does, over every string of up to 4 bytes from an alphabet
// of the bytes that matter to the patterns, random longer ones, and
// edge cases; and each pattern is one the embedded CRDs use.
func TestPatternMatchersMatchRegexp(t *testing.T) {
	alphabet := []string{"a", "z", "A", "0", "-", ".", "*", "_", "!", "`", "~", " ", "/", "é", "\xff", "\n"}
	var inputs []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		inputs = append(inputs, prefix)
		if n == 0 {
			return
		}
		for _, a := range alphabet {
			grow(prefix+a, n-1)
		}
	}
	grow("", 4)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(24) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		inputs = append(inputs, b.String())
	}
	inputs = append(inputs, "*.example.com", "a.b-c.d", "a..b", ".a", "a.", "*.", "*", "x-Tenant", "HTTPRoute", "Service", "a-", "-a", "a\n")
	crds := embeddedCRDText(t)
	for pattern, match := range patternMatchers {
		if !strings.Contains(crds, "pattern: "+pattern+"\n") {
			t.Errorf("no CRD has pattern %s", pattern)
		}
		re := regexp.MustCompile(pattern)
		for _, s := range inputs {
			if got, want := match(s), re.MatchString(s); got != want {
				t.Errorf("pattern %s on %q: %v, regexp says %v", pattern, s, got, want)
			}
		}
	}
}

// embeddedCRDs is the folder of the CRDs package validate embeds and
// compiles the matchers' patterns from.
const embeddedCRDs = "../../../offline/validate/crds"

func embeddedCRDText(t *testing.T) string {
	var b strings.Builder
	crdFiles := os.DirFS(embeddedCRDs)
	err := fs.WalkDir(crdFiles, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(crdFiles, path)
		b.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// FuzzPatternMatchers: beyond the test's inputs.
func FuzzPatternMatchers(f *testing.F) {
	for _, s := range []string{"a.b", "*.a-b.c", "X-Header", "Kind", ""} {
		f.Add(s)
	}
	res := map[string]*regexp.Regexp{}
	for p := range patternMatchers {
		res[p] = regexp.MustCompile(p)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for p, match := range patternMatchers {
			if got, want := match(s), res[p].MatchString(s); got != want {
				t.Fatalf("pattern %s on %q: %v, regexp says %v", p, s, got, want)
			}
		}
	})
}
