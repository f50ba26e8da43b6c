package evaluate

import (
	"fmt"
	"net/http"

	"github.com/gwsim/gwsim/translate/ir"
)

// ResponseOverridden means a policy's response override replaced the
// answer with its own response or a redirect.
const ResponseOverridden Outcome = "ResponseOverridden"

// findOverride returns the first response override of p that takes an
// answer with status, from the gateway itself (local) or from a backend.
func findOverride(p *ir.Policies, status int, local bool) *ir.ResponseOverride {
	if p == nil {
		return nil
	}
	for i := range p.ResponseOverrides {
		o := &p.ResponseOverrides[i]
		if o.Source == "Backend" && local || o.Source == "Local" && !local {
			continue
		}
		for _, s := range o.Codes {
			if status >= s.From && status <= s.To {
				return o
			}
		}
	}
	return nil
}

// overrideLocal applies the rule's response overrides to an answer the
// gateway made itself (a policy's, a direct response, a redirect).
func overrideLocal(res *Result) {
	if res.Route == nil || res.Status == 0 {
		return
	}
	o := findOverride(res.Route.Policies, res.Status, true)
	if o == nil {
		return
	}
	res.Override = o
	from := res.Status
	if o.Location != "" {
		res.Outcome, res.Status, res.Location = ResponseOverridden, o.Status, o.Location
	} else {
		res.Outcome = ResponseOverridden
		if o.Status != 0 {
			res.Status = o.Status
		}
	}
	why := fmt.Sprintf("response override of %s replaces the %d with %s", policyName(o.Policy), from, overrideWords(o, from))
	if res.Reason != "" {
		why = res.Reason + "; " + why
	}
	res.Reason = why
	res.addPolicyStep(o.Policy, "responseOverride", fmt.Sprintf("response override replaces the %d with %s", from, overrideWords(o, from)), true)
}

// overrideWords says what an override answers.
func overrideWords(o *ir.ResponseOverride, from int) string {
	if o.Location != "" {
		return fmt.Sprintf("a %d to %s", o.Status, o.Location)
	}
	s := "its own status"
	switch {
	case o.Status != 0:
		s = fmt.Sprintf("a %d", o.Status)
	case from != 0:
		s = fmt.Sprintf("a %d", from)
	}
	if o.ContentType != "" {
		s += fmt.Sprintf(", Content-Type %q", o.ContentType)
	}
	if o.Body != "" {
		s += fmt.Sprintf(", body %q", o.Body)
	}
	return s
}

// overrideBackend is the override of an answer from a backend with
// status, applied to h (its headers); nil when none applies.
func overrideBackend(res Result, status int, h http.Header) (int, bool) {
	if res.Route == nil {
		return status, false
	}
	o := findOverride(res.Route.Policies, status, false)
	if o == nil {
		return status, false
	}
	if o.Location != "" {
		h.Set("Location", o.Location)
		return o.Status, true
	}
	if o.ContentType != "" {
		h.Set("Content-Type", o.ContentType)
	}
	if o.Status != 0 {
		return o.Status, true
	}
	return status, true
}
