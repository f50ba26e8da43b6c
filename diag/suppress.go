package diag

import (
	"fmt"
	"slices"
	"strings"
)

// IgnoreAnnotation is the annotation that suppresses findings about the
// object it is on: a comma-separated list of codes.
const IgnoreAnnotation = "gwsim.dev/ignore"

// EncryptedAnnotation marks an object the loader read from an encrypted
// document: its data values are unknown, not empty. Its value says by
// what (EncryptedBySOPS).
const EncryptedAnnotation = "gwsim.dev/encrypted"

// EncryptedBySOPS is EncryptedAnnotation's value on an object SOPS
// encrypted.
const EncryptedBySOPS = "sops"

// Encrypted reports whether the loader read an object with these
// annotations from an encrypted document.
func Encrypted(annotations map[string]string) bool {
	return annotations[EncryptedAnnotation] != ""
}

// Ignore is one suppression rule: a code, for every object or for one.
type Ignore struct {
	Code string
	// Object narrows the rule to findings about one object; nil is every
	// finding with the code.
	Object *ObjectRef
	// From says where the rule was given (`--ignore`, the config file), for
	// output that shows why a finding is not listed.
	From string
}

// ParseIgnore reads a rule as written on the command line or in the config
// file: CODE, CODE:Kind/namespace/name or CODE:Kind/name for cluster-scoped
// kinds. The code must exist, so that a typo does not silently suppress
// nothing.
func ParseIgnore(s, from string) (Ignore, error) {
	code, obj, scoped := strings.Cut(strings.TrimSpace(s), ":")
	if _, ok := LookupCode(code); !ok {
		return Ignore{}, fmt.Errorf("unknown finding code %q (see %s)", code, DocsURL)
	}
	ig := Ignore{Code: code, From: from}
	if !scoped {
		return ig, nil
	}
	parts := strings.Split(obj, "/")
	for i, p := range parts {
		if parts[i] = strings.TrimSpace(p); parts[i] == "" {
			parts = nil
			break
		}
	}
	switch len(parts) {
	case 2:
		ig.Object = &ObjectRef{Kind: parts[0], Name: parts[1]}
	case 3:
		ig.Object = &ObjectRef{Kind: parts[0], Namespace: parts[1], Name: parts[2]}
	default:
		return Ignore{}, fmt.Errorf("%q: want CODE, CODE:Kind/namespace/name or CODE:Kind/name", s)
	}
	return ig, nil
}

// String renders the rule as ParseIgnore reads it.
func (ig Ignore) String() string {
	if ig.Object == nil {
		return ig.Code
	}
	if ig.Object.Namespace == "" {
		return ig.Code + ":" + ig.Object.Kind + "/" + ig.Object.Name
	}
	return ig.Code + ":" + ig.Object.Kind + "/" + ig.Object.Namespace + "/" + ig.Object.Name
}

// matches reports whether the rule covers f. Kinds compare without regard
// to case, as kubectl's resource names do.
func (ig Ignore) matches(f Finding) bool {
	if ig.Code != f.Code {
		return false
	}
	o := ig.Object
	return o == nil || strings.EqualFold(o.Kind, f.Object.Kind) && o.Namespace == f.Object.Namespace && o.Name == f.Object.Name
}

// Suppressed is a finding a rule or an annotation took out of the
// results. It is still counted, and shown where the output format has a
// place for it (JSON, SARIF).
type Suppressed struct {
	Finding
	// By names the rule: `--ignore GWS3001`, `.gwsim.yaml: GWS3001`, or
	// `annotation gwsim.dev/ignore`.
	By string `json:"suppressedBy"`
	// InSource is true when the manifest itself asked for it (the
	// annotation), false for a rule given from outside.
	InSource bool `json:"-"`
}

// Suppress splits findings into those kept and those suppressed, by the
// rules and by the codes each object's annotation lists (annotated maps an
// object to its annotation's codes). Order is kept in both.
func Suppress(fs []Finding, rules []Ignore, annotated map[ObjectRef][]string) (kept []Finding, suppressed []Suppressed) {
	for _, f := range fs {
		if s, ok := suppression(f, rules, annotated); ok {
			suppressed = append(suppressed, s)
			continue
		}
		kept = append(kept, f)
	}
	return kept, suppressed
}

func suppression(f Finding, rules []Ignore, annotated map[ObjectRef][]string) (Suppressed, bool) {
	if f.Code == "" {
		return Suppressed{}, false
	}
	for _, code := range annotated[f.Object] {
		if code == f.Code {
			return Suppressed{Finding: f, By: "annotation " + IgnoreAnnotation, InSource: true}, true
		}
	}
	for _, r := range rules {
		if r.matches(f) {
			return Suppressed{Finding: f, By: r.From + " " + r.String()}, true
		}
	}
	return Suppressed{}, false
}

// ParseIgnoreAnnotation reads the codes of an IgnoreAnnotation value. It
// returns the known codes and the unknown ones apart, so that the caller
// reports a typo instead of suppressing nothing in silence.
func ParseIgnoreAnnotation(v string) (codes, unknown []string) {
	for _, c := range strings.Split(v, ",") {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		if _, ok := LookupCode(c); ok {
			codes = append(codes, c)
		} else {
			unknown = append(unknown, c)
		}
	}
	return codes, unknown
}

// Unused is a warning for each rule, and each code of an object's
// annotation, that matches none of fs: like a linter's unused ignore, a
// suppression that suppresses nothing is most often a typo in the code or
// the object's name (GWS6007:Gateway/infra/edgee), and would go on hiding
// nothing while the real finding shows. A rule for ReasonUnusedSuppression's
// own code is never reported, since it can only match these warnings.
// sources locates the annotated objects; a rule names where it was given.
func Unused(fs []Finding, rules []Ignore, annotated map[ObjectRef][]string, sources Sources) []Finding {
	var out []Finding
	for _, r := range rules {
		if r.Code == unusedCode || slices.ContainsFunc(fs, r.matches) {
			continue
		}
		f := Finding{Severity: Warning, Reason: ReasonUnusedSuppression,
			Message: fmt.Sprintf("suppression %q from %s matches no finding; it suppresses nothing", r.String(), r.From)}
		if r.Object != nil {
			if _, ok := sources[*r.Object]; !ok && !hasObjectFold(sources, *r.Object) {
				f.Message += fmt.Sprintf(" (the input holds no %s)", *r.Object)
			}
		}
		out = append(out, f)
	}
	if len(annotated) == 0 {
		return out
	}
	found := map[ObjectRef]map[string]bool{}
	for _, f := range fs {
		if _, ok := annotated[f.Object]; ok {
			if found[f.Object] == nil {
				found[f.Object] = map[string]bool{}
			}
			found[f.Object][f.Code] = true
		}
	}
	for ref, codes := range annotated {
		for _, code := range codes {
			if code == unusedCode || found[ref][code] {
				continue
			}
			out = append(out, Finding{Severity: Warning, Object: ref, Source: sources.Of(ref),
				Field: "metadata.annotations[" + IgnoreAnnotation + "]", Reason: ReasonUnusedSuppression,
				Message: fmt.Sprintf("%s lists %s, but the object has no %s finding; it suppresses nothing", IgnoreAnnotation, code, code)})
		}
	}
	return out
}

// unusedCode is the code of ReasonUnusedSuppression (codes.go).
const unusedCode = "GWS1033"

// hasObjectFold reports whether sources hold ref with its kind in another
// case, as rules compare kinds (matches).
func hasObjectFold(sources Sources, ref ObjectRef) bool {
	for s := range sources {
		if strings.EqualFold(s.Kind, ref.Kind) && s.Namespace == ref.Namespace && s.Name == ref.Name {
			return true
		}
	}
	return false
}
