package cmd

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// filtersCell renders the FILTERS column: the rule's filters in order,
// then its timeouts, retry and session persistence, which apply to every
// forwarded request the way a filter does.
func filtersCell(fs []ir.Filter, a ir.Action) string {
	var parts []string
	if len(fs) > 0 {
		parts = append(parts, formatFilters(fs))
	}
	if t := a.Timeouts; t != nil {
		parts = append(parts, "timeouts("+joinNonEmpty(prefixed("request=", t.Request), prefixed("backendRequest=", t.BackendRequest))+")")
	}
	if r := a.Retry; r != nil {
		codes := make([]string, len(r.Codes))
		for i, c := range r.Codes {
			codes[i] = strconv.Itoa(c)
		}
		attempts := ""
		if r.Attempts > 0 {
			attempts = strconv.Itoa(r.Attempts)
		}
		parts = append(parts, "retry("+joinNonEmpty(prefixed("codes=", strings.Join(codes, ",")),
			prefixed("attempts=", attempts), prefixed("backoff=", r.Backoff))+")")
	}
	if sp := a.SessionPersistence; sp != nil {
		parts = append(parts, "session("+joinNonEmpty(sp.Type, prefixed("name=", sp.SessionName),
			prefixed("lifetime=", sp.CookieLifetime), prefixed("timeout=", sp.AbsoluteTimeout))+")")
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

// formatFeatureFilter renders the settings of a RequestMirror, CORS,
// ExternalAuth or ExtensionRef filter compactly: `ns/svc:80 20%`,
// `origins=... methods=... credentials`, `GRPC ns/auth:9000`, and
// `example.net/Kind name resolved, not simulated`. A filter whose backend is invalid
// names its ResolvedRefs reason instead of a cluster.
func formatFeatureFilter(f ir.Filter) string {
	switch {
	case f.RequestMirror != nil:
		m := f.RequestMirror
		return joinNonEmpty(clusterOrInvalid(m.Cluster, m.Invalid), formatShare(m.Numerator, m.Denominator))
	case f.CORS != nil:
		return formatCORS(*f.CORS)
	case f.ExternalAuth != nil:
		a := f.ExternalAuth
		return joinNonEmpty(a.Protocol, clusterOrInvalid(a.Cluster, a.Invalid), prefixed("path=", a.Path))
	case f.ExtensionRef != nil:
		e := f.ExtensionRef
		kind := e.Kind
		if e.Group != "" {
			kind = e.Group + "/" + kind
		}
		return kind + " " + e.Name + " " + extensionLabel(e.Resolution)
	}
	return ""
}

// extensionLabel says how an extension reference resolved, in the one
// vocabulary every output uses: an object in the input is resolved and an
// assumed one assumed, and neither's effect is simulated; an unresolved
// one answers with an error.
func extensionLabel(resolution string) string {
	switch resolution {
	case "resolved", "assumed":
		return resolution + ", not simulated"
	}
	return "unresolved: error response"
}

func formatCORS(c ir.CORS) string {
	parts := []string{
		prefixed("origins=", strings.Join(c.AllowOrigins, ",")),
		prefixed("methods=", strings.Join(c.AllowMethods, ",")),
		prefixed("headers=", strings.Join(c.AllowHeaders, ",")),
		prefixed("expose=", strings.Join(c.ExposeHeaders, ",")),
	}
	if c.AllowCredentials {
		parts = append(parts, "credentials")
	}
	if c.MaxAge != 5 {
		parts = append(parts, fmt.Sprintf("maxAge=%d", c.MaxAge))
	}
	return joinNonEmpty(parts...)
}

// formatShare renders a fraction of requests as a percentage.
func formatShare(num, den int32) string {
	if den <= 0 {
		return ""
	}
	return strconv.FormatFloat(float64(num)*100/float64(den), 'f', -1, 64) + "%"
}

func clusterOrInvalid(cluster, invalid string) string {
	if invalid != "" {
		return "invalid: " + invalid
	}
	return cluster
}

// prefixed returns prefix+v, or "" when v is empty.
func prefixed(prefix, v string) string {
	if v == "" {
		return ""
	}
	return prefix + v
}

func joinNonEmpty(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}
