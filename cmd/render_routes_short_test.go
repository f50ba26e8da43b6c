package cmd

import (
	"testing"

	"github.com/gwsim/gwsim/translate/ir"
)

func TestShortActionCell(t *testing.T) {
	recs := ir.WeightedBackend{Weight: 1, Invalid: "BackendNotFound", Ref: "shop/recs:8080"}
	older := ir.Origin{Kind: "TLSRoute", Namespace: "apps", Name: "old"}
	tests := []struct {
		name string
		row  routeRow
		want string
	}{
		{"one backend: no weight", routeRow{Action: ir.Action{Backends: []ir.WeightedBackend{{Cluster: "shop/api:8080", Weight: 1}}}},
			"shop/api:8080"},
		{"a split shows weights", routeRow{Action: ir.Action{Backends: []ir.WeightedBackend{
			{Cluster: "shop/v1:80", Weight: 90}, {Cluster: "shop/v2:80", Weight: 10}}}},
			"shop/v1:80 w=90, shop/v2:80 w=10"},
		{"an unused backend shows its zero weight", routeRow{Action: ir.Action{Backends: []ir.WeightedBackend{{Cluster: "shop/v1:80"}}}},
			"shop/v1:80 w=0"},
		{"an invalid backend keeps its name", routeRow{Action: ir.Action{
			DirectResponse: &ir.DirectResponse{Status: 500, Reason: "no valid backend with a weight above 0"},
			Backends:       []ir.WeightedBackend{recs}}},
			"500: shop/recs:8080 (invalid: BackendNotFound)"},
		{"a 500 without backends says why", routeRow{Action: ir.Action{DirectResponse: &ir.DirectResponse{Status: 500, Reason: "no backendRefs"}}},
			"500 (no backendRefs)"},
		{"redirect", routeRow{Action: ir.Action{Redirect: &ir.Redirect{Scheme: "https", StatusCode: 301}}},
			"redirect 301 https://{host}{path}"},
		{"nothing", routeRow{}, "-"},
		{"L4 reject with its invalid backend", routeRow{L4: &l4Row{Reject: "no valid backend with a weight above 0", Backends: []ir.WeightedBackend{recs}}},
			"reject: shop/recs:8080 (invalid: BackendNotFound)"},
		{"L4 reject without backends", routeRow{L4: &l4Row{Reject: "no backendRefs"}}, "reject (no backendRefs)"},
		{"L4 superseded", routeRow{L4: &l4Row{Backends: []ir.WeightedBackend{{Cluster: "apps/db:5432", Weight: 1}}, SupersededBy: &older}},
			"apps/db:5432 (superseded by TLSRoute apps/old#0)"},
	}
	for _, tt := range tests {
		if got := tt.row.shortActionCell(); got != tt.want {
			t.Errorf("%s: shortActionCell() = %q, want %q", tt.name, got, tt.want)
		}
	}
}
