// Package egpolicy decides, as Envoy Gateway v1.9.1's translator does,
// which objects Envoy Gateway's policies attach to and what status they
// get: BackendTrafficPolicy, ClientTrafficPolicy, SecurityPolicy,
// EnvoyExtensionPolicy and EnvoyPatchPolicy. It is pure: Attach reads a
// World and the policies, and returns the attachments and each policy's
// status.ancestors; nothing here reads a client or changes its input.
//
// The rules (EG's internal/gatewayapi/{backendtrafficpolicy,
// clienttrafficpolicy,securitypolicy,envoyextensionpolicy,
// envoypatchpolicy,helpers,validate}.go and api/v1alpha1, v1.9.1):
//
//   - Targets: spec.targetRef (deprecated), spec.targetRefs and
//     spec.targetSelectors. A reference names an object in the policy's
//     namespace; a selector picks objects of one group and kind by labels,
//     in the policy's namespace unless its namespaces say otherwise (then a
//     ReferenceGrant in the target's namespace must allow it). Selector
//     targets come first, oldest object first, then the references not
//     already picked. A selector cannot name a section.
//   - Accepted target kinds (the CRDs' CEL rules): ClientTrafficPolicy
//     takes Gateways and ListenerSets; BackendTrafficPolicy and
//     EnvoyExtensionPolicy also every route kind; SecurityPolicy HTTPRoute,
//     GRPCRoute and TCPRoute; EnvoyPatchPolicy one Gateway (or, when the
//     class merges Gateways, the GatewayClass).
//   - A target that is not in the world (no such object, or not a Gateway
//     of Envoy Gateway's, or a route no such Gateway handles) gets no
//     ancestor at all: EG leaves it to another controller.
//   - sectionName names a listener of a Gateway or ListenerSet, or a rule
//     of a route by its name; one that names none makes the ancestor
//     Accepted=False, TargetNotFound.
//   - Precedence, most specific first: route rule (section) > route >
//     ListenerSet listener > ListenerSet > Gateway listener (section) >
//     Gateway. A less specific policy applies only where no more specific
//     one of its kind does, and its status says so (Overridden, with the
//     scopes that override it).
//   - Oldest wins: among policies of one kind on the same target and
//     section, the first in EG's order (creationTimestamp, then namespace,
//     then name) attaches; every later one is Accepted=False, Conflicted.
//   - Ancestors: a policy on a Gateway or listener has that Gateway (with
//     the sectionName) as ancestor; one on a route has each parentRef of the
//     route that names a Gateway of Envoy Gateway's, with the parentRef's
//     sectionName; one on a ListenerSet has the ListenerSet. At most 16
//     ancestors are written: past that, EG keeps the 16 that sort first
//     (Accepted=False before others, then by reference) and marks the first
//     Aggregated.
//
// What is not simulated: spec errors EG's translator finds while
// translating a policy's features (Accepted=False, Invalid) are found
// only for the checks listed in invalid.go; mergeType (a route policy
// merged into its Gateway's) is reported, not merged.
package egpolicy
