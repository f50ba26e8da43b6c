package load

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate"
)

// AssumeMissing adds the objects the input refers to but does not contain
// and gwsim cannot work without: a GatewayClass, owned by controllerName,
// for every class a Gateway names that is not among objs. It returns a new
// slice (objs is not modified), sorted like Load's, and one Info finding
// listing what was assumed and why, or no finding when nothing was.
func AssumeMissing(objs []client.Object, controllerName string) ([]client.Object, []diag.Finding) {
	have := map[string]bool{}
	neededBy := map[string][]diag.ObjectRef{}
	for _, o := range objs {
		switch o := o.(type) {
		case *gwv1.GatewayClass:
			have[o.Name] = true
		case *gwv1.Gateway:
			if class := string(o.Spec.GatewayClassName); class != "" {
				ref := diag.ObjectRef{Kind: "Gateway", Namespace: o.Namespace, Name: o.Name}
				neededBy[class] = append(neededBy[class], ref)
			}
		}
	}
	var missing []string
	for class := range neededBy {
		if !have[class] {
			missing = append(missing, class)
		}
	}
	if len(missing) == 0 {
		return slices.Clone(objs), nil
	}
	slices.Sort(missing)
	out := slices.Clone(objs)
	var parts []string
	var first diag.ObjectRef // the Gateway whose class the finding sits at
	for _, class := range missing {
		gc := &gwv1.GatewayClass{Spec: gwv1.GatewayClassSpec{ControllerName: gwv1.GatewayController(controllerName)}}
		gc.SetGroupVersionKind(gwv1.SchemeGroupVersion.WithKind("GatewayClass"))
		gc.Name = class
		out = append(out, gc)
		users := make([]string, len(neededBy[class]))
		for i, ref := range neededBy[class] {
			users[i] = ref.String()
		}
		slices.Sort(users)
		if first == (diag.ObjectRef{}) {
			first = slices.MinFunc(neededBy[class], func(a, b diag.ObjectRef) int { return cmp.Compare(a.String(), b.String()) })
		}
		parts = append(parts, fmt.Sprintf("GatewayClass %s (controllerName %s), needed by %s", class, controllerName, strings.Join(users, ", ")))
	}
	slices.SortStableFunc(out, func(a, b client.Object) int { return objectRef(a).Compare(objectRef(b)) })
	noun := "objects"
	if len(missing) == 1 {
		noun = "object"
	}
	return out, []diag.Finding{{
		Severity: diag.Info, Reason: diag.ReasonAssumed,
		// An assumed class is in no file: the finding sits at the first
		// Gateway that names it.
		Locus:   diag.Locus{Object: first, Field: "spec.gatewayClassName"},
		Message: fmt.Sprintf("assumed %d %s not in the input: %s", len(missing), noun, strings.Join(parts, "; ")),
	}}
}

// objectRef names a loaded object by the kind in its TypeMeta, which Load
// always sets.
func objectRef(o client.Object) diag.ObjectRef {
	return diag.ObjectRef{Kind: o.GetObjectKind().GroupVersionKind().Kind, Namespace: o.GetNamespace(), Name: o.GetName()}
}

// AssumeAll, AssumeNone and AssumeDefault are the values of --assume that
// are not kind lists.
const (
	AssumeDefault = ""
	AssumeAll     = "all"
	AssumeNone    = "none"
)

// OpenWorld builds the open-world rule for a run over the whole input:
// objs (typed) and others (kinds gwsim does not decode). By default
// (AssumeDefault) every kind is assumed where the input holds no object of
// that kind in that namespace; AssumeAll assumes missing objects
// everywhere, AssumeNone nowhere, and a comma-separated list of kinds
// (Secret,Service, or group/Kind for an implementation's kind) assumes
// exactly those, everywhere. A list naming ReferenceGrant is an error,
// since a grant is never assumed.
func OpenWorld(objs []client.Object, others []translate.OtherObject, assume string) (translate.OpenWorld, error) {
	switch assume {
	case AssumeNone:
		return translate.OpenWorld{}, nil
	case AssumeAll:
		return translate.OpenWorld{AllKinds: true}, nil
	case AssumeDefault:
		complete := map[translate.KindNamespace]bool{}
		for _, o := range objs {
			gvk := o.GetObjectKind().GroupVersionKind()
			complete[translate.KindNamespace{Kind: translate.KindName(gvk.Group, gvk.Kind), Namespace: o.GetNamespace()}] = true
		}
		for _, o := range others {
			complete[translate.KindNamespace{Kind: translate.KindName(o.Group, o.Kind), Namespace: o.Namespace}] = true
		}
		return translate.OpenWorld{AllKinds: true, Complete: complete}, nil
	}
	kinds := map[string]bool{}
	for _, k := range strings.Split(assume, ",") {
		k = strings.TrimSpace(k)
		switch {
		case k == "":
			return translate.OpenWorld{}, fmt.Errorf("--assume %q: empty kind in the list", assume)
		case k == "ReferenceGrant":
			return translate.OpenWorld{}, fmt.Errorf("--assume %q: a ReferenceGrant is never assumed; a missing grant is a real error", assume)
		}
		kinds[k] = true
	}
	return translate.OpenWorld{Kinds: kinds}, nil
}
