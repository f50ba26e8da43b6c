// Package defaulttest gives tests that build Gateway API objects in Go the
// CRD defaults a cluster (and gwsim's loader) would apply, through
// offline/defaulting, instead of spelling the defaults out in each test.
// translate's own tests use it: they cannot use the loader, which depends
// on translate.
package defaulttest

import (
	"fmt"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/offline/defaulting"
	"github.com/gwsim/gwsim/offline/validate"
)

// Default applies the experimental channel's CRD defaults (a superset of
// the standard channel's, with the same values) to obj in place and
// returns it, so that a test can write
// `route := defaulttest.Default(t, &gwv1.HTTPRoute{...})`. An object the
// scheme does not know fails the test.
func Default[T client.Object](t testing.TB, obj T) T {
	t.Helper()
	if err := defaulting.New(validate.Experimental).Default(obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

// Must is Default for the constructors of test objects, which have no
// testing.TB: an object that does not convert is a bug in the test, and
// panics.
func Must[T client.Object](obj T) T {
	if err := defaulting.New(validate.Experimental).Default(obj); err != nil {
		panic(fmt.Sprintf("bug: %v", err))
	}
	return obj
}

// All is Default for several objects.
func All(t testing.TB, objs ...client.Object) {
	t.Helper()
	if err := defaulting.New(validate.Experimental).Default(objs...); err != nil {
		t.Fatal(err)
	}
}
