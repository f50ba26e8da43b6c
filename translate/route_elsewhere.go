package translate

import (
	"cmp"
	"slices"
	"strconv"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

// elsewhereRoutes lists the HTTP and gRPC routes checked alone (see
// checkedAlone): their Gateway is not in the input, or they name none, so
// no data plane places them. Their rules are translated all the same, and
// a change to them is a change a reviewer must see (translate/diff places
// them at route level), sorted by kind, namespace and name. Nothing is invented about the Gateway's listeners.
func elsewhereRoutes(w *world, routes []*routeResult, parentsOf [][]*parentResult) []ir.RouteElsewhere {
	var out []ir.RouteElsewhere
	for i, res := range routes {
		if len(parentsOf[i]) > 0 || res.l4 != nil || !w.checkedAlone(res.info) {
			continue
		}
		e := ir.RouteElsewhere{
			Origin:    ir.Origin{Kind: string(res.info.kind), Namespace: res.info.meta.Namespace, Name: res.info.meta.Name},
			Hostnames: make([]string, 0, len(res.info.hostnames)),
		}
		for _, ref := range res.info.parentRefs {
			ns := res.info.meta.Namespace
			if ref.Namespace != nil {
				ns = string(*ref.Namespace)
			}
			e.Parents = append(e.Parents, ns+"/"+string(ref.Name)+sectionSuffix(ref))
		}
		for _, h := range res.info.hostnames {
			e.Hostnames = append(e.Hostnames, string(h))
		}
		for _, en := range appendHTTPEntries(nil, res) {
			e.Routes = append(e.Routes, en.route)
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b ir.RouteElsewhere) int {
		return cmp.Or(cmp.Compare(a.Origin.Kind, b.Origin.Kind), cmp.Compare(a.Origin.Namespace, b.Origin.Namespace), cmp.Compare(a.Origin.Name, b.Origin.Name))
	})
	return out
}

// sectionSuffix names the listener (and port) a parentRef asks for, as
// "#section:port", so that moving a route to another listener of the
// Gateway elsewhere is a change too.
func sectionSuffix(ref gwv1.ParentReference) string {
	s := ""
	if ref.SectionName != nil {
		s += "#" + string(*ref.SectionName)
	}
	if ref.Port != nil {
		s += ":" + strconv.Itoa(int(*ref.Port))
	}
	return s
}
