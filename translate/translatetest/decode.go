// Package translatetest builds translate.Input values from YAML for the
// tests of translate's packages, which cannot use the loader (it lives in
// offline, which depends on translate).
package translatetest

import (
	"strings"
	"testing"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	mcsv1alpha1 "sigs.k8s.io/mcs-api/pkg/apis/v1alpha1"
	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/defaulttest"
	"github.com/gwsim/gwsim/translate"
)

// kinds makes an empty object of each kind Input holds, by kind name.
var kinds = map[string]func() client.Object{
	"GatewayClass":         func() client.Object { return &gwv1.GatewayClass{} },
	"Gateway":              func() client.Object { return &gwv1.Gateway{} },
	"ListenerSet":          func() client.Object { return &gwv1.ListenerSet{} },
	"HTTPRoute":            func() client.Object { return &gwv1.HTTPRoute{} },
	"GRPCRoute":            func() client.Object { return &gwv1.GRPCRoute{} },
	"TLSRoute":             func() client.Object { return &gwv1.TLSRoute{} },
	"TCPRoute":             func() client.Object { return &gwv1.TCPRoute{} },
	"UDPRoute":             func() client.Object { return &gwv1.UDPRoute{} },
	"BackendTLSPolicy":     func() client.Object { return &gwv1.BackendTLSPolicy{} },
	"ReferenceGrant":       func() client.Object { return &gwv1.ReferenceGrant{} },
	"Service":              func() client.Object { return &corev1.Service{} },
	"EndpointSlice":        func() client.Object { return &discoveryv1.EndpointSlice{} },
	"Secret":               func() client.Object { return &corev1.Secret{} },
	"ConfigMap":            func() client.Object { return &corev1.ConfigMap{} },
	"Namespace":            func() client.Object { return &corev1.Namespace{} },
	"ServiceImport":        func() client.Object { return &mcsv1alpha1.ServiceImport{} },
	"Backend":              func() client.Object { return &egv1a1.Backend{} },
	"EnvoyProxy":           func() client.Object { return &egv1a1.EnvoyProxy{} },
	"BackendTrafficPolicy": func() client.Object { return &egv1a1.BackendTrafficPolicy{} },
	"ClientTrafficPolicy":  func() client.Object { return &egv1a1.ClientTrafficPolicy{} },
	"SecurityPolicy":       func() client.Object { return &egv1a1.SecurityPolicy{} },
	"EnvoyExtensionPolicy": func() client.Object { return &egv1a1.EnvoyExtensionPolicy{} },
	"EnvoyPatchPolicy":     func() client.Object { return &egv1a1.EnvoyPatchPolicy{} },
}

// clusterScoped are the kinds above that have no namespace.
var clusterScoped = map[string]bool{"GatewayClass": true, "Namespace": true}

// Decode reads YAML documents separated by "---" lines, strictly, into the
// objects of an Input. Namespaced objects without a namespace are put in
// "default", as the loader does, and each object's source is file at the
// document's number (1, 2, ...), so that tests can check the sources a
// result names. Gateway API objects get their CRD defaults, as the loader
// gives them (internal/defaulttest). A document of a kind Input does not
// hold fails the test. The objects are also returned in document order.
func Decode(t testing.TB, file, docs string) (translate.Input, []client.Object) {
	t.Helper()
	in := translate.Input{Sources: diag.Sources{}}
	var objs []client.Object
	for i, doc := range strings.Split(docs, "\n---\n") {
		var meta struct{ Kind string }
		if err := yaml.Unmarshal([]byte(doc), &meta); err != nil {
			t.Fatalf("%s document %d: %v", file, i+1, err)
		}
		newObj, ok := kinds[meta.Kind]
		if !ok {
			t.Fatalf("%s document %d: kind %q is not one translate.Input holds", file, i+1, meta.Kind)
		}
		obj := newObj()
		if err := yaml.UnmarshalStrict([]byte(doc), obj); err != nil {
			t.Fatalf("%s document %d: %v", file, i+1, err)
		}
		if obj.GetNamespace() == "" && !clusterScoped[meta.Kind] {
			obj.SetNamespace("default")
		}
		defaulttest.Default(t, obj)
		in.Add(obj)
		objs = append(objs, obj)
		in.Sources[diag.ObjectRef{Kind: meta.Kind, Namespace: obj.GetNamespace(), Name: obj.GetName()}] = diag.Source{File: file, Line: i + 1}
	}
	return in, objs
}
