package admission

import (
	"context"
	"sync"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/interpreter"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/cel/environment"
)

// CEL answers, for an object that is already pruned, defaulted and
// schema-valid, "would the library's CEL validator (cel.Validator.Validate
// on create, no old object) return no error?", and only says yes when it
// would. It runs the same programs, compiled by the library's own Compile
// in the library's environment with the same declared types and per-call
// limit, on the same nodes of the object, with self bound by the same
// UnstructuredToVal; what it adds is a schema adapter built once
// (celSchema) and a memo per node (celMemo): a node's rules see only self,
// so their outcome is a function of the parts of self they read
// (readSet), and a value whose key under those parts was seen before gets
// the earlier outcome and cost without evaluating. The sum of the costs is
// held against the budget the library charges.
//
// Where the library would do something CEL does not model (a rule that
// does not compile, a rule with optionalOldSelf, x-kubernetes-validations
// under allOf, a rule iterating a map), the node is marked unsure and
// passes says no whenever the object has a value there; validate then runs
// the library, whose errors are the ones reported.
type CEL struct {
	root *celNode
	// limit is the cost the rules of one object may total before passes
	// says no: the library's budget less one call's limit, so that the
	// library, charging the same costs, never runs out where passes says
	// yes.
	limit int64
}

// celNode is one node of the library's validator tree: the rules of one
// schema node and the nodes below it that hold rules.
type celNode struct {
	// rules are the node's own rules, compiled into programs (and their
	// reads analysed) the first time an object has a value here: most
	// of a kind's rules sit where few objects have values (HTTPRoute's
	// filters of backendRefs, its redirects and rewrites), and compiling
	// them is most of a kind's compile time. nil when the node has none.
	rules *pendingRules
	once  sync.Once
	// programs, reads and unsure are set by compile (unsure also for
	// allOf, at build time).
	programs []celgo.Program
	// self is the schema self is bound with (with type and object
	// metadata at a resource root, as the library binds it).
	self   common.Schema
	reads  *readSet
	memo   celMemo
	unsure bool

	properties map[string]*celNode
	additional *celNode
	items      *celNode
}

// NewCEL builds the tree of s's rules as cel.NewValidator(s, true,
// PerCallLimit) does; each node's rules are compiled as the library
// compiles them when an object first has a value there (celNode.compile).
// Its root is nil when s has no rules: then every object passes.
func NewCEL(s *structuralschema.Structural) *CEL {
	b := &celBuilder{envSet: environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())}
	b.parseEnv = b.envSet.StoredExpressionsEnv()
	root := b.node(s, newCELSchema(s), true, model.SchemaDeclType(s, true))
	return &CEL{root: root, limit: celconfig.RuntimeCELCostBudget - int64(celconfig.PerCallLimit)}
}

type celBuilder struct {
	envSet   *environment.EnvSet
	parseEnv *celgo.Env
}

// node mirrors the library's validator construction for one schema node:
// which properties, items and additional properties get a validator, and
// with which declared type, follows cel's validator() rule for rule.
func (b *celBuilder) node(s *structuralschema.Structural, adapter *celSchema, isResourceRoot bool, declType *apiservercel.DeclType) *celNode {
	if !HasRules(s) {
		return nil
	}
	n := &celNode{self: adapter}
	if isResourceRoot {
		n.self = adapter.WithTypeAndObjectMeta()
		if adapter.withMeta == nil {
			n.self = resourceRoot(s)
		}
	}
	n.reads = &readSet{schema: n.self.(*celSchema)}
	if len(s.XValidations) > 0 {
		n.rules = &pendingRules{b: b, s: s, declType: declType}
	}
	if s.ValueValidation != nil && len(s.ValueValidation.AllOf) > 0 {
		n.unsure = true
	}
	var elemType *apiservercel.DeclType
	if declType != nil {
		elemType = declType.ElemType
	}
	if s.Items != nil {
		n.items = b.node(s.Items, adapter.items.(*celSchema), s.Items.XEmbeddedResource, elemType)
	}
	for name := range s.Properties {
		prop := s.Properties[name]
		var fieldType *apiservercel.DeclType
		if escaped, ok := apiservercel.Escape(name); ok {
			if declType == nil {
				continue
			}
			f, ok := declType.Fields[escaped]
			if !ok {
				continue
			}
			fieldType = f.Type
		} else if fieldType = model.SchemaDeclType(&prop, prop.XEmbeddedResource); fieldType == nil {
			continue
		}
		if child := b.node(&prop, adapter.properties[name].(*celSchema), prop.XEmbeddedResource, fieldType); child != nil {
			if n.properties == nil {
				n.properties = map[string]*celNode{}
			}
			n.properties[name] = child
		}
	}
	if ap := s.AdditionalProperties; ap != nil && ap.Structural != nil {
		n.additional = b.node(ap.Structural, adapter.additional.Schema().(*celSchema), ap.Structural.XEmbeddedResource, elemType)
	}
	if n.rules == nil && !n.unsure && n.items == nil && n.properties == nil && n.additional == nil {
		return nil
	}
	return n
}

// pendingRules is what compiling a node's rules takes.
type pendingRules struct {
	b        *celBuilder
	s        *structuralschema.Structural
	declType *apiservercel.DeclType
}

// compile compiles n's own rules, once; the nodes' compiles are
// independent of each other, as in the library, which compiles each
// node's rules on their own with the node's declared type.
func (n *celNode) compile() {
	if n.rules == nil {
		return
	}
	n.once.Do(func() {
		n.rules.b.compileRules(n, n.rules.s, n.rules.declType)
		n.reads.seal()
	})
}

// compileRules compiles s's own rules with the library's Compile, keeps
// the ones the library evaluates on create, and records what they read.
func (b *celBuilder) compileRules(n *celNode, s *structuralschema.Structural, declType *apiservercel.DeclType) {
	results, err := cel.Compile(s, declType, celconfig.PerCallLimit, b.envSet, cel.StoredExpressionsEnvLoader())
	if err != nil {
		n.unsure = true
		return
	}
	for i, res := range results {
		rule := s.XValidations[i]
		switch {
		case res.Error != nil:
			n.unsure = true
		case res.Program == nil:
			// An empty rule: the library skips it.
		case res.UsesOldSelf && rule.OptionalOldSelf != nil && *rule.OptionalOldSelf:
			// Evaluated on create with oldSelf absent, behind a feature
			// gate: left to the library.
			n.unsure = true
		case res.UsesOldSelf:
			// A transition rule: not evaluated on create.
		default:
			n.programs = append(n.programs, res.Program)
			if analyzeRule(b.parseEnv, rule.Rule, n.reads) {
				n.unsure = true
			}
		}
	}
}

// HasRules reports whether s or anything below it has
// x-kubernetes-validations.
func HasRules(s *structuralschema.Structural) bool {
	if s == nil {
		return false
	}
	if len(s.XValidations) > 0 || HasRules(s.Items) {
		return true
	}
	if s.AdditionalProperties != nil && HasRules(s.AdditionalProperties.Structural) {
		return true
	}
	for name := range s.Properties {
		prop := s.Properties[name]
		if HasRules(&prop) {
			return true
		}
	}
	return false
}

// keyBuffers are the memo-key buffers of concurrent passes calls.
var keyBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// Passes reports whether the library's CEL validator would return no
// error for obj on create. obj must be pruned and defaulted; the answer is
// only meaningful when obj had no schema errors (validate calls it only
// then).
func (f *CEL) Passes(obj map[string]any) bool {
	ok, _ := f.Check(obj)
	return ok
}

// Check is Passes with the cost the library would charge obj's rules
// (meaningful when ok).
func (f *CEL) Check(obj map[string]any) (ok bool, cost int64) {
	buf := keyBuffers.Get().(*[]byte)
	defer keyBuffers.Put(buf)
	ok = f.root.passes(obj, &cost, f.limit, buf)
	return ok, cost
}

func (n *celNode) passes(v any, total *int64, limit int64, buf *[]byte) bool {
	if n == nil || v == nil {
		return true // the library validates non-null values only
	}
	n.compile()
	if n.unsure {
		return false
	}
	if len(n.programs) > 0 {
		out := n.outcome(v, buf)
		if !out.passed {
			return false
		}
		if *total += out.cost; *total > limit {
			return false
		}
	}
	switch v := v.(type) {
	case map[string]any:
		if n.additional != nil {
			for _, child := range v {
				if !n.additional.passes(child, total, limit, buf) {
					return false
				}
			}
		}
		// The order differs from the library's (which walks the object's
		// keys), which matters only for errors and budget exhaustion, and
		// passes answers no in both.
		for name, sub := range n.properties {
			if child, ok := v[name]; ok && !sub.passes(child, total, limit, buf) {
				return false
			}
		}
	case []any:
		if n.items != nil {
			for _, e := range v {
				if !n.items.passes(e, total, limit, buf) {
					return false
				}
			}
		}
	}
	return true
}

// outcome is the result of n's rules on v, from the memo when v's key was
// seen before.
func (n *celNode) outcome(v any, buf *[]byte) celOutcome {
	key, ok := appendKey((*buf)[:0], v, n.reads)
	*buf = key
	if ok {
		if out, hit := n.memo.lookup(key); hit {
			return out
		}
	}
	out := n.evaluate(v)
	if ok {
		n.memo.store(key, out)
	}
	return out
}

// evaluate runs n's programs on v as the library does: self bound by
// UnstructuredToVal, a rule passes iff it returns true without error, and
// each evaluation's actual cost is charged.
func (n *celNode) evaluate(v any) celOutcome {
	act := &selfActivation{self: common.UnstructuredToVal(v, n.self)}
	var out celOutcome
	for _, prg := range n.programs {
		val, details, err := prg.ContextEval(context.Background(), act)
		if details == nil || details.ActualCost() == nil {
			return celOutcome{}
		}
		out.cost += int64(*details.ActualCost())
		if err != nil || val != types.True {
			return celOutcome{}
		}
	}
	out.passed = true
	return out
}

// selfActivation binds self; oldSelf is unbound, as on create.
type selfActivation struct {
	self any
}

func (a *selfActivation) ResolveName(name string) (any, bool) {
	if name == cel.ScopedVarName {
		return a.self, true
	}
	return nil, false
}

func (a *selfActivation) Parent() interpreter.Activation { return nil }

// MemoStats sums the memo hits and misses of every node, for tests and
// benchmarks.
func (f *CEL) MemoStats() (hits, misses int64) {
	f.eachNode(func(n *celNode) {
		hits += n.memo.hits.Load()
		misses += n.memo.misses.Load()
	})
	return hits, misses
}

// ResetMemo empties every node's memo and its counts, so that a benchmark
// can measure a run that sees each object once per memo.
func (f *CEL) ResetMemo() {
	f.eachNode(func(n *celNode) {
		n.memo.mu.Lock()
		n.memo.entries = nil
		n.memo.mu.Unlock()
		n.memo.hits.Store(0)
		n.memo.misses.Store(0)
	})
}

// CompileAll compiles every node's rules now, where a run compiles a node
// on its first value, so that a benchmark measures the whole one-time cost.
func (f *CEL) CompileAll() {
	f.eachNode((*celNode).compile)
}

// eachNode calls fn on every node of f, parents first.
func (f *CEL) eachNode(fn func(*celNode)) {
	var walk func(n *celNode)
	walk = func(n *celNode) {
		if n == nil {
			return
		}
		fn(n)
		walk(n.items)
		walk(n.additional)
		for _, c := range n.properties {
			walk(c)
		}
	}
	walk(f.root)
}
