// Package egmeasure measures gwsim against Envoy Gateway's translator
// golden cases (internal/gatewayapi/testdata of the EG module pinned in
// internal/corpus): it reads a case's input as EG's translator test does
// (ReadInput, Fixtures), hands it to gwsim as manifests, and compares the
// status gwsim writes with the status in the case's expected output
// (ReadExpected, ReadGot, Compare).
//
// What is compared, and why (docs/implementations.md has the measured
// rate and every remaining difference):
//   - every object of ComparedKinds, by condition type, status and reason;
//     messages are not compared, because both sides word them freely and
//     the reason is the API's machine-readable contract;
//   - listeners by name (attachedRoutes, supportedKinds as a set,
//     conditions), route parents and policy ancestors by their reference
//     with its defaults filled in, a Gateway's attachedListenerSets;
//   - a negative-polarity condition (Conflicted, OverlappingTLSConfig,
//     PartiallyInvalid, InsecureFrontendValidationMode) that is absent on
//     one side and False on the other agrees;
//   - a Gateway's Accepted is completed on EG's side as EG's Kubernetes
//     provider completes it after translation; its Programmed, which that
//     provider takes from the running Envoy, is compared on neither side;
//   - an object EG's output does not hold (a Gateway of another class)
//     must get no status from gwsim;
//   - EG's status of a Backend that no other object of the case names is
//     dropped, as EG's provider never hands such a Backend to the
//     translator (WithoutUnnamedBackends);
//   - a Gateway EG's provider refuses for its parametersRef is refused on
//     EG's side, without listener or route parent status
//     (WithProviderRefusals);
//   - gwsim assumes nothing (--assume none): EG's test hands the
//     translator every object there is.
package egmeasure
