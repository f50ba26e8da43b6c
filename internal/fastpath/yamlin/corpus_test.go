package yamlin

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/bench/synth"
	"github.com/gwsim/gwsim/internal/corpus"
)

// TestConvertMatchesYAMLToJSONStrictOnCorpus is the acceptance evidence for
// issue 7: over every YAML document of the golden cases, the examples, the
// conformance module's manifests and a generated set of 1000 routes, split
// as offline/load splits them, whenever Convert accepts a document its
// JSON is byte for byte what sigs.k8s.io/yaml.YAMLToJSONStrict returns, so
// the loader decodes every one of them to identical objects. It also
// requires the fast path to take at least 99% of the generated documents,
// and logs the share it takes of the others.
func TestConvertMatchesYAMLToJSONStrictOnCorpus(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	corpora := []struct {
		name string
		docs func(t *testing.T) [][]byte
		min  float64 // least share of documents the fast path must take
	}{
		{name: "golden", docs: func(t *testing.T) [][]byte { return treeDocs(t, filepath.Join(root, "golden")) }},
		{name: "examples", docs: func(t *testing.T) [][]byte { return treeDocs(t, filepath.Join(root, "examples")) }},
		{name: "conformance", docs: conformanceDocs},
		{name: "synth", docs: synthDocs, min: 0.99},
	}
	for _, c := range corpora {
		t.Run(c.name, func(t *testing.T) {
			docs := c.docs(t)
			if len(docs) == 0 {
				t.Fatal("no documents")
			}
			accepted := 0
			var conv Converter // reused, as a loader's worker does
			for _, doc := range docs {
				if checkDifferential(t, &conv, doc) {
					accepted++
				}
			}
			share := float64(accepted) / float64(len(docs))
			t.Logf("%s: fast path took %d of %d documents (%.1f%%)", c.name, accepted, len(docs), 100*share)
			if share < c.min {
				t.Errorf("fast path took %.1f%% of the documents, want at least %.0f%%", 100*share, 100*c.min)
			}
		})
	}
}

// checkDifferential reports whether conv accepted doc, failing t if its
// JSON differs from YAMLToJSONStrict's.
func checkDifferential(t testing.TB, conv *Converter, doc []byte) bool {
	t.Helper()
	got, ok := conv.Convert(doc)
	if !ok {
		return false
	}
	want, err := yaml.YAMLToJSONStrict(doc)
	switch {
	case err != nil:
		t.Errorf("Convert accepted a document YAMLToJSONStrict rejects (%v):\n%q\nConvert: %s", err, doc, got)
	case !bytes.Equal(got, want):
		t.Errorf("Convert differs from YAMLToJSONStrict on\n%q\n got: %s\nwant: %s", doc, got, want)
	}
	return true
}

// treeDocs returns the documents of every .yaml and .yml file under dir.
func treeDocs(t *testing.T, dir string) [][]byte {
	t.Helper()
	var docs [][]byte
	err := corpus.EachYAMLFile(dir, func(_ string, data []byte) error {
		docs = append(docs, splitDocs(data)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// conformanceDocs reads the manifests of the conformance module, which is
// not a dependency of this module, from the module cache.
func conformanceDocs(t *testing.T) [][]byte {
	files := corpus.ConformanceManifests()
	if len(files) == 0 {
		corpus.Missing(t, corpus.ConformanceModule, nil)
	}
	var docs [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, splitDocs(data)...)
	}
	return docs
}

func synthDocs(*testing.T) [][]byte {
	set := synth.Generate(synth.Options{Routes: 1000, TLS: true})
	var docs [][]byte
	for _, f := range set.Files {
		docs = append(docs, splitDocs(f.Data)...)
	}
	return docs
}

// splitDocs cuts a YAML file into documents as offline/load's splitYAML
// does: at `---` and `...` lines, a `--- value` line starting the next
// document, content-free documents dropped. A JSON file (first byte `{`)
// is skipped: the loader does not convert it.
func splitDocs(data []byte) [][]byte {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		return nil
	}
	var docs [][]byte
	start, content := 0, false
	flush := func(end int) {
		if content {
			docs = append(docs, data[start:end])
		}
	}
	for pos := 0; pos < len(data); {
		end := len(data)
		if i := bytes.IndexByte(data[pos:], '\n'); i >= 0 {
			end = pos + i + 1
		}
		line := bytes.TrimRight(data[pos:end], "\r\n")
		switch marker, rest := markerOf(line); {
		case marker && rest:
			flush(pos)
			start, content = pos, true
		case marker:
			flush(pos)
			start, content = end, false
		default:
			if t := bytes.TrimLeft(line, " \t"); len(t) > 0 && t[0] != '#' && t[0] != '%' {
				content = true
			}
		}
		pos = end
	}
	flush(len(data))
	return docs
}

// markerOf reports whether line is a `---` or `...` marker, and whether
// content follows a `---` on it.
func markerOf(line []byte) (marker, rest bool) {
	for _, m := range []string{"---", "..."} {
		r, ok := bytes.CutPrefix(line, []byte(m))
		if !ok || (len(r) > 0 && r[0] != ' ' && r[0] != '\t') {
			continue
		}
		r = bytes.TrimSpace(r)
		if len(r) == 0 || r[0] == '#' {
			return true, false
		}
		if m == "---" {
			return true, true
		}
	}
	return false, false
}
