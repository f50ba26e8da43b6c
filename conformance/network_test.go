package conformance

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/gateway-api/conformance/utils/roundtripper"
)

// networkObjects is the round-trip world plus what the stateful parts of
// the network need: a one-replica "flaky" echo (so that the retry
// simulation's counters live in one Pod) behind a /retry rule that
// retries 500 twice; a /mirror rule that mirrors to flaky; a /ws rule to
// the echo (for WebSocket upgrades); and a "grpc"
// Deployment running echo-basic's gRPC server, with a GRPCRoute sending
// Echo and EchoThree to it and EchoTwo to the HTTP echo, on a listener of
// its own (port 8080).
func networkObjects(t *testing.T) []client.Object {
	t.Helper()
	prefix := func(p string) []gwv1.HTTPRouteMatch {
		return []gwv1.HTTPRouteMatch{{Path: &gwv1.HTTPPathMatch{Type: new(gwv1.PathMatchPathPrefix), Value: new(p)}}}
	}
	ref := func(name string) gwv1.BackendObjectReference {
		return gwv1.BackendObjectReference{Name: gwv1.ObjectName(name), Port: new(gwv1.PortNumber(8080))}
	}
	backends := func(name string) []gwv1.HTTPBackendRef {
		return []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{BackendObjectReference: ref(name)}}}
	}
	method := func(m string) []gwv1.GRPCRouteMatch {
		return []gwv1.GRPCRouteMatch{{Method: &gwv1.GRPCMethodMatch{Service: new(grpcEchoService), Method: new(m)}}}
	}
	grpcBackends := func(name string) []gwv1.GRPCBackendRef {
		return []gwv1.GRPCBackendRef{{BackendRef: gwv1.BackendRef{BackendObjectReference: ref(name)}}}
	}
	parent := func(listener string) gwv1.CommonRouteSpec {
		return gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{{Name: "gw", SectionName: new(gwv1.SectionName(listener))}}}
	}
	grpcService := service("grpc")
	grpcService.Spec.Ports[0].AppProtocol = new("kubernetes.io/h2c")
	objs := roundTripObjects(t)
	for _, o := range objs {
		if gw, ok := o.(*gwv1.Gateway); ok {
			gw.Spec.Listeners = append(gw.Spec.Listeners, gwv1.Listener{Name: "grpc", Port: 8080, Protocol: gwv1.HTTPProtocolType})
		}
	}
	return append(objs,
		&gwv1.HTTPRoute{TypeMeta: metav1.TypeMeta{APIVersion: gwv1.GroupVersion.String(), Kind: "HTTPRoute"},
			ObjectMeta: metav1.ObjectMeta{Namespace: rtNS, Name: "network"},
			Spec: gwv1.HTTPRouteSpec{CommonRouteSpec: parent("http"), Rules: []gwv1.HTTPRouteRule{{
				Matches: prefix("/retry"), BackendRefs: backends("flaky"),
				Retry: &gwv1.HTTPRouteRetry{Codes: []gwv1.HTTPRouteRetryStatusCode{500}, Attempts: new(2)},
			}, {
				Matches: prefix("/mirror"), BackendRefs: backends("echo"),
				Filters: []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterRequestMirror, RequestMirror: &gwv1.HTTPRequestMirrorFilter{BackendRef: ref("flaky")}}},
			}, {
				Matches: prefix("/ws"), BackendRefs: backends("echo"),
			}}}},
		&gwv1.GRPCRoute{TypeMeta: metav1.TypeMeta{APIVersion: gwv1.GroupVersion.String(), Kind: "GRPCRoute"},
			ObjectMeta: metav1.ObjectMeta{Namespace: rtNS, Name: "grpc"},
			Spec: gwv1.GRPCRouteSpec{CommonRouteSpec: parent("grpc"), Hostnames: []gwv1.Hostname{"grpc.example"}, Rules: []gwv1.GRPCRouteRule{
				{Matches: method("Echo"), BackendRefs: grpcBackends("grpc")},
				{Matches: method("EchoThree"), BackendRefs: grpcBackends("grpc")},
				{Matches: method("EchoTwo"), BackendRefs: grpcBackends("echo")},
			}}},
		service("flaky"), echoDeployment("flaky", 1),
		grpcService, echoDeployment("grpc", 2, corev1.EnvVar{Name: "GRPC_ECHO_SERVER", Value: "1"}),
	)
}

// echoDeployment runs echo-basic with the suite's environment plus env.
func echoDeployment(name string, replicas int32, env ...corev1.EnvVar) *appsv1.Deployment {
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}, ObjectMeta: metav1.ObjectMeta{Namespace: rtNS, Name: name},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: corev1.PodSpec{
				Containers: []corev1.Container{{Name: name, Image: "echo-basic", Env: append(echoEnv(), env...)}},
			}},
		},
	}
}

// newTestNetwork returns the network over networkObjects and the Gateway's
// address.
func newTestNetwork(t *testing.T) (*Network, string) {
	t.Helper()
	cluster, err := NewCluster(DefaultControllerName, networkObjects(t)...)
	if err != nil {
		t.Fatal(err)
	}
	return NewNetwork(cluster), gatewayAddr(t, cluster, types.NamespacedName{Namespace: rtNS, Name: "gw"})
}

// TestRoundTripperRetries checks the rule's retry policy (500, two
// retries) against echo-basic's retry simulation in a one-Pod backend:
// each uuid fails its first succeedAfter requests.
func TestRoundTripperRetries(t *testing.T) {
	network, addr := newTestNetwork(t)
	rt := &RoundTripper{Network: network}
	tests := []struct {
		name, query string
		status      int
	}{
		{"500 twice, then the echo: the second retry succeeds", "succeedAfter=2&responseCode=500", 200},
		{"500 three times: the retries run out", "succeedAfter=3&responseCode=500", 500},
		{"503 is not a listed code: no retry", "succeedAfter=1&responseCode=503", 503},
		{"resets are retried", "succeedAfter=2", 200},
		{"resets past the retries: the gateway's 503", "succeedAfter=3", 503},
		{"no uuid: the echo's 400", "", 400},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			query := tt.query
			if query != "" {
				query += fmt.Sprintf("&uuid=%s-%d", t.Name(), i)
			}
			req := roundtripper.Request{URL: url.URL{Scheme: "http", Host: addr, Path: "/retry/x", RawQuery: query}}
			creq, cres, err := rt.CaptureRoundTrip(req)
			checkRoundTrip(t, rtWant{status: tt.status}, creq, cres, err)
		})
	}
}

// TestMirrorLogs checks that a mirrored request shows in the mirror Pod's
// logs as the suite reads them (Clientset, GetLogs with SinceTime), and
// that the clientset refuses what it does not serve.
func TestMirrorLogs(t *testing.T) {
	network, addr := newTestNetwork(t)
	rt := &RoundTripper{Network: network}
	cs := Clientset(network)
	start := time.Now()
	if _, cres, err := rt.CaptureRoundTrip(roundtripper.Request{URL: url.URL{Scheme: "http", Host: addr, Path: "/mirror", RawQuery: "id=1"}}); err != nil || cres.StatusCode != 200 {
		t.Fatalf("round trip: %v %+v", err, cres)
	}
	var pods corev1.PodList
	if err := network.cluster.List(context.Background(), &pods, client.InNamespace(rtNS), client.MatchingLabels{"app": "flaky"}); err != nil || len(pods.Items) != 1 {
		t.Fatalf("flaky Pods: %v %v", err, pods.Items)
	}
	const line = "Echoing back request made to /mirror?id=1 to client"
	if got := podLogs(t, cs, pods.Items[0].Name, start); !strings.Contains(got, line) {
		t.Errorf("mirror Pod logs = %q, want a line with %q", got, line)
	}
	if got := podLogs(t, cs, pods.Items[0].Name, time.Now().Add(time.Second)); got != "" {
		t.Errorf("logs since a later time = %q, want none", got)
	}
	if _, err := cs.CoreV1().Pods(rtNS).List(context.Background(), metav1.ListOptions{}); err == nil {
		t.Error("listing Pods through the clientset: want an error, the clientset serves only logs")
	}
}

func podLogs(t *testing.T, cs kubernetes.Interface, pod string, since time.Time) string {
	t.Helper()
	stream, err := cs.CoreV1().Pods(rtNS).GetLogs(pod, &corev1.PodLogOptions{SinceTime: &metav1.Time{Time: since}}).Stream(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	b, err := io.ReadAll(stream)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
