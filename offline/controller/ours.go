package controller

import (
	"slices"

	"github.com/gwsim/gwsim/translate"
)

// owns reports whether gwsim stands in for the controller named name. With
// no ControllerNames gwsim stands in for every controller, so every
// GatewayClass and every route parent status written by any controller is
// gwsim's to compute.
func owns(opts translate.Options, name string) bool {
	return len(opts.ControllerNames) == 0 || slices.Contains(opts.ControllerNames, name)
}
