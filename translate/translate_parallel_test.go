package translate_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/load"
	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/translatetest"
)

// parallelWorld is the fixed part of TestTranslateSpreadIsInvisible's
// input: a Gateway with an HTTP, a TCP and a UDP listener for routes from
// every namespace, and in each of two team namespaces a Service with its
// EndpointSlice.
const parallelWorld = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
spec: {controllerName: example.com/c}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: gc
  listeners:
  - {name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}
  - {name: tcp, protocol: TCP, port: 9000, allowedRoutes: {namespaces: {from: All}}}
  - {name: udp, protocol: UDP, port: 9001, allowedRoutes: {namespaces: {from: All}}}
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: team-0}
spec: {ports: [{port: 80}]}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: svc-1, namespace: team-0, labels: {kubernetes.io/service-name: svc}}
addressType: IPv4
ports: [{port: 8080}]
endpoints: [{addresses: [10.0.0.1]}]
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: team-1}
spec: {ports: [{port: 80}]}
`

// parallelRoutes are the routes TestTranslateSpreadIsInvisible copies,
// each copy with its own name and references varied through the format's
// operands (missing-<1>, ports 800<2>, 909<2>, 700<2>, be-<3>): every kind of
// reference that records an assumption while routes are translated (a
// missing Service, on TCP and UDP ports, an implementation's backend and
// filter), a parent outside the input, a reference into another namespace
// without a grant, and HTTPRoutes and GRPCRoutes claiming one hostname.
const parallelRoutes = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: team-0}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: http}]
  hostnames: [web.example.com]
  rules:
  - matches: [{path: {type: PathPrefix, value: /a}}]
    backendRefs: [{name: svc, port: 80, weight: 3}, {name: missing-%[1]d, port: 800%[2]d, weight: 1}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: ext, namespace: team-1}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: http}]
  hostnames: [ext.example.com]
  rules:
  - filters: [{type: ExtensionRef, extensionRef: {group: nginx.org, kind: SnippetsFilter, name: snip}}]
    backendRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: be-%[3]d, port: 8080}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: away, namespace: team-1}
spec:
  parentRefs: [{name: elsewhere, namespace: platform}]
  rules:
  - backendRefs: [{name: svc, namespace: team-0, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: GRPCRoute
metadata: {name: rpc, namespace: team-0}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: http}]
  hostnames: [web.example.com]
  rules:
  - backendRefs: [{name: missing-%[1]d, port: 909%[2]d}]
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: tcp, namespace: team-1}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: tcp}]
  rules:
  - backendRefs: [{name: missing-%[1]d, port: 700%[2]d}]
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: UDPRoute
metadata: {name: udp, namespace: team-0}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: udp}]
  rules:
  - backendRefs: [{name: missing-%[1]d, port: 700%[2]d}]
`

// TestTranslateSpreadIsInvisible: on an input large enough that Translate
// spreads its work over goroutines, the Output is the same on one worker
// and on several, with small chunks or large, down to the order of every
// list. The copies of the routes name a handful of missing Services and
// ports in an order that differs from chunk to chunk, so that what the
// workers assume is merged from many forks.
func TestTranslateSpreadIsInvisible(t *testing.T) {
	n := translate.ParallelMinRoutes + 500
	if testing.Short() {
		n = 700 // make race: enough for a hundred forks
	}
	in := spreadInput(t, n)
	opts := translate.Options{OpenWorld: translate.OpenWorld{AllKinds: true}}
	want := translate.TranslateSpread(in, opts, 1, 1)
	assertAssumedFromManyRoutes(t, want, n/50)
	assertSameOutput(t, "4 workers, chunks of 7 routes", want, translate.TranslateSpread(in, opts, 4, 7))
	if testing.Short() {
		return
	}
	assertSameOutput(t, "2 workers, chunks of 1000 routes", want, translate.TranslateSpread(in, opts, 2, 1000))
	assertSameOutput(t, "Translate", want, translate.Translate(in, opts))
	opts.StatusOnly = true
	assertSameOutput(t, "status only, 4 workers", translate.TranslateSpread(in, opts, 1, 1), translate.TranslateSpread(in, opts, 4, 7))
}

// assertSameOutput fails the test when got is not want, down to nil
// against empty (reflect.DeepEqual, which is also much faster than
// cmp.Diff on an Output this large; the diff says where they differ).
func assertSameOutput(t *testing.T, what string, want, got translate.Output) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("%s: Output differs from one worker's (-one +%s):\n%s", what, what, cmp.Diff(want, got))
	}
}

// spreadInput is parallelWorld with n routes copied from parallelRoutes
// in turn. Copy i is of variant v = i mod 35: it names missing Service
// missing-<v mod 7> on ports that end in v mod 5, and its implementation's
// objects after v mod 3, so that every missing Service gains its ports in
// an order of its own.
func spreadInput(t *testing.T, n int) translate.Input {
	t.Helper()
	in, _ := translatetest.Decode(t, "world.yaml", parallelWorld)
	variants := make([][]client.Object, 35)
	for i := range n {
		v := i % len(variants)
		if variants[v] == nil {
			_, variants[v] = translatetest.Decode(t, "routes.yaml", fmt.Sprintf(parallelRoutes, v%7, v%5, v%3))
		}
		r := variants[v][i%len(variants[v])].DeepCopyObject().(client.Object)
		r.SetName(fmt.Sprintf("%s-%05d", r.GetName(), i))
		in.Add(r)
	}
	return in
}

// assertAssumedFromManyRoutes checks that the input does what
// TestTranslateSpreadIsInvisible needs: missing Services assumed for more
// than many routes each, and an implementation's kinds used by as many.
func assertAssumedFromManyRoutes(t *testing.T, out translate.Output, many int) {
	t.Helper()
	var services, extensions int
	for _, f := range out.Findings {
		switch {
		case f.Reason == diag.ReasonAssumedMissing && f.Object.Kind == "Service" && strings.Count(f.Message, "Route team-") > many:
			services++
		case f.Reason == diag.ReasonExtensionNotSimulated && strings.Count(f.Message, "HTTPRoute team-1/ext-") > many:
			extensions++
		}
	}
	if services < 14 || extensions < 2 {
		t.Fatalf("want 14 missing Services and 2 extension kinds each needed by over %d routes; got %d and %d", many, services, extensions)
	}
}

// TestTranslateSpreadOnGoldenInputs: on the input of every golden case,
// as the CLI reads it (missing GatewayClasses assumed, the default open
// world), the Output is the same when every route is a chunk of its own
// on four workers, so that each route's assumptions come from a fork.
// Under the race detector it also shows that the workers share nothing
// they write.
func TestTranslateSpreadOnGoldenInputs(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "golden", "*", "input"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no golden inputs found: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(filepath.Dir(dir)), func(t *testing.T) {
			res := load.Load(load.Options{Paths: []string{dir}, NoValidation: true})
			objs, _ := load.AssumeMissing(res.Objects, "gwsim.dev/gateway-controller")
			world, err := load.OpenWorld(objs, res.Others, load.AssumeDefault)
			if err != nil {
				t.Fatal(err)
			}
			in := translate.Input{Sources: res.Sources, OtherObjects: res.Others}
			for _, o := range objs {
				in.Add(o)
			}
			for _, statusOnly := range []bool{false, true} {
				opts := translate.Options{OpenWorld: world, StatusOnly: statusOnly}
				assertSameOutput(t, fmt.Sprintf("4 workers, status only %v", statusOnly),
					translate.TranslateSpread(in, opts, 1, 1), translate.TranslateSpread(in, opts, 4, 1))
			}
		})
	}
}
