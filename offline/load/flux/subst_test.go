package flux

import (
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation"
)

func TestSubstitute(t *testing.T) {
	vars := map[string]string{"DOMAIN": "example.com", "EMPTY": ""}
	p := Placeholder("CLUSTER")
	for _, tt := range []struct {
		in, want   string
		unresolved []string
	}{
		{"app.${DOMAIN}", "app.example.com", nil},
		{"${EMPTY:=x}-${EMPTY=y}-${EMPTY:-z}-${EMPTY-w}", "x--z-", nil},
		{"${UNSET:=dflt}.${UNSET-d2}", "dflt.d2", nil},
		{"$${DOMAIN} and ${bad name}", "${DOMAIN} and ${bad name}", nil},
		{"app.${CLUSTER}.${DOMAIN} ${CLUSTER}", "app." + p + ".example.com " + p, []string{"CLUSTER", "CLUSTER"}},
		{"no refs $HOME ${", "no refs $HOME ${", nil},
	} {
		got, unresolved, ok := Substitute(tt.in, vars, 1<<10)
		if !ok || got != tt.want || !slices.Equal(unresolved, tt.unresolved) {
			t.Errorf("Substitute(%q) = %q %v %v, want %q %v", tt.in, got, unresolved, ok, tt.want, tt.unresolved)
		}
	}
}

// TestSubstituteBounded checks that a value referenced many times cannot
// make the output grow past the bound: a 1 KiB value referenced 10,000
// times would be 10 MiB.
func TestSubstituteBounded(t *testing.T) {
	vars := map[string]string{"V": strings.Repeat("x", 1<<10)}
	in := strings.Repeat("${V}", 10000)
	if out, _, ok := Substitute(in, vars, 1<<20); ok || out != "" {
		t.Errorf("Substitute over the bound = %d bytes, ok %v; want refused", len(out), ok)
	}
	if out, _, ok := Substitute(in[:4*1000], vars, 1<<20); !ok || len(out) != 1000<<10 {
		t.Errorf("Substitute within the bound = %d bytes, ok %v; want %d bytes", len(out), ok, 1000<<10)
	}
	if _, _, ok := Substitute("no refs", nil, 3); ok {
		t.Error("text without references longer than the bound is accepted")
	}
}

func TestPlaceholderIsALabelAsLongAsItsReference(t *testing.T) {
	for _, name := range []string{"A", "DOMAIN", "cluster_name", "_X_", "Mixed_Case9"} {
		p := Placeholder(name)
		if len(p) != len(Reference(name)) || len(validation.IsDNS1123Label(p)) > 0 {
			t.Errorf("Placeholder(%q) = %q: not a DNS label as long as %q", name, p, Reference(name))
		}
		if Placeholder(name) != p {
			t.Errorf("Placeholder(%q) is not deterministic", name)
		}
	}
}
