package offline

import (
	"context"
	"testing"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate"
)

// TestRunWithParametersRefs: the reconcilers read the ConfigMaps and
// EnvoyProxies that parametersRefs name, and find other kinds among
// Options.OtherObjects, so
// the status they store (Accepted, or InvalidParameters where the object
// is missing) is what Translate computes over the whole world.
func TestRunWithParametersRefs(t *testing.T) {
	classParams := func(name, group, kind, obj string) *gwv1.GatewayClass {
		c := gatewayClass(name, ours)
		ns := gwv1.Namespace("infra")
		c.Spec.ParametersRef = &gwv1.ParametersReference{Group: gwv1.Group(group), Kind: gwv1.Kind(kind), Name: obj, Namespace: &ns}
		return c
	}
	gatewayParams := func(name, group, kind, obj string) *gwv1.Gateway {
		g := gateway("infra", name, "good")
		g.Spec.Infrastructure = &gwv1.GatewayInfrastructure{ParametersRef: &gwv1.LocalParametersReference{
			Group: gwv1.Group(group), Kind: gwv1.Kind(kind), Name: obj}}
		return g
	}
	configMap := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: "params"}}
	const envoy = "gateway.envoyproxy.io"
	objs := []client.Object{
		classParams("good", "", "ConfigMap", "params"), classParams("bad", "", "ConfigMap", "missing"),
		classParams("vendor", envoy, "EnvoyProxy", "proxy"), classParams("vendor-bad", envoy, "EnvoyProxy", "missing"),
		gatewayParams("good", "", "ConfigMap", "params"), gatewayParams("bad", "", "ConfigMap", "missing"),
		gatewayParams("vendor", envoy, "EnvoyProxy", "proxy"), gatewayParams("vendor-bad", envoy, "EnvoyProxy", "missing"),
		classParams("typed", envoy, "EnvoyProxy", "typed"), gatewayParams("typed", envoy, "EnvoyProxy", "typed"),
		&egv1a1.EnvoyProxy{ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: "typed"}},
		configMap, namespace("infra"),
	}
	want := map[string]string{ // object -> Accepted reason
		"GatewayClass good": "Accepted", "GatewayClass bad": "InvalidParameters",
		"GatewayClass vendor": "Accepted", "GatewayClass vendor-bad": "InvalidParameters",
		"Gateway infra/good": "Accepted", "Gateway infra/bad": "InvalidParameters",
		"Gateway infra/vendor": "Accepted", "Gateway infra/vendor-bad": "InvalidParameters",
		"GatewayClass typed": "Accepted", "Gateway infra/typed": "Accepted",
	}
	opts := testOptions()
	opts.OtherObjects = []translate.OtherObject{{Group: envoy, Kind: "EnvoyProxy", Namespace: "infra", Name: "proxy"}}
	for storeName, factory := range stores {
		t.Run(storeName, func(t *testing.T) {
			opts.Store = factory
			res, err := Run(context.Background(), objs, diag.Sources{}, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range res.Objects {
				var conds []metav1.Condition
				var diff, name string
				switch o := o.(type) {
				case *gwv1.GatewayClass:
					name, conds = "GatewayClass "+o.Name, o.Status.Conditions
					diff = cmp.Diff(res.Output.Status.GatewayClasses[types.NamespacedName{Name: o.Name}], o.Status)
				case *gwv1.Gateway:
					name, conds = "Gateway infra/"+o.Name, o.Status.Conditions
					diff = cmp.Diff(res.Output.Status.Gateways[client.ObjectKeyFromObject(o)], o.Status)
				default:
					continue
				}
				if diff != "" {
					t.Errorf("stored %s status differs from whole-world Translate (-translate +stored):\n%s", name, diff)
				}
				c := meta.FindStatusCondition(conds, "Accepted")
				if c == nil || c.Reason != want[name] {
					t.Errorf("%s: Accepted = %+v, want reason %s", name, c, want[name])
				}
			}
		})
	}
}
