/*
Package store is gwsim's runtime object store: an indexed, in-memory
implementation of controller-runtime's client.Client. The offline controller's
reconcilers read and write through it exactly as they would against a cluster.

	c, err := store.NewBuilder(scheme).
		WithObjects(objs...).
		WithIndex(&gwv1.HTTPRoute{}, "gwsim.dev/parentGateway", parentGateways).
		Build()

# Why it exists

controller-runtime's fake client is the reference store in tests, but it does
not scale: every write rebuilds a REST mapper over the whole scheme, List
JSON-round-trips every object, and its field "index" is a linear scan. Measured
on 2 cores, a run over 10k HTTPRoutes took about 55 s. This store keeps one
table per kind (table.go): the objects by key, and per field index a sorted
slice of objects per value, so that Get is O(1), List is O(result) when a
namespace or a registered field index narrows it, and a write moves an object
only between the index values that changed (none, for a status write when
the index is registered with WithSpecIndex). Reads deep-copy
(DeepCopyObject), or copy the top level only with UnsafeDisableDeepCopy;
nothing is serialised except the object a Patch applies to.
BenchmarkListByIndex (10k HTTPRoutes, 100 per Gateway) lists one Gateway's
routes in about 0.4 ms here against about 260 ms from the fake client.

client-go's cache.Indexer, which an earlier version used, keeps a set per
index value twice (under the namespace and across namespaces) and
re-indexes every index of an object on every write; at 100k routes its
indexes alone held about 190 MB, and re-indexing was most of a status
write.

# What it implements

  - Get, List, Create, Update, Patch, Delete and DeleteAllOf for typed objects
    of every kind in the scheme that has a List kind.
  - Status().Update and Status().Patch. Every kind whose Go type has a Status
    field has a status subresource: Update and Patch leave status alone and
    the status writers change nothing but status, as the fake client does when
    built WithStatusSubresource for those kinds.
  - List with client.InNamespace, label selectors and exact-match field
    selectors ("f=v" or "f==v") over fields registered with WithIndex or
    WithSpecIndex. A field selector is an index lookup with or without
    InNamespace, as in controller-runtime's cache. A field with no
    registered index is an error, as in the fake client; that includes
    metadata.name and metadata.namespace. Results are sorted by
    namespace, then name.
  - Scheme, RESTMapper (built once at Build from the scheme's kinds), GroupVersionKindFor
    and IsObjectNamespaced. GatewayClass, XMesh, Namespace, Node,
    PersistentVolume and ComponentStatus are cluster-scoped; every other kind
    is namespaced.

# Semantics, compared with the fake client

  - resourceVersion is one counter for the whole store, like the apiserver and
    like the fake client built WithGlobalResourceVersionCounter: objects given
    to WithObjects without one, Create (including a Create that fails with
    AlreadyExists, as in the fake), Update and both status writers each take
    the next value. Update and Patch require the caller's resourceVersion to
    match the stored one (Conflict otherwise). An Update with an empty
    resourceVersion is a Conflict except for core ("" group) kinds, which the
    fake client, like the apiserver, updates unconditionally; a Patch with none
    applies unconditionally.
  - metadata.generation behaves like the apiserver, not like the fake client
    (which never touches it): objects are stored with generation 1 when none
    is set, and Update and Patch add one when anything other than metadata and
    status changes. The status writers never change it.
  - metadata.creationTimestamp behaves like the apiserver, not like the fake
    client (which stores what the caller sent): Create sets it, whatever the
    caller sent, from the store's clock, and Update and Patch keep the stored
    value. The clock is a counter, so that runs are reproducible: it starts
    after the newest creationTimestamp among the initial objects (or at
    2000-01-01T00:00:00Z) and ticks one second per Create, so that an object
    created later is always newer, which precedence rules (oldest first)
    rely on.
  - TypeMeta is cleared on every typed object returned or written back, as the
    fake client does; managedFields are never stored.
  - Reads return deep copies, not JSON round trips, so an empty non-nil slice
    or a sub-second timestamp comes back as it was stored, where the fake
    client would normalise it.
  - DeleteAllOf honours InNamespace, label selectors and field selectors (the
    fake client ignores field selectors there and deletes more).
  - Create with generateName appends a suffix derived from the resource
    version counter, so names are deterministic.
  - List ignores Limit and Continue, as the fake client does.

# Limits

There are no watches and no informers: the store is a client, not a cache.
There is no server-side apply (Apply returns an error wrapping
errors.ErrUnsupported that says it is not supported by the offline store), no
defaulting, no validation beyond a required name, no admission, no finalizers
(Delete removes at once), no owner-reference garbage collection, no
create-on-update, no subresource other than status, and no conversion
between versions: each GroupVersionKind (gateway.networking.k8s.io/v1 and
v1beta1 HTTPRoute, say) is a separate set of objects, as in the fake client. Unstructured and
metadata-only (PartialObjectMetadata) objects and lists are rejected with an
error: callers must use the typed Go structs registered in the scheme.
*/
package store
