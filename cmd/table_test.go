package cmd

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestCutCell(t *testing.T) {
	tests := []struct {
		cell  string
		width int
		how   elision
		want  string
	}{
		{"short", 10, cutEnd, "short"},
		{"PathPrefix /recommendations", 16, cutEnd, "PathPrefix /rec…"},
		{"HTTPRoute shop/recommendations#12", 20, cutLast, "HTTPRoute shop/r…#12"},
		{"no-rule-index-here-at-all", 16, cutLast, "no-rule-index-h…"},
		{"wide cell", 4, keepWhole, "wide cell"},
		{"ünïcödé-ünïcödé", 8, cutEnd, "ünïcödé…"},
	}
	for _, tt := range tests {
		got := cutCell(tt.cell, tt.width, tt.how)
		if got != tt.want {
			t.Errorf("cutCell(%q, %d) = %q, want %q", tt.cell, tt.width, got, tt.want)
		}
		if tt.how != keepWhole && utf8.RuneCountInString(got) > tt.width {
			t.Errorf("cutCell(%q, %d) = %q is wider than %d", tt.cell, tt.width, got, tt.width)
		}
	}
}

// TestTableFits checks the layout rules: a table that fits is left alone;
// one that does not cuts the fewest cells, in the cutEnd columns before the
// cutLast one; keepWhole columns and headers are never cut.
func TestTableFits(t *testing.T) {
	long := strings.Repeat("m", 40)
	tests := []struct {
		name     string
		maxWidth int
		rows     [][]string
		want     string
	}{
		{"fits", 40, [][]string{{"a", "b", "c"}}, "" +
			"FIXED  MATCH  ROUTE\n" +
			"a      b      c\n"},
		{"no limit", 0, [][]string{{"a", long, "c"}}, "" +
			"FIXED  MATCH                                     ROUTE\n" +
			"a      " + long + "  c\n"},
		{"one long cell is cut, short ones stay whole", 50, [][]string{
			{"fixed-cell", "short match", "HTTPRoute a/b#0"},
			{"fixed-cell", long, "HTTPRoute a/b#1"},
		}, "" +
			"FIXED       MATCH                  ROUTE\n" +
			"fixed-cell  short match            HTTPRoute a/b#0\n" +
			"fixed-cell  mmmmmmmmmmmmmmmmmmmm…  HTTPRoute a/b#1\n"},
		{"the route column is cut last", 46, [][]string{
			{"fixed-cell", long, "HTTPRoute ns/route-name#3"},
		}, "" +
			"FIXED       MATCH             ROUTE\n" +
			"fixed-cell  mmmmmmmmmmmmmmm…  HTTPRoute ns/…#3\n"},
		{"too narrow even when cut: nothing is cut", 20, [][]string{{"fixed-cell", long, "r"}}, "" +
			"FIXED       MATCH                                     ROUTE\n" +
			"fixed-cell  " + long + "  r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := table{
				columns:  []column{{header: "FIXED"}, {header: "MATCH", elide: cutEnd}, {header: "ROUTE", elide: cutLast}},
				rows:     tt.rows,
				maxWidth: tt.maxWidth,
			}
			var buf bytes.Buffer
			if err := tb.write(&buf); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, buf.String()); diff != "" {
				t.Errorf("table (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRoutesTableFitsExamples holds the default routes table of the
// examples to 120 columns, with the route of every line whole, and checks
// that -o wide shows the same lines uncut.
func TestRoutesTableFitsExamples(t *testing.T) {
	run := func(args ...string) []string {
		var out, errOut bytes.Buffer
		Execute(append([]string{"routes", "-f", "../examples/"}, args...), Streams{In: strings.NewReader(""), Out: &out, Err: &errOut})
		return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	}
	table, wide := run(), run("-o", "wide")
	if len(table) < 2 || len(table) != len(wide) {
		t.Fatalf("table has %d lines, wide %d", len(table), len(wide))
	}
	for i, line := range table {
		if n := utf8.RuneCountInString(line); n > tableWidth {
			t.Errorf("line %d is %d columns wide: %s", i, n, line)
		}
		if strings.Contains(wide[i], "…") {
			t.Errorf("wide line %d is cut: %s", i, wide[i])
		}
		if i > 0 && !strings.Contains(line, "HTTPRoute ") {
			t.Errorf("line %d lost its route: %s", i, line)
		}
	}
}

// TestCutCosts checks the counted costs against cutting each cell.
func TestCutCosts(t *testing.T) {
	lengths := []int{3, 20, 20, 7, 16, 25}
	count := make([]int, 26)
	for _, n := range lengths {
		count[n]++
	}
	got := cutCosts(count, 5, 25)
	for w := 5; w <= 25; w++ {
		var want cutCost
		for _, n := range lengths {
			if n > w {
				want = want.plus(cutCost{1, n - w})
			}
		}
		if got[w-5] != want {
			t.Errorf("width %d: cost %+v, want %+v", w, got[w-5], want)
		}
	}
}
