package conformance

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"

	corev1 "k8s.io/api/core/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/offline"
	"github.com/gwsim/gwsim/translate/ir"
)

// Network is what stands between the suite's clients and a Cluster: the
// network that maps a Gateway's address to it, the Gateway's data plane
// (gwsim's evaluator over the settled IR), and the running echo-basic
// Pods behind it, whose state outlives a request (echoPods). The suite's
// HTTP round-tripper, gRPC client, WebSocket dialer and clientset (for
// Pod logs) all go through one Network, so that what one client does
// (a mirrored request, a retried one) shows to the others.
type Network struct {
	cluster *Cluster
	pods    *echoPods

	mu sync.Mutex
	// world and plane are the data plane built from the world the cluster
	// last returned; the cluster returns the same world until a write.
	world *offline.Result
	plane *dataPlane
}

// NewNetwork returns the network in front of c, with echo Pods that have
// printed nothing yet.
func NewNetwork(c *Cluster) *Network {
	return &Network{cluster: c, pods: newEchoPods()}
}

// dataPlane returns the data plane for the cluster's world as it stands.
func (n *Network) dataPlane(ctx context.Context) (*dataPlane, error) {
	world, err := n.cluster.World(ctx)
	if err != nil {
		return nil, err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if world == n.world {
		return n.plane, nil
	}
	var pods corev1.PodList
	if err := n.cluster.List(ctx, &pods); err != nil {
		return nil, fmt.Errorf("listing Pods: %w", err)
	}
	n.world, n.plane = world, newDataPlane(world, pods.Items, n.pods)
	return n.plane, nil
}

// dataPlane is one settled world as the network sees it. It is read-only
// once built, and shared by concurrent requests.
type dataPlane struct {
	model ir.IR
	// gateways maps a Gateway status address to the Gateway, "ns/name".
	gateways map[string]string
	// pods maps a Pod IP to the Pod, which answers for its endpoint.
	pods map[string]*corev1.Pod
	// secrets and configMaps index the world's Secrets and ConfigMaps by
	// "namespace/name", for the CA bundles the IR names.
	secrets    map[string]*corev1.Secret
	configMaps map[string]*corev1.ConfigMap
	// procs is the running state of the echo Pods.
	procs *echoPods
}

func newDataPlane(world *offline.Result, pods []corev1.Pod, procs *echoPods) *dataPlane {
	dp := &dataPlane{
		model: world.Output.IR, gateways: map[string]string{}, pods: map[string]*corev1.Pod{},
		secrets: map[string]*corev1.Secret{}, configMaps: map[string]*corev1.ConfigMap{}, procs: procs,
	}
	for _, o := range world.Objects {
		key := o.GetNamespace() + "/" + o.GetName()
		switch o := o.(type) {
		case *gwv1.Gateway:
			for _, a := range o.Status.Addresses {
				dp.gateways[a.Value] = key
			}
		case *corev1.Secret:
			dp.secrets[key] = o
		case *corev1.ConfigMap:
			dp.configMaps[key] = o
		}
	}
	for i := range pods {
		if ip := pods[i].Status.PodIP; ip != "" {
			dp.pods[ip] = &pods[i]
		}
	}
	return dp
}

// gatewayAt finds the Gateway ("namespace/name") whose address is host,
// or says why a connection to host fails: a host name that is no Gateway's
// address fails its DNS lookup, and an address no Gateway holds refuses
// the connection. Whether the Gateway listens on the port is the
// evaluator's answer (NoGateway).
func (dp *dataPlane) gatewayAt(host string) (string, error) {
	gw, ok := dp.gateways[host]
	if !ok {
		if net.ParseIP(host) == nil {
			return "", &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		}
		return "", errRefused
	}
	return gw, nil
}

// errRefused marks a connection that nothing accepts; callers turn it
// into the error their client would report.
var errRefused = errors.New("connection refused")
