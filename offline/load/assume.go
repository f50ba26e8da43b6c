package load

import (
	"fmt"
	"slices"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/diag"
)

// AssumeMissing adds the objects the input refers to but does not contain
// and gwsim cannot work without: a GatewayClass, owned by controllerName,
// for every class a Gateway names that is not among objs. It returns a new
// slice (objs is not modified), sorted like Load's, and one Info finding
// listing what was assumed and why, or no finding when nothing was.
func AssumeMissing(objs []client.Object, controllerName string) ([]client.Object, []diag.Finding) {
	have := map[string]bool{}
	neededBy := map[string][]string{}
	for _, o := range objs {
		switch o := o.(type) {
		case *gwv1.GatewayClass:
			have[o.Name] = true
		case *gwv1.Gateway:
			if class := string(o.Spec.GatewayClassName); class != "" {
				ref := diag.ObjectRef{Kind: "Gateway", Namespace: o.Namespace, Name: o.Name}
				neededBy[class] = append(neededBy[class], ref.String())
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
	for _, class := range missing {
		gc := &gwv1.GatewayClass{Spec: gwv1.GatewayClassSpec{ControllerName: gwv1.GatewayController(controllerName)}}
		gc.SetGroupVersionKind(gwv1.SchemeGroupVersion.WithKind("GatewayClass"))
		gc.Name = class
		out = append(out, gc)
		users := neededBy[class]
		slices.Sort(users)
		parts = append(parts, fmt.Sprintf("GatewayClass %s (controllerName %s), needed by %s", class, controllerName, strings.Join(users, ", ")))
	}
	slices.SortStableFunc(out, func(a, b client.Object) int { return objectRef(a).Compare(objectRef(b)) })
	noun := "objects"
	if len(missing) == 1 {
		noun = "object"
	}
	return out, []diag.Finding{{
		Severity: diag.Info, Reason: diag.ReasonAssumed,
		Message: fmt.Sprintf("assumed %d %s not in the input: %s", len(missing), noun, strings.Join(parts, "; ")),
	}}
}

// objectRef names a loaded object by the kind in its TypeMeta, which Load
// always sets.
func objectRef(o client.Object) diag.ObjectRef {
	return diag.ObjectRef{Kind: o.GetObjectKind().GroupVersionKind().Kind, Namespace: o.GetNamespace(), Name: o.GetName()}
}
