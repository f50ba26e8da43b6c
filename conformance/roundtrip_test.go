package conformance

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/gateway-api/conformance/utils/roundtripper"
)

const rtNS = "rt"

// roundTripObjects is a small world: a Gateway with an HTTP listener on
// 80, two HTTPS listeners on 443 (one for any host, one for
// second.example) and a TLS passthrough listener on 8443; an HTTPRoute
// with an echo rule (request and response header filters, a 500ms request
// timeout), a redirect rule and a rule whose Service has no Pods; a
// TLSRoute for pass.example; the echo Deployment and its Service.
func roundTripObjects(t *testing.T) []client.Object {
	t.Helper()
	crt, key, err := selfSigned([]string{"first.example", "second.example"})
	if err != nil {
		t.Fatal(err)
	}
	meta := func(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: rtNS, Name: name} }
	gwType := func(kind string) metav1.TypeMeta {
		return metav1.TypeMeta{APIVersion: gwv1.GroupVersion.String(), Kind: kind}
	}
	certs := &gwv1.ListenerTLSConfig{CertificateRefs: []gwv1.SecretObjectReference{{Name: "cert"}}}
	pathPrefix := func(p string) []gwv1.HTTPRouteMatch {
		return []gwv1.HTTPRouteMatch{{Path: &gwv1.HTTPPathMatch{Type: new(gwv1.PathMatchPathPrefix), Value: new(p)}}}
	}
	backend := func(name string) []gwv1.HTTPBackendRef {
		return []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{
			Name: gwv1.ObjectName(name), Port: new(gwv1.PortNumber(8080)),
		}}}}
	}
	return []client.Object{
		&corev1.Namespace{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"}, ObjectMeta: metav1.ObjectMeta{Name: rtNS}},
		&corev1.Secret{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"}, ObjectMeta: meta("cert"), Type: corev1.SecretTypeTLS,
			Data: map[string][]byte{corev1.TLSCertKey: crt, corev1.TLSPrivateKeyKey: key},
		},
		&gwv1.GatewayClass{
			TypeMeta: gwType("GatewayClass"), ObjectMeta: metav1.ObjectMeta{Name: "rt"},
			Spec: gwv1.GatewayClassSpec{ControllerName: DefaultControllerName},
		},
		&gwv1.Gateway{TypeMeta: gwType("Gateway"), ObjectMeta: meta("gw"), Spec: gwv1.GatewaySpec{
			GatewayClassName: "rt",
			Listeners: []gwv1.Listener{
				{Name: "http", Port: 80, Protocol: gwv1.HTTPProtocolType},
				{Name: "https", Port: 443, Protocol: gwv1.HTTPSProtocolType, TLS: certs},
				{Name: "https-second", Port: 443, Protocol: gwv1.HTTPSProtocolType, Hostname: new(gwv1.Hostname("second.example")), TLS: certs},
				{Name: "tls", Port: 8443, Protocol: gwv1.TLSProtocolType, TLS: &gwv1.ListenerTLSConfig{Mode: new(gwv1.TLSModePassthrough)}},
			},
		}},
		&gwv1.HTTPRoute{TypeMeta: gwType("HTTPRoute"), ObjectMeta: meta("route"), Spec: gwv1.HTTPRouteSpec{
			CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{{Name: "gw"}}},
			Rules: []gwv1.HTTPRouteRule{{
				Matches: pathPrefix("/echo"),
				Filters: []gwv1.HTTPRouteFilter{{
					Type:                  gwv1.HTTPRouteFilterRequestHeaderModifier,
					RequestHeaderModifier: &gwv1.HTTPHeaderFilter{Add: []gwv1.HTTPHeader{{Name: "X-Added", Value: "1"}}},
				}, {
					Type: gwv1.HTTPRouteFilterResponseHeaderModifier,
					ResponseHeaderModifier: &gwv1.HTTPHeaderFilter{
						Set:    []gwv1.HTTPHeader{{Name: "X-Resp", Value: "yes"}},
						Remove: []string{"X-Gone"},
					},
				}},
				BackendRefs: backend("echo"),
				Timeouts:    &gwv1.HTTPRouteTimeouts{Request: new(gwv1.Duration("500ms"))},
			}, {
				Matches: pathPrefix("/redirect"),
				Filters: []gwv1.HTTPRouteFilter{{
					Type:            gwv1.HTTPRouteFilterRequestRedirect,
					RequestRedirect: &gwv1.HTTPRequestRedirectFilter{Hostname: new(gwv1.PreciseHostname("example.org")), StatusCode: new(302)},
				}},
			}, {
				Matches:     pathPrefix("/empty"),
				BackendRefs: backend("empty"),
			}},
		}},
		&gwv1.TLSRoute{TypeMeta: gwType("TLSRoute"), ObjectMeta: meta("pass"), Spec: gwv1.TLSRouteSpec{
			CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{{Name: "gw", SectionName: new(gwv1.SectionName("tls"))}}},
			Hostnames:       []gwv1.Hostname{"pass.example"},
			Rules: []gwv1.TLSRouteRule{{BackendRefs: []gwv1.BackendRef{{BackendObjectReference: gwv1.BackendObjectReference{
				Name: "echo", Port: new(gwv1.PortNumber(8080)),
			}}}}},
		}},
		service("echo"),
		service("empty"),
		&appsv1.Deployment{
			TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}, ObjectMeta: meta("echo"),
			Spec: appsv1.DeploymentSpec{
				Replicas: new(int32(2)),
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "echo"}},
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "echo"}},
					Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "echo", Image: "echo-basic", Env: echoEnv()}}},
				},
			},
		},
	}
}

// echoEnv is the environment the suite's echo Deployments give echo-basic,
// from which it reports its Pod and namespace.
func echoEnv() []corev1.EnvVar {
	field := func(path string) *corev1.EnvVarSource {
		return &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: path}}
	}
	return []corev1.EnvVar{{Name: "POD_NAME", ValueFrom: field("metadata.name")}, {Name: "NAMESPACE", ValueFrom: field("metadata.namespace")}}
}

// service is a Service selecting app=name, port 8080 to 3000.
func service(name string) *corev1.Service {
	return &corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: metav1.ObjectMeta{Namespace: rtNS, Name: name},
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{"app": name},
			Ports:    []corev1.ServicePort{{Name: "http", Port: 8080, TargetPort: intstr.FromInt32(3000), Protocol: corev1.ProtocolTCP}},
		},
	}
}

// rtWant is what a round trip should give: an error, or a status with
// the echoed request and response headers.
type rtWant struct {
	err error // matched with errors.Is; nil means a response
	// errText, when set, must appear in the error.
	errText string
	status  int
	// echo fields; pod is a prefix. Left empty, they are not checked.
	namespace, pod, path, host, serverName string
	headers                                map[string]string
	// respHeaders must be set to these values; absent must not be set.
	respHeaders map[string]string
	absent      []string
	redirect    *roundtripper.RedirectRequest
}

// servedCertificate is the PEM certificate the round-trip world's HTTPS
// listeners serve, for the client to trust.
func servedCertificate(t *testing.T, objs []client.Object) []byte {
	t.Helper()
	for _, o := range objs {
		if s, ok := o.(*corev1.Secret); ok && s.Name == "cert" {
			return s.Data[corev1.TLSCertKey]
		}
	}
	t.Fatal("no certificate Secret in the world")
	return nil
}

func TestRoundTripper(t *testing.T) {
	objs := roundTripObjects(t)
	served := servedCertificate(t, objs)
	cluster, err := NewCluster(DefaultControllerName, objs...)
	if err != nil {
		t.Fatal(err)
	}
	addr := gatewayAddr(t, cluster, types.NamespacedName{Namespace: rtNS, Name: "gw"})
	rt := &RoundTripper{Network: NewNetwork(cluster)}
	u := func(rawURL string) url.URL {
		parsed, err := url.Parse(strings.ReplaceAll(rawURL, "ADDR", addr))
		if err != nil {
			t.Fatal(err)
		}
		return *parsed
	}
	untrusted, _, err := selfSigned([]string{"first.example"})
	if err != nil {
		t.Fatal(err)
	}
	echoSet := map[string][]string{"X-Echo-Set-Header": {"X-Backend:set, X-Gone:1"}}
	tests := []struct {
		name string
		req  roundtripper.Request
		want rtWant
	}{{
		name: "routed: the echo reports the request as forwarded",
		req: roundtripper.Request{URL: u("http://ADDR/echo/a?q=1"), Host: "example.com",
			Headers: map[string][]string{"x-test": {"a", "ignored"}, "X-Echo-Set-Header": echoSet["X-Echo-Set-Header"]}},
		want: rtWant{status: 200, namespace: rtNS, pod: "echo-", path: "/echo/a?q=1", host: "example.com",
			headers:     map[string]string{"X-Test": "a", "X-Added": "1"},
			respHeaders: map[string]string{"X-Resp": "yes", "X-Backend": "set", "Content-Type": "application/json"},
			absent:      []string{"X-Gone"}},
	}, {
		name: "routed: the Host header keeps its port",
		req:  roundtripper.Request{URL: u("http://ADDR:80/echo"), Host: "example.com:80"},
		want: rtWant{status: 200, namespace: rtNS, pod: "echo-", path: "/echo", host: "example.com:80"},
	}, {
		name: "the echo's ?delay= within the rule's timeout",
		req:  roundtripper.Request{URL: u("http://ADDR/echo?delay=100ms")},
		want: rtWant{status: 200, path: "/echo?delay=100ms"},
	}, {
		name: "the echo's ?delay= beyond the rule's timeout: 504",
		req:  roundtripper.Request{URL: u("http://ADDR/echo?delay=1s")},
		want: rtWant{status: 504},
	}, {
		name: "no route: 404",
		req:  roundtripper.Request{URL: u("http://ADDR/nothing"), Host: "example.com"},
		want: rtWant{status: 404},
	}, {
		name: "redirect: Location and RedirectRequest",
		req:  roundtripper.Request{URL: u("http://ADDR/redirect/x?q=1"), UnfollowRedirect: true},
		want: rtWant{status: 302, respHeaders: map[string]string{"Location": "http://example.org/redirect/x?q=1"},
			redirect: &roundtripper.RedirectRequest{Scheme: "http", Host: "example.org", Path: "/redirect/x"}},
	}, {
		name: "a Service without endpoints: 503",
		req:  roundtripper.Request{URL: u("http://ADDR/empty")},
		want: rtWant{status: 503},
	}, {
		name: "echo-basic's /status/NNN answers NNN",
		req:  roundtripper.Request{URL: u("https://ADDR:8443/status/418"), ServerName: "pass.example"},
		want: rtWant{status: 418},
	}, {
		name: "echo-basic's /status/ without a code: 400",
		req:  roundtripper.Request{URL: u("https://ADDR:8443/status/teapot"), ServerName: "pass.example"},
		want: rtWant{status: 400},
	}, {
		name: "https: the SNI's listener takes the request",
		req: roundtripper.Request{URL: u("https://ADDR/echo"), Host: "first.example", Protocol: roundtripper.HTTPSProtocol,
			ServerName: "first.example", ServerCertificate: served},
		want: rtWant{status: 200, namespace: rtNS, pod: "echo-", path: "/echo", host: "first.example"},
	}, {
		name: "https: a Host of another listener is misdirected",
		req: roundtripper.Request{URL: u("https://ADDR/echo"), Host: "second.example", Protocol: roundtripper.HTTPSProtocol,
			ServerName: "first.example", ServerCertificate: served},
		want: rtWant{status: 421},
	}, {
		name: "https: a ServerName the served certificate does not name fails as x509 does",
		req: roundtripper.Request{URL: u("https://ADDR/echo"), Host: "other.example", Protocol: roundtripper.HTTPSProtocol,
			ServerName: "other.example", ServerCertificate: served},
		want: rtWant{errText: "x509: certificate is valid for first.example, second.example, not other.example"},
	}, {
		name: "https: a certificate the client does not trust fails as x509 does",
		req: roundtripper.Request{URL: u("https://ADDR/echo"), Host: "first.example", Protocol: roundtripper.HTTPSProtocol,
			ServerName: "first.example", ServerCertificate: untrusted},
		want: rtWant{errText: "x509: certificate signed by unknown authority"},
	}, {
		name: "https: without ServerName the suite's client refuses the call",
		req:  roundtripper.Request{URL: u("https://ADDR/echo"), Host: "first.example", Protocol: roundtripper.HTTPSProtocol, ServerCertificate: served},
		want: rtWant{errText: "https request has no server name configured"},
	}, {
		name: "https: Go's default client checks the URL's host, an address the certificate does not name",
		req:  roundtripper.Request{URL: u("https://ADDR/echo"), Host: "second.example"},
		want: rtWant{errText: "doesn't contain any IP SANs"},
	}, {
		name: "plain http to an https port: closed",
		req:  roundtripper.Request{URL: u("http://ADDR:443/echo"), Host: "first.example"},
		want: rtWant{errText: "TLS ClientHello"},
	}, {
		name: "TLS passthrough: the backend sees the SNI and the request as sent",
		req:  roundtripper.Request{URL: u("https://ADDR:8443/any?x"), Host: "pass.example", ServerName: "pass.example"},
		want: rtWant{status: 200, namespace: rtNS, pod: "echo-", path: "/any?x", host: "pass.example", serverName: "pass.example"},
	}, {
		name: "TLS passthrough: no route for the SNI, closed",
		req:  roundtripper.Request{URL: u("https://ADDR:8443/"), ServerName: "other.example"},
		want: rtWant{errText: "other.example"},
	}, {
		name: "a port the Gateway does not listen on: refused",
		req:  roundtripper.Request{URL: u("http://ADDR:9999/echo")},
		want: rtWant{err: syscall.ECONNREFUSED},
	}, {
		name: "an address no Gateway has: refused",
		req:  roundtripper.Request{URL: u("http://192.0.2.99/echo")},
		want: rtWant{err: syscall.ECONNREFUSED},
	}, {
		name: "a name no Gateway has: no such host",
		req:  roundtripper.Request{URL: u("http://nowhere.example/echo")},
		want: rtWant{errText: "no such host"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			creq, cres, err := rt.CaptureRoundTrip(tt.req)
			checkRoundTrip(t, tt.want, creq, cres, err)
		})
	}
}

func checkRoundTrip(t *testing.T, want rtWant, creq *roundtripper.CapturedRequest, cres *roundtripper.CapturedResponse, err error) {
	t.Helper()
	if want.err != nil || want.errText != "" {
		if err == nil || (want.err != nil && !errors.Is(err, want.err)) || !strings.Contains(err.Error(), want.errText) {
			t.Fatalf("err = %v, want %v %q", err, want.err, want.errText)
		}
		return
	}
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	if cres.StatusCode != want.status {
		t.Fatalf("status = %d, want %d (response %+v)", cres.StatusCode, want.status, cres)
	}
	if want.namespace != "" && creq.Namespace != want.namespace {
		t.Errorf("namespace = %q, want %q", creq.Namespace, want.namespace)
	}
	if !strings.HasPrefix(creq.Pod, want.pod) {
		t.Errorf("pod = %q, want prefix %q", creq.Pod, want.pod)
	}
	for field, pair := range map[string][2]string{
		"path": {creq.Path, want.path}, "host": {creq.Host, want.host}, "TLS server name": {creq.TLS.ServerName, want.serverName},
	} {
		if pair[1] != "" && pair[0] != pair[1] {
			t.Errorf("%s = %q, want %q", field, pair[0], pair[1])
		}
	}
	for name, v := range want.headers {
		if got := strings.Join(creq.Headers[name], ","); got != v {
			t.Errorf("forwarded header %s = %q, want %q (headers %v)", name, got, v, creq.Headers)
		}
	}
	for name, v := range want.respHeaders {
		if got := strings.Join(cres.Headers[name], ","); got != v {
			t.Errorf("response header %s = %q, want %q (headers %v)", name, got, v, cres.Headers)
		}
	}
	for _, name := range want.absent {
		if v, ok := cres.Headers[name]; ok {
			t.Errorf("response header %s = %q, want it absent", name, v)
		}
	}
	if diff := cmp.Diff(want.redirect, cres.RedirectRequest); diff != "" {
		t.Errorf("RedirectRequest (-want +got):\n%s", diff)
	}
}

// TestRoundTripperWeights checks that a request's seed is random: two
// backends of equal weight both receive requests.
func TestRoundTripperWeights(t *testing.T) {
	objs := roundTripObjects(t)
	for _, o := range objs {
		if r, ok := o.(*gwv1.HTTPRoute); ok {
			r.Spec.Rules[0].Filters = nil
			other := r.Spec.Rules[0].BackendRefs[0]
			other.Name = "echo2"
			r.Spec.Rules[0].BackendRefs = append(r.Spec.Rules[0].BackendRefs, other)
		}
	}
	dep := objs[len(objs)-1].(*appsv1.Deployment).DeepCopy()
	dep.Name = "echo2"
	dep.Spec.Selector.MatchLabels = map[string]string{"app": "echo2"}
	dep.Spec.Template.Labels = map[string]string{"app": "echo2"}
	objs = append(objs, service("echo2"), dep)
	cluster, err := NewCluster(DefaultControllerName, objs...)
	if err != nil {
		t.Fatal(err)
	}
	addr := gatewayAddr(t, cluster, types.NamespacedName{Namespace: rtNS, Name: "gw"})
	rt := &RoundTripper{Network: NewNetwork(cluster)}
	seen := map[string]int{}
	for range 200 {
		creq, cres, err := rt.CaptureRoundTrip(roundtripper.Request{URL: url.URL{Scheme: "http", Host: addr, Path: "/echo"}})
		if err != nil || cres.StatusCode != 200 {
			t.Fatalf("round trip: %v %+v", err, cres)
		}
		backend, _, _ := strings.Cut(creq.Pod, "-")
		seen[backend]++
	}
	if seen["echo"] == 0 || seen["echo2"] == 0 || len(seen) != 2 {
		t.Errorf("backends seen: %v, want both echo and echo2", seen)
	}
}

// gatewayAddr is the address the cluster gave the Gateway.
func gatewayAddr(t *testing.T, c *Cluster, key types.NamespacedName) string {
	t.Helper()
	var gw gwv1.Gateway
	if err := c.Get(context.Background(), key, &gw); err != nil {
		t.Fatal(err)
	}
	if len(gw.Status.Addresses) == 0 {
		t.Fatalf("Gateway %s has no address in its status", key)
	}
	return gw.Status.Addresses[0].Value
}
