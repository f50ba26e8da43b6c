package egmeasure

import "regexp"

// Reason explains a group of differences: why gwsim's status differs from
// EG's there. docs/implementations.md lists them with their counts.
type Reason struct {
	// Group is the short name the report groups by.
	Group string
	// match selects the differences, by their Class.
	match *regexp.Regexp
}

// reasons are tried in order; the first that matches a difference's Class
// explains it. Each names an Envoy Gateway behaviour (its source file in
// internal/gatewayapi, or its docs) that gwsim does not reproduce yet.
var reasons = []Reason{
	{"Policy specs: EG's translator refuses a policy whose spec it cannot translate (Accepted False/Invalid); gwsim checks the objects a spec names, the values EG cannot translate (sizes, durations, rate-limit rules, retry back-offs, circuit breakers, HTTP/2 windows, header settings, cipher suites, client validation references and CRLs, the HTTP/1.0 default host), a ClientTrafficPolicy on a plain HTTP listener that shares its port, duplicated API keys, a geolocation authorization without client IP detection and a dynamic module the EnvoyProxy does not allow, not the rest (not simulated): Lua it cannot validate, a merged spec that is invalid, a feature EG's own configuration turns off, and a field EG's test spells in another case (backoff), which EG's test decodes and the API server drops",
		regexp.MustCompile(`ancestor Accepted: EG False/Invalid`)},
	{"Policy merging: where EG cannot merge a route policy with spec.mergeType into its Gateway's (the merged spec is invalid), it writes no Merged and the Gateway's policy stays Overridden; gwsim reports the merge without merging or checking the specs",
		regexp.MustCompile(`ancestor Merged: EG absent|ancestor Overridden: EG True/Overridden, gwsim absent`)},
	{"Policy ancestors past 16: EG bounds the list as it adds entries, evicting the lowest-ranked one each time, so which 16 it keeps depends on the order it meets them; gwsim cuts the whole list once, by EG's final ranking",
		regexp.MustCompile(`Policy ancestor Accepted: EG absent, gwsim True/Accepted`)},
	{"Policy warnings that depend on the spec: EG disables HTTP/3 on a listener whose ClientTrafficPolicy validates client certificates and warns (UnsupportedHTTP3ClientValidation), and combines warnings (Warnings); gwsim writes only the deprecated-field warning",
		regexp.MustCompile(`ancestor Warning:`)},
	{"EnvoyPatchPolicy: EG's test turns the feature off for one case (its EnvoyGateway configuration, extensionApis.enableEnvoyPatchPolicy, which the input does not hold); gwsim assumes it on",
		regexp.MustCompile(`EnvoyPatchPolicy ancestor Accepted: EG False/Disabled`)},
	{"EnvoyProxy parameters: EG validates more of the EnvoyProxy a class or Gateway names than gwsim (its telemetry sinks, backendRefs and access log matches gwsim checks; not the deployment, autoscaling, filter order, bootstrap, nor mergeGateways with mergeBackends) and refuses them with InvalidParameters",
		regexp.MustCompile(`InvalidParameters`)},
	{"Backend status: EG's test runs some cases as on the Host infrastructure (RunningOnHost, EG's own configuration), where a loopback Backend is valid; gwsim does not assume it",
		regexp.MustCompile(`^Backend `)},
	{"Backend and ServiceImport endpoints: EG says EndpointsNotFound (BackendsAvailable False) for a Service without ready endpoints and UnsupportedAddressType for a ServiceImport whose EndpointSlices mix address types, which gwsim does not read in status; its test runs one case on the Host infrastructure, where a loopback address is valid (InvalidAddress)",
		regexp.MustCompile(`UnsupportedAddressType|InvalidAddress|InvalidBackendRef|EndpointsNotFound`)},
	{"BackendTLSPolicy: EG also records as a policy's ancestors the policies and EnvoyProxies whose own backends it applies to (a SecurityPolicy's or EnvoyExtensionPolicy's service, a telemetry sink), which gwsim does not read; refuses a backend whose policy it cannot merge with the EnvoyProxy's backendTLS settings (InvalidBackendTLS on HTTPRoutes and TCPRoutes); records an ancestor per parentRef section; and aggregates past 16 ancestors",
		regexp.MustCompile(`^BackendTLSPolicy |InvalidBackendTLS|Aggregated`)},
	{"A Gateway that one side refuses as a whole and the other accepts (EnvoyProxy parameters, above): the side that refuses it writes no listener status and no route parent status for it",
		regexp.MustCompile(`^Gateway listener entry: |Route parent entry: EG present, gwsim absent`)},
	{"EG's own RouteRulesOverlap condition on routes whose rules overlap",
		regexp.MustCompile(`RouteRulesOverlap`)},
	{"Route attachment: its test has no Namespace object for some routes' namespaces, and its translator then refuses them; it leaves out of attachedRoutes a TCPRoute or UDPRoute it refuses for its rules (InvalidRule)",
		regexp.MustCompile(`attachedRoutes|parent Accepted: EG True/Accepted, gwsim False/NotAllowedByListeners|parent Accepted: EG False/NotAllowedByListeners, gwsim True/Accepted`)},
	{"Filters: EG joins a route's distinct ResolvedRefs reasons with commas (InvalidBackendFilters,UnsupportedValue) where gwsim writes the first",
		regexp.MustCompile(`EG False/UnsupportedValue|EG True/UnsupportedValue|InvalidBackendFilters|ResolvedRefs: EG True/ResolvedRefs, gwsim False/UnsupportedValue`)},
	{"EG's filter rules: repeated header modifiers merge, a mirror with a direct response drops the rule (IncompatibleFilters)",
		regexp.MustCompile(`IncompatibleFilters`)},
	{"EG refuses a TCPRoute or UDPRoute with more than one rule (Accepted False/InvalidRule, no ResolvedRefs), which the v1alpha2 API allows",
		regexp.MustCompile(`InvalidRule|parent ResolvedRefs: EG absent`)},
	{"TLS: EG reads SDS Secrets when its deployment enables them (SDSSecretRefEnabled, a setting of EG, not of the input; its test enables them for the sds cases) and says SDSCertificateOpaque on them, reading a BackendTLSPolicy's CA from an SDS Secret, which gwsim does not",
		regexp.MustCompile(`PartiallyInvalidCertificateRef|SDSCertificateOpaque|CACertificate|InvalidCertificateRef|listener Programmed|UnsupportedProtocol`)},
}

// Explain returns the group that explains a difference class, or "" when
// none does.
func Explain(class string) string {
	for _, r := range reasons {
		if r.match.MatchString(class) {
			return r.Group
		}
	}
	return ""
}
