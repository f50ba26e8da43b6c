package diag

import (
	"slices"
	"testing"
)

func TestParseIgnore(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantObj *ObjectRef
		bad     bool
	}{
		{in: "GWS3001", want: "GWS3001"},
		{in: " GWS3001 ", want: "GWS3001"},
		{in: "GWS3001:HTTPRoute/shop/cart", want: "GWS3001:HTTPRoute/shop/cart", wantObj: &ObjectRef{Kind: "HTTPRoute", Namespace: "shop", Name: "cart"}},
		{in: "GWS3001: HTTPRoute/shop/cart ", want: "GWS3001:HTTPRoute/shop/cart", wantObj: &ObjectRef{Kind: "HTTPRoute", Namespace: "shop", Name: "cart"}},
		{in: "GWS7001:GatewayClass/eg", want: "GWS7001:GatewayClass/eg", wantObj: &ObjectRef{Kind: "GatewayClass", Name: "eg"}},
		{in: "GWS0000", bad: true},
		{in: "gws3001", bad: true},
		{in: "GWS3001:", bad: true},
		{in: "GWS3001:HTTPRoute", bad: true},
		{in: "GWS3001:HTTPRoute//cart", bad: true},
		{in: "GWS3001:a/b/c/d", bad: true},
	}
	for _, tt := range tests {
		ig, err := ParseIgnore(tt.in, "--ignore")
		if (err != nil) != tt.bad {
			t.Errorf("ParseIgnore(%q) error = %v, want error %v", tt.in, err, tt.bad)
			continue
		}
		if tt.bad {
			continue
		}
		if ig.String() != tt.want || (tt.wantObj == nil) != (ig.Object == nil) || tt.wantObj != nil && *tt.wantObj != *ig.Object {
			t.Errorf("ParseIgnore(%q) = %s %v, want %s %v", tt.in, ig, ig.Object, tt.want, tt.wantObj)
		}
	}
}

func TestSuppress(t *testing.T) {
	cart := ObjectRef{Kind: "HTTPRoute", Namespace: "shop", Name: "cart"}
	recs := ObjectRef{Kind: "HTTPRoute", Namespace: "shop", Name: "recs"}
	a := Finding{Code: "GWS3001", Object: cart, Message: "a"}
	b := Finding{Code: "GWS3001", Object: recs, Message: "b"}
	c := Finding{Code: "GWS3002", Object: recs, Message: "c"}
	d := Finding{Object: recs, Message: "no code"}
	one, _ := ParseIgnore("GWS3001:httproute/shop/cart", "--ignore")
	all, _ := ParseIgnore("GWS3002", ".gwsim.yaml")
	tests := []struct {
		name      string
		rules     []Ignore
		annotated map[ObjectRef][]string
		kept      []Finding
		by        []string
	}{
		{"none", nil, nil, []Finding{a, b, c, d}, nil},
		{"one object, kind in any case", []Ignore{one}, nil, []Finding{b, c, d}, []string{"--ignore GWS3001:httproute/shop/cart"}},
		{"every object", []Ignore{all}, nil, []Finding{a, b, d}, []string{".gwsim.yaml GWS3002"}},
		{"annotation", nil, map[ObjectRef][]string{recs: {"GWS3001", "GWS3002"}}, []Finding{a, d}, []string{"annotation gwsim.dev/ignore", "annotation gwsim.dev/ignore"}},
	}
	for _, tt := range tests {
		kept, supp := Suppress([]Finding{a, b, c, d}, tt.rules, tt.annotated)
		var by []string
		for _, s := range supp {
			by = append(by, s.By)
		}
		if !slices.Equal(kept, tt.kept) || !slices.Equal(by, tt.by) {
			t.Errorf("%s: kept %v suppressed by %v, want %v by %v", tt.name, kept, by, tt.kept, tt.by)
		}
	}
}

func TestParseIgnoreAnnotation(t *testing.T) {
	codes, unknown := ParseIgnoreAnnotation(" GWS3001,, GWS9999 ,GWS7003")
	if !slices.Equal(codes, []string{"GWS3001", "GWS7003"}) || !slices.Equal(unknown, []string{"GWS9999"}) {
		t.Errorf("got %v and unknown %v", codes, unknown)
	}
}
