package conformance

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/miekg/dns"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/gateway-api/conformance/echo-basic/tcpserver"

	"github.com/gwsim/gwsim/offline/load"
)

// loopbackCluster is a cluster holding the upstream base manifests and
// the given test manifests, as the suite's Applier would have created
// them.
func loopbackCluster(t *testing.T, manifests ...string) *Cluster {
	t.Helper()
	s := Setup{Manifests: manifests}.withDefaults()
	data, err := s.YAML()
	if err != nil {
		t.Fatal(err)
	}
	loaded := load.Load(load.Options{Paths: []string{"-"}, Stdin: bytes.NewReader(data)})
	if len(loaded.Errors) > 0 {
		t.Fatalf("loading: %v", loaded.Errors)
	}
	objs := loaded.Objects
	prepare(objs, s)
	secrets, err := SuiteSecrets()
	if err != nil {
		t.Fatal(err)
	}
	for _, sec := range secrets {
		objs = append(objs, sec)
	}
	c, err := NewCluster(DefaultControllerName, objs...)
	if err != nil {
		t.Fatal(err)
	}
	// The loader keeps only the identity of the kinds gwsim does not read;
	// the echo Deployments are created as the Applier does, unstructured.
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		var u unstructured.Unstructured
		if err := dec.Decode(&u.Object); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if u.GetKind() == "Deployment" {
			if err := c.Create(t.Context(), &u); err != nil {
				t.Fatal(err)
			}
		}
	}
	return c
}

// loopbackAddr reads a Gateway's address, as the suite does before it
// dials, and joins it with port.
func loopbackAddr(t *testing.T, c *Cluster, name string, port int) string {
	t.Helper()
	var gw gwv1.Gateway
	if err := c.Get(t.Context(), types.NamespacedName{Namespace: "gateway-conformance-infra", Name: name}, &gw); err != nil {
		t.Fatal(err)
	}
	if len(gw.Status.Addresses) == 0 {
		t.Fatalf("Gateway %s has no address", name)
	}
	ip := net.ParseIP(gw.Status.Addresses[0].Value)
	if ip == nil || !ip.IsLoopback() {
		t.Fatalf("Gateway %s has address %s, outside loopback", name, gw.Status.Addresses[0].Value)
	}
	return net.JoinHostPort(ip.String(), fmt.Sprint(port))
}

// echoTest speaks to echo-basic's TCP server over conn: the welcome line,
// then TEST, whose JSON answer it returns.
func echoTest(conn net.Conn) (tcpserver.TCPAssertions, error) {
	var a tcpserver.TCPAssertions
	conn.SetDeadline(time.Now().Add(2 * time.Second))
	r := bufio.NewReader(conn)
	if welcome, err := r.ReadString('\n'); err != nil || welcome != tcpserver.WelcomeMessage {
		return a, fmt.Errorf("welcome %q: %v", welcome, err)
	}
	fmt.Fprint(conn, "TEST\n")
	line, err := r.ReadString('\n')
	if err != nil {
		return a, err
	}
	return a, json.Unmarshal([]byte(line), &a)
}

// TestLoopbackForwardsByTheEvaluator dials the sockets the network opens
// for TCP, TLS and UDP listeners, as the suite's own dialers do, and
// checks that the answers are the evaluator's: weighted backends (never
// the one of weight 0), passthrough to the Pod that handshakes with the
// client's SNI, a reset for an SNI no route takes, CoreDNS's whoami
// through a UDPRoute, and nothing listening once the network is closed.
func TestLoopbackForwardsByTheEvaluator(t *testing.T) {
	c := loopbackCluster(t, "tests/tcproute-weighted-routing.yaml", "tests/tlsroute-simple-same-namespace.yaml", "tests/udproute-simple.yaml")
	closeAll := NewNetwork(c).OpenLoopback()
	defer closeAll()

	tcpAddr := loopbackAddr(t, c, "tcp-weighted-gateway", 9300)
	seen := map[string]int{}
	for i := range 40 {
		conn, err := net.Dial("tcp", tcpAddr)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		a, err := echoTest(conn)
		conn.Close()
		if err != nil {
			t.Fatal(err)
		}
		seen[strings.Join(strings.Split(a.Pod, "-")[:3], "-")]++
	}
	if seen["tcp-backend-v1"] == 0 || seen["tcp-backend-v2"] == 0 || seen["tcp-backend-v3"] > 0 || len(seen) != 2 {
		t.Errorf("weighted TCP backends reached: %v, want v1 and v2 only", seen)
	}

	tlsAddr := loopbackAddr(t, c, "gateway-tlsroute", 443)
	conn, err := tls.Dial("tcp", tlsAddr, &tls.Config{ServerName: "abc.example.com", InsecureSkipVerify: true})
	if err != nil {
		t.Fatal(err)
	}
	a, err := echoTest(conn)
	conn.Close()
	if err != nil || !a.IsTLS || a.TLSAssertion == nil || a.TLSAssertion.ServerName != "abc.example.com" || !strings.HasPrefix(a.Pod, "tcp-backend-") {
		t.Errorf("passthrough: %+v, %v; want the tcp-backend Pod's own TLS with SNI abc.example.com", a, err)
	}
	if _, err := tls.Dial("tcp", tlsAddr, &tls.Config{ServerName: "other.example.com", InsecureSkipVerify: true}); !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("an SNI no route takes: %v, want a reset", err)
	}

	dnsAddr := loopbackAddr(t, c, "udp-gateway", 5300)
	msg := new(dns.Msg)
	msg.SetQuestion("foo.bar.com.", dns.TypeA)
	r, err := dns.Exchange(msg, dnsAddr)
	if err != nil || len(r.Answer) != 1 {
		t.Fatalf("DNS through the UDPRoute: %v, %v", r, err)
	}
	if host, _, _ := net.SplitHostPort(dnsAddr); r.Answer[0].(*dns.A).A.String() != host {
		t.Errorf("whoami answered %s, want the gateway's address %s", r.Answer[0], host)
	}

	if err := closeAll(); err != nil {
		t.Fatal(err)
	}
	if conn, err := net.Dial("tcp", tcpAddr); err == nil {
		conn.Close()
		t.Errorf("%s still accepts connections after the network closed", tcpAddr)
	}
}
