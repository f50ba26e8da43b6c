package controller

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/translate/egpolicy"
)

// ReadMemo remembers, across the reconciles of one fixpoint loop, reads
// that only some writes can change: whether a Gateway is gwsim's, and per
// backend (a Service or ServiceImport) the object and whether any
// BackendTLSPolicy targets it, and whether any BackendTLSPolicy exists at
// all (most worlds have none, and then no backend needs a List). Ten Gateways whose routes share
// backends would otherwise read each backend once per Gateway, and every
// route reconcile would read its Gateway and GatewayClass again.
//
// These answers depend on the specs of Gateways, GatewayClasses and
// BackendTLSPolicies and on whole Services and ServiceImports: on nothing that the reconcilers write, which is the
// status of Gateway API kinds. The memo holds its answers while the epoch
// function returns the same count; the fixpoint loop's watcher counts
// every other write (spec, metadata, create, delete, and the status of
// any other kind), so an answer kept is the answer a fresh read would
// give. A nil *ReadMemo remembers nothing.
//
// The memo hands the same objects to every reconcile that asks: they are
// cached reads (CachedRead), never changed by their readers.
type ReadMemo struct {
	epoch func() uint64

	mu sync.Mutex
	// at is the epoch the entries were read in.
	at       uint64
	owned    map[types.NamespacedName]bool
	backends map[backendMemoKey]*backendDeps
	// policies says whether any BackendTLSPolicy exists; nil until read.
	policies *bool
}

// NewReadMemo returns a memo whose answers hold while epoch returns the
// same count (see ReadMemo).
func NewReadMemo(epoch func() uint64) *ReadMemo {
	return &ReadMemo{epoch: epoch}
}

// backendMemoKey names a backend: its kind (backendKind.kind) and key.
type backendMemoKey struct {
	kind string
	key  types.NamespacedName
}

// backendDeps is what gatherBackend reads for one backend, less the
// BackendTLSPolicies themselves: the reconcilers write their status, so
// only the fact that none target the backend (a spec index) is kept.
type backendDeps struct {
	obj        client.Object // nil when the object does not exist
	noPolicies bool
}

// now returns the current epoch, forgetting every entry read in another.
// m.mu must be held.
func (m *ReadMemo) now() uint64 {
	e := m.epoch()
	if e != m.at || m.owned == nil {
		m.at = e
		m.owned = map[types.NamespacedName]bool{}
		m.backends = map[backendMemoKey]*backendDeps{}
		m.policies = nil
	}
	return e
}

// anyPolicies returns the memoised answer to whether any
// BackendTLSPolicy exists (ok is false when it is not known), and the
// epoch to record a fresh answer under. Whether one exists changes only
// with a create or a delete.
func (m *ReadMemo) anyPolicies() (exist, ok bool, epoch uint64) {
	if m == nil {
		return false, false, 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	epoch = m.now()
	if m.policies == nil {
		return false, false, epoch
	}
	return *m.policies, true, epoch
}

// rememberPolicies is rememberOwned for anyPolicies.
func (m *ReadMemo) rememberPolicies(epoch uint64, exist bool) {
	m.remember(epoch, func() { m.policies = &exist })
}

// ownedGateway returns the memoised answer of Env.ownedGateway for key, and
// the epoch to record a fresh answer under (see rememberOwned).
func (m *ReadMemo) ownedGateway(key types.NamespacedName) (owned, ok bool, epoch uint64) {
	if m == nil {
		return false, false, 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	epoch = m.now()
	owned, ok = m.owned[key]
	return owned, ok, epoch
}

// rememberOwned records an answer read after the memo returned epoch. An
// answer from an epoch that has passed is dropped.
func (m *ReadMemo) rememberOwned(epoch uint64, key types.NamespacedName, owned bool) {
	m.remember(epoch, func() { m.owned[key] = owned })
}

// remember runs set, which records an answer, unless the epoch the answer
// was read in has passed.
func (m *ReadMemo) remember(epoch uint64, set func()) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.now() == epoch {
		set()
	}
}

// backend is ownedGateway for a backend's reads.
func (m *ReadMemo) backend(key backendMemoKey) (*backendDeps, uint64) {
	if m == nil {
		return nil, 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	epoch := m.now()
	return m.backends[key], epoch
}

// rememberBackend is rememberOwned for a backend's reads.
func (m *ReadMemo) rememberBackend(epoch uint64, key backendMemoKey, d *backendDeps) {
	m.remember(epoch, func() { m.backends[key] = d })
}

// PolicyMemo keeps the attachment and status of Envoy Gateway's policies
// (translate.EGPolicies over the whole world) across the reconciles of
// one fixpoint loop while nothing it reads has changed: the epoch counts
// every write but the policies' own status, which the policy reconcilers
// write and attachment does not read. The loop reconciles the policies of
// a kind together, so the world is read and the attachment decided once
// per pass rather than once per policy (which made a run with a thousand
// policies quadratic). A nil *PolicyMemo keeps nothing.
type PolicyMemo struct {
	epoch func() uint64

	mu  sync.Mutex
	at  uint64
	res *egpolicy.Result
}

// NewPolicyMemo returns a memo whose result holds while epoch returns the
// same count.
func NewPolicyMemo(epoch func() uint64) *PolicyMemo {
	return &PolicyMemo{epoch: epoch}
}

// result returns the kept result, or decides it afresh with decide.
// Concurrent callers wait for one decision.
func (m *PolicyMemo) result(decide func() (*egpolicy.Result, error)) (*egpolicy.Result, error) {
	if m == nil {
		return decide()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.epoch()
	if m.res != nil && m.at == e {
		return m.res, nil
	}
	res, err := decide()
	if err != nil {
		return nil, err
	}
	m.res, m.at = res, e
	return res, nil
}
