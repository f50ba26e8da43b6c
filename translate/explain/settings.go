package explain

import (
	"github.com/gwsim/gwsim/translate/evaluate"
)

// corsStep says what the matched rule's CORS filter does with the
// request's Origin; nil without a CORS filter or an Origin.
func corsStep(s *scene) *CORSStep {
	origin := s.req.Headers.Get("Origin")
	if origin == "" {
		return nil
	}
	for _, f := range s.res.Route.Filters {
		if f.CORS == nil {
			continue
		}
		return &CORSStep{
			Origin: origin, Allowed: s.res.CORSHeaders != nil, Preflight: s.res.Outcome == evaluate.CORSPreflight,
			Headers: s.res.CORSHeaders,
		}
	}
	return nil
}

// settingsStep gathers the settings that govern a forwarded request; nil
// when nothing is forwarded or nothing is set.
func settingsStep(res evaluate.Result) *SettingsStep {
	if res.Outcome != evaluate.Routed && res.Outcome != evaluate.NoHealthyUpstream {
		return nil
	}
	p := &SettingsStep{Timeouts: res.Timeouts, Retry: res.Retry, SessionPersistence: res.SessionPersistence}
	if res.Cluster != nil {
		p.BackendTLS = res.Cluster.TLS
	}
	if *p == (SettingsStep{}) {
		return nil
	}
	return p
}
