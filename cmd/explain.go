package cmd

import (
	"net/http"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/explain"
	"github.com/gwsim/gwsim/translate/routetest"
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
hostname does not cover the request, routes whose Gateway does not exist
or is not accepted, routes on another Gateway that listens on the port,
and routes left out of every data plane (rejected by validation, not
served by the channel, no parentRefs) with the finding's file:line. The
warnings and errors about the objects the answer names are printed on
stderr (-v prints every finding).

The URL's scheme says what the client sends: http and https a request
(https with the URL's host as SNI), grpc and grpcs a gRPC call to the
/package.Service/Method of the URL's path (or --grpc with an http(s)
URL), tcp, udp and tls a connection that TCPRoutes, UDPRoutes and
TLSRoutes take (tls with the URL's host as SNI). A request whose scheme
does not fit the listener (plaintext to an HTTPS or TLS port, TLS to an
HTTP port) fails its connection, as it would on the wire. The default
port is 80 for http and grpc, 443 for https, grpcs and tls; tcp and udp
need one. The flags are curl's where curl has one.

Exit codes:
  0  a route rule took the request and answers without an error
     (forwarded to a backend, a redirect, a CORS preflight)
  1  the request gets 404, 500 or another error, or finds no listener
  4  the answer is not known: the request goes through an implementation's
     filter, backend or policy whose effect gwsim does not simulate (the
     last line of the answer, "Caveat: ...", names them)
  2  usage error, unreadable or unparsable input, input over a limit
  3  a bug in gwsim (reported with its version; please report it)`

const explainExample = `  gwsim explain -f manifests/ https://shop.example.com/cart?id=1
  gwsim explain -f manifests/ -X POST -H 'Accept: application/json' https://shop.example.com/api/orders
  gwsim explain -f manifests/ --gateway infra/web --port 8443 --sni shop.example.com https://10.0.0.1/
  gwsim explain -f manifests/ -o json http://shop.example.com/old
  gwsim explain -f manifests/ grpc://grpc.example.com/pkg.Service/Method
  gwsim explain -f manifests/ tls://db.example.com:5432
  gwsim explain -f manifests/ tcp://10.0.0.1:5432`

// explainFlags are the flags of `gwsim explain` beyond the shared ones.
type explainFlags struct {
	pipeline pipelineFlags
	Method   string
	Headers  []string
	Gateway  string
	Port     int
	SNI      string
	Address  string
	GRPC     bool
	KeepPath bool
	ClientIP string
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
	fs.BoolVar(&flags.KeepPath, "no-normalize-path", false, "route the path as sent; by default it is normalised first (dot segments removed, slashes merged), as Envoy-based gateways do")
	fs.StringVar(&flags.ClientIP, "client-ip", "", "the client's IP address as the gateway sees it, which authorization rules on client CIDRs match")
	fs.BoolVar(&flags.GRPC, "grpc", false, "send the http(s) URL as a gRPC call: its path is /package.Service/Method")
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
	in := explain.NewInput(out.Result.Output, out.Result.Objects, out.Sources)
	in.Policies, in.Findings = out.Policies, out.Findings
	trace := explain.Explain(in, req)
	w := newOutput(streams.Out, streams.fastMode())
	if err := renderExplain(w, f, trace); err != nil {
		return outputError(w, "output", err)
	}
	if err := flushOut(streams.Out); err != nil {
		return writeError("output", err)
	}
	if e.pipeline.Verbose {
		printFindings(streams.Err, out.Findings)
	} else {
		printFindings(streams.Err, findingsAbout(out.Findings, trace))
	}
	switch {
	case !trace.Known():
		return &exitError{code: exitNotKnown}
	case !trace.Succeeded():
		return &exitError{code: exitFindings}
	}
	return nil
}

// findingsAbout are the findings about the objects an explanation names:
// its Gateway, listener owner, route, backends, near misses, policies and
// what it does not simulate. explain prints them on stderr, so that why a
// near miss missed is in sight without -v.
func findingsAbout(fs []diag.Finding, t explain.Trace) []diag.Finding {
	named := map[diag.ObjectRef]bool{}
	add := func(r explain.Ref) { named[diag.ObjectRef{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}] = true }
	if t.Gateway != nil {
		add(explain.Ref(*t.Gateway))
	}
	if t.Listener != nil {
		add(t.Listener.Object)
	}
	if t.Route != nil {
		add(t.Route.Object)
	}
	for _, b := range t.Backends {
		if b.BackendRef != nil {
			add(*b.BackendRef)
		}
	}
	for _, m := range t.NearMisses {
		add(m.Object)
	}
	for _, p := range t.Policies {
		add(p.Policy)
	}
	var out []diag.Finding
	for _, f := range fs {
		if named[f.Object] && f.Severity >= diag.Warning {
			out = append(out, f)
		}
	}
	return out
}

// request turns the URL and flags into the request to explain, the way a
// cases file's request is built (routetest.Request); every mistake is a
// usage error.
func (e *explainFlags) request(rawURL string) (explain.Request, error) {
	r := routetest.Request{
		URL: rawURL, Method: e.Method, SNI: e.SNI, Gateway: e.Gateway, Port: e.Port, Address: e.Address, GRPC: e.GRPC, KeepPath: e.KeepPath,
		ClientIP: e.ClientIP,
	}
	for _, h := range e.Headers {
		name, value, ok := strings.Cut(h, ":")
		if !ok {
			return explain.Request{}, usageErrorf("invalid header %q (want 'Name: value')", h)
		}
		r.Headers = append(r.Headers, routetest.Header{Name: name, Value: value})
	}
	req, err := r.Build(e.pipeline.Namespace)
	if err != nil {
		return explain.Request{}, usageErrorf("%v", err)
	}
	return req, nil
}
