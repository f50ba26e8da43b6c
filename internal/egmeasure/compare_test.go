package egmeasure

import (
	"strings"
	"testing"
)

func gw(listeners map[string]Listener, conds ...Condition) Status {
	return Status{Conditions: conds, Listeners: listeners}
}

func TestCompare(t *testing.T) {
	gwKey := Key{Kind: "Gateway", Namespace: "ns", Name: "g"}
	accepted := Condition{Type: "Accepted", Status: "True", Reason: "Accepted"}
	notAccepted := Condition{Type: "Accepted", Status: "False", Reason: "HostnameConflict"}
	ok := map[string]Listener{"http": {Conditions: []Condition{accepted}}}
	tests := []struct {
		name      string
		want, got Status
		diffs     []string
	}{
		{
			name: "EG's provider derives the Gateway's Accepted from its listeners; Programmed is not compared",
			want: gw(ok),
			got:  gw(ok, accepted, Condition{Type: "Programmed", Status: "False", Reason: "Invalid"}),
		},
		{
			name:  "some listeners not accepted make EG's Gateway True/ListenersNotValid",
			want:  gw(map[string]Listener{"a": {Conditions: []Condition{accepted}}, "b": {Conditions: []Condition{notAccepted}}}),
			got:   gw(map[string]Listener{"a": {Conditions: []Condition{accepted}}, "b": {Conditions: []Condition{notAccepted}}}, accepted),
			diffs: []string{"Gateway ns/g: Accepted: EG True/ListenersNotValid, gwsim True/Accepted"},
		},
		{
			name: "a negative-polarity condition absent on one side and False on the other agrees",
			want: gw(ok),
			got: gw(map[string]Listener{"http": {Conditions: []Condition{accepted,
				{Type: "Conflicted", Status: "False", Reason: "NoConflicts"}}}}, accepted),
		},
		{
			name:  "a positive condition only gwsim writes differs",
			want:  gw(ok),
			got:   gw(ok, accepted, Condition{Type: "ResolvedRefs", Status: "True", Reason: "ResolvedRefs"}),
			diffs: []string{"Gateway ns/g: ResolvedRefs: EG absent, gwsim True/ResolvedRefs"},
		},
		{
			name:  "a listener on one side only differs",
			want:  gw(map[string]Listener{"http": ok["http"], "extra": ok["http"]}),
			got:   gw(ok, accepted),
			diffs: []string{"Gateway ns/g listener extra: entry: EG present, gwsim absent"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range Compare(map[Key]Status{gwKey: tt.want}, map[Key]Status{gwKey: tt.got}) {
				got = append(got, d.String())
			}
			if strings.Join(got, "\n") != strings.Join(tt.diffs, "\n") {
				t.Errorf("differences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.diffs, "\n"))
			}
		})
	}
}

func TestCompareObjectEGDoesNotSee(t *testing.T) {
	k := Key{Kind: "Gateway", Namespace: "ns", Name: "other-class"}
	got := map[Key]Status{k: gw(nil, Condition{Type: "Accepted", Status: "True", Reason: "Accepted"})}
	d := Compare(map[Key]Status{}, got)
	if len(d) != 1 || d[0].What != "Accepted" || d[0].Want != "absent" {
		t.Errorf("status on an object EG's output lacks: %v", d)
	}
}

func TestRefKeyDefaults(t *testing.T) {
	a := refKey(map[string]any{"name": "g"}, "ns")
	b := refKey(map[string]any{"group": "gateway.networking.k8s.io", "kind": "Gateway", "namespace": "ns", "name": "g"}, "other")
	if a != b {
		t.Errorf("defaults not filled in: %q vs %q", a, b)
	}
	if c := refKey(map[string]any{"name": "g", "sectionName": "http", "port": float64(80)}, "ns"); c != a+" section http port 80" {
		t.Errorf("section and port: %q", c)
	}
}

func TestReadInput(t *testing.T) {
	in, err := ReadInput([]byte(`
gateways:
- apiVersion: gateway.networking.k8s.io/v1beta1
  kind: Gateway
  metadata: {name: g, namespace: ns}
  spec: {gatewayClassName: other}
envoyextensionpolicies:
- apiVersion: gateway.envoyproxy.io/v1alpha1
  kind: EnvoyExtensionPolicy
  metadata: {name: p, namespace: ns}
envoyProxyForGatewayClass:
  apiVersion: gateway.envoyproxy.io/v1alpha1
  kind: EnvoyProxy
  metadata: {name: proxy, namespace: eg}
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(in.PolicyKinds) != 1 || in.PolicyKinds[0] != "EnvoyExtensionPolicy" {
		t.Errorf("policy kinds (keys match case-insensitively): %v", in.PolicyKinds)
	}
	if in.Objects[1]["apiVersion"] != gwAPI {
		t.Errorf("a Gateway is read as EG reads it, v1: %v", in.Objects[1]["apiVersion"])
	}
	classes := in.classes()
	if len(classes) != 2 {
		t.Fatalf("want EG's class and the other class, have %v", classes)
	}
	ref := classes[0]["spec"].(map[string]any)["parametersRef"].(map[string]any)
	if ref["name"] != "proxy" || ref["namespace"] != "eg" {
		t.Errorf("EG's class names its EnvoyProxy: %v", ref)
	}
	if classes[1]["spec"].(map[string]any)["controllerName"] != otherController {
		t.Errorf("the other class belongs to another controller: %v", classes[1])
	}
	if _, err := ReadInput([]byte("unknownKey: []\n")); err == nil {
		t.Error("an unknown key must be an error, as in EG's test")
	}
}

func TestExplain(t *testing.T) {
	if Explain("Backend Accepted: EG True/Accepted, gwsim absent") == "" {
		t.Error("a known difference has no reason")
	}
	if r := Explain("Widget Frobbed: EG True/Frobbed, gwsim absent"); r != "" {
		t.Errorf("an unknown difference is explained by %q", r)
	}
}
