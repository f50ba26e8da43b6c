package cmd

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/internal/fastpath/yamlout"
)

// defaultMutants is how many mutated manifest sets TestMutants runs in
// `go test` (a few seconds on two cores); GWSIM_MUTANTS raises it, as
// `make fuzz` does.
const defaultMutants = 300

// shortMutants is the number under -short (the race detector's run).
const shortMutants = 20

// TestMutants is the structure-aware counterpart of FuzzPipeline: it takes
// the golden cases' manifest sets, applies a few mutations a user (or a
// broken generator) could make to the parsed documents (delete a field,
// retype or empty a value, duplicate an object, point a reference at
// nothing, put in a huge number, change a key's case) and checks each
// mutant with checkPipeline. The mutants come from a fixed seed, so a
// failure reproduces; its input is printed.
func TestMutants(t *testing.T) {
	n := defaultMutants
	if testing.Short() {
		n = shortMutants
	}
	if s := os.Getenv("GWSIM_MUTANTS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatalf("GWSIM_MUTANTS=%q: %v", s, err)
		}
	}
	var sets [][]any
	for _, seed := range seedManifests(t) {
		if docs := parseDocuments(seed); len(docs) > 0 {
			sets = append(sets, docs)
		}
	}
	if len(sets) == 0 {
		t.Fatal("no manifest sets to mutate")
	}
	rng := rand.New(rand.NewPCG(15, 15))
	for i := range n {
		docs := cloneDocs(sets[rng.IntN(len(sets))])
		var applied []string
		for range 1 + rng.IntN(3) {
			docs, applied = mutate(rng, docs, applied)
		}
		data := joinDocuments(t, docs)
		t.Run(fmt.Sprintf("%d", i), func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Logf("mutations: %s", strings.Join(applied, "; "))
				}
			}()
			checkPipeline(t, data)
		})
	}
}

// parseDocuments parses a YAML stream into generic documents (maps,
// lists, scalars), skipping those that do not parse.
func parseDocuments(data []byte) []any {
	var docs []any
	for _, part := range strings.Split(string(data), "\n---") {
		var v any
		if yaml.Unmarshal([]byte(part), &v) == nil && v != nil {
			docs = append(docs, v)
		}
	}
	return docs
}

func joinDocuments(t *testing.T, docs []any) []byte {
	t.Helper()
	var parts [][]byte
	for _, d := range docs {
		// yamlout, not sigs.k8s.io/yaml: seeds hold control characters
		// that only the former writes (escaped).
		b, err := yamlout.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, b)
	}
	return bytes.Join(parts, []byte("---\n"))
}

func cloneDocs(docs []any) []any {
	out := make([]any, len(docs))
	for i, d := range docs {
		out[i] = cloneValue(d)
	}
	return out
}

func cloneValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = cloneValue(x)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, x := range v {
			l[i] = cloneValue(x)
		}
		return l
	}
	return v
}

// mutation changes one value in place (a map entry or a list item, given
// by its container and key) and says what it did.
type mutation func(rng *rand.Rand, slot slot) string

// mutations are the changes a mutant is made of.
var mutations = map[string]mutation{
	"delete": func(_ *rand.Rand, s slot) string { s.delete(); return "delete " + s.path },
	"retype": func(rng *rand.Rand, s slot) string {
		kinds := []any{"text", int64(7), true, []any{"x"}, map[string]any{"x": "y"}, 2.5}
		v := kinds[rng.IntN(len(kinds))]
		s.set(v)
		return fmt.Sprintf("retype %s to %T", s.path, v)
	},
	"empty": func(rng *rand.Rand, s slot) string {
		empties := []any{"", nil, []any{}, map[string]any{}}
		s.set(empties[rng.IntN(len(empties))])
		return "empty " + s.path
	},
	"dangle": func(_ *rand.Rand, s slot) string {
		if str, ok := s.get().(string); ok {
			s.set(str + "-missing")
		}
		return "dangle " + s.path
	},
	"huge": func(rng *rand.Rand, s slot) string {
		huge := []any{int64(1) << 62, int64(-1) << 62, 1e300, -1e300, int64(-1), int64(0), "99999999999999999999999"}
		s.set(huge[rng.IntN(len(huge))])
		return "huge " + s.path
	},
	"case": func(_ *rand.Rand, s slot) string {
		if m, ok := s.container.(map[string]any); ok && s.key != "" {
			v := m[s.key]
			delete(m, s.key)
			m[strings.ToUpper(s.key[:1])+s.key[1:]] = v
		}
		return "recase " + s.path
	},
}

// mutate applies one mutation to a random value of a random document, or
// duplicates a document (the same object twice, or a changed copy).
func mutate(rng *rand.Rand, docs []any, applied []string) ([]any, []string) {
	if len(docs) == 0 {
		return docs, applied
	}
	i := rng.IntN(len(docs))
	if rng.IntN(8) == 0 {
		return append(docs, cloneValue(docs[i])), append(applied, fmt.Sprintf("duplicate document %d", i))
	}
	slots := collectSlots(docs[i], "", nil)
	if len(slots) == 0 {
		return docs, applied
	}
	names := make([]string, 0, len(mutations))
	for name := range mutations {
		names = append(names, name)
	}
	slices.Sort(names)
	s := slots[rng.IntN(len(slots))]
	if strings.HasSuffix(s.path, ".name") && rng.IntN(2) == 0 {
		return docs, append(applied, mutations["dangle"](rng, s))
	}
	return docs, append(applied, mutations[names[rng.IntN(len(names))]](rng, s))
}

// slot is a place holding a value: a key of a map or an index of a list.
type slot struct {
	container any
	key       string
	index     int
	path      string
}

func (s slot) get() any {
	if m, ok := s.container.(map[string]any); ok {
		return m[s.key]
	}
	return s.container.([]any)[s.index]
}

func (s slot) set(v any) {
	if m, ok := s.container.(map[string]any); ok {
		m[s.key] = v
		return
	}
	s.container.([]any)[s.index] = v
}

// delete removes a map entry; a list item is emptied instead, since the
// list cannot shrink in place.
func (s slot) delete() {
	if m, ok := s.container.(map[string]any); ok {
		delete(m, s.key)
		return
	}
	s.container.([]any)[s.index] = nil
}

// collectSlots lists every place in v, in a fixed order.
func collectSlots(v any, path string, out []slot) []slot {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := strings.TrimPrefix(path+"."+k, ".")
			out = append(out, slot{container: v, key: k, path: p})
			out = collectSlots(v[k], p, out)
		}
	case []any:
		for i := range v {
			p := fmt.Sprintf("%s[%d]", path, i)
			out = append(out, slot{container: v, index: i, path: p})
			out = collectSlots(v[i], p, out)
		}
	}
	return out
}
