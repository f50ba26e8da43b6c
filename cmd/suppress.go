package cmd

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/scheme"
)

// policyResult is the findings after the policy: those that count and
// those suppressed.
type policyResult struct {
	Kept       []diag.Finding
	Suppressed []diag.Suppressed
	// Failed is true when a kept finding is at or above the threshold.
	Failed bool
}

// applyPolicy gives every finding its code, then applies --strict, the
// severity overrides and the suppressions, in that order: a code names the
// problem as found, and an override or suppression names a code. place
// puts the findings, those about suppressions included, at their fields'
// lines before they are sorted.
func applyPolicy(all []diag.Finding, ann annotations, p *pipelineFlags, place func([]diag.Finding)) policyResult {
	all = diag.WithCodes(append(all, ann.bad...))
	if p.Strict {
		all = escalate(all)
	}
	pol := p.Findings.policy
	all = append(all, diag.WithCodes(diag.Unused(all, pol.Ignores, ann.ignore, ann.sources))...)
	place(all)
	for i, f := range all {
		if sev, ok := pol.Severity[f.Code]; ok {
			all[i].Severity = sev
		}
	}
	kept, suppressed := diag.Suppress(diag.Sort(all), pol.Ignores, ann.ignore)
	failed := false
	for _, f := range kept {
		failed = failed || f.Severity >= pol.Threshold
	}
	return policyResult{Kept: kept, Suppressed: suppressed, Failed: failed}
}

// annotations is what the loaded objects' gwsim.dev/ignore annotations
// say: the codes each object's annotation lists, and a warning for each
// code that does not exist. It is read before the run, so that the loaded
// objects need not be kept through it.
type annotations struct {
	ignore map[diag.ObjectRef][]string
	bad    []diag.Finding
	// sources locate the input's objects, for the warnings about
	// suppressions that match nothing.
	sources diag.Sources
}

// readAnnotations collects objs' gwsim.dev/ignore annotations.
func readAnnotations(objs []client.Object, sources diag.Sources) annotations {
	ignore, bad := ignoreAnnotations(objs, sources)
	return annotations{ignore: ignore, bad: bad, sources: sources}
}

// ignoreAnnotations collects the codes each object's gwsim.dev/ignore
// annotation lists, and a warning for each code that does not exist.
func ignoreAnnotations(objs []client.Object, sources diag.Sources) (map[diag.ObjectRef][]string, []diag.Finding) {
	annotated := map[diag.ObjectRef][]string{}
	var bad []diag.Finding
	s := scheme.New()
	for _, o := range objs {
		v, ok := o.GetAnnotations()[diag.IgnoreAnnotation]
		if !ok {
			continue
		}
		ref := objectRef(o, s)
		codes, unknown := diag.ParseIgnoreAnnotation(v)
		annotated[ref] = codes
		if len(unknown) > 0 {
			bad = append(bad, diag.Finding{
				Severity: diag.Warning, Object: ref, Source: sources.Of(ref),
				Field: "metadata.annotations[" + diag.IgnoreAnnotation + "]", Reason: diag.ReasonUnknownCode,
				Message: fmt.Sprintf("unknown finding code %s; it suppresses nothing (codes are listed in %s)",
					strings.Join(unknown, ", "), diag.DocsURL),
			})
		}
	}
	return annotated, bad
}

// objectRef names an object as findings do.
func objectRef(o client.Object, s *runtime.Scheme) diag.ObjectRef {
	kind := fmt.Sprintf("%T", o)
	if gvk, err := objectGVK(o, s); err == nil {
		kind = gvk.Kind
	}
	return diag.ObjectRef{Kind: kind, Namespace: o.GetNamespace(), Name: o.GetName()}
}
