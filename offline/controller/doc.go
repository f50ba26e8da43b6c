// Package controller holds gwsim's reconcilers and the table of field
// indexes they read through.
//
// Every reconciler is a controller-runtime reconcile.Reconciler that holds a
// client.Client and reads and writes only through it: Get and List (with the
// field indexes of Indexes) to gather the slice of the world one object
// depends on, Status().Update to write what translate.Translate computed for
// it. Nothing reaches around the client, so the same reconcilers run against
// any store that implements client.Client.
//
//   - GatewayClassReconciler writes a GatewayClass's status, read with the
//     ConfigMap its parametersRef names.
//   - GatewayReconciler gathers one Gateway's class, ListenerSets, routes,
//     Secrets, ReferenceGrants, Namespaces, Services and ServiceImports
//     with their BackendTLSPolicies (with the ConfigMaps and Secrets holding the CA
//     bundles these and the Gateway's frontend validation name) and the
//     ConfigMap its infrastructure parametersRef names, writes the
//     Gateway's status and that of its ListenerSets, and merges the parent
//     statuses this Gateway (or one of its ListenerSets) owns into each
//     attached route, and its ancestor entry into each BackendTLSPolicy it
//     reaches (dropping the entry from those it no longer reaches).
//   - RouteReconciler (one type for every route kind) drops the route's
//     parent statuses that gwsim owns but whose parent is gone, no longer
//     referenced or no longer gwsim's.
//   - BackendTLSPolicyReconciler drops the policy's ancestor entries that
//     gwsim owns but whose Gateway is gone or no longer gwsim's.
//
// Reconcilers never list once per route: listing is once per Gateway, per
// ListenerSet or per referenced Service or ServiceImport, and a route
// reconciler only Gets the parents its parentRefs name. With a ReadMemo
// (the fixpoint loop gives one to every reconciler of a loop), what no
// reconciler writes is read once per loop rather than once per reconcile:
// a backend's Service or ServiceImport, whether any BackendTLSPolicy
// targets it or exists at all, and whether a Gateway is gwsim's.
package controller
