package routetest

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/explain"
)

// Request is a request as a person writes it: a URL and the curl-like
// options that go with it. `gwsim explain` fills one from its flags and a
// cases file from its YAML; both turn it into the request to trace with
// Build, so that a URL means the same thing in either place.
type Request struct {
	// URL is http:// or https://, a host, an optional port, a path and a
	// query; without a scheme it is http.
	URL    string
	Method string
	// Headers are sent in order; a Host header replaces the URL's host (the
	// SNI stays the URL's, as with curl).
	Headers []Header
	// SNI defaults to the URL's host for https.
	SNI string
	// Gateway is "namespace/name", or a name in the default namespace.
	Gateway string
	// Port overrides the URL's port; 0 keeps it (or the scheme's default).
	Port    int
	Address string
	// GRPC makes an http(s) URL a gRPC call, as the grpc:// scheme does.
	GRPC bool
	// KeepPath routes the path as sent, without normalising it.
	KeepPath bool
	// ClientIP is the client's address as the gateway sees it.
	ClientIP string
}

// Header is one request header.
type Header struct {
	Name  string
	Value string
}

// Build checks r and returns the request explain traces. namespace is the
// namespace of a Gateway named without one. Every error is a mistake in
// how the request is written.
func (r Request) Build(namespace string) (explain.Request, error) {
	raw := r.URL
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return explain.Request{}, fmt.Errorf("invalid URL %q: %v", r.URL, errors.Unwrap(err))
	}
	scheme := strings.ToLower(u.Scheme)
	grpc := r.GRPC || scheme == "grpc" || scheme == "grpcs"
	switch scheme {
	case "http", "https", "tcp", "udp", "tls":
	case "grpc":
		scheme = "http"
	case "grpcs":
		scheme = "https"
	default:
		return explain.Request{}, fmt.Errorf("unsupported scheme %q in %q (valid: http, https, grpc, grpcs, tcp, udp, tls)", u.Scheme, r.URL)
	}
	if u.Hostname() == "" {
		return explain.Request{}, fmt.Errorf("URL %q has no host", r.URL)
	}
	req := explain.Request{Request: evaluate.Request{
		Scheme: scheme, Host: strings.ToLower(u.Hostname()), Method: strings.ToUpper(r.Method),
		Path: u.EscapedPath(), Headers: http.Header{}, SNI: r.SNI, KeepPath: r.KeepPath, ClientIP: r.ClientIP,
	}, Address: r.Address}
	if r.ClientIP != "" {
		if _, err := netip.ParseAddr(r.ClientIP); err != nil {
			return explain.Request{}, fmt.Errorf("client address %q is not an IP address", r.ClientIP)
		}
	}
	if req.Method == "" {
		req.Method = http.MethodGet
	}
	if u.RawQuery != "" {
		req.Path += "?" + u.RawQuery
	}
	if grpc {
		if err := asGRPCCall(&req, r.URL); err != nil {
			return explain.Request{}, err
		}
	}
	if req.SNI == "" && (scheme == "https" || scheme == "tls") {
		req.SNI = req.Host // curl sends the URL's host, whatever the Host header says
	}
	if req.Port, err = r.port(u); err != nil {
		return explain.Request{}, err
	}
	if (scheme == "tcp" || scheme == "udp") && req.Port == 0 {
		return explain.Request{}, fmt.Errorf("URL %q has no port (%s:// needs one)", r.URL, scheme)
	}
	if err := addHeaders(&req, r.Headers); err != nil {
		return explain.Request{}, err
	}
	if r.Gateway != "" {
		req.Gateway = r.Gateway
		if !strings.Contains(req.Gateway, "/") {
			req.Gateway = namespace + "/" + req.Gateway
		}
	}
	return req, nil
}

// port is r.Port, else the URL's port, else 0 (the scheme's default).
func (r Request) port(u *url.URL) (int32, error) {
	p := r.Port
	if p == 0 && u.Port() != "" {
		n, err := strconv.Atoi(u.Port())
		if err != nil {
			return 0, fmt.Errorf("invalid port %q in the URL", u.Port())
		}
		p = n
	}
	if p < 0 || p > 65535 {
		return 0, fmt.Errorf("port %d is out of range (1-65535)", p)
	}
	return int32(p), nil
}

// addHeaders adds hs to req. As with curl, a Host header sets the
// request's host.
func addHeaders(req *explain.Request, hs []Header) error {
	for _, h := range hs {
		name, value := strings.TrimSpace(h.Name), strings.TrimSpace(h.Value)
		if name == "" || strings.ContainsAny(name, " \t:") {
			return fmt.Errorf("invalid header name %q", h.Name)
		}
		if strings.EqualFold(name, "Host") {
			if host, _, err := net.SplitHostPort(value); err == nil {
				value = host
			}
			req.Host = strings.ToLower(value)
			continue
		}
		req.Headers.Add(name, value)
	}
	return nil
}

// asGRPCCall makes req the request a gRPC client sends for the call its
// path names, /package.Service/Method: an HTTP/2 POST with content-type
// application/grpc (evaluate.GRPCCall).
func asGRPCCall(req *explain.Request, rawURL string) error {
	service, method, ok := strings.Cut(strings.TrimPrefix(req.Path, "/"), "/")
	if !ok || service == "" || method == "" || strings.ContainsAny(method, "/?") {
		return fmt.Errorf("gRPC URL %q must name a call as /package.Service/Method", rawURL)
	}
	call := evaluate.GRPCCall(req.Host, 0, service, method, nil)
	req.Method, req.GRPC = call.Method, true
	req.Headers.Set("Content-Type", "application/grpc")
	return nil
}
