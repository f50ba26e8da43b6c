package cmd

import (
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/explain"
)

const explainLong = `Explain traces one request through the gateway the manifests describe:
the Gateway and listener that take it, the virtual host, the route rule
that wins (and those that lost on precedence, with the rule that decided),
the filters and the request the backend receives, or the redirect, and the
backends with their weights and endpoints. Each step names the object and
its file:line.

When nothing takes the request, it says what the data plane answers (404
route_not_found, no listener, connection refused) and lists the near
misses, nearest first: every route of the Gateway with the conditions it
failed (not attached and why, attached to another listener, hostname,
path, method, header, query parameter), the listeners on the port whose
hostname does not cover the request, and routes whose Gateway does not
exist or is not accepted.

The URL's scheme picks the default port (80, 443) and, for https, the SNI
(the URL's host). The flags are curl's where curl has one.

Exit codes:
  0  a route rule took the request and answers without an error
     (forwarded to a backend, a redirect, a CORS preflight)
  1  the request gets 404, 500 or another error, or finds no listener
  2  usage error, unreadable or unparsable input`

const explainExample = `  gwsim explain -f manifests/ https://shop.example.com/cart?id=1
  gwsim explain -f manifests/ -X POST -H 'Accept: application/json' https://shop.example.com/api/orders
  gwsim explain -f manifests/ --gateway infra/web --port 8443 --sni shop.example.com https://10.0.0.1/
  gwsim explain -f manifests/ -o json http://shop.example.com/old`

// explainFlags are the flags of `gwsim explain` beyond the shared ones.
type explainFlags struct {
	pipeline pipelineFlags
	Method   string
	Headers  []string
	Gateway  string
	Port     int
	SNI      string
	Address  string
}

// explainCommand is `gwsim explain URL`.
func explainCommand(streams Streams, env Env) *cobra.Command {
	flags := &explainFlags{}
	c := &cobra.Command{
		Use:     "explain URL",
		Short:   "Trace a request through the routes, or explain why nothing matches it",
		Long:    explainLong,
		Example: explainExample,
		Args:    explainArgs,
	}
	c.RunE = func(c *cobra.Command, args []string) error { return flags.run(c, args[0], streams, env) }
	flags.pipeline.register(c, formatText, formatJSON)
	fs := c.Flags()
	fs.StringVarP(&flags.Method, "request", "X", http.MethodGet, "request method")
	fs.StringArrayVarP(&flags.Headers, "header", "H", nil, "request header 'Name: value' (repeatable); 'Host: name' sets the host")
	fs.StringVar(&flags.Gateway, "gateway", "", "Gateway namespace/name that takes the request, when several listen on the port")
	fs.IntVar(&flags.Port, "port", 0, "port the client connects to (default: the URL's, else 80 for http and 443 for https)")
	fs.StringVar(&flags.SNI, "sni", "", "TLS server name the client sends (default: the URL's host, for https)")
	fs.StringVar(&flags.Address, "address", "", "Gateway address the client connects to; picks the Gateway that has it")
	return c
}

// explainArgs wants exactly the URL.
func explainArgs(c *cobra.Command, args []string) error {
	switch len(args) {
	case 0:
		return usageErrorf("no request: pass a URL, e.g. gwsim explain -f manifests/ https://example.com/path")
	case 1:
		return nil
	}
	return usageErrorf("explain takes one URL, got %d arguments (%s); pass manifests with -f", len(args), strings.Join(args, " "))
}

func (e *explainFlags) run(c *cobra.Command, rawURL string, streams Streams, env Env) error {
	f, err := e.pipeline.complete(c)
	if err != nil {
		return err
	}
	req, err := e.request(rawURL)
	if err != nil {
		return err
	}
	out, err := runPipeline(c.Context(), &e.pipeline, streams, env)
	if err != nil {
		return err
	}
	trace := explain.Explain(explain.NewInput(out.Result.Output, out.Result.Objects, out.Sources), req)
	if err := renderExplain(streams.Out, f, trace); err != nil {
		return err
	}
	if e.pipeline.Verbose {
		printFindings(streams.Err, out.Findings)
	}
	if !trace.Succeeded() {
		return &exitError{code: exitFindings}
	}
	return nil
}

// request turns the URL and flags into the request to explain; every
// mistake is a usage error.
func (e *explainFlags) request(rawURL string) (explain.Request, error) {
	if !strings.Contains(rawURL, "://") {
		rawURL = "http://" + rawURL
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return explain.Request{}, usageErrorf("invalid URL %q: %v", rawURL, err)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return explain.Request{}, usageErrorf("unsupported scheme %q in %q (valid: http, https)", u.Scheme, rawURL)
	}
	if u.Hostname() == "" {
		return explain.Request{}, usageErrorf("URL %q has no host", rawURL)
	}
	req := explain.Request{Request: evaluate.Request{
		Scheme: scheme, Host: strings.ToLower(u.Hostname()), Method: strings.ToUpper(e.Method),
		Path: u.EscapedPath(), Headers: http.Header{}, SNI: e.SNI,
	}, Address: e.Address}
	if u.RawQuery != "" {
		req.Path += "?" + u.RawQuery
	}
	if req.SNI == "" && scheme == "https" {
		req.SNI = req.Host // curl sends the URL's host, whatever the Host header says
	}
	port, err := e.port(u)
	if err != nil {
		return explain.Request{}, err
	}
	req.Port = port
	if err := e.addHeaders(&req); err != nil {
		return explain.Request{}, err
	}
	if e.Gateway != "" {
		req.Gateway = e.Gateway
		if !strings.Contains(req.Gateway, "/") {
			req.Gateway = e.pipeline.Namespace + "/" + req.Gateway
		}
	}
	return req, nil
}

// port is --port, else the URL's port, else 0 (the scheme's default).
func (e *explainFlags) port(u *url.URL) (int32, error) {
	p := e.Port
	if p == 0 && u.Port() != "" {
		n, err := strconv.Atoi(u.Port())
		if err != nil {
			return 0, usageErrorf("invalid port %q in the URL", u.Port())
		}
		p = n
	}
	if p < 0 || p > 65535 {
		return 0, usageErrorf("port %d is out of range (1-65535)", p)
	}
	return int32(p), nil
}

// addHeaders parses -H 'Name: value'. As with curl, a Host header sets the
// request's host.
func (e *explainFlags) addHeaders(req *explain.Request) error {
	for _, h := range e.Headers {
		name, value, ok := strings.Cut(h, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return usageErrorf("invalid header %q (want 'Name: value')", h)
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
