package load

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/corpus"
	"github.com/gwsim/gwsim/internal/fastpath"
	"github.com/gwsim/gwsim/internal/fastpath/yamlin"
)

// sameHeader checks that readHeader, with its scan, gives exactly what
// readHeaderJSON gives, and reports whether the scan answered. converted
// says js is yamlin's output, or JSON as encoding/json writes it.
func sameHeader(t *testing.T, name string, js []byte, converted bool) (scanned bool) {
	t.Helper()
	want, wantErr := readHeaderJSON(js)
	got, gotErr := (&decoder{}).readHeader(js, converted)
	if errText(gotErr) != errText(wantErr) || !reflect.DeepEqual(got, want) {
		t.Errorf("%s: readHeader(%q, %v)\n = %+v, %v\nwant %+v, %v", name, js, converted, got, gotErr, want, wantErr)
	}
	_, scanned = scanHeader(js, converted)
	return scanned
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestScanHeaderTricky(t *testing.T) {
	for _, tc := range []struct {
		name, js string
		scanned  bool // whether the scan answers rather than encoding/json
	}{
		{"plain", `{"apiVersion":"v1","kind":"Service","metadata":{"name":"a","namespace":"b"},"spec":{}}`, true},
		{"spaces", " \n{ \"kind\" :\t\"Service\" , \"metadata\" : { } }\r\n", true},
		{"empty object", `{}`, true},
		{"keys after spec", `{"spec":{"x":[1,-2.5e+3,true,false,null,"s"]},"kind":"K","apiVersion":"v"}`, true},
		{"escapes in skipped values", `{"kind":"K","spec":{"a\"b":"c\\d\u00e9\n","e":"\ud83d\ude00"},"metadata":{"labels":{"x\/y":"z"},"name":"n"}}`, true},
		{"unicode name", `{"kind":"K","metadata":{"name":"café-日本"}}`, true},
		{"nested metadata in spec", `{"spec":{"metadata":{"name":"inner"}},"metadata":{"name":"outer"}}`, true},
		{"other metadata fields", `{"metadata":{"labels":{"name":"x"},"annotations":null,"name":"n","generation":3}}`, true},
		{"invalid utf-8 in skipped value", "{\"kind\":\"K\",\"spec\":\"\xff\"}", true},

		{"escape in kind", `{"kind":"Ser\u0076ice"}`, false},
		{"escape in name", `{"metadata":{"name":"a\/b"}}`, false},
		{"escaped key", `{"\u006bind":"Service"}`, false},
		{"escaped other key", `{"sp\u0065c":{},"kind":"K"}`, false},
		{"case variant kind", `{"Kind":"Service"}`, true},                                         // keys match case-sensitively
		{"case variant both", `{"kind":"A","KIND":"B"}`, true},                                    // keys match case-sensitively
		{"kelvin sign kind", `{"` + "\u212a" + `ind":"Service"}`, true},                           // keys match case-sensitively
		{"long s in namespace", `{"metadata":{"name":"n","name` + "\u017f" + `pace":"x"}}`, true}, // keys match case-sensitively
		{"case variant name", `{"metadata":{"Name":"n"}}`, true},                                  // keys match case-sensitively
		{"case variant metadata", `{"Metadata":{"name":"n"}}`, true},                              // keys match case-sensitively
		{"duplicate kind", `{"kind":"A","kind":"B"}`, false},
		{"duplicate metadata", `{"metadata":{"name":"a"},"metadata":{"name":"b"}}`, false},
		{"duplicate name", `{"metadata":{"name":"a","name":"b"}}`, false},
		{"metadata null", `{"kind":"K","metadata":null}`, false},
		{"metadata string", `{"kind":"K","metadata":"x"}`, false},
		{"metadata list", `{"kind":"K","metadata":[]}`, false},
		{"name number", `{"kind":"K","metadata":{"name":3}}`, false},
		{"name null", `{"kind":"K","metadata":{"name":null}}`, false},
		{"namespace object", `{"kind":"K","metadata":{"name":"n","namespace":{}}}`, false},
		{"kind number", `{"kind":1}`, false},
		{"kind null", `{"kind":null}`, false},
		{"apiVersion bool", `{"apiVersion":true}`, false},
		{"items", `{"apiVersion":"v1","kind":"List","items":[{"kind":"K"}]}`, false},
		{"items not list", `{"kind":"List","items":{}}`, false},
		{"Items", `{"kind":"List","Items":[]}`, true}, // keys match case-sensitively
		{"invalid utf-8 in name", "{\"metadata\":{\"name\":\"a\xffb\"}}", false},
		{"null", `null`, false},
		{"null with space", " null\n", false},
		{"top-level list", `[{"kind":"K"}]`, false},
		{"top-level string", `"kind"`, false},
		{"top-level number", `1`, false},
		{"empty", ``, false},
		{"trailing garbage", `{"kind":"K"} x`, false},
		{"two values", `{"kind":"K"}{}`, false},
		{"unclosed", `{"kind":"K"`, false},
		{"trailing comma", `{"kind":"K",}`, false},
		{"bad number", `{"spec":01}`, false},
		{"bad fraction", `{"spec":1.}`, false},
		{"bad exponent", `{"spec":1e}`, false},
		{"bare minus", `{"spec":-}`, false},
		{"bad literal", `{"spec":nul}`, false},
		{"bad escape", `{"spec":"\x"}`, false},
		{"short unicode escape", `{"spec":"\u12"}`, false},
		{"control char", "{\"spec\":\"a\tb\"}", false},
		{"single quotes", `{'kind':'K'}`, false},
		{"missing colon", `{"kind" "K"}`, false},
		{"unclosed array", `{"spec":[1,2}`, false},
		{"bom", "\xef\xbb\xbf{}", false},
		{"deep", `{"spec":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}`, false},
	} {
		if got := sameHeader(t, tc.name, []byte(tc.js), false); got != tc.scanned {
			t.Errorf("%s: scanned = %v, want %v", tc.name, got, tc.scanned)
		}
	}
}

// TestScanHeaderSorted checks the scan that stops after the header's keys
// on JSON as encoding/json writes it, the only JSON it is given.
func TestScanHeaderSorted(t *testing.T) {
	for _, tc := range []struct {
		name, js string
		scanned  bool
	}{
		{"plain", `{"apiVersion":"v1","kind":"Service","metadata":{"name":"a","namespace":"b"},"spec":{"x":[1,2]},"status":{}}`, true},
		{"no metadata", `{"apiVersion":"v1","kind":"K","spec":{}}`, true},
		{"only later keys", `{"spec":{},"zz":1}`, true},
		{"keys between", `{"apiVersion":"v","data":{"a":"b"},"kind":"K","labels":1,"metadata":{"name":"n"},"status":null}`, true},
		{"case variants before", `{"Kind":"A","Metadata":{"name":"x"},"kind":"K"}`, true},
		{"escaped key after metadata", `{"kind":"K","metadata":{"name":"n"},"spec\u003c":1}`, false},
		{"escape in a later value", `{"kind":"K","metadata":{"name":"n"},"spec":"\u003c"}`, true},
		{"number last before metadata", `{"kind":"K","labels":1}`, true},
		{"literal last", `{"kind":"K","labels":true}`, true},
		{"number then metadata", `{"a":-1.5e3,"kind":"K","metadata":{"name":"n"}}`, true},
		{"brackets in strings", `{"a":[1,{"b":"]}\"["}],"c":{"d":[[]]},"kind":"K","metadata":{"name":"n"}}`, true},
		{"string last", `{"a":"x\"}","kind":"K"}`, true},
		{"items", `{"apiVersion":"v1","items":[{"kind":"K"}],"kind":"List"}`, false},
		{"metadata not object", `{"kind":"K","metadata":"x","spec":{}}`, false},
	} {
		if got := sameHeader(t, tc.name, []byte(tc.js), true); got != tc.scanned {
			t.Errorf("%s: scanned = %v, want %v", tc.name, got, tc.scanned)
		}
	}
}

// TestScanHeaderCorpus compares the scan with encoding/json on every
// manifest at hand: the golden inputs, the examples and, when the module
// cache has them, the Gateway API conformance manifests.
func TestScanHeaderCorpus(t *testing.T) {
	roots := []string{"../../golden", "../../examples"}
	if conf := corpus.ConformanceDir(); conf != "" {
		roots = append(roots, filepath.Join(conf, "tests"), filepath.Join(conf, "base"))
	} else {
		corpus.Without(t, corpus.ConformanceModule)
	}
	var docs, scanned int
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !corpusFile(root, path) {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			parts, _ := split(path, data)
			for _, doc := range parts {
				var out decoded
				js, _, converted, ok := newDecoder("", Limits{}, nil, fastpath.Mode{}).toJSON(doc, &yamlin.Converter{}, diag.Source{File: path, Line: doc.line}, &out)
				if !ok {
					continue
				}
				if converted {
					compareTree(t, path, js, 0, true)
				}
				d, s := compareTree(t, path, js, 0, false)
				docs, scanned = docs+d, scanned+s
			}
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	if docs < 100 || scanned*10 < docs*9 {
		t.Errorf("scanned %d of %d documents; want most of at least 100", scanned, docs)
	}
	t.Logf("scanned %d of %d documents", scanned, docs)
}

// corpusFile picks manifests: golden inputs (an input file or anything
// under an input directory) and YAML or JSON files elsewhere.
func corpusFile(root, path string) bool {
	ext := filepath.Ext(path)
	if ext != ".yaml" && ext != ".yml" && ext != ".json" && ext != "" {
		return false
	}
	if filepath.Base(root) != "golden" {
		return ext != ""
	}
	return strings.Contains(filepath.ToSlash(path), "/input")
}

// compareTree compares a document's header and those of its List items.
func compareTree(t *testing.T, name string, js []byte, depth int, converted bool) (docs, scanned int) {
	t.Helper()
	docs = 1
	if sameHeader(t, name, js, converted) {
		scanned = 1
	}
	h, err := readHeaderJSON(js)
	if err != nil || depth >= maxListDepth {
		return docs, scanned
	}
	for _, item := range h.items {
		d, s := compareTree(t, name, item, depth+1, converted)
		docs, scanned = docs+d, scanned+s
	}
	return docs, scanned
}

func FuzzReadHeader(f *testing.F) {
	for _, s := range []string{
		`{"apiVersion":"v1","kind":"Service","metadata":{"name":"a","namespace":"b"},"spec":{"x":[1,2.5e3,"\u00e9"]}}`,
		`{"Kind":"A","metadata":{"NAME":"x"}}`,
		`{"kind":"List","items":[{"kind":"K"}]}`,
		`null`, `[]`, `{"spec":-0.0E-1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, js []byte) {
		sameHeader(t, "fuzz", js, false)
		// The same value as encoding/json writes it, and the input read
		// as YAML by yamlin: the scan that stops early.
		var v any
		if json.Unmarshal(js, &v) == nil {
			if canon, err := json.Marshal(v); err == nil {
				sameHeader(t, "fuzz, encoded", canon, true)
			}
		}
		if converted, ok := yamlin.Convert(js); ok {
			sameHeader(t, "fuzz, converted", converted, true)
		}
	})
}

func BenchmarkReadHeader(b *testing.B) {
	p := routesFile(b, 1)
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	docs, _ := split(p, data)
	var out decoded
	js, _, _, ok := newDecoder("", Limits{}, nil, fastpath.Mode{}).toJSON(docs[0], &yamlin.Converter{}, diag.Source{}, &out)
	if !ok {
		b.Fatal(out.errors)
	}
	for _, bc := range []struct {
		name string
		read func([]byte) (header, error)
	}{
		{"scan", func(js []byte) (header, error) { return (&decoder{}).readHeader(js, false) }},
		{"sorted", func(js []byte) (header, error) { return (&decoder{}).readHeader(js, true) }},
		{"json", readHeaderJSON},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(js)))
			for b.Loop() {
				if _, err := bc.read(js); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
