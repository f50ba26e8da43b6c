package validate

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/gwsim/gwsim/internal/fastpath/admission"
)

// FuzzCELFast compares admission.CEL with the library's CEL validator on a
// Gateway API document with up to four structure-aware edits (the mutation
// rules of celMutants, each byte of edits picking one among those the
// object then offers), in both channels: admission.CEL must never pass an object
// the library rejects, and must charge the library's cost when it passes.
// Seeds are the golden cases' Gateway API documents.
func FuzzCELFast(f *testing.F) {
	golden, _ := filepath.Glob("../../golden/*/input/*.yaml")
	seeds := gatewayObjects(f, golden, nil)
	if testing.Short() {
		seeds = seeds[:min(len(seeds), 20)]
	}
	for _, cs := range seeds {
		doc, err := json.Marshal(cs.obj) // JSON is YAML
		if err != nil {
			f.Fatal(err)
		}
		f.Add(doc, []byte{})
	}
	f.Add([]byte(routeWith("  rules:\n  - matches:\n    - path: {type: PathPrefix, value: /a}\n")), []byte{3, 200, 17})
	channels := []*Validator{New(Standard), New(Experimental)}
	f.Fuzz(func(t *testing.T, doc []byte, edits []byte) {
		obj, gvk, ok := decodeGatewayObject(string(doc))
		if !ok {
			return
		}
		if len(edits) > 4 {
			edits = edits[:4]
		}
		for _, b := range edits {
			var all []func(map[string]any)
			collectEdits(obj, nil, &all)
			if len(all) == 0 {
				break
			}
			all[int(b)%len(all)](obj)
		}
		for _, v := range channels {
			var tally celTally
			compareCEL(t, v, celCase{name: "fuzz", gvk: gvk, obj: admission.CopyJSONValue(obj).(map[string]any)}, &tally)
		}
	})
}
