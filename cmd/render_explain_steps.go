package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gwsim/gwsim/translate/explain"
	"github.com/gwsim/gwsim/translate/ir"
)

// connectionLines renders how the listener took the connection: TLS,
// the certificates it serves, client validation, the L4 route.
func connectionLines(c explain.ConnectionStep) []string {
	head := "Connection: " + c.Protocol
	if c.TLSMode != "" {
		head += " (" + c.TLSMode + ")"
	}
	lines := []string{head}
	for _, cert := range c.Certificates {
		line := "certificate " + refString(cert.Secret)
		switch {
		case cert.Encrypted:
			line += ": names unknown (the Secret's values are encrypted with SOPS)"
		case !cert.Parsed:
			line += ": names unknown (the Secret is not in the input or does not parse)"
		case len(cert.DNSNames) == 0:
			line += fmt.Sprintf(": no DNS subject alternative names (only CN %s, which clients do not check)", cert.CommonName)
		default:
			line += ": " + strings.Join(cert.DNSNames, ", ")
		}
		if cert.CoversSNI != nil && !*cert.CoversSNI {
			line += "; none covers the SNI, so clients that check the name refuse it"
		}
		lines = append(lines, line)
	}
	if v := c.ClientValidation; v != nil {
		lines = append(lines, fmt.Sprintf("client certificate required (%s, %d CA bundles); gwsim assumes the client presents one that verifies", v.Mode, len(v.CACertificates)))
	}
	if r := c.Route; r != nil {
		line := "Route " + refString(r.Object)
		if r.SNI != "" {
			line += " (SNI " + r.SNI + ")"
		}
		lines = append(lines, line)
	}
	return lines
}

// corsLines renders the CORS filter's answer to the request's Origin.
func corsLines(c explain.CORSStep) []string {
	kind := "request"
	if c.Preflight {
		kind = "preflight"
	}
	if !c.Allowed {
		return []string{fmt.Sprintf("CORS %s from origin %s: not allowed, so no Access-Control-* headers (the browser blocks the response)", kind, c.Origin)}
	}
	lines := []string{fmt.Sprintf("CORS %s from origin %s: allowed, response headers:", kind, c.Origin)}
	names := make([]string, 0, len(c.Headers))
	for k := range c.Headers {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		lines = append(lines, fmt.Sprintf("  %s: %s", k, strings.Join(c.Headers[k], ", ")))
	}
	return lines
}

// settingsLines renders the settings that govern the forwarded request.
func settingsLines(p explain.SettingsStep) []string {
	lines := []string{"Settings"}
	if t := p.Timeouts; t != nil {
		lines = append(lines, fmt.Sprintf("timeouts: request %s, backend request %s", orDefault(t.Request), orDefault(t.BackendRequest)))
	}
	if r := p.Retry; r != nil {
		lines = append(lines, fmt.Sprintf("retry: %d attempts on %s, backoff %s", r.Attempts, codesString(r.Codes), orDefault(r.Backoff)))
	}
	if s := p.SessionPersistence; s != nil {
		lines = append(lines, "session persistence: "+joinNonEmpty(s.Type, prefixed("name=", s.SessionName),
			prefixed("lifetime=", s.CookieLifetime), prefixed("timeout=", s.AbsoluteTimeout)))
	}
	if b := p.BackendTLS; b != nil {
		lines = append(lines, backendTLSLine(*b))
	}
	return lines
}

func orDefault(s string) string {
	if s == "" {
		return "the gateway's default"
	}
	return s
}

func codesString(codes []int) string {
	if len(codes) == 0 {
		return "connection errors"
	}
	out := make([]string, len(codes))
	for i, c := range codes {
		out[i] = fmt.Sprint(c)
	}
	return "statuses " + strings.Join(out, ", ") + " and connection errors"
}

// backendTLSLine says how the gateway connects to the backend.
func backendTLSLine(b ir.BackendTLS) string {
	line := fmt.Sprintf("backend TLS (BackendTLSPolicy %s): SNI %s", b.Policy, b.SNI)
	switch {
	case b.WellKnownCACertificates != "":
		line += ", CA " + b.WellKnownCACertificates
	case len(b.CACertificates) > 0:
		names := make([]string, len(b.CACertificates))
		for i, c := range b.CACertificates {
			names[i] = c.Kind + " " + c.Name
		}
		line += ", CA " + strings.Join(names, ", ")
	}
	if b.Invalid != "" {
		line += "; invalid (" + b.Invalid + "): every connection fails"
	}
	return line
}

// policyEffectLines lists what policies and the listener's client
// settings did, each with the policy and where it is defined.
func policyEffectLines(es []explain.PolicyEffect) []string {
	lines := []string{"Policies, in the order the data plane applies them"}
	for _, e := range es {
		who := "listener defaults"
		if e.Policy != nil {
			r := *e.Policy
			r.Kind = r.Kind[strings.LastIndexByte(r.Kind, '/')+1:]
			who = refString(r)
		}
		line := "- " + who + ": " + e.Message
		if e.Decided {
			line += " [answers]"
		}
		lines = append(lines, line)
	}
	return lines
}
