package cmd

import (
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/fastpath"
	"github.com/gwsim/gwsim/offline/load"
)

// platformGateways are the Gateways and ListenerSets read with --gateways:
// an application repository's routes attach to Gateways (or ListenerSets)
// that the platform repository holds. They take part in the run so that attachment is checked, but they
// are not the input being linted: findings about them are dropped, and a
// Gateway the input defines itself wins over the platform's copy.
type platformGateways struct {
	gateways []client.Object
	refs     map[diag.ObjectRef]bool
	errors   []diag.Finding
}

// loadPlatformGateways reads p.Gateways (directories recursively) and keeps
// their Gateways and ListenerSets that loaded does not define.
func loadPlatformGateways(p *pipelineFlags, loaded load.Result, fast fastpath.Mode) platformGateways {
	out := platformGateways{refs: map[diag.ObjectRef]bool{}}
	if len(p.Gateways) == 0 {
		return out
	}
	res := load.Load(load.Options{Paths: p.Gateways, Recursive: true, Namespace: p.Namespace, Exclude: p.Exclude,
		// The platform's objects are admitted under the channel the
		// input's load settled on: they live in the same cluster.
		Channel: loaded.Channel, NoValidation: p.validation.off, Fields: p.validation.fields, Fastpath: fast})
	out.errors = res.Errors
	for _, o := range res.Objects {
		var kind string
		switch o.(type) {
		case *gwv1.Gateway:
			kind = "Gateway"
		case *gwv1.ListenerSet:
			// A team's routes may attach to the platform's ListenerSet
			// (GEP-1713) as to its Gateway.
			kind = "ListenerSet"
		default:
			continue
		}
		ref := diag.ObjectRef{Kind: kind, Namespace: o.GetNamespace(), Name: o.GetName()}
		if _, mine := loaded.Sources[ref]; mine {
			continue
		}
		out.gateways = append(out.gateways, o)
		out.refs[ref] = true
	}
	return out
}

// dropFindings removes the findings about platform Gateways: they are
// the platform repository's to lint.
func (pg platformGateways) dropFindings(fs []diag.Finding) []diag.Finding {
	if len(pg.refs) == 0 {
		return fs
	}
	out := fs[:0:0]
	for _, f := range fs {
		if !pg.refs[f.Object] {
			out = append(out, f)
		}
	}
	return out
}
