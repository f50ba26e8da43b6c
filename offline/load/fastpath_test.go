package load

import (
	"testing"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/fastpath"
	"github.com/gwsim/gwsim/internal/fastpath/yamlin"
)

// TestFastpathOff checks that the loader's fast paths step aside when the
// mode turns them off: YAML goes through YAMLToJSONStrict, objects through
// the library's decoder. The golden cases hold the results equal.
func TestFastpathOff(t *testing.T) {
	doc := document{data: []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n")}
	for _, tt := range []struct {
		mode          fastpath.Mode
		wantConverted bool
	}{{fastpath.Mode{}, true}, {fastpath.Off(), false}} {
		d := newDecoder("", Limits{}, nil, tt.mode)
		if (d.typed != nil) != tt.mode.Fast(fastpath.JSONIn) {
			t.Errorf("mode %s: typed decoder %v", tt.mode, d.typed != nil)
		}
		var out decoded
		_, _, converted, ok := d.toJSON(doc, &yamlin.Converter{}, diag.Source{}, &out)
		if !ok || converted != tt.wantConverted {
			t.Errorf("mode %s: toJSON converted %v, ok %v; want converted %v", tt.mode, converted, ok, tt.wantConverted)
		}
	}
}
