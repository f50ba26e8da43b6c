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
	{"EnvoyProxy parameters: EG validates the EnvoyProxy a class or Gateway names and refuses them with InvalidParameters",
		regexp.MustCompile(`InvalidParameters`)},
	{"Backend status: EG's test runs some cases as on the Host infrastructure (RunningOnHost, EG's own configuration), where a loopback Backend is valid; gwsim does not assume it",
		regexp.MustCompile(`^Backend `)},
	{"Backend and ServiceImport endpoints: EG refuses backendRefs by endpoint address type and Backend settings (UnsupportedAddressType, InvalidAddress, InvalidBackendRef, UnsupportedRefValue, EndpointsNotFound)",
		regexp.MustCompile(`UnsupportedAddressType|InvalidAddress|InvalidBackendRef|UnsupportedRefValue|EndpointsNotFound`)},
	{"BackendTLSPolicy: EG records the route's parentRef (with its sectionName) as the ancestor, aggregates past 16 ancestors, and says InvalidBackendTLS on the route",
		regexp.MustCompile(`^BackendTLSPolicy |InvalidBackendTLS|Aggregated`)},
	{"EG's listener condition shape: a listener with a problem gets Programmed False/Invalid and no Accepted condition (validate.go validateListenerConditions), so EG's provider counts it as not accepted",
		regexp.MustCompile(`listener Accepted: EG absent|^Gateway Accepted: EG (True|False)/ListenersNotValid|^Gateway Accepted: EG True/Accepted, gwsim (True|False)/ListenersNotValid|ListenerSet (listener )?(Accepted|Programmed): EG (True|False)/ListenersNotValid`)},
	{"A Gateway that one side refuses as a whole and the other accepts (EnvoyProxy parameters, above): the side that refuses it writes no listener status and no route parent status for it",
		regexp.MustCompile(`^Gateway listener entry: |Route parent entry: EG present, gwsim absent`)},
	{"EG keeps the first of two TCP or UDP listeners on one port, and a valid listener over a conflicting one whose certificate is invalid (validateConflictedLayer4Listeners, isSpecValidForConflictChecks); gwsim conflicts both, which the spec's distinct-listeners rule allows",
		regexp.MustCompile(`listener Accepted: EG True/Accepted, gwsim (False/(ProtocolConflict|HostnameConflict)|absent)`)},
	{"EG writes no parent status for a parentRef naming a ListenerSet its Gateway does not admit, or a listener it does not program",
		regexp.MustCompile(`parent entry: EG absent`)},
	{"EG's own RouteRulesOverlap condition on routes whose rules overlap",
		regexp.MustCompile(`RouteRulesOverlap`)},
	{"Route attachment: EG serves HTTPRoutes and GRPCRoutes together on one listener hostname, where the GRPCRoute godoc has one of them refused (NotAllowedByListeners); its test has no Namespace object for some routes' namespaces, and its translator then refuses them; it leaves out of attachedRoutes a route it refuses for its rules (InvalidRule, a gRPC direct response)",
		regexp.MustCompile(`attachedRoutes|parent Accepted: EG True/Accepted, gwsim False/NotAllowedByListeners|Accepted: EG absent, gwsim False/(ProtocolConflict|HostnameConflict)`)},
	{"EG answers a filter it cannot apply (an unresolved ExtensionRef, a backendRef filter, a gRPC direct response) with ResolvedRefs False/UnsupportedValue, where gwsim says InvalidKind or nothing; gRPC rule filters are not checked by EG's rules yet",
		regexp.MustCompile(`EG False/UnsupportedValue|EG True/UnsupportedValue|InvalidBackendFilters|ResolvedRefs: EG True/ResolvedRefs, gwsim False/UnsupportedValue`)},
	{"EG's filter rules: repeated header modifiers merge, a mirror with a direct response drops the rule (IncompatibleFilters)",
		regexp.MustCompile(`IncompatibleFilters`)},
	{"EG's reasons for backend references: PortNotSpecified, PortNotFound, InvalidRule, BackendNotFound where gwsim says otherwise",
		regexp.MustCompile(`PortNotSpecified|PortNotFound|InvalidRule|EG False/BackendNotFound|EG False/InvalidKind|parent ResolvedRefs: EG absent`)},
	{"TLS: EG reads certificates from SDS and ClusterTrustBundles, falls back to tls.crt for CAs, programs listeners with some invalid certificates (PartiallyInvalidCertificateRef), and gives frontend-validation problems their own Programmed reasons",
		regexp.MustCompile(`PartiallyInvalidCertificateRef|ListenersNotResolved|TLSRoute parent Accepted|ListenerSet Accepted: EG True/Accepted|SDSCertificateOpaque|CACertificate|InvalidCertificateRef|UnsupportedTLSMode|RefNotPermitted|listener Programmed|NoValidCACertificate|UnsupportedProtocol`)},
	{"ListenerSets: when listeners of one ListenerSet clash among themselves, EG lets no ListenerSet listener of that hostname keep the port (validateConflictedHostnameListeners); gwsim lets the next ListenerSet's listener keep it",
		regexp.MustCompile(`^ListenerSet listener (Accepted|Conflicted|Programmed): EG \S*HostnameConflict`)},
	{"Listener conflicts: EG decides Conflicted and OverlappingTLSConfig among one Gateway's listeners otherwise (validateConflictedProtocolsListeners, validateConflictedHostnameListeners)",
		regexp.MustCompile(`OverlappingTLSConfig|Conflicted`)},
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
