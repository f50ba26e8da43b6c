package golden

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/offline/load"
	"github.com/gwsim/gwsim/translate"
)

// TestStatusOnlyTranslate checks translate.Options.StatusOnly, with which
// the reconcilers translate: on every case's input it computes exactly the
// status a full Translate computes, and nothing else.
func TestStatusOnlyTranslate(t *testing.T) {
	for _, c := range loadCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			res := load.Load(load.Options{Paths: []string{filepath.Join(c.Dir, inputDir)}})
			in := translate.Input{Sources: res.Sources, OtherObjects: res.Others}
			for _, o := range res.Objects {
				in.Add(o)
			}
			opts := translate.Options{ControllerNames: []string{"gwsim.dev/gateway-controller"}}
			full := translate.Translate(in, opts)
			opts.StatusOnly = true
			got := translate.Translate(in, opts)
			if diff := cmp.Diff(full.Status, got.Status); diff != "" {
				t.Errorf("status differs (-full +status only):\n%s", diff)
			}
			if len(got.IR.Gateways) != 0 || len(got.Findings) != 0 {
				t.Errorf("status only computed %d IR Gateways and %d findings, want none", len(got.IR.Gateways), len(got.Findings))
			}
			// The reconcilers do not gather EndpointSlices: status must not
			// depend on them.
			in.EndpointSlices = nil
			if diff := cmp.Diff(full.Status, translate.Translate(in, opts).Status); diff != "" {
				t.Errorf("status without EndpointSlices differs (-full +status only, no slices):\n%s", diff)
			}
		})
	}
}
