package translate

import (
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/profile"
)

// ProfileOf returns the implementation profile that decides, for the
// Gateways of class c, what the spec leaves to implementations and which
// vendor kinds are simulated: the one Options.Implementation forces, or
// the one c's controllerName selects. Rules that depend on an
// implementation ask this, never a controller or vendor name.
func ProfileOf(opts Options, c *gwv1.GatewayClass) profile.Profile {
	if c == nil {
		return profile.For(opts.Implementation, "")
	}
	return profile.For(opts.Implementation, string(c.Spec.ControllerName))
}

// gatewayProfile is the profile of g's GatewayClass (ProfileOf with the
// class, nil when the input has none).
func (w *world) gatewayProfile(g *gwv1.Gateway) profile.Profile {
	return ProfileOf(w.opts, w.classes[string(g.Spec.GatewayClassName)])
}
