// Package diag holds the values gwsim uses to talk about user configuration:
// where an object came from (Source), which object a message is about
// (ObjectRef) and the findings themselves. Findings are data, collected and
// sorted, never Go errors: an error means gwsim could not run, a finding means
// the manifests have something to say.
package diag

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/gwsim/gwsim/internal/safetext"
)

// Severity orders findings from harmless to build-breaking.
type Severity int

const (
	// Info is context the user may want (for example, the kinds that were ignored).
	Info Severity = iota
	// Warning is something that works but is probably not what was meant.
	Warning
	// Error is something a conformant gateway would reject or route wrongly.
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// ParseSeverity reads a severity by name: error, warning or info.
func ParseSeverity(s string) (Severity, error) {
	for _, sev := range []Severity{Error, Warning, Info} {
		if s == sev.String() {
			return sev, nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q (valid: error, warning, info)", s)
}

// MarshalText renders the severity by name in JSON and YAML output.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Source is the place in the input where an object's document starts.
type Source struct {
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
}

// String renders file:line, the file alone when no line applies (a file
// that cannot be read), or the empty string for findings with no source
// (objects gwsim assumed, summaries over the whole input).
func (s Source) String() string {
	switch {
	case s.File == "":
		return ""
	case s.Line == 0:
		return s.File
	}
	return fmt.Sprintf("%s:%d", s.File, s.Line)
}

// ObjectRef names an object by kind (no group: gwsim's kinds do not collide),
// namespace (empty for cluster-scoped kinds) and name.
type ObjectRef struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// String renders `Kind ns/name`, or `Kind name` when cluster-scoped.
func (r ObjectRef) String() string {
	if r.Namespace == "" {
		return r.Kind + " " + r.Name
	}
	return r.Kind + " " + r.Namespace + "/" + r.Name
}

// Compare orders references by kind, namespace, then name.
func (r ObjectRef) Compare(o ObjectRef) int {
	return cmp.Or(cmp.Compare(r.Kind, o.Kind), cmp.Compare(r.Namespace, o.Namespace), cmp.Compare(r.Name, o.Name))
}

// Finding is one observation about the input.
type Finding struct {
	// Code is the finding's stable code (GWS3001), from the table in
	// codes.go; WithCodes sets it where findings are collected.
	Code     string    `json:"code,omitempty"`
	Severity Severity  `json:"severity"`
	Object   ObjectRef `json:"object,omitzero"`
	Source   Source    `json:"source,omitzero"`
	// Field is the path of the field at fault, e.g. spec.rules[0].backendRefs[1].
	Field string `json:"field,omitempty"`
	// Reason is a condition reason from the Gateway API constants where one
	// applies, otherwise one of the reasons declared in this package.
	Reason  string `json:"reason"`
	Message string `json:"message"`
	// Locus is the field whose line the finding points at, when it is not
	// Field of Object: the spec entry a status entry is about, the
	// reference a condition's message names first, or the reference that
	// needs an assumed object (which is in no file). The loader puts the
	// finding at that line once the run is over (load.Origins).
	Locus Locus `json:"-"`
}

// Locus names a field of an object of the input.
type Locus struct {
	Object ObjectRef
	Field  string
}

// Reasons for findings that are not Gateway API condition reasons.
const (
	ReasonParseError      = "ParseError"
	ReasonUnknownField    = "UnknownField"
	ReasonIgnoredKinds    = "IgnoredKinds"
	ReasonDuplicate       = "Duplicate"
	ReasonAssumed         = "Assumed"
	ReasonNotSupportedYet = "NotSupportedYet"
	ReasonNotSimulated    = "NotSimulated"
	ReasonParentNotFound  = "ParentNotFound"
	ReasonMissingField    = "MissingField"
	// ReasonSuperseded: an Accepted route that gets no traffic because an
	// older route matches the same connections (TCPRoute, UDPRoute, TLSRoute).
	ReasonSuperseded = "Superseded"
	// ReasonNoEffect: a setting that nothing it could apply to uses (a
	// frontend TLS perPort entry for a port with no HTTPS listener).
	ReasonNoEffect = "NoEffect"
	// ReasonNoReadyEndpoints: a backendRef to a Service whose EndpointSlices
	// in the input list no ready endpoint; a real gateway answers 503 or
	// rejects the connections sent to it, gwsim routes as if it had some.
	ReasonNoReadyEndpoints = "NoReadyEndpoints"
	// ReasonUnreachableMatch: an HTTPRoute or GRPCRoute match that can never
	// receive traffic because an earlier match in the resolved order (same
	// Gateway, port and host) takes every request it matches.
	ReasonUnreachableMatch = "UnreachableMatch"
	// ReasonConflictingMatch: routes in different namespaces claim the same
	// host and an identical match; precedence gives the traffic to one of
	// them, which neither namespace's owner may expect.
	ReasonConflictingMatch = "ConflictingMatch"
	// ReasonUnknownCode: a gwsim.dev/ignore annotation names a code that
	// gwsim does not have, so it suppresses nothing.
	ReasonUnknownCode = "UnknownCode"
	// ReasonNoParentRefs: a route that names no parentRefs, so it attaches
	// nowhere.
	ReasonNoParentRefs = "NoParentRefs"
	// ReasonAssumedMissing: an object the input refers to but does not
	// hold, assumed to exist because the input holds none of its kind in
	// that namespace (the open world, translate.OpenWorld).
	ReasonAssumedMissing = "AssumedMissing"
	// ReasonAttachmentNotChecked: a route whose parent Gateway is outside
	// the input; its own checks run, its attachment cannot.
	ReasonAttachmentNotChecked = "AttachmentNotChecked"
	// ReasonExtensionNotSimulated: backendRefs or ExtensionRef filters to
	// an implementation's own kind resolve, but their effect is not
	// simulated.
	ReasonExtensionNotSimulated = "ExtensionNotSimulated"
	// ReasonPolicyNotSimulated: an implementation's policy attaches to a
	// Gateway, listener, route or Service through targetRefs; its effect is
	// not simulated.
	ReasonPolicyNotSimulated = "PolicyNotSimulated"
	// ReasonPolicyNotAttached: an Envoy Gateway policy none of whose
	// targets is a Gateway, listener or route that Envoy Gateway handles
	// in the input: it has no effect and no status.
	ReasonPolicyNotAttached = "PolicyNotAttached"
	// ReasonPolicyFullyOverridden: an Envoy Gateway policy each part of
	// whose target (every listener, every rule) has a more specific policy
	// of its kind, so it applies nowhere.
	ReasonPolicyFullyOverridden = "PolicyFullyOverridden"
	// ReasonAdmissionRejected: the API server would reject the object (CRD
	// schema, CEL rule or metadata validation); gwsim leaves it out.
	ReasonAdmissionRejected = "AdmissionRejected"
	// ReasonFieldNotSimulated: a field of a vendor object that the
	// implementation profile simulates, which gwsim does not simulate.
	ReasonFieldNotSimulated = "FieldNotSimulated"
	// ReasonMetadataUnchecked: under --admission none, metadata the API
	// server would reject (an owner reference without uid); the object is
	// kept, as no API server reads it.
	ReasonMetadataUnchecked = "MetadataUnchecked"
	// ReasonNotServed: the chosen channel's CRDs do not serve the object's
	// kind at its apiVersion; gwsim leaves it out.
	ReasonNotServed = "NotServed"
	// ReasonNoKindMatch: the object's group is one gwsim models, but no
	// API server serves its kind at its apiVersion (a misspelt kind or
	// version); kubectl answers "no matches for kind", gwsim leaves it out.
	ReasonNoKindMatch = "NoKindMatch"
	// ReasonObsoleteGroup: the object is in the Gateway API's group before
	// v1alpha2 (networking.x-k8s.io), which no current cluster serves.
	ReasonObsoleteGroup = "ObsoleteGroup"
	// ReasonFieldValidation: an unknown or duplicate field under strict
	// field validation (--validate=strict, kubectl's default): the API
	// server refuses the object, and gwsim leaves it out.
	ReasonFieldValidation = "FieldValidation"
	// ReasonUnusedSuppression: an --ignore rule, a config file rule or a
	// code of a gwsim.dev/ignore annotation that matches no finding.
	ReasonUnusedSuppression = "UnusedSuppression"
	// ReasonEveryRequestFails: an HTTPRoute or GRPCRoute rule (or every
	// rule of the route) answers every request it matches with a 500 (gRPC:
	// 503): no backend can take any, or a filter does not resolve. A
	// warning, an error under --strict.
	ReasonEveryRequestFails = "EveryRequestFails"
	// ReasonPrunedField: a field of the experimental channel used under the
	// standard one; the API server would prune it, and gwsim ignores it.
	ReasonPrunedField = "PrunedField"
	// ReasonLimitExceeded: input over one of the loader's resource limits
	// (bytes per file or in total, alias expansion, nesting depth) or over
	// a size the API server caps (name length, annotation size). An error:
	// the input is not read, or the object is refused.
	ReasonLimitExceeded = "LimitExceeded"
	// ReasonNotRegularFile: a directory entry with a manifest's extension
	// that is a device, FIFO or socket (or a link to one) and is skipped
	// rather than read, since reading it might never end.
	ReasonNotRegularFile = "NotRegularFile"

	// ReasonNotAnObject: documents of directory entries that are not
	// Kubernetes objects (values files, config, SOPS-encrypted files),
	// skipped and listed in one finding.
	ReasonNotAnObject = "NotAnObject"

	// ReasonEncrypted: a Secret or ConfigMap read from a SOPS-encrypted
	// document, whose values gwsim does not know (EncryptedAnnotation).
	ReasonEncrypted = "Encrypted"

	// ReasonChannelChosen: --channel auto chose the experimental channel
	// because of the object the finding names.
	ReasonChannelChosen = "ChannelChosen"

	// ReasonBuilt: a directory (or a Flux Kustomization's path) was built
	// with kustomize, as it would be applied, rather than read file by
	// file. Info.
	ReasonBuilt = "Built"
	// ReasonNotBuilt: part of a kustomization gwsim cannot build offline
	// (a remote base, a Helm chart); the rest is built. A warning.
	ReasonNotBuilt = "NotBuilt"
	// ReasonBuildFailed: kustomize could not build a directory; nothing of
	// it is loaded. An input error.
	ReasonBuildFailed = "BuildFailed"
	// ReasonUnresolvedVariables: Flux ${VAR} references no value was given
	// for, kept as placeholders. Info.
	ReasonUnresolvedVariables = "UnresolvedVariables"
)

// IsAssumption reports whether a finding of this reason says gwsim
// assumed something the input does not show: what --strict makes an
// error.
func IsAssumption(reason string) bool {
	switch reason {
	case ReasonAssumed, ReasonAssumedMissing, ReasonAttachmentNotChecked:
		return true
	}
	return false
}

// IsStrictError reports whether --strict makes a finding of this reason
// an error: every assumption, and a rule that answers every request with
// an error (which the README promises fails the build).
func IsStrictError(reason string) bool {
	return IsAssumption(reason) || reason == ReasonEveryRequestFails
}

// String renders the finding the way compilers do:
// `file:line: severity[CODE]: Kind ns/name: field: message`, leaving out the
// parts a finding does not have (rustc's `error[E0308]:` form, which keeps
// both the severity and the code greppable). Manifest text in it (names,
// fields, messages, file names) is made visible (safetext.Visible): the
// line is one line, and no line of output starts with manifest text.
func (f Finding) String() string {
	return f.Head() + safetext.Visible(f.Message)
}

// Head is String up to the message: the place, the severity and code, the
// object and the field, each followed by ": ". Text output wraps the
// message after it and never breaks it.
func (f Finding) Head() string {
	var b strings.Builder
	if loc := f.Source.String(); loc != "" {
		if strings.ContainsRune(" \t:#", rune(loc[0])) {
			// A file name the runner of a CI log would read as the start
			// of a workflow command (`::error::x.yaml`, `##[error]`) once
			// it trims leading blanks: the same path, as ./ names it.
			b.WriteString("./")
		}
		b.WriteString(loc + ": ")
	}
	b.WriteString(f.Severity.String())
	if f.Code != "" {
		b.WriteString("[" + f.Code + "]")
	}
	b.WriteString(": ")
	if f.Object.Kind != "" {
		b.WriteString(f.Object.String() + ": ")
	}
	if f.Field != "" {
		b.WriteString(f.Field + ": ")
	}
	return safetext.Visible(b.String())
}

// Compare orders findings as a compiler lists them: by file, line,
// object, reason (which stands for the finding's code), field and
// message, then severity. Numbers within file names and messages compare
// as numbers ("line 7" before "line 13", part-2.yaml before part-10.yaml),
// so the order follows the input, not the digits' characters. Findings
// without a source (assumptions, summaries) come first.
func (f Finding) Compare(o Finding) int {
	return cmp.Or(
		NaturalCompare(f.Source.File, o.Source.File),
		cmp.Compare(f.Source.Line, o.Source.Line),
		f.Object.Compare(o.Object),
		cmp.Compare(f.Reason, o.Reason),
		NaturalCompare(f.Field, o.Field),
		NaturalCompare(f.Message, o.Message),
		cmp.Compare(f.Severity, o.Severity),
	)
}

// NaturalCompare compares strings with each run of ASCII digits taken as
// a number: "a9" < "a10". Runs that are equal as numbers but differ in
// leading zeros, and otherwise equal strings, fall back to byte order, so
// the order is total and consistent with ==.
func NaturalCompare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			ei, ej := digitsEnd(a, i), digitsEnd(b, j)
			if c := compareNumbers(a[i:ei], b[j:ej]); c != 0 {
				return c
			}
			i, j = ei, ej
			continue
		}
		if a[i] != b[j] {
			return cmp.Compare(a[i], b[j])
		}
		i, j = i+1, j+1
	}
	return cmp.Or(cmp.Compare(len(a)-i, len(b)-j), strings.Compare(a, b))
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func digitsEnd(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// compareNumbers compares two runs of digits by value, however long.
func compareNumbers(x, y string) int {
	x, y = strings.TrimLeft(x, "0"), strings.TrimLeft(y, "0")
	return cmp.Or(cmp.Compare(len(x), len(y)), strings.Compare(x, y))
}

// Sort sorts findings in place and drops exact duplicates.
func Sort(fs []Finding) []Finding {
	slices.SortFunc(fs, Finding.Compare)
	return slices.Compact(fs)
}

// Sources maps each loaded object to where its document starts.
type Sources map[ObjectRef]Source

// Of returns the source of ref, or the zero Source when gwsim made it up.
func (s Sources) Of(ref ObjectRef) Source { return s[ref] }
