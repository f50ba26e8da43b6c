package shadow

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/translate/ir"
)

func match(typ, path string) ir.Match { return ir.Match{PathType: typ, Path: path} }

func withHeader(m ir.Match, name, value string) ir.Match {
	m.Headers = append(m.Headers, ir.ValueMatch{Name: name, Type: "Exact", Value: value})
	return m
}

func withMethod(m ir.Match, method string) ir.Match {
	m.Method = method
	return m
}

// TestCovers checks each covering rule in both orders: placed first, the
// winner kills the other match; placed second, it is dead only when the
// other covers it too (want.reverse).
func TestCovers(t *testing.T) {
	tests := []struct {
		name    string
		first   ir.Match
		second  ir.Match
		want    Relation // "" when the second stays live
		reverse Relation // the relation when the order is swapped
	}{
		{"same exact", match("Exact", "/a"), match("Exact", "/a"), Identical, Identical},
		{"exact differs", match("Exact", "/a"), match("Exact", "/b"), "", ""},
		{"prefix trailing slash", match("PathPrefix", "/a/"), match("PathPrefix", "/a"), Identical, Identical},
		{"same regex", match("RegularExpression", "/a.*"), match("RegularExpression", "/a.*"), Identical, Identical},
		{"different regexes are live", match("RegularExpression", "/a.*"), match("RegularExpression", "/a/.*"), "", ""},
		{"fewer headers is broader", match("PathPrefix", "/a"), withHeader(match("PathPrefix", "/a"), "x", "1"), Broader, ""},
		{"header names fold case", withHeader(match("PathPrefix", "/a"), "X-V", "1"), withHeader(match("PathPrefix", "/a"), "x-v", "1"), Identical, Identical},
		{"header values differ", withHeader(match("PathPrefix", "/a"), "x", "1"), withHeader(match("PathPrefix", "/a"), "x", "2"), "", ""},
		{"no method is broader", match("Exact", "/a"), withMethod(match("Exact", "/a"), "POST"), Broader, ""},
		{"methods differ", withMethod(match("Exact", "/a"), "GET"), withMethod(match("Exact", "/a"), "POST"), "", ""},
		{"prefix covers longer prefix", match("PathPrefix", "/a"), match("PathPrefix", "/a/b"), PrefixCovers, ""},
		{"prefix is segment-wise", match("PathPrefix", "/a"), match("PathPrefix", "/ab"), "", ""},
		{"root prefix covers all", match("PathPrefix", "/"), match("Exact", "/x/y"), PrefixCovers, ""},
		{"prefix covers exact", match("PathPrefix", "/a"), match("Exact", "/a/"), PrefixCovers, ""},
		{"regex covers prefix under its literal", match("RegularExpression", "/api/.*"), match("PathPrefix", "/api/v1"), RegexCovers, ""},
		{"regex misses the prefix itself", match("RegularExpression", "/api/.*"), match("PathPrefix", "/api"), "", ""},
		{"regex any covers root", match("RegularExpression", "/.*"), match("PathPrefix", "/"), RegexCovers, ""},
		{"regex with a class is not decided", match("RegularExpression", "/api/[a-z]*"), match("PathPrefix", "/api/v"), "", ""},
		{"regex covers exact", match("RegularExpression", "/items/[0-9]+"), match("Exact", "/items/42"), RegexCovers, ""},
		{"regex misses exact", match("RegularExpression", "/items/[0-9]+"), match("Exact", "/items/x"), "", ""},
		{"case-insensitive regex is not a literal", match("RegularExpression", "(?i)/api/.*"), match("PathPrefix", "/api/v1"), "", ""},
		{"winner's header must be in the dead match", withHeader(match("PathPrefix", "/"), "x", "1"), match("PathPrefix", "/a"), "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := relationOf(tt.first, tt.second); got != tt.want {
				t.Errorf("first %+v, second %+v: got %q, want %q", tt.first, tt.second, got, tt.want)
			}
			if got := relationOf(tt.second, tt.first); got != tt.reverse {
				t.Errorf("swapped: got %q, want %q", got, tt.reverse)
			}
		})
	}
}

// relationOf places a then b in one virtual host and returns why b is
// dead, or "".
func relationOf(a, b ir.Match) Relation {
	model := oneHost(ir.Route{Match: a, Origin: ir.Origin{Kind: "HTTPRoute", Name: "a"}}, ir.Route{Match: b, Origin: ir.Origin{Kind: "HTTPRoute", Name: "b"}})
	found := Find(model)
	if len(found) == 0 {
		return ""
	}
	return found[0].Relation
}

func oneHost(routes ...ir.Route) ir.IR {
	return ir.IR{Gateways: []ir.Gateway{{Name: "infra/gw", Listeners: []ir.Listener{{
		Port: 80, VirtualHosts: []ir.VirtualHost{{Hostname: "example.com", Listener: "http", Routes: routes}},
	}}}}}
}

// TestDeadMatchNamesTheFirstWinner checks that a match covered by several
// earlier ones names the earliest, and that a dead match never wins.
func TestDeadMatchNamesTheFirstWinner(t *testing.T) {
	o := func(name string, rule int) ir.Origin {
		return ir.Origin{Kind: "HTTPRoute", Namespace: "ns", Name: name, Rule: rule}
	}
	model := oneHost(
		ir.Route{Match: match("RegularExpression", "/api/.*"), Origin: o("regex", 0)},
		ir.Route{Match: match("PathPrefix", "/api/v1"), Origin: o("old", 0)},
		ir.Route{Match: match("PathPrefix", "/api/v1"), Origin: o("new", 0)},
		ir.Route{Match: match("PathPrefix", "/"), Origin: o("root", 0)},
		ir.Route{Match: match("PathPrefix", "/"), Origin: o("root", 1)},
	)
	place := Place{Gateway: "infra/gw", Port: 80, Listener: "http", Host: "example.com"}
	want := []Shadowed{
		{Place: place, Dead: o("new", 0), Winner: o("regex", 0), Relation: RegexCovers},
		{Place: place, Dead: o("old", 0), Winner: o("regex", 0), Relation: RegexCovers},
		{Place: place, Dead: o("root", 1), Winner: o("root", 0), Relation: Identical},
	}
	if diff := cmp.Diff(want, Find(model)); diff != "" {
		t.Errorf("Find (-want +got):\n%s", diff)
	}
}

func TestLiteralThenAnything(t *testing.T) {
	tests := []struct {
		expr string
		lit  string
		ok   bool
	}{
		{".*", "", true},
		{"/api/.*", "/api/", true},
		{`/a\.b.*`, "/a.b", true},
		{"/api/.+", "", false},
		{"/api", "", false},
		{"/api/(.*)", "", false},
		{"[", "", false},
	}
	for _, tt := range tests {
		lit, ok := literalThenAnything(tt.expr)
		if lit != tt.lit || ok != tt.ok {
			t.Errorf("literalThenAnything(%q) = %q, %v; want %q, %v", tt.expr, lit, ok, tt.lit, tt.ok)
		}
	}
}
