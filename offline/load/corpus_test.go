package load

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/corpus"
	"github.com/gwsim/gwsim/offline/validate"
)

// TestUpstreamManifestsAreAdmitted: the gateway-api module's examples
// (examples/standard, under the standard channel) and the conformance
// manifests (under the experimental channel, which the suite installs) are
// what upstream applies to real clusters, so admission must accept every
// object in them.
func TestUpstreamManifestsAreAdmitted(t *testing.T) {
	modDir, err := corpus.GatewayAPIDir()
	if err != nil {
		t.Fatal(err)
	}
	conformance := corpus.ConformanceManifests()
	if len(conformance) == 0 {
		corpus.Missing(t, corpus.ConformanceModule, nil)
	}
	// The conformance manifests go in as the suite applies them.
	var applied bytes.Buffer
	for _, path := range conformance {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		applied.WriteString("---\n")
		applied.Write(corpus.Applied(data, "gwsim", "gwsim.dev/gateway-controller"))
		applied.WriteString("\n")
	}
	sets := []struct {
		channel validate.Channel
		paths   []string
		stdin   []byte
	}{
		{validate.Standard, []string{filepath.Join(modDir, "examples", "standard")}, nil},
		{validate.Experimental, []string{"-"}, applied.Bytes()},
	}
	for _, set := range sets {
		res := Load(Options{Paths: set.paths, Recursive: true, Channel: set.channel, Stdin: bytes.NewReader(set.stdin)})
		if len(res.Objects) == 0 {
			t.Errorf("%s: no objects loaded from %v", set.channel, set.paths)
		}
		for _, f := range res.Findings {
			if f.Reason == diag.ReasonAdmissionRejected || f.Reason == diag.ReasonNotServed || f.Reason == diag.ReasonPrunedField {
				t.Errorf("%s channel: %s", set.channel, f)
			}
		}
	}
}
