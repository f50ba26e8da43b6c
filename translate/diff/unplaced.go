package diff

import (
	"cmp"
	"encoding/json"
	"slices"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/diag"
)

// Unplaced is an object whose content changed (or that was added or
// removed) while no part of the report names it: gwsim sees the change
// but cannot say what it does to routing (a route of a Gateway that is
// not gwsim's or not accepted, a TCPRoute whose Gateway is elsewhere, an
// object that changes nothing gwsim models). The report lists it rather
// than say "No change".
type Unplaced struct {
	Object diag.ObjectRef `json:"object"`
	// Change is Added, Removed or Changed.
	Change Change `json:"change"`
}

// fingerprints are each object's content as the user wrote it: the object
// without its status and without the metadata the store sets, keyed by
// object.
func fingerprints(objs map[diag.ObjectRef]client.Object) map[diag.ObjectRef]string {
	out := make(map[diag.ObjectRef]string, len(objs))
	for ref, o := range objs {
		b, err := json.Marshal(o)
		if err != nil {
			panic("bug: an object read back from the store does not encode: " + err.Error())
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			panic("bug: an object's JSON does not decode: " + err.Error())
		}
		delete(m, "status")
		meta, _ := m["metadata"].(map[string]any)
		m["metadata"] = map[string]any{"labels": meta["labels"], "annotations": meta["annotations"]}
		b, _ = json.Marshal(m) // maps encode with sorted keys
		out[ref] = string(b)
	}
	return out
}

// compareUnplaced lists the objects that differ between the two sides and
// that r names nowhere.
func compareUnplaced(old, new map[diag.ObjectRef]client.Object, r Report) []Unplaced {
	if old == nil && new == nil {
		return nil
	}
	named := namedObjects(r)
	before, after := fingerprints(old), fingerprints(new)
	var out []Unplaced
	for ref, a := range after {
		b, ok := before[ref]
		switch {
		case placedBy(r, named, ref):
		case !ok:
			out = append(out, Unplaced{Object: ref, Change: Added})
		case a != b:
			out = append(out, Unplaced{Object: ref, Change: Changed})
		}
	}
	for ref := range before {
		if _, ok := after[ref]; !ok && !placedBy(r, named, ref) {
			out = append(out, Unplaced{Object: ref, Change: Removed})
		}
	}
	slices.SortFunc(out, func(a, b Unplaced) int {
		return cmp.Or(cmp.Compare(a.Object.Kind, b.Object.Kind), cmp.Compare(a.Object.Namespace, b.Object.Namespace), cmp.Compare(a.Object.Name, b.Object.Name))
	})
	return out
}

// namedObjects are the objects some part of r names: the routes of route
// changes, the objects of status changes and findings. When routing or a
// request changes, the objects routes refer to (Services, Secrets, ...)
// are taken as placed too: their effect is what those changes show.
func namedObjects(r Report) map[diag.ObjectRef]bool {
	named := map[diag.ObjectRef]bool{}
	for _, c := range r.Routes {
		named[diag.ObjectRef{Kind: c.Route.Kind, Namespace: c.Route.Namespace, Name: c.Route.Name}] = true
	}
	for _, c := range r.Status {
		named[c.Object] = true
	}
	for _, f := range slices.Concat(r.Findings.Introduced, r.Findings.Fixed) {
		named[f.Object] = true
	}
	return named
}

// routeKinds are the kinds whose change is placed only by a route change
// naming them.
var routeKinds = []string{"HTTPRoute", "GRPCRoute", "TLSRoute", "TCPRoute", "UDPRoute"}

// placedBy reports whether an object's change is placed by r: named in
// it, or a referenced object (not a route) while routing changes.
func placedBy(r Report, named map[diag.ObjectRef]bool, ref diag.ObjectRef) bool {
	if named[ref] {
		return true
	}
	return (len(r.Routes) > 0 || len(r.Requests) > 0) && !slices.Contains(routeKinds, ref.Kind)
}
