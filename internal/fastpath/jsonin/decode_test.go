package jsonin

import (
	"encoding/json"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	kjson "sigs.k8s.io/json"
)

// kinds are the types the tests decode into, by the name the cases use.
var kinds = []struct {
	name string
	new  func() any
}{
	{"HTTPRoute", func() any { return &gwv1.HTTPRoute{} }},
	{"Gateway", func() any { return &gwv1.Gateway{} }},
	{"Service", func() any { return &corev1.Service{} }},
	{"Secret", func() any { return &corev1.Secret{} }},
}

func newOf(t testing.TB, kind string) any {
	for _, k := range kinds {
		if k.name == kind {
			return k.new()
		}
	}
	t.Fatalf("no kind %s", kind)
	return nil
}

// differential decodes obj with FromMap and the library's way (encode,
// then UnmarshalStrict), fails t when FromMap answered and the two
// differ or the library complained, and reports whether FromMap answered.
func differential(t testing.TB, d *Decoder, obj map[string]any, newObj func() any) bool {
	t.Helper()
	fast := newObj()
	if !d.FromMap(obj, fast) {
		return false
	}
	js, err := json.Marshal(obj)
	if err != nil {
		t.Fatalf("FromMap took a value json.Marshal refuses: %v", err)
	}
	matchLibrary(t, "FromMap", fast, js, newObj)
	return true
}

// matchLibrary fails t when the library decodes js with an error or a
// strict error, or into something else than fast.
func matchLibrary(t testing.TB, name string, fast any, js []byte, newObj func() any) {
	t.Helper()
	want := newObj()
	strictErrs, err := kjson.UnmarshalStrict(js, want)
	switch {
	case err != nil || len(strictErrs) > 0:
		t.Errorf("%s took %s, which the library decodes with errors %v %v", name, js, err, strictErrs)
	case !reflect.DeepEqual(fast, want):
		got, _ := json.Marshal(fast)
		lib, _ := json.Marshal(want)
		t.Errorf("%s differs on %s:\n got %s\nwant %s", name, js, got, lib)
	}
}

func TestFromMapMatchesLibrary(t *testing.T) {
	const route = `"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"r","namespace":"n"}`
	tests := []struct {
		kind, js string
		// take says whether FromMap must answer; false cases must be
		// declined, since the library complains or decodes them by rules
		// FromMap leaves alone.
		take bool
	}{
		{"HTTPRoute", `{` + route + `,"spec":{"parentRefs":[{"name":"g","port":443,"sectionName":"https"}],"hostnames":["a.example"],"rules":[{"matches":[{"path":{"type":"PathPrefix","value":"/"}}],"backendRefs":[{"name":"s","port":80,"weight":1}]}]}}`, true},
		{"HTTPRoute", `{` + route + `,"spec":{"rules":[]}}`, true},
		{"HTTPRoute", `{` + route + `,"spec":{"rules":null,"hostnames":null,"parentRefs":[]}}`, true},
		{"HTTPRoute", `{` + route + `,"spec":{"rules":[{"matches":null,"backendRefs":[{"name":"s","port":null}]}]}}`, true},
		{"HTTPRoute", `{` + route + `,"spec":null,"status":null}`, true},
		{"HTTPRoute", `{` + route + `,"spec":{"rules":[null,{}]}}`, true},
		{"HTTPRoute", `{"metadata":{"labels":{"a":"b","c":null},"annotations":{}}}`, true},
		{"HTTPRoute", `{"metadata":{"labels":null,"finalizers":["x"],"generation":3,"uid":"u"}}`, true},
		{"HTTPRoute", `{"metadata":{"creationTimestamp":null}}`, true},
		{"HTTPRoute", `{"metadata":{"creationTimestamp":"2024-01-01T00:00:00Z"}}`, false},
		{"HTTPRoute", `{"metadata":{"generation":1.5}}`, false},
		{"HTTPRoute", `{"metadata":{"generation":2.0}}`, false},
		{"HTTPRoute", `{"metadata":{"generation":1e30}}`, false},
		{"HTTPRoute", `{"metadata":{"generation":"1"}}`, false},
		{"HTTPRoute", `{"spec":{"rules":[{"backendRefs":[{"port":3000000000}]}]}}`, false},
		{"HTTPRoute", `{"spec":{"rules":[{"backendRefs":[{"port":-1}]}]}}`, true},
		{"HTTPRoute", `{"spec":{"rules":[{"backendRefs":[{"port":"80"}]}]}}`, false},
		{"HTTPRoute", `{"spec":{"hostnames":"a"}}`, false},
		{"HTTPRoute", `{"spec":{"hostnames":[1]}}`, false},
		{"HTTPRoute", `{"spec":{"rules":{}}}`, false},
		{"HTTPRoute", `{"spec":{"unknown":1}}`, false},
		{"HTTPRoute", `{"spec":{"Rules":[]}}`, false},
		{"HTTPRoute", `{"Kind":"HTTPRoute"}`, false},
		{"HTTPRoute", `{"metadata":{"labels":{"a":1}}}`, false},
		{"HTTPRoute", `{"metadata":{"managedFields":[{"fieldsV1":{}}]}}`, false},
		{"HTTPRoute", `{"status":{"parents":[{"conditions":[{"type":"Accepted","lastTransitionTime":null}]}]}}`, true},
		{"HTTPRoute", `{"status":{"parents":[{"conditions":[{"type":"Accepted","observedGeneration":1}]}]}}`, true},
		{"HTTPRoute", `{"spec":{"rules":[{"timeouts":{"request":"1s"}}]}}`, true},
		{"HTTPRoute", `{"spec":{"rules":[{"filters":[{"type":"RequestMirror","requestMirror":{"percent":50,"fraction":{"numerator":1}}}]}]}}`, true},
		{"HTTPRoute", `{"spec":{"rules":[{"filters":[{"requestHeaderModifier":{"set":[{"name":"a","value":"b"}],"remove":null}}]}]}}`, true},
		{"Gateway", `{"spec":{"gatewayClassName":"c","listeners":[{"name":"l","port":80,"protocol":"HTTP","allowedRoutes":{"namespaces":{"from":"Same"}}}]}}`, true},
		{"Gateway", `{"spec":{"listeners":[{"tls":{"certificateRefs":[{"name":"s"}],"options":{"a":"b"}}}]}}`, true},
		{"Service", `{"spec":{"ports":[{"port":80,"protocol":"TCP"}],"selector":{"app":"a"}}}`, true},
		{"Service", `{"spec":{"ports":[{"port":80,"targetPort":8080}]}}`, true},
		{"Secret", `{"data":{"tls.crt":"YQ=="}}`, true},
		{"Service", `{"spec":{"ports":[{"port":80,"targetPort":"http"},{"targetPort":null},{"targetPort":-5}]}}`, true},
		{"Service", `{"spec":{"ports":[{"targetPort":3000000000}]}}`, false},
		{"Service", `{"spec":{"ports":[{"targetPort":1.5}]}}`, false},
		{"Service", `{"spec":{"ports":[{"targetPort":true}]}}`, false},
		{"Service", `{"spec":{"ports":[{"targetPort":{}}]}}`, false},
		{"Secret", `{"data":{"a":"","b":null,"c":"YWJj"}}`, true},
		{"Secret", `{"data":null}`, true},
		{"Secret", `{"data":{"a":"!!"}}`, false},
		{"Secret", `{"data":{"a":"YQ"}}`, false},
		{"Secret", `{"data":{"a":[1]}}`, false},
		{"Secret", `{"stringData":{"tls.crt":"a"},"type":"kubernetes.io/tls"}`, true},
	}
	d := &Decoder{}
	for _, tt := range tests {
		var obj map[string]any
		if err := kjson.UnmarshalCaseSensitivePreserveInts([]byte(tt.js), &obj); err != nil {
			t.Fatalf("%s: %v", tt.js, err)
		}
		if took := differential(t, d, obj, func() any { return newOf(t, tt.kind) }); took != tt.take {
			t.Errorf("%s %s: FromMap answered %v, want %v", tt.kind, tt.js, took, tt.take)
		}
	}
}

// TestFromMapDeclinesWhatJSONWouldChange: values that cannot come from
// decoding JSON, but that encoding to JSON would alter, are declined.
func TestFromMapDeclinesWhatJSONWouldChange(t *testing.T) {
	d := &Decoder{}
	for _, obj := range []map[string]any{
		{"metadata": map[string]any{"name": "bad\xffutf8"}},
		{"metadata": map[string]any{"labels": map[string]any{"bad\xff": "x"}}},
		{"metadata": map[string]any{"generation": 3.0}},
		{"metadata": map[string]any{"generation": int(3)}},
		{"metadata": map[string]any{"finalizers": []string{"x"}}},
		{"spec": map[string]string{"gatewayClassName": "x"}},
	} {
		if d.FromMap(obj, &gwv1.HTTPRoute{}) {
			t.Errorf("FromMap took %#v", obj)
		}
	}
}

// FuzzFromMap: whatever JSON object FromMap takes, into any of the kinds,
// it decodes exactly as the library does.
func FuzzFromMap(f *testing.F) {
	f.Add(uint8(0), []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"r","labels":{"a":null}},"spec":{"rules":[{"matches":[{"path":{"type":"PathPrefix","value":"/"}}],"backendRefs":[{"name":"s","port":80}]}]}}`))
	f.Add(uint8(1), []byte(`{"spec":{"listeners":[{"name":"l","port":80,"protocol":"HTTP","hostname":null}]}}`))
	f.Add(uint8(2), []byte(`{"spec":{"ports":[{"port":80}],"selector":{}}}`))
	f.Add(uint8(3), []byte(`{"stringData":{"a":"b"},"immutable":true}`))
	d := &Decoder{}
	f.Fuzz(func(t *testing.T, kind uint8, js []byte) {
		var obj map[string]any
		if err := kjson.UnmarshalCaseSensitivePreserveInts(js, &obj); err != nil || obj == nil {
			return
		}
		differential(t, d, obj, kinds[int(kind)%len(kinds)].new)
	})
}

// differentialJSON decodes js with FromJSON and with UnmarshalStrict,
// fails t when FromJSON answered and the two differ or the library
// complained, and reports whether FromJSON answered.
func differentialJSON(t testing.TB, d *Decoder, js []byte, newObj func() any) bool {
	t.Helper()
	fast := newObj()
	took := d.FromJSON(js, fast)
	if !took {
		return false
	}
	matchLibrary(t, "FromJSON", fast, js, newObj)
	return true
}

func TestFromJSONMatchesLibrary(t *testing.T) {
	tests := []struct {
		kind, js string
		take     bool
	}{
		{"HTTPRoute", ` { "spec" : { "rules" : [ { "matches" : [ ] } , { } ] } } `, true},
		{"HTTPRoute", `{"spec":{"rules":[]}}`, true},
		{"HTTPRoute", `{"spec":{"rules":[{"backendRefs":[{"port":-0}]}]}}`, true},
		{"HTTPRoute", `{"metadata":{"name":"é"}}`, true},
		{"HTTPRoute", `{"metadata":{"name":"a\"b"}}`, false},
		{"HTTPRoute", `{"metadata":{"name":"a\u00e9"}}`, false},
		{"HTTPRoute", `{"metadata":{"name":"a","name":"b"}}`, false},
		{"HTTPRoute", `{"metadata":{"labels":{"a":"b","a":"c"}}}`, false},
		{"HTTPRoute", `{"metadata":{"generation":01}}`, false},
		{"HTTPRoute", `{"metadata":{"generation":1.0}}`, false},
		{"HTTPRoute", `{"metadata":{"generation":1e2}}`, false},
		{"HTTPRoute", `{"metadata":{"generation":-}}`, false},
		{"HTTPRoute", `{"metadata":{"generation":99999999999999999999}}`, false},
		{"HTTPRoute", `{"metadata":{"name":"a",}}`, false},
		{"HTTPRoute", `{"metadata":{"name":"a"}} x`, false},
		{"HTTPRoute", `{"metadata":{"name":"a"}`, false},
		{"HTTPRoute", `{"spec":{"rules":[{},]}}`, false},
		{"HTTPRoute", `{"spec":{"rules":[{}]]}}`, false},
		{"HTTPRoute", `{"metadata":{"name":nul}}`, false},
		{"HTTPRoute", `{"metadata":{"name":null}}`, true},
		{"HTTPRoute", `{"spec":{"rules":[{"matches":[{"path":null,"headers":[{"name":"a","value":"b"}]}]}]}}`, true},
		{"HTTPRoute", `{"metadata":{"name":"tab	in"}}`, false},
		{"HTTPRoute", "{\"metadata\":{\"name\":\"bad\xff\"}}", false},
		{"Service", `{"spec":{"ports":[{"port":80,"targetPort":8080},{"targetPort":"http"}],"selector":{"a":"b"}}}`, true},
		{"Service", `{"spec":{"ports":[{"targetPort":2147483648}]}}`, false},
		{"Service", `{"spec":{"clusterIP":true}}`, false},
		{"Secret", `{"data":{"a":"YWJj","b":""},"type":"Opaque"}`, true},
		{"Secret", `{"immutable":false,"data":{"a":"YWJj="}}`, false},
	}
	d := &Decoder{}
	for _, tt := range tests {
		if took := differentialJSON(t, d, []byte(tt.js), func() any { return newOf(t, tt.kind) }); took != tt.take {
			t.Errorf("%s %s: FromJSON answered %v, want %v", tt.kind, tt.js, took, tt.take)
		}
	}
}

// FuzzFromJSON: whatever JSON FromJSON takes, into any of the kinds, it
// decodes exactly as the library does.
func FuzzFromJSON(f *testing.F) {
	f.Add(uint8(0), []byte(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"r","labels":{"a":null}},"spec":{"rules":[{"matches":[{"path":{"type":"PathPrefix","value":"/"}}],"backendRefs":[{"name":"s","port":80}]}]}}`))
	f.Add(uint8(1), []byte(`{"spec":{"listeners":[{"name":"l","port":80,"protocol":"HTTP","hostname":null}]}}`))
	f.Add(uint8(2), []byte(`{"spec":{"ports":[{"port":80,"targetPort":"http"}],"selector":{}}}`))
	f.Add(uint8(3), []byte(`{"data":{"a":"YWJj"},"immutable":true}`))
	d := &Decoder{}
	f.Fuzz(func(t *testing.T, kind uint8, js []byte) {
		differentialJSON(t, d, js, kinds[int(kind)%len(kinds)].new)
	})
}
