package admission

import (
	"sort"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// readSet is what a node's rules read of the value bound to self: a tree
// along the schema. The memo key of a value (celfast_memo.go) encodes the
// value along this tree, so that two values with the same key are, to the
// rules, the same value.
//
// Every path in the tree is encoded at least by its presence and kind
// (absent, null, object, list with its length, or a scalar with its
// value); fields adds the listed fields of an object, elem the same part of
// every element of a list, and whole the entire subtree.
type readSet struct {
	schema *celSchema // nil where the schema does not say
	whole  bool
	fields map[string]*readSet
	elem   *readSet
	// order is fields' names, sorted, set by seal.
	order []string
}

func (r *readSet) field(name string) *readSet {
	if c, ok := r.fields[name]; ok {
		return c
	}
	if r.fields == nil {
		r.fields = map[string]*readSet{}
	}
	c := &readSet{}
	if r.schema != nil {
		if p, ok := r.schema.properties[name]; ok {
			c.schema = p.(*celSchema)
		} else if r.schema.additional != nil && r.schema.additional.Schema() != nil {
			c.schema = r.schema.additional.Schema().(*celSchema)
		}
	}
	r.fields[name] = c
	return c
}

func (r *readSet) element() *readSet {
	if r.elem == nil {
		r.elem = &readSet{}
		if r.schema != nil && r.schema.items != nil {
			r.elem.schema = r.schema.items.(*celSchema)
		}
	}
	return r.elem
}

// isList reports whether the schema says the value here is a list.
func (r *readSet) isList() bool { return r.schema != nil && r.schema.Type() == "array" }

// seal fixes the field order of the tree for encoding.
func (r *readSet) seal() {
	if r == nil {
		return
	}
	r.order = r.order[:0]
	for name, c := range r.fields {
		r.order = append(r.order, name)
		c.seal()
	}
	sort.Strings(r.order)
	r.elem.seal()
}

// absKind is what the analysis knows an expression denotes.
type absKind int

const (
	// opaque: a value computed from others; what it was computed from has
	// been recorded where it was read.
	opaque absKind = iota
	// atPath: exactly the value at r (one of its instances, for paths
	// through list elements).
	atPath
	// listOf: a list each element of which is a value at r (r nil: the
	// empty list), as a filter builds.
	listOf
)

type absVal struct {
	kind absKind
	r    *readSet
}

// readAnalysis over-approximates the parts of self a rule reads, by a
// walk of its parsed expression (macros expanded). Every way a CEL
// expression can reach data under self goes through an identifier bound
// to it, a field selection, an index, or a comprehension's range; each is
// recorded at the path it reaches, and any other use of a value under self
// (an argument to a function or operator, a comparison, a literal that
// holds it) records the whole subtree there. unsure is set when the rule
// iterates something that may be a map, whose iteration order Go
// randomises: such rules are left to the library.
type readAnalysis struct {
	unsure bool
	// top is the rule's whole expression. A map may be iterated there by
	// the all() macro: when such a rule passes, every key was visited and
	// every visit returned true, so neither the result nor the cost
	// depends on the order (the infrastructure annotations rules of
	// Gateway are of this form).
	top ast.Expr
}

// analyzeRule records in root what rule reads of self. env parses the rule
// with the macros of the environment the library compiles it in.
func analyzeRule(env *celgo.Env, rule string, root *readSet) (unsure bool) {
	parsed, iss := env.Parse(rule)
	if iss.Err() != nil {
		return true
	}
	top := parsed.NativeRep().Expr()
	a := &readAnalysis{top: top}
	scope := map[string]absVal{"self": {kind: atPath, r: root}}
	a.whole(a.expr(top, scope))
	return a.unsure
}

func (a *readAnalysis) whole(v absVal) {
	if v.r != nil {
		v.r.whole = true
	}
}

func (a *readAnalysis) expr(e ast.Expr, scope map[string]absVal) absVal {
	switch e.Kind() {
	case ast.IdentKind:
		if v, ok := scope[e.AsIdent()]; ok {
			return v
		}
		return absVal{}
	case ast.SelectKind:
		return a.selection(e.AsSelect(), scope)
	case ast.CallKind:
		return a.call(e.AsCall(), scope)
	case ast.ListKind:
		return a.list(e.AsList(), scope)
	case ast.MapKind:
		for _, entry := range e.AsMap().Entries() {
			m := entry.AsMapEntry()
			a.whole(a.expr(m.Key(), scope))
			a.whole(a.expr(m.Value(), scope))
		}
		return absVal{}
	case ast.StructKind:
		for _, f := range e.AsStruct().Fields() {
			a.whole(a.expr(f.AsStructField().Value(), scope))
		}
		return absVal{}
	case ast.ComprehensionKind:
		return a.comprehension(e.AsComprehension(), scope)
	case ast.LiteralKind:
		return absVal{}
	}
	// An expression kind this analysis does not know: give up on the rule.
	a.unsure = true
	return absVal{}
}

func (a *readAnalysis) selection(s ast.SelectExpr, scope map[string]absVal) absVal {
	operand := a.expr(s.Operand(), scope)
	if operand.kind != atPath {
		a.whole(operand)
		return absVal{}
	}
	name, ok := apiservercel.Unescape(s.FieldName())
	if !ok {
		a.whole(operand)
		return absVal{}
	}
	child := operand.r.field(name) // its presence is now in the key
	if s.IsTestOnly() {
		return absVal{}
	}
	return absVal{kind: atPath, r: child}
}

func (a *readAnalysis) call(c ast.CallExpr, scope map[string]absVal) absVal {
	var args []ast.Expr
	if c.IsMemberFunction() {
		args = append(args, c.Target())
	}
	args = append(args, c.Args()...)
	switch {
	case c.FunctionName() == overloads.Size && len(args) == 1:
		v := a.expr(args[0], scope)
		if (v.kind == atPath && v.r.isList()) || v.kind == listOf {
			return absVal{} // a list's length is in every key that holds it
		}
		a.whole(v)
		return absVal{}
	case c.FunctionName() == operators.Index && len(args) == 2:
		a.whole(a.expr(args[1], scope))
		v := a.expr(args[0], scope)
		switch {
		case v.kind == atPath && v.r.isList():
			return absVal{kind: atPath, r: v.r.element()}
		case v.kind == listOf && v.r != nil:
			return absVal{kind: atPath, r: v.r}
		}
		a.whole(v)
		return absVal{}
	case c.FunctionName() == operators.Conditional && len(args) == 3:
		a.whole(a.expr(args[0], scope))
		return a.join(a.expr(args[1], scope), a.expr(args[2], scope))
	case c.FunctionName() == operators.Add && len(args) == 2:
		l, r := a.expr(args[0], scope), a.expr(args[1], scope)
		if l.kind == listOf && r.kind == listOf {
			return a.join(l, r)
		}
		a.whole(l)
		a.whole(r)
		return absVal{}
	}
	for _, arg := range args {
		a.whole(a.expr(arg, scope))
	}
	return absVal{}
}

// join is what an expression denotes that is one of x and y.
func (a *readAnalysis) join(x, y absVal) absVal {
	switch {
	case x.kind == atPath && y.kind == atPath && x.r == y.r:
		return x
	case x.kind == listOf && y.kind == listOf && (x.r == y.r || y.r == nil):
		return x
	case x.kind == listOf && y.kind == listOf && x.r == nil:
		return y
	}
	a.whole(x)
	a.whole(y)
	return absVal{}
}

func (a *readAnalysis) list(l ast.ListExpr, scope map[string]absVal) absVal {
	elems := make([]absVal, 0, l.Size())
	for _, e := range l.Elements() {
		elems = append(elems, a.expr(e, scope))
	}
	same := len(l.OptionalIndices()) == 0
	for _, v := range elems {
		same = same && v.kind == atPath && v.r == elems[0].r
	}
	switch {
	case same && len(elems) == 0:
		return absVal{kind: listOf}
	case same:
		return absVal{kind: listOf, r: elems[0].r}
	}
	for _, v := range elems {
		a.whole(v)
	}
	return absVal{}
}

func (a *readAnalysis) comprehension(c ast.ComprehensionExpr, scope map[string]absVal) absVal {
	rng := a.expr(c.IterRange(), scope)
	var iter absVal
	switch {
	case c.HasIterVar2():
		// Two-variable forms bind keys or indexes too: read it all.
		a.whole(rng)
		a.unsure = a.unsure || !(rng.kind == atPath && rng.r.isList()) && rng.kind != listOf
	case rng.kind == atPath && rng.r.isList():
		iter = absVal{kind: atPath, r: rng.r.element()}
	case rng.kind == listOf && rng.r != nil:
		iter = absVal{kind: atPath, r: rng.r}
	case rng.kind == listOf:
		// The empty list (cel.bind's range): the body never runs.
	default:
		// A map's keys, or a value the analysis cannot type: Go's map
		// order would make the library's own cost (and some results)
		// vary from run to run.
		a.whole(rng)
		a.unsure = a.unsure || c.IterRange().Kind() != ast.ListKind && !a.isTopAll(c)
	}
	inner := make(map[string]absVal, len(scope)+3)
	for k, v := range scope {
		inner[k] = v
	}
	inner[c.IterVar()] = iter
	if c.HasIterVar2() {
		inner[c.IterVar2()] = absVal{}
	}
	accu := a.expr(c.AccuInit(), scope)
	settled := false
	for range 3 {
		inner[c.AccuVar()] = accu
		a.whole(a.expr(c.LoopCondition(), inner))
		next := a.join(accu, a.expr(c.LoopStep(), inner))
		if settled = next == accu; settled {
			break
		}
		accu = next
	}
	if !settled {
		a.whole(accu)
		accu = absVal{}
		inner[c.AccuVar()] = accu
		a.whole(a.expr(c.LoopCondition(), inner))
		a.whole(a.expr(c.LoopStep(), inner))
	}
	result := map[string]absVal{c.AccuVar(): accu}
	for k, v := range scope {
		if _, shadowed := result[k]; !shadowed {
			result[k] = v
		}
	}
	return a.expr(c.Result(), result)
}

// isTopAll reports whether c is the rule's whole expression and the
// expansion of the all() macro: accumulator true, kept while not false,
// and-ed with the predicate, returned as is.
func (a *readAnalysis) isTopAll(c ast.ComprehensionExpr) bool {
	if a.top.Kind() != ast.ComprehensionKind || a.top.AsComprehension() != c {
		return false
	}
	isAccu := func(e ast.Expr) bool { return e.Kind() == ast.IdentKind && e.AsIdent() == c.AccuVar() }
	init, cond, step := c.AccuInit(), c.LoopCondition(), c.LoopStep()
	return init.Kind() == ast.LiteralKind && init.AsLiteral() == types.True &&
		cond.Kind() == ast.CallKind && cond.AsCall().FunctionName() == operators.NotStrictlyFalse &&
		len(cond.AsCall().Args()) == 1 && isAccu(cond.AsCall().Args()[0]) &&
		step.Kind() == ast.CallKind && step.AsCall().FunctionName() == operators.LogicalAnd &&
		len(step.AsCall().Args()) == 2 && isAccu(step.AsCall().Args()[0]) &&
		isAccu(c.Result())
}
