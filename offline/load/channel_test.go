package load

import (
	"strings"
	"testing"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/validate"
)

// TestChannelAuto: auto stays on the standard channel for standard input,
// and takes the experimental one, with one finding naming the object, when
// the input holds a version only it serves; stdin, which cannot be read
// twice, is read again from memory.
func TestChannelAuto(t *testing.T) {
	const route = "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: web}\nspec:\n  rules:\n  - retry: {attempts: 2}\n"
	const tcp = "apiVersion: gateway.networking.k8s.io/v1alpha2\nkind: TCPRoute\nmetadata: {name: db}\nspec:\n  rules:\n  - backendRefs: [{name: db, port: 5432}]\n"
	tests := []struct {
		name, stdin string
		want        validate.Channel
		objects     int
		chosen      bool
	}{
		{"standard input", route, validate.Standard, 1, false},
		{"a v1alpha2 TCPRoute", route + "---\n" + tcp + "---\n" + strings.ReplaceAll(tcp, "name: db}", "name: db2}"), validate.Experimental, 3, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Load(Options{Paths: []string{"-"}, Stdin: strings.NewReader(tt.stdin), Channel: ChannelAuto})
			if res.Channel != tt.want || len(res.Objects) != tt.objects || len(res.Errors) > 0 {
				t.Fatalf("channel %s, %d objects, errors %v; want %s and %d", res.Channel, len(res.Objects), res.Errors, tt.want, tt.objects)
			}
			var chosen []diag.Finding
			for _, f := range res.Findings {
				if f.Reason == diag.ReasonChannelChosen {
					chosen = append(chosen, f)
				}
			}
			if got := len(chosen) == 1; got != tt.chosen {
				t.Fatalf("ChannelChosen findings %v, want one: %v", chosen, tt.chosen)
			}
			if tt.chosen && (chosen[0].Object.Name != "db" || chosen[0].Source.Line != 8 || !strings.Contains(chosen[0].Message, "1 more object needs it too")) {
				t.Errorf("finding %+v, want it at TCPRoute db, <stdin>:8, counting the other", chosen[0])
			}
		})
	}
}
