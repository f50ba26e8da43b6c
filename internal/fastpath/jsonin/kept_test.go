package jsonin

import (
	"bytes"
	"reflect"
	"testing"
)

// TestDecodedStringsOwnTheirBytes: the strings FromJSON and ObjectMap put
// in what they decode are their own (copied into the reader's kept
// buffer, or allocated alone), never views of the document, which the
// loader's workers reuse: overwriting the document after the decode
// changes nothing decoded. Map keys (labels, a selector) are kept too;
// field names are only looked up.
func TestDecodedStringsOwnTheirBytes(t *testing.T) {
	docs := []struct{ kind, js string }{
		{"HTTPRoute", `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"r","namespace":"team","labels":{"app":"web","tier":"front"}},"spec":{"hostnames":["a.example.com"],"rules":[{"matches":[{"path":{"type":"PathPrefix","value":"/api"},"headers":[{"name":"x-team","value":"a"}]}],"backendRefs":[{"name":"svc","port":80}]}]}}`},
		{"Service", `{"apiVersion":"v1","kind":"Service","metadata":{"name":"svc","annotations":{"a.example.com/long-annotation-key":"and a longer value than the rest"}},"spec":{"selector":{"app":"web"},"ports":[{"name":"http","port":80,"targetPort":"http"}]}}`},
		{"Secret", `{"kind":"Secret","data":{"tls.crt":"YWJj"},"type":"kubernetes.io/tls"}`},
	}
	d := &Decoder{}
	for _, doc := range docs {
		js := []byte(doc.js)
		into := newOf(t, doc.kind)
		if !d.FromJSON(js, into) {
			t.Fatalf("%s: FromJSON declined %s", doc.kind, doc.js)
		}
		m, ok := ObjectMap(js)
		if !ok {
			t.Fatalf("%s: ObjectMap declined %s", doc.kind, doc.js)
		}
		wantObj, wantMap := newOf(t, doc.kind), map[string]any(nil)
		if !d.FromJSON([]byte(doc.js), wantObj) {
			t.Fatal("FromJSON declined a copy")
		}
		wantMap, _ = ObjectMap([]byte(doc.js))
		copy(js, bytes.Repeat([]byte{'#'}, len(js)))
		if !reflect.DeepEqual(into, wantObj) {
			t.Errorf("%s: overwriting the document changed what FromJSON decoded:\n%#v", doc.kind, into)
		}
		if !reflect.DeepEqual(m, wantMap) {
			t.Errorf("%s: overwriting the document changed what ObjectMap decoded:\n%#v", doc.kind, m)
		}
	}
}

// TestKeptBytes checks the first scan's count: string values, and keys
// only when asked; an unterminated string ends the count.
func TestKeptBytes(t *testing.T) {
	for _, tt := range []struct {
		js       string
		withKeys bool
		want     int
	}{
		{`{"ab":"cde","f" : ["gh", 1, "i"]}`, false, 6},
		{`{"ab":"cde","f" : ["gh", 1, "i"]}`, true, 9},
		{`{"ab":"cd`, false, 0},
		{``, true, 0},
	} {
		if got := keptBytes([]byte(tt.js), tt.withKeys); got != tt.want {
			t.Errorf("keptBytes(%s, %v) = %d, want %d", tt.js, tt.withKeys, got, tt.want)
		}
	}
}
