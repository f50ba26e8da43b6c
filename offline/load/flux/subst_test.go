package flux

import (
	"slices"
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
		got, unresolved := Substitute(tt.in, vars)
		if got != tt.want || !slices.Equal(unresolved, tt.unresolved) {
			t.Errorf("Substitute(%q) = %q %v, want %q %v", tt.in, got, unresolved, tt.want, tt.unresolved)
		}
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
