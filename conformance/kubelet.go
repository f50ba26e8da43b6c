package conformance

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// emulatedLabel marks the Pods and EndpointSlices the kubelet made, so that
// it never touches the EndpointSlices a test applies itself.
const emulatedLabel = "gwsim.dev/emulated"

// kubelet stands in for the Deployment controller, the kubelet and the
// EndpointSlice controller: every Deployment has its replicas as Ready Pods
// with unique IPs, and every Service with a selector has one EndpointSlice
// listing the Pods it selects. sync makes the store match that, creating
// and deleting only objects it made.
type kubelet struct {
	// podIPs keeps each Pod's IP for as long as the harness runs, so that
	// a Pod that is re-created keeps its address.
	podIPs map[types.NamespacedName]string
}

func newKubelet() kubelet {
	return kubelet{podIPs: map[types.NamespacedName]string{}}
}

// sync brings the emulated Pods and EndpointSlices in line with the
// Deployments and Services in c.
func (k *kubelet) sync(ctx context.Context, c client.Client) error {
	var deps appsv1.DeploymentList
	if err := c.List(ctx, &deps); err != nil {
		return err
	}
	var pods []*corev1.Pod
	for i := range deps.Items {
		pods = append(pods, k.podsOf(&deps.Items[i])...)
	}
	var services corev1.ServiceList
	if err := c.List(ctx, &services); err != nil {
		return err
	}
	var endpoints []*discoveryv1.EndpointSlice
	for i := range services.Items {
		if s := endpointSliceFor(&services.Items[i], pods); s != nil {
			endpoints = append(endpoints, s)
		}
	}
	if err := reconcileEmulated(ctx, c, &corev1.PodList{}, toObjects(pods)); err != nil {
		return err
	}
	return reconcileEmulated(ctx, c, &discoveryv1.EndpointSliceList{}, toObjects(endpoints))
}

func toObjects[T client.Object](in []T) []client.Object {
	out := make([]client.Object, len(in))
	for i, o := range in {
		out[i] = o
	}
	return out
}

// podsOf returns d's Pods: replicas (default 1) Ready Pods named
// <deployment>-<template hash>-<pod hash>, the shape the suite parses.
func (k *kubelet) podsOf(d *appsv1.Deployment) []*corev1.Pod {
	replicas := 1
	if d.Spec.Replicas != nil {
		replicas = int(*d.Spec.Replicas)
	}
	templateHash := shortHash(d.Namespace+"/"+d.Name, 10)
	var out []*corev1.Pod
	for i := range replicas {
		name := fmt.Sprintf("%s-%s-%s", d.Name, templateHash, shortHash(fmt.Sprintf("%s/%s/%d", d.Namespace, d.Name, i), 5))
		key := types.NamespacedName{Namespace: d.Namespace, Name: name}
		ip, ok := k.podIPs[key]
		if !ok {
			n := len(k.podIPs) + 1
			ip = fmt.Sprintf("10.244.%d.%d", n/250, n%250+1)
			k.podIPs[key] = ip
		}
		lbls := map[string]string{emulatedLabel: "true"}
		for k, v := range d.Spec.Template.Labels {
			lbls[k] = v
		}
		out = append(out, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: d.Namespace, Name: name, Labels: lbls},
			Spec:       *d.Spec.Template.Spec.DeepCopy(),
			Status: corev1.PodStatus{
				Phase:      corev1.PodRunning,
				PodIP:      ip,
				PodIPs:     []corev1.PodIP{{IP: ip}},
				Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
			},
		})
	}
	return out
}

// endpointSliceFor returns the EndpointSlice of s's selected Pods, or nil
// for a Service without a selector (whose slices a test brings itself).
func endpointSliceFor(s *corev1.Service, pods []*corev1.Pod) *discoveryv1.EndpointSlice {
	if len(s.Spec.Selector) == 0 {
		return nil
	}
	sel := labels.SelectorFromSet(s.Spec.Selector)
	slice := &discoveryv1.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: s.Namespace,
			Name:      s.Name + "-" + shortHash(s.Namespace+"/"+s.Name, 5),
			Labels:    map[string]string{emulatedLabel: "true", discoveryv1.LabelServiceName: s.Name},
		},
		AddressType: discoveryv1.AddressTypeIPv4,
	}
	var selected []*corev1.Pod
	for _, p := range pods {
		if p.Namespace == s.Namespace && sel.Matches(labels.Set(p.Labels)) {
			selected = append(selected, p)
		}
	}
	for _, sp := range s.Spec.Ports {
		port := targetPort(sp, selected)
		slice.Ports = append(slice.Ports, discoveryv1.EndpointPort{
			Name: new(sp.Name), Protocol: new(sp.Protocol), Port: new(port), AppProtocol: sp.AppProtocol,
		})
	}
	for _, p := range selected {
		slice.Endpoints = append(slice.Endpoints, discoveryv1.Endpoint{
			Addresses:  []string{p.Status.PodIP},
			Conditions: discoveryv1.EndpointConditions{Ready: new(true)},
			TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: p.Namespace, Name: p.Name},
		})
	}
	return slice
}

// targetPort resolves a Service port's targetPort: a number, a container
// port name looked up in the selected Pods, or the port itself when unset.
func targetPort(sp corev1.ServicePort, pods []*corev1.Pod) int32 {
	switch {
	case sp.TargetPort.Type == intstr.Int && sp.TargetPort.IntVal != 0:
		return sp.TargetPort.IntVal
	case sp.TargetPort.Type == intstr.String && sp.TargetPort.StrVal != "":
		for _, p := range pods {
			for _, ctr := range p.Spec.Containers {
				for _, cp := range ctr.Ports {
					if cp.Name == sp.TargetPort.StrVal {
						return cp.ContainerPort
					}
				}
			}
		}
	}
	return sp.Port
}

// reconcileEmulated makes the emulated objects of list's kind in c equal
// want: missing ones are created, stale ones deleted, changed ones
// replaced.
func reconcileEmulated(ctx context.Context, c client.Client, list client.ObjectList, want []client.Object) error {
	have, err := listEmulated(ctx, c, list)
	if err != nil {
		return err
	}
	wanted := map[types.NamespacedName]client.Object{}
	for _, o := range want {
		wanted[client.ObjectKeyFromObject(o)] = o
	}
	for key, o := range have {
		if w, ok := wanted[key]; ok && sameEmulated(o, w) {
			delete(wanted, key)
			continue
		}
		if err := c.Delete(ctx, o); err != nil {
			return err
		}
	}
	keys := make([]types.NamespacedName, 0, len(wanted))
	for key := range wanted {
		keys = append(keys, key)
	}
	slices.SortFunc(keys, func(a, b types.NamespacedName) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	for _, key := range keys {
		if err := c.Create(ctx, wanted[key]); err != nil {
			return err
		}
	}
	return nil
}

func listEmulated(ctx context.Context, c client.Client, list client.ObjectList) (map[types.NamespacedName]client.Object, error) {
	if err := c.List(ctx, list, client.HasLabels{emulatedLabel}); err != nil {
		return nil, err
	}
	out := map[types.NamespacedName]client.Object{}
	switch l := list.(type) {
	case *corev1.PodList:
		for i := range l.Items {
			out[client.ObjectKeyFromObject(&l.Items[i])] = &l.Items[i]
		}
	case *discoveryv1.EndpointSliceList:
		for i := range l.Items {
			out[client.ObjectKeyFromObject(&l.Items[i])] = &l.Items[i]
		}
	default:
		return nil, fmt.Errorf("bug: kubelet lists %T", list)
	}
	return out, nil
}

// sameEmulated reports whether a stored emulated object still matches what
// the kubelet wants; only the parts the kubelet decides are compared.
func sameEmulated(have, want client.Object) bool {
	switch h := have.(type) {
	case *corev1.Pod:
		w := want.(*corev1.Pod)
		return h.Status.PodIP == w.Status.PodIP && maps.Equal(h.Labels, w.Labels)
	case *discoveryv1.EndpointSlice:
		w := want.(*discoveryv1.EndpointSlice)
		return len(h.Endpoints) == len(w.Endpoints) && len(h.Ports) == len(w.Ports) &&
			slices.EqualFunc(h.Endpoints, w.Endpoints, func(a, b discoveryv1.Endpoint) bool { return slices.Equal(a.Addresses, b.Addresses) }) &&
			slices.EqualFunc(h.Ports, w.Ports, func(a, b discoveryv1.EndpointPort) bool { return *a.Port == *b.Port && *a.Name == *b.Name })
	}
	return false
}

// shortHash returns n lowercase alphanumerics derived from s, in the
// alphabet Kubernetes uses for generated name suffixes.
func shortHash(s string, n int) string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	h := fnv.New64a()
	h.Write([]byte(s))
	v := h.Sum64()
	out := make([]byte, n)
	for i := range out {
		out[i] = alphabet[v%uint64(len(alphabet))]
		v /= uint64(len(alphabet))
	}
	return string(out)
}
