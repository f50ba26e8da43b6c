package store

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

type (
	routeList = gwv1.HTTPRouteList
	classList = gwv1.GatewayClassList
)

func conformanceCases() []conformanceCase {
	return append(append(append(readCases(), createCases()...), updateCases()...), append(patchCases(), deleteCases()...)...)
}

func readCases() []conformanceCase {
	return []conformanceCase{
		{name: "get", steps: []step{
			getStep[gwv1.HTTPRoute]("infra", "r1"),
			getStep[gwv1.HTTPRoute]("infra", "r-status"),
			getStep[gwv1.HTTPRoute]("infra", "missing"),
			getStep[gwv1.HTTPRoute]("", "r1"),
			getStep[gwv1.GatewayClass]("", "gwsim"),
			getStep[gwv1.GatewayClass]("infra", "gwsim"),
			getStep[corev1.Service]("infra", "svc"),
			getStep[corev1.ConfigMap]("infra", "cm"),
		}},
		{name: "list by namespace and labels", steps: []step{
			listStep[routeList]("all"),
			listStep[routeList]("namespace", client.InNamespace("apps")),
			listStep[routeList]("empty namespace", client.InNamespace("nowhere")),
			listStep[routeList]("labels", client.MatchingLabels{"team": "a"}),
			listStep[routeList]("labels in namespace", client.MatchingLabels{"team": "a"}, client.InNamespace("infra")),
			listStep[routeList]("label selector", client.MatchingLabelsSelector{Selector: mustSelector("team notin (a)")}),
			listStep[classList]("cluster-scoped"),
			listStep[classList]("cluster-scoped in namespace", client.InNamespace("infra")),
			listStep[gwv1.GatewayList]("gateways"),
			listStep[corev1.ConfigMapList]("configmaps"),
			listStep[corev1.SecretList]("no secrets"),
		}},
		{name: "list by field index", steps: []step{
			listStep[routeList]("field across namespaces", client.MatchingFields{parentGatewayField: "infra/gw"}),
			listStep[routeList]("field in namespace", client.MatchingFields{parentGatewayField: "infra/gw"}, client.InNamespace("apps")),
			listStep[routeList]("field no match", client.MatchingFields{parentGatewayField: "infra/none"}),
			listStep[routeList]("two fields", client.MatchingFields{parentGatewayField: "infra/gw", hostnameField: "a.example.com"}),
			listStep[routeList]("field and labels", client.MatchingFields{hostnameField: "a.example.com"}, client.MatchingLabels{"team": "a"}),
			listStep[routeList]("double equals", client.MatchingFieldsSelector{Selector: fields.ParseSelectorOrDie(hostnameField + "==b.example.com")}),
			listStep[classList]("cluster-scoped field", client.MatchingFields{controllerField: "gwsim.dev/controller"}),
			listStep[classList]("cluster-scoped field in namespace", client.MatchingFields{controllerField: "gwsim.dev/controller"}, client.InNamespace("infra")),
			listStep[routeList]("unregistered field", client.MatchingFields{"spec.unknown": "x"}),
			listStep[routeList]("metadata.name without index", client.MatchingFields{"metadata.name": "r1"}),
			listStep[gwv1.GatewayList]("kind without indexes", client.MatchingFields{parentGatewayField: "x"}),
			listStep[routeList]("not exact", client.MatchingFieldsSelector{Selector: fields.OneTermNotEqualSelector(hostnameField, "a.example.com")}),
		}},
	}
}

func createCases() []conformanceCase {
	return []conformanceCase{
		{name: "create", steps: []step{
			writeStep("create route", func() *gwv1.HTTPRoute {
				r := route("infra", "new", map[string]string{"team": "a"}, []string{"gw"}, "new.example.com")
				r.TypeMeta = metav1.TypeMeta{APIVersion: "gateway.networking.k8s.io/v1", Kind: "HTTPRoute"}
				return r
			}, create),
			getStep[gwv1.HTTPRoute]("infra", "new"),
			listStep[routeList]("new route by index", client.MatchingFields{hostnameField: "new.example.com"}),
			writeStep("create existing", func() *gwv1.HTTPRoute { return route("infra", "r1", nil, nil) }, create),
			writeStep("create after clash", func() *gwv1.HTTPRoute { return route("infra", "new2", nil, nil) }, create),
			writeStep("create with resourceVersion", func() *gwv1.HTTPRoute {
				r := route("infra", "rv", nil, nil)
				r.ResourceVersion = "5"
				return r
			}, create),
			writeStep("create without name", func() *gwv1.HTTPRoute { return route("infra", "", nil, nil) }, create),
			writeStep("create cluster-scoped", func() *gwv1.GatewayClass { return gatewayClass("third", "gwsim.dev/controller") }, create),
			listStep[classList]("classes by controller", client.MatchingFields{controllerField: "gwsim.dev/controller"}),
			writeStep("dry run", func() *gwv1.HTTPRoute { return route("infra", "dry", nil, nil) },
				func(ctx context.Context, c client.Client, r *gwv1.HTTPRoute) error {
					return c.Create(ctx, r, client.DryRunAll)
				}),
			getStep[gwv1.HTTPRoute]("infra", "dry"),
		}},
	}
}

func updateCases() []conformanceCase {
	return []conformanceCase{
		{name: "update", specChanges: true, steps: []step{
			getThen[gwv1.HTTPRoute]("update spec", "infra", "r1", func(ctx context.Context, c client.Client, r *gwv1.HTTPRoute) error {
				r.Spec.Hostnames = []gwv1.Hostname{"moved.example.com"}
				r.Labels = map[string]string{"team": "b"}
				return c.Update(ctx, r)
			}),
			listStep[routeList]("old hostname", client.MatchingFields{hostnameField: "a.example.com"}),
			listStep[routeList]("new hostname", client.MatchingFields{hostnameField: "moved.example.com"}),
			listStep[routeList]("new labels", client.MatchingLabels{"team": "b"}),
			listStep[routeList]("index over status before update", client.MatchingFields{statusControllerField: "gwsim.dev/controller"}),
			getThen[gwv1.HTTPRoute]("update ignores status", "infra", "r-status", func(ctx context.Context, c client.Client, r *gwv1.HTTPRoute) error {
				r.Status = gwv1.HTTPRouteStatus{}
				r.Annotations = map[string]string{"a": "b"}
				return c.Update(ctx, r)
			}),
			listStep[routeList]("update keeps index over status", client.MatchingFields{statusControllerField: "gwsim.dev/controller"}),
			writeStep("update stale", func() *gwv1.HTTPRoute {
				r := route("infra", "r2", nil, nil)
				r.ResourceVersion = "1"
				return r
			}, update),
			writeStep("update without resourceVersion", func() *gwv1.HTTPRoute { return route("infra", "r2", nil, nil) }, update),
			writeStep("update missing", func() *gwv1.HTTPRoute { return route("infra", "nope", nil, nil) }, update),
			writeStep("core kind updates unconditionally", func() *corev1.Service { return service("infra", "svc") }, update),
			getThen[corev1.ConfigMap]("configmap without status subresource", "infra", "cm", func(ctx context.Context, c client.Client, cm *corev1.ConfigMap) error {
				cm.Data = map[string]string{"k": "w"}
				return c.Update(ctx, cm)
			}),
		}},
		{name: "status update", steps: []step{
			getThen[gwv1.HTTPRoute]("status only", "infra", "r1", func(ctx context.Context, c client.Client, r *gwv1.HTTPRoute) error {
				r.Status.RouteStatus = acceptedStatus("gw")
				r.Spec.Hostnames = []gwv1.Hostname{"ignored.example.com"}
				r.Labels = map[string]string{"ignored": "yes"}
				return c.Status().Update(ctx, r)
			}),
			getStep[gwv1.HTTPRoute]("infra", "r1"),
			listStep[routeList]("index unchanged", client.MatchingFields{hostnameField: "a.example.com"}),
			listStep[routeList]("index over status", client.MatchingFields{statusControllerField: "gwsim.dev/controller"}),
			getThen[gwv1.HTTPRoute]("status cleared", "infra", "r-status", func(ctx context.Context, c client.Client, r *gwv1.HTTPRoute) error {
				r.Status = gwv1.HTTPRouteStatus{}
				return c.Status().Update(ctx, r)
			}),
			listStep[routeList]("index over status after clearing", client.MatchingFields{statusControllerField: "gwsim.dev/controller"}),
			writeStep("status stale", func() *gwv1.HTTPRoute {
				r := route("infra", "r1", nil, nil)
				r.ResourceVersion = "2"
				return r
			}, statusUpdate),
			writeStep("status missing", func() *gwv1.HTTPRoute { return route("infra", "nope", nil, nil) }, statusUpdate),
			getThen[corev1.ConfigMap]("status of kind without status", "infra", "cm", func(ctx context.Context, c client.Client, cm *corev1.ConfigMap) error {
				return c.Status().Update(ctx, cm)
			}),
			getThen[corev1.Service]("status of core kind", "infra", "svc", func(ctx context.Context, c client.Client, s *corev1.Service) error {
				s.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: "10.0.0.1"}}
				return c.Status().Update(ctx, s)
			}),
		}},
	}
}

func patchCases() []conformanceCase {
	return []conformanceCase{
		{name: "patch", specChanges: true, steps: []step{
			getThen[gwv1.HTTPRoute]("merge patch", "infra", "r2", func(ctx context.Context, c client.Client, r *gwv1.HTTPRoute) error {
				base := r.DeepCopy()
				r.Spec.ParentRefs = r.Spec.ParentRefs[:1]
				r.Labels["team"] = "c"
				r.Status.RouteStatus = acceptedStatus("ignored")
				return c.Patch(ctx, r, client.MergeFrom(base))
			}),
			listStep[routeList]("index follows patch", client.MatchingFields{parentGatewayField: "infra/gw2"}),
			listStep[routeList]("labels follow patch", client.MatchingLabels{"team": "c"}),
			writeStep("optimistic lock stale", func() *gwv1.HTTPRoute {
				r := route("infra", "r1", nil, nil)
				r.ResourceVersion = "1"
				return r
			}, func(ctx context.Context, c client.Client, r *gwv1.HTTPRoute) error {
				base := r.DeepCopy()
				r.Labels = map[string]string{"x": "y"}
				return c.Patch(ctx, r, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
			}),
			writeStep("json patch", func() *gwv1.HTTPRoute { return route("apps", "r3", nil, nil) },
				func(ctx context.Context, c client.Client, r *gwv1.HTTPRoute) error {
					p := `[{"op":"add","path":"/spec/hostnames","value":["json.example.com"]}]`
					return c.Patch(ctx, r, client.RawPatch(types.JSONPatchType, []byte(p)))
				}),
			listStep[routeList]("json patched", client.MatchingFields{hostnameField: "json.example.com"}),
			writeStep("patch missing", func() *gwv1.HTTPRoute { return route("apps", "nope", nil, nil) },
				func(ctx context.Context, c client.Client, r *gwv1.HTTPRoute) error {
					return c.Patch(ctx, r, client.RawPatch(types.MergePatchType, []byte(`{}`)))
				}),
			getThen[gwv1.HTTPRoute]("status patch", "apps", "r1", func(ctx context.Context, c client.Client, r *gwv1.HTTPRoute) error {
				base := r.DeepCopy()
				r.Status.RouteStatus = acceptedStatus("infra/gw")
				r.Spec.Hostnames = nil
				return c.Status().Patch(ctx, r, client.MergeFrom(base))
			}),
			getStep[gwv1.HTTPRoute]("apps", "r1"),
			listStep[routeList]("index over status follows status patch", client.MatchingFields{statusControllerField: "gwsim.dev/controller"}, client.InNamespace("apps")),
		}},
	}
}

func deleteCases() []conformanceCase {
	return []conformanceCase{
		{name: "delete", steps: []step{
			writeStep("delete", func() *gwv1.HTTPRoute { return route("infra", "r1", nil, nil) }, del),
			getStep[gwv1.HTTPRoute]("infra", "r1"),
			listStep[routeList]("deleted leaves index", client.MatchingFields{parentGatewayField: "infra/gw"}),
			listStep[routeList]("deleted leaves index over status", client.MatchingFields{statusControllerField: "gwsim.dev/controller"}),
			writeStep("delete missing", func() *gwv1.HTTPRoute { return route("infra", "r1", nil, nil) }, del),
			writeStep("delete stale precondition", func() *gwv1.HTTPRoute { return route("infra", "r2", nil, nil) },
				func(ctx context.Context, c client.Client, r *gwv1.HTTPRoute) error {
					return c.Delete(ctx, r, client.Preconditions{ResourceVersion: new("1")})
				}),
			writeStep("delete all of", func() *gwv1.HTTPRoute { return &gwv1.HTTPRoute{} },
				func(ctx context.Context, c client.Client, r *gwv1.HTTPRoute) error {
					return c.DeleteAllOf(ctx, r, client.InNamespace("apps"), client.MatchingLabels{"team": "b"})
				}),
			listStep[routeList]("after delete all of"),
			writeStep("delete cluster-scoped", func() *gwv1.GatewayClass { return gatewayClass("other", "") }, del),
			listStep[classList]("classes"),
		}},
	}
}

func create[O client.Object](ctx context.Context, c client.Client, o O) error {
	return c.Create(ctx, o)
}
func update[O client.Object](ctx context.Context, c client.Client, o O) error {
	return c.Update(ctx, o)
}
func del[O client.Object](ctx context.Context, c client.Client, o O) error { return c.Delete(ctx, o) }
func statusUpdate[O client.Object](ctx context.Context, c client.Client, o O) error {
	return c.Status().Update(ctx, o)
}

func mustSelector(s string) labels.Selector {
	sel, err := labels.Parse(s)
	if err != nil {
		panic(err)
	}
	return sel
}
