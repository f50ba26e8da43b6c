package load

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	"sigs.k8s.io/controller-runtime/pkg/client"
	mcsv1alpha1 "sigs.k8s.io/mcs-api/pkg/apis/v1alpha1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/editdistance"
	"github.com/gwsim/gwsim/profile"
)

// obsoleteGroup is the Gateway API's group before v1alpha2 (2021): no
// cluster serves it any more, and its kinds live on in successorGroup.
const (
	obsoleteGroup  = "networking.x-k8s.io"
	successorGroup = "gateway.networking.k8s.io"
)

// catalog knows the kinds and versions of every API group gwsim models
// (those its scheme holds: core, discovery.k8s.io, the Gateway API groups).
// In such a group, a kind or version no API server serves is a typo that
// kubectl refuses ("no matches for kind"), not a kind gwsim merely does not
// read. The Multi-Cluster Services group is left out: each implementation
// installs its CRDs, in versions (v1beta1) gwsim's scheme does not have.
// Built once per decoder, read-only.
type catalog struct {
	// versions holds, per group and kind, the versions that serve the
	// kind, newest first (Kubernetes version order).
	versions map[string]map[string][]string
}

func newCatalog(s *runtime.Scheme) catalog {
	c := catalog{versions: map[string]map[string][]string{}}
	for gvk, t := range s.AllKnownTypes() {
		if strings.HasSuffix(gvk.Kind, "List") || gvk.Version == runtime.APIVersionInternal || gvk.Group == mcsv1alpha1.GroupName {
			continue
		}
		// Options and event types are registered too; only objects
		// with metadata are resources a manifest can hold.
		if _, ok := reflect.New(t).Interface().(client.Object); !ok {
			continue
		}
		kinds := c.versions[gvk.Group]
		if kinds == nil {
			kinds = map[string][]string{}
			c.versions[gvk.Group] = kinds
		}
		kinds[gvk.Kind] = append(kinds[gvk.Kind], gvk.Version)
	}
	for _, kinds := range c.versions {
		for _, vs := range kinds {
			slices.SortFunc(vs, func(a, b string) int { return -version.CompareKubeAwareVersionStrings(a, b) })
		}
	}
	return c
}

// noMatch is the finding for an object whose group gwsim models but whose
// kind or version no API server serves (ok true), or the warning for the
// obsolete pre-v1alpha2 group. The object is left out either way: the API
// server would refuse it before any validation.
func (c catalog) noMatch(gvk schema.GroupVersionKind, ref diag.ObjectRef, src diag.Source, at origin) (diag.Finding, bool) {
	if gvk.Group == obsoleteGroup {
		return diag.Finding{
			Severity: diag.Warning, Object: ref, Source: at.fieldSource(src, "apiVersion"), Field: "apiVersion", Reason: diag.ReasonObsoleteGroup,
			Message: fmt.Sprintf("no matches for kind %q in version %q: %s is the Gateway API group before v1alpha2, which no current cluster serves; its successor is %s%s; gwsim leaves the object out",
				gvk.Kind, gvk.GroupVersion().String(), obsoleteGroup, successorGroup, c.successorHint(gvk.Kind)),
		}, true
	}
	kinds, modelled := c.versions[gvk.Group]
	if !modelled {
		return diag.Finding{}, false
	}
	field := "kind"
	if vs, ok := kinds[gvk.Kind]; ok {
		if slices.Contains(vs, gvk.Version) {
			return diag.Finding{}, false
		}
		field = "apiVersion"
	}
	msg := fmt.Sprintf("no matches for kind %q in version %q; ensure CRDs are installed first (%s); gwsim leaves the object out",
		gvk.Kind, gvk.GroupVersion().String(), c.explain(gvk))
	if envoyGatewayConfig(gvk.Group, gvk.Kind) {
		msg = fmt.Sprintf("no matches for kind %q in version %q: %s; gwsim leaves the document out",
			gvk.Kind, gvk.GroupVersion().String(), envoyGatewayConfigWhy)
	}
	return diag.Finding{
		Severity: diag.Error, Object: ref, Source: at.fieldSource(src, field), Field: field, Reason: diag.ReasonNoKindMatch, Message: msg,
	}, true
}

// Envoy Gateway's own configuration has the shape of an object (apiVersion
// gateway.envoyproxy.io/v1alpha1, kind EnvoyGateway) but is never applied:
// Envoy Gateway reads it from its config file (standalone mode) or from
// the envoy-gateway-config ConfigMap, and no API server serves the kind.
// A repository holds it beside the manifests as it holds Helm values.
const envoyGatewayConfigKind = "EnvoyGateway"

// envoyGatewayConfigWhy says what such a document is, for a file named
// with -f, where it stays an error as every file named is meant to hold
// manifests.
const envoyGatewayConfigWhy = "EnvoyGateway is Envoy Gateway's own configuration, which Envoy Gateway reads from its config file or the envoy-gateway-config ConfigMap and no API server serves (in a directory it is skipped, as Helm values are); gwsim does not read it and assumes the extension APIs it can turn on (Backend, EnvoyPatchPolicy) are on"

// envoyGatewayConfig reports whether group and kind are Envoy Gateway's
// configuration's.
func envoyGatewayConfig(group, kind string) bool {
	return group == profile.EnvoyGatewayGroup && kind == envoyGatewayConfigKind
}

// successorHint names where kind lives in the successor group, when it does.
func (c catalog) successorHint(kind string) string {
	k, ok := c.closestKind(successorGroup, kind)
	if !ok {
		return ""
	}
	return fmt.Sprintf(" (%s is served as %s/%s)", k, successorGroup, c.versions[successorGroup][k][0])
}

// explain says what the group does serve, with a did-you-mean when a
// served kind or version is close to what was written.
func (c catalog) explain(gvk schema.GroupVersionKind) string {
	group := gvk.Group
	if group == "" {
		group = "core"
	}
	if vs, ok := c.versions[gvk.Group][gvk.Kind]; ok {
		return fmt.Sprintf("%s serves kind %s in version %s; did you mean apiVersion: %s?",
			group, gvk.Kind, joinOr(vs), apiVersion(gvk.Group, closestVersion(vs, gvk.Version)))
	}
	served := c.servedKinds(group, gvk.Group)
	if k, ok := c.closestKind(gvk.Group, gvk.Kind); ok {
		if v := c.pickVersion(gvk.Group, k, gvk.Version); v != gvk.Version {
			return fmt.Sprintf("%s; did you mean kind: %s in apiVersion: %s?", served, k, apiVersion(gvk.Group, v))
		}
		return fmt.Sprintf("%s; did you mean kind: %s?", served, k)
	}
	// The kind belongs to another modelled group: apiVersion: v1 with an
	// HTTPRoute, say.
	for _, g := range c.groups() {
		if k, ok := c.closestKind(g, gvk.Kind); ok && g != gvk.Group && strings.EqualFold(k, gvk.Kind) {
			return fmt.Sprintf("%s; did you mean apiVersion: %s?", served, apiVersion(g, c.versions[g][k][0]))
		}
	}
	return served
}

// servedKinds lists the kinds of group.
func (c catalog) servedKinds(name, group string) string {
	names := make([]string, 0, len(c.versions[group]))
	for k := range c.versions[group] {
		names = append(names, k)
	}
	slices.Sort(names)
	return fmt.Sprintf("%s serves the kinds %s", name, strings.Join(names, ", "))
}

// pickVersion is the version to suggest for kind in group: the one written
// when it serves the kind, else the closest.
func (c catalog) pickVersion(group, kind, written string) string {
	return closestVersion(c.versions[group][kind], written)
}

// groups are the modelled groups, sorted.
func (c catalog) groups() []string {
	gs := make([]string, 0, len(c.versions))
	for g := range c.versions {
		gs = append(gs, g)
	}
	slices.Sort(gs)
	return gs
}

// closestKind is the group's kind that kind most likely means: the same
// name in another case, the singular of a plural, or the nearest within
// two edits (case-insensitive); ties go to the first in sort order.
func (c catalog) closestKind(group, kind string) (string, bool) {
	names := make([]string, 0, len(c.versions[group]))
	for k := range c.versions[group] {
		names = append(names, k)
	}
	slices.Sort(names)
	lower := strings.ToLower(kind)
	for _, k := range names {
		if strings.ToLower(k) == lower {
			return k, true
		}
	}
	for _, k := range names {
		l := strings.ToLower(k)
		if lower == l+"s" || lower == l+"es" || strings.HasSuffix(l, "y") && lower == strings.TrimSuffix(l, "y")+"ies" {
			return k, true
		}
	}
	best, bestD := "", 3
	for _, k := range names {
		if d := editDistance(strings.ToLower(k), lower, bestD); d < bestD {
			best, bestD = k, d
		}
	}
	return best, best != ""
}

// closestVersion is written when vs holds it, else a version of vs equal
// to it but for case, else the newest (vs is sorted newest first).
func closestVersion(vs []string, written string) string {
	for _, v := range vs {
		if strings.EqualFold(v, written) {
			return v
		}
	}
	return vs[0]
}

func apiVersion(group, version string) string {
	return schema.GroupVersion{Group: group, Version: version}.String()
}

// joinOr lists versions as "v1", "v1 or v1beta1", "v1, v1beta1 or v1alpha2".
func joinOr(vs []string) string {
	if len(vs) == 1 {
		return vs[0]
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " or " + vs[len(vs)-1]
}

// editDistance is the Levenshtein distance of a and b, or limit when it
// is at least limit.
func editDistance(a, b string, limit int) int { return editdistance.Bounded(a, b, limit) }
