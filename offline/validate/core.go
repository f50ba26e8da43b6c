package validate

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Core checks the fields gwsim reads of a core object (Service,
// EndpointSlice, Secret, ConfigMap) as kube-apiserver's validation of
// those kinds does, and returns the errors for which it refuses the object
// on create. Core kinds have no CRD: their rules are Go code in
// Kubernetes itself (pkg/apis/core/validation, pkg/apis/discovery/
// validation), which gwsim does not link, so these are the rules restated
// for the fields that change an answer gwsim gives: a Service port, a
// target port, a cluster IP, an endpoint address, a TLS Secret's keys. The
// rest of a core object is checked only for its shape (strict decoding).
// obj is as decoded, before the API server's defaults.
func Core(obj client.Object) field.ErrorList {
	switch o := obj.(type) {
	case *corev1.Service:
		return coreService(o)
	case *discoveryv1.EndpointSlice:
		return coreEndpointSlice(o)
	case *corev1.Secret:
		return coreSecret(o)
	case *corev1.ConfigMap:
		return coreKeys(o.Data, o.BinaryData)
	}
	return nil
}

func coreService(s *corev1.Service) field.ErrorList {
	var errs field.ErrorList
	spec := field.NewPath("spec")
	switch s.Spec.Type {
	case "", corev1.ServiceTypeClusterIP, corev1.ServiceTypeNodePort, corev1.ServiceTypeLoadBalancer:
	case corev1.ServiceTypeExternalName:
		name := strings.TrimSuffix(s.Spec.ExternalName, ".")
		if s.Spec.ExternalName == "" {
			errs = append(errs, field.Required(spec.Child("externalName"), ""))
		} else {
			errs = append(errs, messages(spec.Child("externalName"), s.Spec.ExternalName, validation.IsDNS1123Subdomain(name))...)
		}
	default:
		errs = append(errs, field.NotSupported(spec.Child("type"), s.Spec.Type,
			[]corev1.ServiceType{corev1.ServiceTypeClusterIP, corev1.ServiceTypeExternalName, corev1.ServiceTypeLoadBalancer, corev1.ServiceTypeNodePort}))
	}
	headless := s.Spec.ClusterIP == corev1.ClusterIPNone
	if s.Spec.ClusterIP != "" && !headless {
		errs = append(errs, validation.IsValidIPForLegacyField(spec.Child("clusterIP"), s.Spec.ClusterIP, false, nil)...)
	}
	if len(s.Spec.Ports) == 0 && !headless && s.Spec.Type != corev1.ServiceTypeExternalName {
		errs = append(errs, field.Required(spec.Child("ports"), ""))
	}
	names := sets.New[string]()
	type portKey struct {
		port     int32
		protocol corev1.Protocol
	}
	seen := map[portKey]bool{}
	for i, p := range s.Spec.Ports {
		path := spec.Child("ports").Index(i)
		switch {
		case p.Name == "" && len(s.Spec.Ports) > 1:
			errs = append(errs, field.Required(path.Child("name"), ""))
		case p.Name != "":
			errs = append(errs, messages(path.Child("name"), p.Name, validation.IsDNS1123Label(p.Name))...)
			if names.Has(p.Name) {
				errs = append(errs, field.Duplicate(path.Child("name"), p.Name))
			}
			names.Insert(p.Name)
		}
		errs = append(errs, messages(path.Child("port"), p.Port, validation.IsValidPortNum(int(p.Port)))...)
		errs = append(errs, protocol(path.Child("protocol"), p.Protocol)...)
		errs = append(errs, targetPort(path.Child("targetPort"), p.TargetPort)...)
		if p.AppProtocol != nil {
			errs = append(errs, messages(path.Child("appProtocol"), *p.AppProtocol, validation.IsQualifiedName(*p.AppProtocol))...)
		}
		k := portKey{p.Port, p.Protocol}
		if k.protocol == "" {
			k.protocol = corev1.ProtocolTCP // the API server's default
		}
		if seen[k] {
			errs = append(errs, field.Duplicate(path, fmt.Sprintf("%d/%s", k.port, k.protocol)))
		}
		seen[k] = true
	}
	return errs
}

// targetPort: an unset target port (0 or "") is the port itself, the API
// server's default.
func targetPort(path *field.Path, t intstr.IntOrString) field.ErrorList {
	switch {
	case t.Type == intstr.Int && t.IntVal != 0:
		return messages(path, t.IntVal, validation.IsValidPortNum(int(t.IntVal)))
	case t.Type == intstr.String && t.StrVal != "":
		return messages(path, t.StrVal, validation.IsValidPortName(t.StrVal))
	}
	return nil
}

func protocol(path *field.Path, p corev1.Protocol) field.ErrorList {
	switch p {
	case "", corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP:
		return nil
	}
	return field.ErrorList{field.NotSupported(path, p, []corev1.Protocol{corev1.ProtocolSCTP, corev1.ProtocolTCP, corev1.ProtocolUDP})}
}

// The API server's limits on an EndpointSlice's lists.
const (
	maxEndpoints         = 1000
	maxEndpointAddresses = 100
	maxEndpointPorts     = 20000
)

func coreEndpointSlice(s *discoveryv1.EndpointSlice) field.ErrorList {
	var errs field.ErrorList
	addressType := field.NewPath("addressType")
	switch s.AddressType {
	case discoveryv1.AddressTypeIPv4, discoveryv1.AddressTypeIPv6, discoveryv1.AddressTypeFQDN:
	case "":
		errs = append(errs, field.Required(addressType, ""))
	default:
		errs = append(errs, field.NotSupported(addressType, s.AddressType,
			[]discoveryv1.AddressType{discoveryv1.AddressTypeFQDN, discoveryv1.AddressTypeIPv4, discoveryv1.AddressTypeIPv6}))
	}
	endpoints := field.NewPath("endpoints")
	if len(s.Endpoints) > maxEndpoints {
		errs = append(errs, field.TooMany(endpoints, len(s.Endpoints), maxEndpoints))
	}
	for i, e := range s.Endpoints {
		path := endpoints.Index(i).Child("addresses")
		switch n := len(e.Addresses); {
		case n == 0:
			errs = append(errs, field.Required(path, "must contain at least 1 address"))
		case n > maxEndpointAddresses:
			errs = append(errs, field.TooMany(path, n, maxEndpointAddresses))
		}
		for j, a := range e.Addresses {
			errs = append(errs, endpointAddress(path.Index(j), s.AddressType, a)...)
		}
	}
	ports := field.NewPath("ports")
	if len(s.Ports) > maxEndpointPorts {
		errs = append(errs, field.TooMany(ports, len(s.Ports), maxEndpointPorts))
	}
	names := sets.New[string]()
	for i, p := range s.Ports {
		path := ports.Index(i)
		if p.Name != nil {
			if *p.Name != "" {
				errs = append(errs, messages(path.Child("name"), *p.Name, validation.IsDNS1123Label(*p.Name))...)
			}
			if names.Has(*p.Name) {
				errs = append(errs, field.Duplicate(path.Child("name"), *p.Name))
			}
			names.Insert(*p.Name)
		}
		if p.Port != nil {
			errs = append(errs, messages(path.Child("port"), *p.Port, validation.IsInRange(int(*p.Port), 0, 65535))...)
		}
		if p.Protocol != nil {
			errs = append(errs, protocol(path.Child("protocol"), *p.Protocol)...)
		}
	}
	return errs
}

func endpointAddress(path *field.Path, t discoveryv1.AddressType, a string) field.ErrorList {
	switch t {
	case discoveryv1.AddressTypeIPv4, discoveryv1.AddressTypeIPv6:
		if errs := validation.IsValidIPForLegacyField(path, a, false, nil); len(errs) > 0 {
			return errs
		}
		if v6 := strings.Contains(a, ":"); v6 != (t == discoveryv1.AddressTypeIPv6) {
			return field.ErrorList{field.Invalid(path, a, "must be an "+string(t)+" address")}
		}
	case discoveryv1.AddressTypeFQDN:
		return messages(path, a, validation.IsDNS1123Subdomain(a))
	}
	return nil
}

func coreSecret(s *corev1.Secret) field.ErrorList {
	errs := coreKeys(s.Data, nil)
	if s.Type == corev1.SecretTypeTLS {
		for _, key := range []string{corev1.TLSCertKey, corev1.TLSPrivateKeyKey} {
			if _, ok := s.Data[key]; !ok {
				errs = append(errs, field.Required(field.NewPath("data").Key(key), ""))
			}
		}
	}
	return errs
}

// coreKeys checks the keys of a Secret's or ConfigMap's data: each a
// valid key, none in both data and binaryData.
func coreKeys[V any](data map[string]V, binary map[string][]byte) field.ErrorList {
	var errs field.ErrorList
	for _, k := range sets.List(sets.KeySet(data)) {
		errs = append(errs, messages(field.NewPath("data").Key(k), k, validation.IsConfigMapKey(k))...)
	}
	for _, k := range sets.List(sets.KeySet(binary)) {
		errs = append(errs, messages(field.NewPath("binaryData").Key(k), k, validation.IsConfigMapKey(k))...)
		if _, ok := data[k]; ok {
			errs = append(errs, field.Invalid(field.NewPath("binaryData").Key(k), k, "duplicate of key present in data"))
		}
	}
	return errs
}

// messages turns the []string answers of apimachinery's Is* checks into
// Invalid errors at path.
func messages(path *field.Path, value any, msgs []string) field.ErrorList {
	var errs field.ErrorList
	for _, m := range msgs {
		errs = append(errs, field.Invalid(path, value, m))
	}
	return errs
}
