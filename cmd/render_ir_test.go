package cmd

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/internal/fastpath/yamlout"
	"github.com/gwsim/gwsim/translate/ir"
)

func TestRenderIR(t *testing.T) {
	model := ir.IR{Gateways: []ir.Gateway{{
		Name: "ns/gw", Class: "gwsim",
		Listeners: []ir.Listener{{Port: 80, Protocol: "HTTP", Listeners: []ir.GatewayListener{{Name: "http", Protocol: "HTTP"}}}},
		Clusters:  []ir.Cluster{{Name: "ns/svc:80", Service: "ns/svc", Port: 80}},
	}}}
	tests := []struct {
		name string
		f    format
		in   ir.IR
		want string
	}{
		{"yaml", formatYAML, model, `gateways:
- class: gwsim
  clusters:
  - name: ns/svc:80
    port: 80
    service: ns/svc
  listeners:
  - listeners:
    - name: http
      protocol: HTTP
    port: 80
    protocol: HTTP
  name: ns/gw
`},
		{"text is yaml", formatText, ir.IR{}, "gateways: null\n"},
		{"json", formatJSON, ir.IR{Gateways: []ir.Gateway{}}, "{\n  \"gateways\": []\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := renderIR(&buf, tt.f, tt.in); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, buf.String()); diff != "" {
				t.Errorf("renderIR() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRenderIRInPiecesIsOneDocument checks that writing the IR in pieces
// (lists longer than yamlRun cut into runs) gives the bytes of encoding it
// whole (the golden cases and TestOutputDigest check the same on real
// output).
func TestRenderIRInPiecesIsOneDocument(t *testing.T) {
	model := ir.IR{}
	for i, name := range []string{"a/one", "b/two", "c/three"} {
		var hosts []ir.VirtualHost
		for h := range 2*yamlRun + i {
			hosts = append(hosts, ir.VirtualHost{Hostname: fmt.Sprintf("h%d.example.com", h), Listener: "http",
				Routes: []ir.Route{{Match: ir.Match{PathType: "PathPrefix", Path: "/"}}}})
		}
		model.Gateways = append(model.Gateways, ir.Gateway{
			Name: name, Class: "gwsim",
			Listeners: []ir.Listener{{Port: int32(80 + i), Protocol: "HTTP", Listeners: []ir.GatewayListener{{Name: "http", Protocol: "HTTP"}},
				VirtualHosts: hosts}},
		})
	}
	whole, err := yamlout.Marshal(model)
	if err != nil {
		t.Fatal(err)
	}
	var chunked bytes.Buffer
	if err := renderIR(&chunked, formatYAML, model); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(whole), chunked.String()); diff != "" {
		t.Errorf("IR written in pieces differs from the whole document (-whole +in pieces):\n%s", diff)
	}
}
