// Package defaulting applies the Gateway API CRDs' structural defaults to
// typed objects built in Go, for the callers that do not read manifests
// through offline/load: the conformance harness's cluster (the upstream
// suite creates and patches objects itself) and tests. It is the same
// library defaulting the loader applies (offline/validate), so that
// translate and the reconcilers only ever see objects as a cluster stores
// them and carry no defaults of their own.
//
// Status is left as given: it is the controller's to write, and defaulting
// it (a Gateway's "Waiting for controller" condition) would only give the
// reconcilers something to overwrite.
package defaulting

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/offline/scheme"
	"github.com/gwsim/gwsim/offline/validate"
)

// Defaulter defaults objects against one channel's CRDs. Build it with New;
// it is safe for concurrent use.
type Defaulter struct {
	scheme    *runtime.Scheme
	validator *validate.Validator
}

// New returns a Defaulter for channel. The experimental channel's CRDs
// default every field the standard ones do, to the same values, and the
// fields only they have too.
func New(channel validate.Channel) *Defaulter {
	return &Defaulter{scheme: scheme.New(), validator: validate.New(channel)}
}

// Default applies the CRD defaults of each object's kind and version to it
// in place. Objects of kinds without a CRD in the channel (core kinds, a
// version the channel does not serve, kinds gwsim does not read) are left
// as they are. The error is for an object that does not convert.
func (d *Defaulter) Default(objs ...client.Object) error {
	for _, obj := range objs {
		if err := d.defaultOne(obj); err != nil {
			return err
		}
	}
	return nil
}

func (d *Defaulter) defaultOne(obj client.Object) error {
	gvk := obj.GetObjectKind().GroupVersionKind()
	if gvk.Empty() {
		kinds, _, err := d.scheme.ObjectKinds(obj)
		if runtime.IsNotRegisteredError(err) {
			return nil // not a kind gwsim reads, so not a Gateway API one
		}
		if err != nil {
			return fmt.Errorf("defaulting %T %s/%s: %w", obj, obj.GetNamespace(), obj.GetName(), err)
		}
		gvk = kinds[0]
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return fmt.Errorf("defaulting %s %s/%s: %w", gvk.Kind, obj.GetNamespace(), obj.GetName(), err)
	}
	status, hasStatus := u["status"]
	delete(u, "status")
	d.validator.Default(gvk, u)
	if hasStatus {
		u["status"] = status
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u, obj); err != nil {
		return fmt.Errorf("defaulting %s %s/%s: %w", gvk.Kind, obj.GetNamespace(), obj.GetName(), err)
	}
	return nil
}
