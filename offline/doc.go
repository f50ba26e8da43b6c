/*
Package offline runs gwsim's controller without a cluster: it loads objects
into an in-memory client.Client, runs the reconcilers of offline/controller
against it until nothing changes, and reads the world back.

# Data flow

	objects ──StoreFactory──▶ client.Client (indexes of controller.Indexes)
	        ──fixpoint loop──▶ statuses written through Status().Update
	        ──one List per kind──▶ Result.Objects, and translate.Translate over
	                               the whole world ▶ Result.Output

Reconcilers read and write only through the client; nothing in this package
hands them objects any other way. The reconcilers of one loop share a
controller.ReadMemo, which keeps what they read of the objects no reconciler
writes until the watcher counts a write that may change them. IndexedStore (offline/store) is the
default store; FakeStore (controller-runtime's fake client) is the reference
the tests compare it with.

# The fixpoint rule

The first pass reconciles every object of each reconciled kind
(GatewayClasses, Gateways, each route kind in controller.RouteKinds order,
then BackendTLSPolicies), listed once, in namespace/name order. Every
later pass reconciles only the objects that the previous pass's writes
requeued: the reconcilers read and write through a watcher (watch.go) that
maps each write to the reconciles depending on it, through the same index
table the reconcilers list with (controller.Indexes), as a running
manager's watches and predicates do. A status write requeues the written
object's own reconcile (unless that reconcile made it) and the Gateways
whose index values it changed (a BackendTLSPolicy's ancestors); a route's
status written by one Gateway requeues no Gateway, since no reconciler
reads the status others write. Any other write requeues everything.

Before and after each pass the loop takes a snapshot of every reconciled
object's metadata.generation and status, read back through the client; a
pass changed something if the snapshots differ (an object that appeared
or disappeared counts). Reconcilers' own reports are not trusted for this.
The loop stops after the first pass that changed nothing; that pass is
counted, so a settled store takes exactly one pass, and a world that one
pass settles takes two: the second reconciles what the first requeued
(usually nothing) and its snapshot is the confirming look at every object.
If MaxPasses passes all changed something, the loop fails with a
*NotSettledError naming the objects that changed in the last one.

# Fake-client limits worked around

controller-runtime's fake client (pkg/client/fake, v0.25) is faithful
enough to test reconcilers against but is not an API server:

  - No defaulting or validation: CRD defaults (parentRef group and kind,
    listener allowedRoutes, backendRef kind) are never filled in. Objects
    read by offline/load arrive defaulted (offline/validate applies the
    CRDs' structural defaults, with --validate=false too), and objects
    built in Go get the same defaults from offline/defaulting (the
    conformance harness, tests); the index functions and translate apply
    none of their own, and read a field left nil as empty.
  - Status is a subresource only for kinds declared with
    WithStatusSubresource; for the others Status().Update returns NotFound
    and Update overwrites status. FakeStore declares every Gateway API kind
    that has a status.
  - A field "index" is a linear scan running the index function over every
    object of the kind on each List, only exact-match selectors work, and a
    selector on an unregistered field is an error. Both stores are therefore
    built from the one table controller.Indexes.
  - Every Get and List round-trips objects through JSON (a List marshals the
    whole kind), and every write goes through client-go's field-managed
    tracker, which builds a REST mapper over the whole scheme. That cost is
    why IndexedStore is the default.
  - The builder's REST mapper is empty, so RESTMapper and
    IsObjectNamespaced are of no use; nothing here calls them.
  - metadata.generation is never set or bumped (FakeStore stores objects
    without one at generation 1, as the apiserver and IndexedStore do), and
    resourceVersion starts at "999" and counts writes; the fixpoint compares
    generation and status content, never resourceVersion.
  - metadata.creationTimestamp is stored as the caller sent it (an object
    created without one has none), where the apiserver and IndexedStore set
    it on Create. Precedence rules (oldest first) then fall back to
    namespace/name order; objects loaded from manifests keep the
    creationTimestamp they were given in both stores.
  - The builder panics on objects it cannot add (duplicates, malformed
    managedFields) and sets resourceVersion on the objects it is given:
    FakeStore rejects duplicates with an error, turns any other panic into
    an error, and hands the builder copies.
  - Patch tells status writes from others by inspecting the call stack;
    reconcilers only use Update and Status().Update.
  - There are no watches or requeues: the fixpoint loop's watcher stands
    in for the event-driven requeueing of a running manager, and sees only
    the writes made through the client it hands the reconcilers.
*/
package offline
