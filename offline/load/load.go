// Package load reads Kubernetes manifests (YAML or JSON files, directories,
// stdin) into typed objects for gwsim, remembering where each object's
// document starts and collecting every problem as a finding instead of
// stopping at the first.
//
// What it does, in the order a document goes through it:
//   - Files are split on `---` and `...` lines by the loader itself; a
//     document's source line is its first content line (not blank, not a
//     comment). JSON files are read as a stream of JSON values.
//   - Each document is converted to JSON (sigs.k8s.io/yaml) and decoded
//     strictly with the scheme of offline/scheme, on GOMAXPROCS workers.
//     Unknown and repeated fields are warnings, or, with Options.Fields
//     FieldsStrict (kubectl's --validate=strict), errors that leave the
//     object out. A document that does not parse or
//     decode (a wrong field type, illegal base64), an object missing
//     apiVersion, kind or metadata.name, or over the API server's size
//     limits, is an error finding and is left out while the rest loads,
//     as the API server refuses each object alone. Only unreadable paths,
//     the input limits and a file named directly that holds a list or a
//     scalar are input errors (Result.Errors).
//   - A directory entry's document that is not a Kubernetes object (a list,
//     a scalar, a mapping with neither kind nor metadata, SOPS-encrypted
//     content, a template) is skipped and listed in one finding
//     (notobject.go).
//   - Before that decoding, a Gateway API object is admitted as
//     kube-apiserver would admit it (admit.go, offline/validate): pruned,
//     defaulted, and validated against the CRDs of Options.Channel. An
//     object the API server would reject is an error finding at the line of
//     each offending field and is left out; what is decoded is the pruned
//     and defaulted object. With Options.NoValidation only the defaults are
//     applied.
//   - `kind: List` (and typed lists such as HTTPRouteList) are unpacked;
//     each item's source is the List's line.
//   - Kinds gwsim does not read are skipped and summed up in one finding;
//     only the identity of each such object is kept (Result.Others).
//     The vendor kinds an implementation profile simulates (Envoy
//     Gateway's Backend and HTTPRouteFilter, package profile) are decoded
//     and admitted against their own CRDs, and their identities kept too:
//     under a profile that does not simulate them they stay extension
//     objects, counted in that finding.
//   - With Options.Admission none there is no API server: metadata it
//     would reject is a warning and the object is kept.
//   - Older Gateway API versions are converted to v1, namespaced objects
//     without a namespace get Options.Namespace, and duplicates are reduced
//     to one, chosen from content alone.
package load

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/fastpath"
	"github.com/gwsim/gwsim/offline/load/flux"
	"github.com/gwsim/gwsim/offline/validate"
	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate"
)

// Options say what to read.
type Options struct {
	// Paths are files, directories, or "-" for stdin (the CLI's repeatable
	// -f). A directory contributes its .yaml, .yml and .json files.
	Paths []string
	// Recursive descends into subdirectories (kubectl -R); without it only a
	// directory's own files are read.
	Recursive bool
	// Kustomize are directories to build with kustomize (the CLI's
	// repeatable -k). A directory among Paths (or below one, with
	// Recursive) that holds a kustomization is built the same way, unless
	// NoKustomize.
	Kustomize   []string
	NoKustomize bool
	// Vars are values for the ${NAME} references of the Flux
	// Kustomizations followed under Recursive (the CLI's --var and
	// --vars-file); a Kustomization's own substitute and substituteFrom
	// override them.
	Vars map[string]string
	// Stdin is read when a path is "-"; sources call it "<stdin>".
	Stdin io.Reader
	// Namespace is given to namespaced objects without metadata.namespace
	// ("default" when empty).
	Namespace string
	// Exclude are globs (path.Match syntax) of entries skipped below a
	// directory: matched against an entry's name and its slash-separated
	// path relative to the directory given.
	Exclude []string
	// Channel is the Gateway API CRD set assumed installed (the CLI's
	// --channel); empty means validate.Standard, ChannelAuto chooses from
	// the input (see loadAuto).
	Channel validate.Channel
	// NoValidation turns off admission (--validate=false): nothing is
	// pruned or rejected, but the CRD defaults are still applied (the
	// experimental channel's, which cover whatever an unpruned object may
	// hold), so that the objects look the same to the rest of gwsim either
	// way.
	NoValidation bool
	// Fields is what an unknown or duplicate field does when validation is
	// on (kubectl's --validate=strict or warn); the zero value warns.
	Fields FieldValidation
	// Limits bound what is read; zero fields take the defaults.
	Limits Limits
	// Fastpath says which of the loader's fast paths run (YAML to JSON,
	// header scan and typed decode, admission); the zero value runs all.
	Fastpath fastpath.Mode
	// Admission is what reads the objects before the controller: the API
	// server (the default) or none (standalone).
	Admission Admission
	// Implementation is the profile chosen with --implementation (Auto:
	// per GatewayClass). It decides whether the vendor kinds the loader
	// decodes are counted among the ignored ones: only a profile in use
	// simulates them.
	Implementation profile.Name
}

// Result is everything Load found.
type Result struct {
	// Channel is the channel the objects were admitted under: the one
	// asked for, or the one ChannelAuto chose.
	Channel validate.Channel
	// Objects are typed, Gateway API kinds in their v1 form, sorted by kind,
	// namespace and name, one per reference.
	Objects []client.Object
	// Sources says where each object's document starts.
	Sources diag.Sources
	// Origins find the line of a field again, for the findings that point
	// at one (Origins.FieldLines).
	Origins *Origins
	// Others names the objects of kinds gwsim does not decode (those the
	// ignored-kinds finding counts), sorted and without repeats, for
	// translate.Input.OtherObjects: a parametersRef may name one. An object
	// written without a namespace is listed twice, cluster-scoped and in
	// the default namespace, since the loader cannot know its kind's scope.
	Others []translate.OtherObject
	// Policies are the objects among Others whose targetRefs name a
	// Gateway, ListenerSet, route or Service, sorted, one per object.
	Policies []translate.PolicyAttachment
	// Rejected names the objects left out because the API server would
	// refuse them (a value of the wrong type, a failed validation rule, a
	// kind the channel does not serve), sorted. They are not in the
	// cluster, but the input shows that their kind is written in their
	// namespace: the open world takes that namespace's objects of the kind
	// as complete (see OpenWorld), so that a reference to a rejected
	// Gateway is not taken for one to a Gateway kept elsewhere.
	Rejected []translate.OtherObject
	// Findings are warnings, infos and errors that do not stop the run
	// (unknown fields, ignored kinds, duplicates, objects the API server
	// would refuse for a missing apiVersion, kind or name or for their
	// size, which are left out).
	Findings []diag.Finding
	// Placeholders are the names of the Flux variables left without a
	// value, sorted: each ${NAME} was replaced by flux.Placeholder(NAME),
	// which outputs should show as flux.Reference(NAME).
	Placeholders []string
	// Errors are input errors: unreadable paths, inputs over a limit, a
	// list or scalar in a file named directly, a kustomization that does
	// not build. The CLI exits 2 when there
	// is any.
	Errors []diag.Finding
}

// Load reads opts.Paths in order and decodes every document. It never stops
// early: each problem becomes a finding and the rest is still loaded.
func Load(opts Options) Result {
	if opts.Channel == ChannelAuto {
		return loadAuto(opts)
	}
	return load(opts, newDecoder(opts.Namespace, opts.Limits, newAdmission(opts.Channel, opts.NoValidation, opts.Fields, opts.Admission, opts.Fastpath), opts.Fastpath), nil)
}

// load is Load with the decoder given, for the differential tests.
func load(opts Options, d *decoder, cache *inputCache) Result {
	b := gather(opts, d.limits, cache)
	origins := newOrigins(d.limits)
	for _, in := range b.inputs {
		if in.built != nil {
			// The files a build read are read again only for a
			// finding's line, like the files read raw.
			for _, s := range in.built.Read {
				origins.record(s.File, s.Data, true)
			}
		}
	}
	docs, readErrs, findings := decodeAll(b.inputs, opts.Stdin, b.spent, d, cache, origins)
	errs := append(slices.Clone(b.errs), readErrs...)
	findings = append(findings, b.findings...)
	n := 0
	for d := range docs.all() {
		n += len(d.objects)
	}
	all := make([]loaded, 0, n)
	var skipped []skippedDoc
	var rejected []translate.OtherObject
	var others []translate.OtherObject
	var policies []translate.PolicyAttachment
	ignored := map[schema.GroupKind]int{}
	for d := range docs.all() {
		all = append(all, d.objects...)
		findings = append(findings, d.findings...)
		errs = append(errs, d.errors...)
		others = append(others, d.others...)
		policies = append(policies, d.policies...)
		skipped = append(skipped, d.skipped...)
		rejected = append(rejected, d.rejected...)
		for _, gk := range d.ignored {
			ignored[gk]++
		}
	}
	kept, dups := dedupe(all)
	findings = append(findings, dups...)
	countUnsimulated(ignored, kept, opts.Implementation)
	if fk := (schema.GroupKind{Group: flux.Group, Kind: "Kustomization"}); b.fluxFollowed > 0 {
		if ignored[fk] -= b.fluxFollowed; ignored[fk] <= 0 {
			delete(ignored, fk)
		}
	}
	if f, ok := ignoredSummary(ignored); ok {
		findings = append(findings, f)
	}
	if f, ok := skippedSummary(skipped); ok {
		findings = append(findings, f)
	}
	channel := opts.Channel
	if channel == "" {
		channel = validate.Standard
	}
	res := Result{Channel: channel, Placeholders: b.placeholders, Origins: origins, Sources: make(diag.Sources, len(kept)), Others: sortOthers(others), Policies: sortPolicies(policies), Rejected: sortOthers(rejected), Findings: diag.Sort(findings), Errors: diag.Sort(errs)}
	if len(kept) > 0 {
		res.Objects = make([]client.Object, 0, len(kept))
	}
	for _, l := range kept {
		res.Objects = append(res.Objects, l.obj)
		res.Sources[l.ref] = l.src
		if len(l.patches) > 0 {
			origins.patches[l.ref] = l.patches
		}
	}
	return res
}

// countUnsimulated adds to ignored the objects of the vendor kinds the
// loader decodes for a profile (profile.AllKinds) when no GatewayClass of
// the input selects a profile that simulates their kind, nor does
// --implementation: for every class they are then extension objects, as
// for the generic profile.
func countUnsimulated(ignored map[schema.GroupKind]int, kept []loaded, chosen profile.Name) {
	var profiles []profile.Profile
	for _, l := range kept {
		if c, ok := l.obj.(*gwv1.GatewayClass); ok {
			profiles = append(profiles, profile.For(chosen, string(c.Spec.ControllerName)))
		}
	}
	if chosen != profile.Auto && chosen != "" {
		profiles = append(profiles, profile.Of(chosen))
	}
	simulated := func(gk schema.GroupKind) bool {
		for _, p := range profiles {
			if p.Simulates(gk) {
				return true
			}
		}
		return false
	}
	for _, l := range kept {
		gk := l.obj.GetObjectKind().GroupVersionKind().GroupKind()
		if slices.Contains(profile.AllKinds(), gk) && !simulated(gk) {
			ignored[gk]++
		}
	}
}

// ignoredSummary is the one finding that lists the kinds gwsim skipped, so
// that a helm chart full of Deployments yields one line, not hundreds.
func ignoredSummary(counts map[schema.GroupKind]int) (diag.Finding, bool) {
	if len(counts) == 0 {
		return diag.Finding{}, false
	}
	var parts []string
	total := 0
	for gk, n := range counts {
		parts = append(parts, fmt.Sprintf("%s (%d)", groupKindName(gk), n))
		total += n
	}
	slices.Sort(parts)
	noun := "objects"
	if total == 1 {
		noun = "object"
	}
	return diag.Finding{
		Severity: diag.Info, Reason: diag.ReasonIgnoredKinds,
		Message: fmt.Sprintf("%d %s of kinds gwsim does not model (a reference to one resolves; its effect is not simulated): %s", total, noun, strings.Join(parts, ", ")),
	}, true
}

// sortOthers sorts ignored objects by group, kind, namespace and name and
// drops repeats (the same object given twice).
func sortOthers(others []translate.OtherObject) []translate.OtherObject {
	slices.SortFunc(others, func(a, b translate.OtherObject) int {
		return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return slices.Compact(others)
}
