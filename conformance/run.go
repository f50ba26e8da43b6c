package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline"
	"github.com/gwsim/gwsim/offline/load"
	"github.com/gwsim/gwsim/offline/validate"
	"github.com/gwsim/gwsim/translate"
)

// Result is gwsim's answer for one Setup.
type Result struct {
	// Offline is the world after the controller's fixpoint; Offline.Output.IR
	// is what requests are evaluated against.
	Offline *offline.Result
	// Findings are the loader's and AssumeMissing's findings, sorted (the
	// translator's are in Offline.Output.Findings).
	Findings []diag.Finding
}

// Run loads what s applies through gwsim's own loader (as `gwsim -f -`
// would read it from stdin), prepares it as the suite's Applier does,
// assumes what is missing as the CLI does, and runs the offline controller
// to fixpoint with gwsim's controller owning s's GatewayClass. Manifests
// that do not read or decode are an error: the upstream manifests are
// expected to load cleanly.
func Run(ctx context.Context, s Setup) (*Result, error) {
	s = s.withDefaults()
	data, err := s.YAML()
	if err != nil {
		return nil, err
	}
	// The suite installs the experimental channel's CRDs: its tests of
	// extended features use experimental fields.
	loaded := load.Load(load.Options{Paths: []string{"-"}, Stdin: bytes.NewReader(data), Channel: validate.Experimental})
	if len(loaded.Errors) > 0 {
		var errs []error
		for _, f := range loaded.Errors {
			errs = append(errs, errors.New(f.String()))
		}
		return nil, fmt.Errorf("loading %v: %w", s.Manifests, errors.Join(errs...))
	}
	objs, err := without(loaded.Objects, s.Without)
	if err != nil {
		return nil, err
	}
	prepare(objs, s)
	secrets, err := SuiteSecrets()
	if err != nil {
		return nil, err
	}
	for _, sec := range secrets {
		objs = append(objs, sec)
	}
	objs, assumed := load.AssumeMissing(objs, s.ControllerName)
	opts := offline.Options{Translate: translate.Options{
		ControllerNames: []string{s.ControllerName},
		Now:             metav1.NewTime(time.Unix(0, 0).UTC()),
	}, OtherObjects: loaded.Others}
	res, err := offline.Run(ctx, objs, loaded.Sources, opts)
	if err != nil {
		return nil, err
	}
	findings := append(slices.Clone(loaded.Findings), assumed...)
	return &Result{Offline: res, Findings: diag.Sort(findings)}, nil
}

// prepare does to the loaded objects what the suite's Applier does to each
// manifest before it creates it (prepareGateway, prepareGatewayClass). Every
// Gateway gets s's class. A Gateway that lists addresses gets, as there,
// the addresses of type "test/fake-invalid-type" followed by the unusable
// and usable address pools when it names PLACEHOLDER_UNUSABLE_ADDRS or
// PLACEHOLDER_USABLE_ADDRS; the pools are empty here (the suite's default),
// so only the fake-type addresses stay. Every GatewayClass gets s's
// controller. The objects are Run's own, freshly decoded.
func prepare(objs []client.Object, s Setup) {
	for _, o := range objs {
		switch o := o.(type) {
		case *gwv1.Gateway:
			o.Spec.GatewayClassName = gwv1.ObjectName(s.GatewayClassName)
			o.Spec.Addresses = slices.DeleteFunc(o.Spec.Addresses, func(a gwv1.GatewaySpecAddress) bool {
				return a.Type == nil || *a.Type != "test/fake-invalid-type"
			})
		case *gwv1.GatewayClass:
			o.Spec.ControllerName = gwv1.GatewayController(s.ControllerName)
		}
	}
}

// without returns objs less the objects named in refs; a ref that names
// nothing is an error, so that a typo does not silently keep the object.
func without(objs []client.Object, refs []string) ([]client.Object, error) {
	drop := map[string]bool{}
	for _, r := range refs {
		drop[r] = true
	}
	var out []client.Object
	for _, o := range objs {
		ref := diag.ObjectRef{Kind: o.GetObjectKind().GroupVersionKind().Kind, Namespace: o.GetNamespace(), Name: o.GetName()}.String()
		if drop[ref] {
			delete(drop, ref)
			continue
		}
		out = append(out, o)
	}
	if len(drop) > 0 {
		missing := make([]string, 0, len(drop))
		for r := range drop {
			missing = append(missing, r)
		}
		slices.Sort(missing)
		return nil, fmt.Errorf("conformance: Setup.Without names objects not in the manifests: %s", strings.Join(missing, ", "))
	}
	return out, nil
}
