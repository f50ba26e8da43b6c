package egmeasure

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/offline/scheme"
)

// ClassName and ControllerName are the GatewayClass EG's translator test
// runs as: its Translator is built with GatewayClassName
// "envoy-gateway-class" and EG's controllerName, and handles only the
// Gateways of that class.
const (
	ClassName      = "envoy-gateway-class"
	ControllerName = "gateway.envoyproxy.io/gatewayclass-controller"
	// otherController owns every other GatewayClass a case's Gateways name:
	// EG's test runs one controller for one class, so the Gateways of
	// another class get no status from it, and must get none from gwsim.
	otherController = "example.com/not-envoy-gateway"
)

// field is one top-level key of EG's test input (its resource.Resources,
// read by key, not by each object's apiVersion). apiVersion and kind are
// those of the Go type EG decodes the key's objects into; they replace
// what the object says, because the test ignores it (a Gateway written as
// v1beta1 is read as a v1 Gateway).
type field struct {
	key, apiVersion, kind string
	// single is set for the keys holding one object, not a list.
	single bool
	// policy marks EG's policy kinds, which the measure leaves out of its
	// target rate.
	policy bool
	// notObject marks keys that are EG configuration, not objects.
	notObject bool
}

var fields = []field{
	{key: "envoyProxyForGatewayClass", apiVersion: egAPI, kind: "EnvoyProxy", single: true},
	{key: "envoyProxiesForGateways", apiVersion: egAPI, kind: "EnvoyProxy"},
	{key: "envoyProxyDefaultSpec", notObject: true},
	{key: "gatewayClass", apiVersion: gwAPI, kind: "GatewayClass", single: true},
	{key: "gateways", apiVersion: gwAPI, kind: "Gateway"},
	{key: "listenerSets", apiVersion: gwAPI, kind: "ListenerSet"},
	{key: "httpRoutes", apiVersion: gwAPI, kind: "HTTPRoute"},
	{key: "grpcRoutes", apiVersion: gwAPI, kind: "GRPCRoute"},
	{key: "tlsRoutes", apiVersion: gwAPI, kind: "TLSRoute"},
	{key: "tcpRoutes", apiVersion: gwAPI, kind: "TCPRoute"},
	{key: "udpRoutes", apiVersion: gwAPI, kind: "UDPRoute"},
	{key: "referenceGrants", apiVersion: "gateway.networking.k8s.io/v1beta1", kind: "ReferenceGrant"},
	{key: "namespaces", apiVersion: "v1", kind: "Namespace"},
	{key: "services", apiVersion: "v1", kind: "Service"},
	{key: "serviceImports", apiVersion: "multicluster.x-k8s.io/v1alpha1", kind: "ServiceImport"},
	{key: "endpointSlices", apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice"},
	{key: "secrets", apiVersion: "v1", kind: "Secret"},
	{key: "configMaps", apiVersion: "v1", kind: "ConfigMap"},
	{key: "extensionRefFilters"},
	{key: "envoyPatchPolicies", apiVersion: egAPI, kind: "EnvoyPatchPolicy", policy: true},
	{key: "clientTrafficPolicies", apiVersion: egAPI, kind: "ClientTrafficPolicy", policy: true},
	{key: "backendTrafficPolicies", apiVersion: egAPI, kind: "BackendTrafficPolicy", policy: true},
	{key: "securityPolicies", apiVersion: egAPI, kind: "SecurityPolicy", policy: true},
	{key: "backendTLSPolicies", apiVersion: gwAPI, kind: "BackendTLSPolicy"},
	{key: "envoyExtensionPolicies", apiVersion: egAPI, kind: "EnvoyExtensionPolicy", policy: true},
	{key: "extensionServerPolicies"},
	{key: "backends", apiVersion: egAPI, kind: "Backend"},
	{key: "httpFilters", apiVersion: egAPI, kind: "HTTPRouteFilter"},
	{key: "clusterTrustBundles", apiVersion: "certificates.k8s.io/v1beta1", kind: "ClusterTrustBundle"},
}

const (
	egAPI = "gateway.envoyproxy.io/v1alpha1"
	gwAPI = "gateway.networking.k8s.io/v1"
)

// fieldOf finds a key's field. EG reads its input with encoding/json's
// rules, under which keys match case-insensitively (several cases write
// "envoyextensionpolicies" or "configmaps").
func fieldOf(key string) (field, bool) {
	for _, f := range fields {
		if strings.EqualFold(f.key, key) {
			return f, true
		}
	}
	return field{}, false
}

// Input is one case's input read into objects, by EG's rules.
type Input struct {
	// Objects are the case's objects, in the order of the file, with
	// apiVersion and kind set as EG reads them.
	Objects []map[string]any
	// PolicyKinds are the EG policy kinds the case holds objects of.
	PolicyKinds []string
	// Unsimulated names the keys that hold something gwsim is not given
	// (EG configuration, extension objects).
	Unsimulated []string
	// ClassProxy is the EnvoyProxy EG's test hands the translator as the
	// GatewayClass's parameters, if any.
	ClassProxy map[string]any
	// Class is the case's GatewayClass, if it holds one.
	Class map[string]any
}

// ReadInput reads an *.in.yaml file of EG's translator test.
func ReadInput(data []byte) (Input, error) {
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Input{}, err
	}
	keys := make([]string, 0, len(doc))
	for k := range doc {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return fieldIndex(keys[i]) < fieldIndex(keys[j]) })
	var in Input
	s := scheme.New()
	for _, k := range keys {
		f, ok := fieldOf(k)
		if !ok {
			return Input{}, fmt.Errorf("unknown key %q (EG's test refuses unknown fields)", k)
		}
		objs, err := objectsOf(s, f, doc[k])
		if err != nil {
			return Input{}, fmt.Errorf("%s: %w", k, err)
		}
		if len(objs) == 0 && !f.notObject {
			continue
		}
		switch {
		case f.notObject || f.kind == "":
			in.Unsimulated = append(in.Unsimulated, f.key)
			continue
		case f.policy:
			in.PolicyKinds = append(in.PolicyKinds, f.kind)
			inFileOrder(objs)
		case f.key == "envoyProxyForGatewayClass":
			in.ClassProxy = objs[0]
		case f.key == "gatewayClass":
			in.Class = objs[0]
		}
		in.Objects = append(in.Objects, objs...)
	}
	return in, nil
}

func fieldIndex(key string) int {
	for i, f := range fields {
		if strings.EqualFold(f.key, key) {
			return i
		}
	}
	return len(fields)
}

// objectsOf returns the objects of a key's value, with the apiVersion and
// kind EG reads them as; with a scheme, read as the typed decode reads
// them (numbersAsTyped).
func objectsOf(s *runtime.Scheme, f field, v any) ([]map[string]any, error) {
	if v == nil {
		return nil, nil
	}
	var items []any
	if f.single || f.notObject {
		items = []any{v}
	} else {
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("want a list, have %T", v)
		}
		items = list
	}
	out := make([]map[string]any, 0, len(items))
	for _, it := range items {
		obj, ok := it.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("want an object, have %T", it)
		}
		if f.kind != "" {
			obj["apiVersion"], obj["kind"] = f.apiVersion, f.kind
			if s != nil {
				obj = numbersAsTyped(s, obj)
			}
		}
		out = append(out, obj)
	}
	return out, nil
}

// Manifests is the case as the YAML stream gwsim reads: the case's
// objects, then what EG's test adds around them (Fixtures), with the
// GatewayClasses the test implies. implied names the classes: EG's test
// has none of them as objects, so their status is not compared.
func (in Input) Manifests(base []byte) (data []byte, implied []Key, err error) {
	fx, err := Fixtures(base)
	if err != nil {
		return nil, nil, err
	}
	replaced := map[Key]bool{}
	for _, f := range fx {
		replaced[KeyOf(f)] = true
	}
	classes := in.classes()
	for _, c := range classes {
		implied = append(implied, KeyOf(c))
	}
	var objs []map[string]any
	for _, o := range append(append([]map[string]any{}, in.Objects...), classes...) {
		if !replaced[KeyOf(o)] {
			objs = append(objs, o)
		}
	}
	objs = append(objs, fx...)
	var b bytes.Buffer
	for _, o := range objs {
		y, err := yaml.Marshal(o)
		if err != nil {
			return nil, nil, err
		}
		b.WriteString("---\n")
		b.Write(y)
	}
	return b.Bytes(), implied, nil
}

// classes returns the GatewayClasses the test implies. EG's test hands the
// translator its class name and, apart, the class's EnvoyProxy: in a
// cluster that EnvoyProxy is the class's parametersRef, which is how
// gwsim is told. Every other class a Gateway names belongs to another
// controller.
func (in Input) classes() []map[string]any {
	var out []map[string]any
	if in.Class == nil {
		spec := map[string]any{"controllerName": ControllerName}
		if p := in.ClassProxy; p != nil {
			meta, _ := p["metadata"].(map[string]any)
			spec["parametersRef"] = map[string]any{
				"group": "gateway.envoyproxy.io", "kind": "EnvoyProxy",
				"namespace": meta["namespace"], "name": meta["name"],
			}
		}
		out = append(out, classObject(ClassName, spec))
	}
	seen := map[string]bool{ClassName: true}
	for _, o := range in.Objects {
		if o["kind"] != "Gateway" {
			continue
		}
		spec, _ := o["spec"].(map[string]any)
		name, _ := spec["gatewayClassName"].(string)
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, classObject(name, map[string]any{"controllerName": otherController}))
	}
	return out
}

func classObject(name string, spec map[string]any) map[string]any {
	return map[string]any{
		"apiVersion": gwAPI, "kind": "GatewayClass",
		"metadata": map[string]any{"name": name},
		"spec":     spec,
	}
}

// inFileOrder stamps a kind's policies with creation times in the order
// of the file. EG's translator takes the policies of a kind in the order
// its provider sorts them (oldest first, then by namespace and name) and
// the first to claim a target wins; its test hands them over unsorted, in
// file order. gwsim sorts as the provider does, so the measure says with
// creation times what the test's order says. A time a case sets is
// replaced: the test does not read it either.
func inFileOrder(objs []map[string]any) {
	for i, o := range objs {
		meta, _ := o["metadata"].(map[string]any)
		if meta == nil {
			meta = map[string]any{}
			o["metadata"] = meta
		}
		meta["creationTimestamp"] = fileOrderEpoch.Add(time.Duration(i) * time.Second).Format(time.RFC3339)
	}
}

// fileOrderEpoch is the first creation time inFileOrder gives.
var fileOrderEpoch = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
