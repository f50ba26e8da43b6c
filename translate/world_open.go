package translate

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

// OpenWorld decides which objects that the input refers to but does not
// hold gwsim assumes exist. Most repositories do not hold their Secrets
// (cert-manager, external-secrets make them), nor often their Services or
// the platform's Gateway, so treating every missing object as an error
// fails ordinary input. The input is taken as the whole truth only where it
// shows that it is: a kind and namespace in which it holds at least one
// object (Complete). ReferenceGrants are never assumed: a missing grant is
// a real error wherever it is missing.
//
// The zero value assumes nothing (the closed world of a conformance run or a
// test). The CLI builds one over the whole input (load.OpenWorld), so that
// every Translate call of a run, on any slice of the world, decides alike.
type OpenWorld struct {
	// AllKinds assumes objects of every kind (but ReferenceGrant).
	AllKinds bool
	// Kinds lists the kinds assumed when AllKinds is false, by KindName.
	Kinds map[string]bool
	// Complete holds the kinds and namespaces in which the input is taken
	// as complete: nothing missing there is assumed. nil means none.
	Complete map[KindNamespace]bool
}

// KindNamespace is a kind (by KindName) in a namespace ("" for a
// cluster-scoped kind).
type KindNamespace struct {
	Kind, Namespace string
}

// KindName is how OpenWorld names a kind: the kind alone for the core and
// Gateway API groups (Secret, Service, Gateway), group/Kind for every other
// group (gateway.envoyproxy.io/Backend).
func KindName(group, kind string) string {
	if group == "" || group == gwv1.GroupName {
		return kind
	}
	return group + "/" + kind
}

// Assumes reports whether a missing object of group/kind in namespace ns is
// assumed to exist.
func (o OpenWorld) Assumes(group, kind, ns string) bool {
	name := KindName(group, kind)
	if kind == "ReferenceGrant" || !(o.AllKinds || o.Kinds[name]) {
		return false
	}
	return !o.Complete[KindNamespace{Kind: name, Namespace: ns}]
}

// why says why a missing object of kind name in ns is assumed.
func (o OpenWorld) why(name, ns string) string {
	if o.Complete == nil {
		return "--assume covers " + name
	}
	if ns == "" {
		return fmt.Sprintf("the input holds no %s", name)
	}
	return fmt.Sprintf("the input holds no %s in namespace %s", name, ns)
}

// assumptions records what one Translate call assumed, to report each
// assumed object once with every reference that needed it. It is written
// during translation (with the cluster memo, the only part of the world
// that is): resolution of a reference adds to it, to its fork's on a
// worker (see world.fork), and Translate reads it at the end.
type assumptions struct {
	objects map[diag.ObjectRef]*assumed
	// backends are the Services and ServiceImports assumed for
	// backendRefs, with the ports the references named, so that clusters
	// built for them can be found again (clusterPort).
	backends map[backendKey]*backendObject
	// extensions lists, per extension kind and use ("backend", "filter"),
	// the references that resolved to one (see rule_extension.go).
	extensions map[string][]string
}

type assumed struct {
	what     string // what gwsim takes the object to be
	why      string
	neededBy []need
}

// need is a reference that needed an assumed object: the field of by
// that names it.
type need struct {
	by    diag.ObjectRef
	field string
}

func (n need) String() string {
	if n.field == "" {
		return n.by.String()
	}
	return n.by.String() + " (" + n.field + ")"
}

func newAssumptions() *assumptions {
	return &assumptions{objects: map[diag.ObjectRef]*assumed{}, backends: map[backendKey]*backendObject{}, extensions: map[string][]string{}}
}

// assume records that group/kind ns/name, missing from the input, is
// assumed to be what says, for the reference at field of by. It returns
// false, recording nothing, when the open world does not assume it.
func (w *world) assume(group, kind, ns, name, what string, by diag.ObjectRef, field string) bool {
	if !w.opts.OpenWorld.Assumes(group, kind, ns) {
		return false
	}
	kn := KindName(group, kind)
	ref := diag.ObjectRef{Kind: kn, Namespace: ns, Name: name}
	a := w.assumed.objects[ref]
	if a == nil {
		a = &assumed{what: what, why: w.opts.OpenWorld.why(kn, ns)}
		w.assumed.objects[ref] = a
	}
	user := need{by: by, field: field}
	if !slices.Contains(a.neededBy, user) {
		a.neededBy = append(a.neededBy, user)
	}
	return true
}

// assumeBackend returns the Service or ServiceImport assumed for a
// backendRef to key on port, or false when it is not assumed. The assumed
// object has every port a reference names (TCP, or UDP for a UDPRoute),
// no appProtocol and no endpoints the input could show.
func (w *world) assumeBackend(key backendKey, port int32, kind gwv1.Kind, by diag.ObjectRef, field string) (backendObject, bool) {
	if !w.assume(key.group(), key.kind(), key.Namespace, key.Name, assumedBackendWhat(key), by, field) {
		return backendObject{}, false
	}
	b := w.assumed.backends[key]
	if b == nil {
		b = &backendObject{key: key}
		b.src = b
		w.assumed.backends[key] = b
	}
	if servicePortIndex(b.ports, port, kind) < 0 {
		proto := corev1.ProtocolTCP
		if kind == "UDPRoute" {
			proto = corev1.ProtocolUDP
		}
		b.ports = append(b.ports, corev1.ServicePort{Port: port, Protocol: proto})
	}
	return *b, true
}

// merge adds what a fork assumed (see world.fork) to a, as if the fork's
// calls had been made on a after a's own: an object a already assumes
// keeps its description, and references and ports a does not list yet
// are appended in the fork's order. Merging every fork in input order so
// gives what one goroutine making every call in that order would have
// recorded.
func (a *assumptions) merge(f *assumptions) {
	for ref, fa := range f.objects {
		if own := a.objects[ref]; own != nil {
			own.neededBy = appendMissing(own.neededBy, fa.neededBy)
		} else {
			a.objects[ref] = fa
		}
	}
	for key, fb := range f.backends {
		own := a.backends[key]
		if own == nil {
			a.backends[key] = fb
			continue
		}
		for _, p := range fb.ports {
			if !slices.ContainsFunc(own.ports, func(q corev1.ServicePort) bool { return q.Port == p.Port && q.Protocol == p.Protocol }) {
				own.ports = append(own.ports, p)
			}
		}
	}
	for k, users := range f.extensions {
		a.extensions[k] = appendMissing(a.extensions[k], users)
	}
}

// appendMissing appends to list the entries of more it does not hold yet.
func appendMissing[T comparable](list, more []T) []T {
	for _, s := range more {
		if !slices.Contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}

// assumedBackendWhat says what an assumed Service or ServiceImport is
// taken to be.
func assumedBackendWhat(key backendKey) string {
	return fmt.Sprintf("a %s with the ports its references name", key.kind())
}

// findings is one Info finding per assumed object, naming what gwsim took
// it to be, why, and every reference that needed it.
func (a *assumptions) findings() []diag.Finding {
	refs := make([]diag.ObjectRef, 0, len(a.objects))
	for ref := range a.objects {
		refs = append(refs, ref)
	}
	slices.SortFunc(refs, func(x, y diag.ObjectRef) int { return x.Compare(y) })
	out := make([]diag.Finding, 0, len(refs))
	for _, ref := range refs {
		as := a.objects[ref]
		slices.SortFunc(as.neededBy, func(x, y need) int { return cmp.Compare(x.String(), y.String()) })
		users := make([]string, len(as.neededBy))
		for i, n := range as.neededBy {
			users[i] = n.String()
		}
		// The finding sits at the first reference that needs the object:
		// the object itself is in no file.
		first := as.neededBy[0]
		out = append(out, diag.Finding{
			Severity: diag.Info, Object: ref, Reason: diag.ReasonAssumedMissing,
			Locus: diag.Locus{Object: first.by, Field: first.field},
			Message: fmt.Sprintf("not in the input and assumed to exist (%s): %s; needed by %s",
				as.why, as.what, strings.Join(users, ", ")),
		})
	}
	return out
}
