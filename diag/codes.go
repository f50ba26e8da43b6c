package diag

import (
	"cmp"
	"slices"
	"strings"
)

// Group is the family a finding code belongs to; its digit leads the code
// (GWS1xxx is input, GWS2xxx validation, ...), so that a code says at a
// glance what kind of problem it names.
type Group int

// The groups, in the order a manifest meets them on its way through gwsim.
const (
	// GroupInput: the files could not be read, parsed or decoded as written.
	GroupInput Group = 1 + iota
	// GroupValidation: a value a conformant gateway rejects.
	GroupValidation
	// GroupReference: a reference to a backend, parameters or a target that
	// does not resolve or is not permitted.
	GroupReference
	// GroupAttachment: a route or ListenerSet that does not attach where it
	// asks to.
	GroupAttachment
	// GroupRouting: traffic that goes somewhere other than the manifests
	// suggest (conflicts, shadowed routes, backends without endpoints).
	GroupRouting
	// GroupTLS: certificates, CA bundles and TLS settings.
	GroupTLS
	// GroupAssumption: what gwsim assumed or does not simulate.
	GroupAssumption
)

func (g Group) String() string {
	switch g {
	case GroupInput:
		return "input"
	case GroupValidation:
		return "validation"
	case GroupReference:
		return "reference"
	case GroupAttachment:
		return "attachment"
	case GroupRouting:
		return "routing"
	case GroupTLS:
		return "TLS"
	case GroupAssumption:
		return "assumption"
	}
	return "unknown"
}

// DocsURL is where docs/findings.md is published; a code's anchor is its
// lower-case form (#gws3001).
const DocsURL = "https://github.com/gwsim/gwsim/blob/main/docs/findings.md"

// Code describes one kind of finding: the stable identifier users suppress
// and search for, and what to tell them about it.
type Code struct {
	// ID is the stable code, GWS then four digits, the first the group's.
	ID    string
	Group Group
	// Reason is the finding Reason the code is for.
	Reason string
	// Kinds narrows the code to findings about these object kinds; "" in
	// the list stands for findings about no one object. Nil is any kind.
	Kinds []string
	// Severities narrows the code to findings emitted at these severities
	// (before --strict or severity overrides). Nil is any severity.
	Severities []Severity
	// Marker narrows the code to findings whose message contains it. A
	// finding read from a status condition carries only the condition's
	// reason and message, and where the spec gives one reason to two
	// problems (UnsupportedProtocol for an appProtocol and for a
	// BackendTLSPolicy that cannot be met) a marker the message is built
	// with is what tells them apart. "" is any message.
	Marker string
	// Title names the problem in a few words (SARIF's shortDescription).
	Title string
	// Help says how to fix it, in a sentence or two (SARIF's help).
	Help string
}

// HelpURL is the code's section in docs/findings.md.
func (c Code) HelpURL() string { return DocsURL + "#" + strings.ToLower(c.ID) }

func (c Code) matches(f Finding) bool {
	return (c.Kinds == nil || slices.Contains(c.Kinds, f.Object.Kind)) &&
		(c.Severities == nil || slices.Contains(c.Severities, f.Severity)) &&
		strings.Contains(f.Message, c.Marker)
}

// egPolicyKinds are Envoy Gateway's policy kinds, as findings name them.
var egPolicyKinds = []string{"BackendTrafficPolicy", "ClientTrafficPolicy", "SecurityPolicy", "EnvoyExtensionPolicy", "EnvoyPatchPolicy"}

// MarkerListenerSetParent begins the message of a route's finding about a
// parentRef to a ListenerSet outside the input.
const MarkerListenerSetParent = "parentRef names ListenerSet "

// MarkerBackendTLSNotMet is in the message of every ResolvedRefs=False
// (UnsupportedProtocol) a route gets because a BackendTLSPolicy on its
// backend cannot be met: translate builds the message with it, and code
// GWS6012 is narrowed by it.
const MarkerBackendTLSNotMet = "cannot be met"

// MarkerExternalName is in the message of every ResolvedRefs=False
// (UnsupportedValue) a route gets for a backendRef to an ExternalName
// Service; code GWS3008 is narrowed by it.
const MarkerExternalName = "CVE-2021-25740"

// listenerKinds are the kinds that own listeners: a reason shared by
// listener and route conditions names a different problem on each.
var listenerKinds = []string{"Gateway", "ListenerSet"}

// codes is the one table of finding codes. A Reason may have several
// entries when it names different problems on different kinds or
// severities: exactly one entry of each Reason matches all its findings
// (TestCodesTable checks it) and the narrower ones are tried first, so
// that every finding gets a code. Adding a Reason is adding one line here
// and one section in docs/findings.md. Codes are never renumbered or
// reused.
var codes = []Code{
	// Input: what the loader reports.
	{ID: "GWS1001", Group: GroupInput, Reason: ReasonParseError, Severities: []Severity{Warning}, Title: "Field given twice",
		Help: "Remove one of the two values; the API server keeps the last one."},
	{ID: "GWS1002", Group: GroupInput, Reason: ReasonParseError, Title: "Manifest cannot be read or decoded",
		Help: "Fix the YAML or JSON at the line given: a syntax error, a value of the wrong type, or a path that cannot be read."},
	{ID: "GWS1003", Group: GroupInput, Reason: ReasonMissingField, Title: "apiVersion, kind or metadata.name missing",
		Help: "Every object needs apiVersion, kind and metadata.name; add the one that is missing."},
	{ID: "GWS1004", Group: GroupInput, Reason: ReasonDuplicate, Title: "Object defined more than once",
		Help: "Keep one definition of the object; kubectl apply would let the last one win."},
	{ID: "GWS1005", Group: GroupInput, Reason: ReasonUnknownField, Title: "Unknown field",
		Help: "Check the field's spelling and indentation; the API server drops fields its schema does not have."},
	{ID: "GWS1006", Group: GroupInput, Reason: ReasonIgnoredKinds, Title: "Kinds gwsim does not read",
		Help: "Nothing to fix: gwsim lists the kinds it does not model so that a missing kind is not a surprise."},
	{ID: "GWS1007", Group: GroupInput, Reason: ReasonUnknownCode, Title: "Unknown code in gwsim.dev/ignore",
		Help: "Use the codes gwsim prints (docs/findings.md lists them); an unknown code suppresses nothing."},
	{ID: "GWS1008", Group: GroupInput, Reason: ReasonPrunedField, Title: "Field of the experimental channel",
		Help: "Install the experimental channel's CRDs and pass --channel experimental, or remove the field: the standard channel's API server drops it."},
	{ID: "GWS1009", Group: GroupInput, Reason: ReasonLimitExceeded, Title: "Input over a limit",
		Help: "Shrink the input, or raise --max-file-bytes, --max-total-bytes or --max-total-expanded-bytes when the input really is that large; the API server's own limits (names, annotations) cannot be raised."},
	{ID: "GWS1010", Group: GroupInput, Reason: ReasonNotRegularFile, Title: "Directory entry that is not a regular file",
		Help: "Remove the device, FIFO or socket from the directory, or name it with -f if it is meant to be read."},
	{ID: "GWS1011", Group: GroupInput, Reason: ReasonBuilt, Title: "Directory built with kustomize",
		Help: "Nothing to fix: gwsim reads the directory as kubectl apply -k (or Flux) would apply it; pass --no-kustomize to read its files one by one."},
	{ID: "GWS1012", Group: GroupInput, Reason: ReasonNotBuilt, Title: "Part of a kustomization not built",
		Help: "Give gwsim the objects another way (helm template output, a local copy of the remote base), or accept that they are missing."},
	{ID: "GWS1013", Group: GroupInput, Reason: ReasonBuildFailed, Title: "Kustomization does not build",
		Help: "Fix the kustomization as kustomize's message says; kubectl apply -k would fail the same way."},
	{ID: "GWS1014", Group: GroupInput, Reason: ReasonUnresolvedVariables, Title: "Flux variables without a value",
		Help: "Pass --var NAME=VALUE or --vars-file FILE to give them values; until then each stands for one unknown DNS label."},
	{ID: "GWS1020", Group: GroupInput, Reason: ReasonNotAnObject, Title: "YAML that is not a Kubernetes object",
		Help: "Nothing to fix: gwsim lists the files it skipped (values, config, workflows, encrypted files); use --exclude to leave them out without a word."},
	{ID: "GWS1022", Group: GroupInput, Reason: ReasonEncrypted, Title: "Values encrypted with SOPS",
		Help: "Nothing to fix: gwsim reads an encrypted Secret's or ConfigMap's keys, not their values, and takes a certificate or CA bundle in it as valid; decrypt it into the input (sops -d) to have its values checked."},
	{ID: "GWS1021", Group: GroupInput, Reason: ReasonChannelChosen, Title: "Experimental channel chosen for the input",
		Help: "Nothing to fix if the cluster has the experimental channel's CRDs; pass --channel standard to check the input against the standard channel instead."},
	{ID: "GWS1030", Group: GroupInput, Reason: ReasonNoKindMatch, Title: "Kind or version that no API server serves",
		Help: "Fix the kind or apiVersion: the message lists what the group serves and the closest match."},
	{ID: "GWS1031", Group: GroupInput, Reason: ReasonObsoleteGroup, Title: "Obsolete Gateway API group networking.x-k8s.io",
		Help: "Move the object to gateway.networking.k8s.io (v1 for most kinds) and update its fields to that version."},
	{ID: "GWS1032", Group: GroupInput, Reason: ReasonFieldValidation, Title: "Unknown or duplicate field (strict field validation)",
		Help: "Fix the field's spelling or indentation, or remove the repeated one; --validate=warn drops it instead, as kubectl apply --validate=warn does."},
	{ID: "GWS1033", Group: GroupInput, Reason: ReasonUnusedSuppression, Title: "Suppression that matches no finding",
		Help: "Fix the code or the object's kind, namespace or name in the rule or annotation, or remove it if the problem it hid is gone."},

	// Validation: values a conformant gateway rejects.
	{ID: "GWS2001", Group: GroupValidation, Reason: "UnsupportedValue", Title: "Unsupported value",
		Help: "Use a value the Gateway API allows in this position; the message names the field and the values accepted."},
	{ID: "GWS2002", Group: GroupValidation, Reason: "UnsupportedProtocol", Kinds: listenerKinds, Title: "Listener protocol not supported",
		Help: "Use one of HTTP, HTTPS, TLS, TCP or UDP for the listener's protocol."},
	{ID: "GWS2003", Group: GroupValidation, Reason: "InvalidRouteKinds", Title: "Listener allows a route kind it cannot serve",
		Help: "List only route kinds the listener's protocol carries in allowedRoutes.kinds."},
	{ID: "GWS2004", Group: GroupValidation, Reason: "UnsupportedAddress", Title: "Gateway address type not supported",
		Help: "Use an address of type IPAddress or Hostname."},
	{ID: "GWS2005", Group: GroupValidation, Reason: "AddressNotUsable", Title: "Gateway address not usable",
		Help: "Give an address whose value is valid for its type (an IP for IPAddress, a DNS name for Hostname)."},
	{ID: "GWS2006", Group: GroupValidation, Reason: "AddressNotAssigned", Title: "Gateway address not assigned",
		Help: "Give the address a value, or drop it and let the environment assign one."},
	{ID: "GWS2007", Group: GroupValidation, Reason: "IncompatibleFilters", Title: "Route rule with incompatible filters",
		Help: "Remove one of the filters the message names: a rule cannot both redirect and rewrite, or redirect and forward."},
	{ID: "GWS2008", Group: GroupValidation, Reason: "ListenersNotValid", Title: "Listeners not valid",
		Help: "Fix the listeners whose own findings follow; the object is not accepted while they are invalid."},
	{ID: "GWS2009", Group: GroupValidation, Reason: "Invalid", Kinds: listenerKinds, Title: "Gateway or listener invalid",
		Help: "Fix the configuration the message names."},
	{ID: "GWS2010", Group: GroupValidation, Reason: ReasonAdmissionRejected, Title: "Rejected by the API server",
		Help: "Fix the field the message names; kubectl apply would refuse the object with this same message."},
	{ID: "GWS2011", Group: GroupValidation, Reason: ReasonNotServed, Title: "Kind or version not served by the channel",
		Help: "Use an apiVersion the channel serves (v1 for most kinds), or install the experimental channel and pass --channel experimental."},
	{ID: "GWS2020", Group: GroupValidation, Reason: ReasonMetadataUnchecked, Title: "Metadata an API server would reject (standalone)",
		Help: "Fix the metadata field the message names if the manifests are ever applied to a cluster; with no API server (--admission none) the object is kept."},

	// Reference: names that do not resolve or are not permitted.
	{ID: "GWS3001", Group: GroupReference, Reason: "BackendNotFound", Title: "Backend not found",
		Help: "Create the Service (or other backend) the backendRef names, or fix the name, namespace or port."},
	{ID: "GWS3002", Group: GroupReference, Reason: "RefNotPermitted", Title: "Cross-namespace reference not permitted",
		Help: "Add a ReferenceGrant in the target's namespace that allows this kind from this namespace, or move the target."},
	{ID: "GWS3003", Group: GroupReference, Reason: "InvalidKind", Title: "Reference to a kind that is not supported",
		Help: "Reference a kind the field accepts (a Service for backendRefs, a known filter kind for extensionRef)."},
	{ID: "GWS3004", Group: GroupReference, Reason: "UnsupportedProtocol", Title: "Backend protocol not supported",
		Help: "Set the Service port's appProtocol to one the route kind can send (for example kubernetes.io/h2c for GRPCRoute)."},
	{ID: "GWS3005", Group: GroupReference, Reason: "InvalidParameters", Title: "parametersRef does not resolve",
		Help: "Create the object the parametersRef names, or fix its group, kind, namespace or name."},
	{ID: "GWS3006", Group: GroupReference, Reason: "TargetNotFound", Title: "Policy target not found",
		Help: "Point the policy's targetRefs (and sectionName) at an object and port that exist."},
	{ID: "GWS3007", Group: GroupReference, Reason: "ListenersNotResolved", Title: "Listener references not resolved",
		Help: "Fix the listener references the listeners' own findings name."},
	{ID: "GWS3008", Group: GroupReference, Reason: "UnsupportedValue", Marker: MarkerExternalName, Title: "ExternalName Service as a backend",
		Help: "Point the backendRef at a Service with a selector or EndpointSlices; to reach a host outside the cluster, use an implementation's own backend kind (Envoy Gateway's Backend with an FQDN endpoint)."},
	{ID: "GWS3015", Group: GroupReference, Reason: "InvalidAddress", Title: "Backend address refused (Envoy Gateway)",
		Help: "Give the Backend endpoint a valid address: a hostname of at least two labels that is not an IP, or an IP that is not loopback."},
	{ID: "GWS3016", Group: GroupReference, Reason: "UnsupportedAddressType", Title: "Backend address type not supported in a route (Envoy Gateway)",
		Help: "Route to FQDN or IP endpoints; do not mix FQDN with IP or Unix socket endpoints in one Backend, and do not reference a Unix socket Backend from a route."},
	{ID: "GWS3017", Group: GroupReference, Reason: "InvalidBackendRef", Title: "Backend not accepted (Envoy Gateway)",
		Help: "Fix the Backend as the message says: give its TLS settings a CA (caCertificateRefs or wellKnownCACertificates, or a BackendTLSPolicy with one), drop endpoints from a DynamicResolver Backend, or make a DynamicResolver Backend its rule's only backendRef."},
	{ID: "GWS3020", Group: GroupReference, Reason: "PortNotSpecified", Title: "backendRef without a port (Envoy Gateway)",
		Help: "Give the backendRef the port of the Service or ServiceImport to send to."},
	{ID: "GWS3021", Group: GroupReference, Reason: "PortNotFound", Title: "backendRef port not on the Service (Envoy Gateway)",
		Help: "Name a port the Service or ServiceImport has, with the route's protocol (UDP for a UDPRoute, TCP otherwise)."},
	{ID: "GWS3022", Group: GroupReference, Reason: "UnsupportedRefValue", Title: "backendRef filter not supported per backend (Envoy Gateway)",
		Help: "Keep only header modifiers, a host rewrite (URLRewrite without a path) or an HTTPRouteFilter on the backendRef (header modifiers alone on a GRPCRoute); move other filters to the rule."},
	{ID: "GWS3023", Group: GroupReference, Reason: "InvalidBackendFilters", Title: "backendRef filter cannot be resolved (Envoy Gateway)",
		Help: "Create the HTTPRouteFilter the backendRef's ExtensionRef names, in the route's namespace, or remove the filter."},

	// Attachment: routes and ListenerSets that do not attach.
	{ID: "GWS4001", Group: GroupAttachment, Reason: ReasonParentNotFound, Title: "Parent not in the input",
		Help: "Fix the parentRef, or add the Gateway it names (gwsim cannot assume a Gateway's listeners)."},
	{ID: "GWS4002", Group: GroupAttachment, Reason: "NotAllowedByListeners", Title: "Listener does not allow the route",
		Help: "Widen the listener's allowedRoutes (namespaces, kinds) or attach the route to a listener that allows it."},
	{ID: "GWS4003", Group: GroupAttachment, Reason: "NoMatchingListenerHostname", Title: "No listener hostname matches the route",
		Help: "Give the route a hostname the listener's hostname covers, or attach it to a listener that does."},
	{ID: "GWS4004", Group: GroupAttachment, Reason: "NoMatchingParent", Title: "No listener matches the parentRef",
		Help: "Fix the parentRef's sectionName or port to name a listener of the parent."},
	{ID: "GWS4005", Group: GroupAttachment, Reason: "ParentNotAccepted", Title: "Parent Gateway not accepted",
		Help: "Fix the parent Gateway first; its own findings say why it is not accepted."},
	{ID: "GWS4006", Group: GroupAttachment, Reason: "NotAllowed", Title: "ListenerSet not allowed by its Gateway",
		Help: "Allow the ListenerSet's namespace in the Gateway's spec.allowedListeners."},
	{ID: "GWS4007", Group: GroupAttachment, Reason: "Pending", Title: "GatewayClass not found",
		Help: "Create the GatewayClass the Gateway names, or fix spec.gatewayClassName."},
	{ID: "GWS4008", Group: GroupAttachment, Reason: ReasonNoParentRefs, Title: "Route names no parent",
		Help: "Add a parentRef naming the Gateway (or ListenerSet) the route is for."},
	{ID: "GWS4020", Group: GroupAttachment, Reason: ReasonPolicyNotAttached, Title: "Policy attaches to nothing (Envoy Gateway)",
		Help: "Point the policy's targetRefs or targetSelectors at a Gateway, listener or route of an Envoy Gateway Gateway in the policy's namespace (or grant the selector's cross-namespace reach)."},
	{ID: "GWS4021", Group: GroupAttachment, Reason: "Conflicted", Kinds: egPolicyKinds, Title: "Policy conflicts with an older one of its kind (Envoy Gateway)",
		Help: "Target each Gateway, listener, route or rule with one policy of a kind; the oldest (then by namespace and name) wins. Merge the two, or target a more specific section."},
	{ID: "GWS4022", Group: GroupAttachment, Reason: "TargetNotFound", Kinds: egPolicyKinds, Title: "Policy sectionName names no section (Envoy Gateway)",
		Help: "Name a listener of the Gateway or ListenerSet, or the name of a rule of the route (rules need a name to be targeted)."},
	{ID: "GWS4023", Group: GroupAttachment, Reason: "Invalid", Kinds: egPolicyKinds, Title: "Policy refused (Envoy Gateway)",
		Help: "Fix what the message names: the object the policy's spec refers to, or its target (an EnvoyPatchPolicy targets a Gateway, or its GatewayClass when the class merges Gateways)."},
	{ID: "GWS4024", Group: GroupAttachment, Reason: ReasonPolicyFullyOverridden, Title: "Policy fully overridden (Envoy Gateway)",
		Help: "Remove the policy, or drop the more specific policies that take every section from it; it applies nowhere as it is."},

	// Routing: traffic that goes elsewhere than the manifests suggest.
	{ID: "GWS5001", Group: GroupRouting, Reason: "HostnameConflict", Title: "Listener hostname conflict",
		Help: "Give each listener on a port its own hostname, or move one to another port."},
	{ID: "GWS5002", Group: GroupRouting, Reason: "ProtocolConflict", Title: "Listener protocol conflict",
		Help: "Put listeners of incompatible protocols on different ports."},
	{ID: "GWS5003", Group: GroupRouting, Reason: ReasonSuperseded, Title: "Route superseded by an older route",
		Help: "Remove the route, or give it a hostname, SNI or listener of its own; the older route takes every connection."},
	{ID: "GWS5004", Group: GroupRouting, Reason: ReasonNoReadyEndpoints, Title: "Backend has no ready endpoints",
		Help: "Check the Service's pods; requests sent to this backend would fail."},
	{ID: "GWS5005", Group: GroupRouting, Reason: ReasonNoEffect, Title: "Setting has no effect",
		Help: "Remove the setting, or add what it was meant to apply to."},
	{ID: "GWS5006", Group: GroupRouting, Reason: ReasonUnreachableMatch, Title: "Route match can never receive traffic",
		Help: "Remove the dead match, or make it more specific than the match that takes its requests (another path, a header or method), or move it to a host of its own."},
	{ID: "GWS5007", Group: GroupRouting, Reason: ReasonConflictingMatch, Title: "Identical match claimed from another namespace",
		Help: "Agree which namespace owns the host and path: remove one of the matches, or give each route a hostname of its own."},
	{ID: "GWS5008", Group: GroupRouting, Reason: ReasonEveryRequestFails, Title: "Rule or route answers 500 to every request",
		Help: "Give the rule a backend that resolves with a weight above 0, or a RequestRedirect; remove the rule if it should not serve."},

	// TLS: certificates, CAs and TLS settings.
	{ID: "GWS6001", Group: GroupTLS, Reason: "InvalidCertificateRef", Title: "Listener certificate reference invalid",
		Help: "Point certificateRefs at a kubernetes.io/tls Secret that exists and holds a valid certificate and key."},
	{ID: "GWS6002", Group: GroupTLS, Reason: "InvalidCACertificateRef", Title: "CA certificate reference invalid",
		Help: "Point caCertificateRefs at a ConfigMap (or Secret) that exists and holds a PEM CA bundle under ca.crt."},
	{ID: "GWS6003", Group: GroupTLS, Reason: "InvalidKind", Kinds: []string{"BackendTLSPolicy"}, Title: "CA certificate reference of an unsupported kind",
		Help: "Reference a ConfigMap for caCertificateRefs."},
	{ID: "GWS6004", Group: GroupTLS, Reason: "InvalidCACertificateKind", Title: "CA certificate reference of an unsupported kind",
		Help: "Reference a ConfigMap (or Secret) for caCertificateRefs."},
	{ID: "GWS6005", Group: GroupTLS, Reason: "NoValidCACertificate", Title: "No valid CA certificate",
		Help: "Fix at least one caCertificateRef; with none valid, no certificate can be verified."},
	{ID: "GWS6006", Group: GroupTLS, Reason: "InvalidClientCertificateRef", Title: "Client certificate reference invalid",
		Help: "Point spec.tls.backend.clientCertificateRef at a kubernetes.io/tls Secret that exists (and is permitted)."},
	{ID: "GWS6007", Group: GroupTLS, Reason: "OverlappingHostnames", Title: "Overlapping TLS hostnames",
		Help: "Clients that reuse connections may reach the wrong listener; give the listeners hostnames that do not overlap, or separate ports."},
	{ID: "GWS6008", Group: GroupTLS, Reason: "ConfigurationChanged", Title: "Client certificate validation can be bypassed",
		Help: "Use mode AllowValidOnly unless the backend authorizes clients itself."},
	{ID: "GWS6009", Group: GroupTLS, Reason: "Conflicted", Title: "BackendTLSPolicy conflicts with an older one",
		Help: "Target each Service port with one BackendTLSPolicy; the older policy wins."},
	{ID: "GWS6010", Group: GroupTLS, Reason: "Invalid", Title: "BackendTLSPolicy invalid",
		Help: "Fix the policy as the message says (its target, hostname or validation settings)."},
	{ID: "GWS6030", Group: GroupTLS, Reason: "InvalidBackendTLS", Title: "BackendTLSPolicy cannot be met (Envoy Gateway)",
		Help: "Under the envoy-gateway profile, as GWS6012 with Envoy Gateway's reason InvalidBackendTLS: give the BackendTLSPolicy a CA certificate reference that resolves to a valid PEM bundle, or a supported wellKnownCACertificates."},
	{ID: "GWS6012", Group: GroupTLS, Reason: "UnsupportedProtocol", Marker: MarkerBackendTLSNotMet, Title: "BackendTLSPolicy cannot be met",
		Help: "Fix the BackendTLSPolicy the message names (its CA certificates or wellKnownCACertificates; its own findings say what is wrong); until then connections to the backend fail."},
	{ID: "GWS6011", Group: GroupTLS, Reason: "OverlappingCertificates", Title: "Overlapping TLS certificates",
		Help: "Clients that reuse connections may reach the wrong listener; give each listener a certificate that covers only its own hostnames, or separate ports."},
	{ID: "GWS6020", Group: GroupTLS, Reason: "PartiallyInvalidCertificateRef", Title: "Some listener certificates invalid (Envoy Gateway)",
		Help: "Fix or remove the certificateRefs the message names; the listener serves with the others, so clients that need them get another certificate."},
	{ID: "GWS6021", Group: GroupTLS, Reason: "UnsupportedTLSMode", Title: "HTTPS listener not in Terminate mode (Envoy Gateway)",
		Help: "Set tls.mode to Terminate on an HTTPS listener, or use protocol TLS for Passthrough."},

	// Assumption: what gwsim cannot know from the input.
	{ID: "GWS7001", Group: GroupAssumption, Reason: ReasonAssumed, Kinds: []string{""}, Title: "Object assumed",
		Help: "Add the object to the input to check it too; gwsim assumed one so the rest could be checked."},
	{ID: "GWS7002", Group: GroupAssumption, Reason: ReasonAssumed, Kinds: []string{"Gateway"}, Title: "Gateway addresses assumed",
		Help: "Nothing to fix offline: gwsim cannot check that a static address is free and routable."},
	{ID: "GWS7003", Group: GroupAssumption, Reason: ReasonAssumed, Title: "Namespace labels assumed",
		Help: "Add the Namespace object with its labels to the input so that the selector is checked against them."},
	{ID: "GWS7004", Group: GroupAssumption, Reason: ReasonNotSupportedYet, Title: "Not simulated yet",
		Help: "gwsim leaves this setting out of its result; check its effect on a real gateway."},
	{ID: "GWS7005", Group: GroupAssumption, Reason: ReasonNotSimulated, Title: "Gateway of another controller",
		Help: "Nothing to fix: the Gateway's class belongs to another controller (see --controller-name)."},
	{ID: "GWS7006", Group: GroupAssumption, Reason: ReasonAssumedMissing, Title: "Referenced object assumed",
		Help: "Nothing to fix if the object lives outside the repository (cert-manager, another chart); add it to the input, or use --strict or --assume, to check it."},
	{ID: "GWS7015", Group: GroupAssumption, Reason: ReasonAttachmentNotChecked, Marker: MarkerListenerSetParent, Title: "Parent ListenerSet outside the input",
		Help: "Pass the platform's ListenerSet and its Gateway with --gateways to check where the route attaches."},
	{ID: "GWS7007", Group: GroupAssumption, Reason: ReasonAttachmentNotChecked, Title: "Parent Gateway outside the input",
		Help: "Pass the platform's Gateways with --gateways to check where the route attaches."},
	{ID: "GWS7008", Group: GroupAssumption, Reason: ReasonExtensionNotSimulated, Title: "Implementation-specific reference not simulated",
		Help: "Nothing to fix: check the effect of the implementation's backend or filter on a real gateway."},
	{ID: "GWS7009", Group: GroupAssumption, Reason: ReasonPolicyNotSimulated, Title: "Implementation policy not simulated",
		Help: "Nothing to fix: check the policy's effect on a real gateway."},
	{ID: "GWS7030", Group: GroupAssumption, Reason: ReasonFieldNotSimulated, Title: "Field of a simulated vendor object not simulated",
		Help: "Nothing to fix: the field works in the implementation, but gwsim's answers leave it out; check its effect in a real deployment."},
}

// healthyReasons are the condition reasons gwsim sets only on healthy
// conditions (Accepted=True, Programmed=True, ...): no finding carries
// them, so they need no code.
var healthyReasons = []string{"Accepted", "NoConflicts", "Programmed", "ResolvedRefs", "SupportedVersion"}

// byReason indexes codes by Reason, the narrower entries of a Reason
// before its catch-all one. It is built once and never written after.
var byReason = func() map[string][]Code {
	m := map[string][]Code{}
	for _, c := range codes {
		m[c.Reason] = append(m[c.Reason], c)
	}
	for _, cs := range m {
		slices.SortStableFunc(cs, func(a, b Code) int {
			return cmp.Compare(b.narrow(), a.narrow())
		})
	}
	return m
}()

// narrow reports whether c covers only some findings of its Reason.
func (c Code) narrow() int {
	if c.Kinds == nil && c.Severities == nil && c.Marker == "" {
		return 0
	}
	return 1
}

// CodeFor returns the code of f: the first entry of its Reason that
// matches its kind and severity. ok is false for a Reason with no code,
// which TestEveryReasonHasACode keeps from reaching a release.
func CodeFor(f Finding) (Code, bool) {
	for _, c := range byReason[f.Reason] {
		if c.matches(f) {
			return c, true
		}
	}
	return Code{}, false
}

// LookupCode returns the code with the given ID.
func LookupCode(id string) (Code, bool) {
	for _, c := range codes {
		if c.ID == id {
			return c, true
		}
	}
	return Code{}, false
}

// Codes returns every code in table order.
func Codes() []Code { return slices.Clone(codes) }

// WithCodes sets the Code of every finding that has none yet. It runs once,
// where findings are collected, before severities change (--strict,
// overrides): a code names the problem as it was found.
func WithCodes(fs []Finding) []Finding {
	for i := range fs {
		if fs[i].Code != "" {
			continue
		}
		if c, ok := CodeFor(fs[i]); ok {
			fs[i].Code = c.ID
		}
	}
	return fs
}
