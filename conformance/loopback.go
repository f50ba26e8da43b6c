package conformance

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/gwsim/gwsim/translate/evaluate"
)

// The loopback network's bounds: a test that opens more connections at
// once, holds one longer or sends a larger ClientHello or datagram than
// these is cut off, so that a run cannot hang or grow without limit.
const (
	maxLoopbackConns = 64
	streamDeadline   = 10 * time.Second
	maxClientHello   = 64 << 10
	maxDatagram      = 64 << 10
)

// loopback is the part of the network that the suite's own dialers reach
// (utils/tcp, utils/udp, tls.Dialer, miekg/dns): real sockets, bound only
// on the Gateways' addresses in 127.0.0.0/8 (Cluster hands those out) and
// only on the ports where a Gateway has TCP, TLS or UDP listeners
// (evaluate.StreamPorts). HTTP and HTTPS requests keep going through the
// round-tripper. It is a thin adapter like RoundTripper: each connection
// or datagram is answered by the evaluator (EvaluateConnection for the
// listener, the route and the weighted backend; StreamTarget for the
// endpoint), and the harness plays only the network and the Pods:
//   - a TCP connection is first evaluated as plain TCP; where no listener
//     takes plain TCP (the port's listeners are TLS), the network reads
//     the client's ClientHello and evaluates the connection with its SNI;
//   - a connection the evaluator does not forward is reset; a datagram it
//     does not forward is dropped;
//   - when the listener terminates TLS (the evaluator names the
//     certificates it serves), the handshake is made with those
//     certificates, crypto/tls choosing among them by SNI as a server
//     does, and the Pod sees the plain stream; passed-through TLS reaches
//     the Pod with the client's ClientHello replayed, and the Pod
//     handshakes itself (echo_stream.go);
//   - the Pod behind the endpoint answers as echo-basic's TCP or UDP
//     server, or CoreDNS, does.
//
// Not emulated: client certificate validation on TLS listeners (the
// evaluator is told nothing of the client's certificate, which it takes as
// verifying).
type loopback struct {
	n      *Network
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// syncMu runs one sync at a time, so that a sync of an older world
	// cannot undo that of a newer one.
	syncMu sync.Mutex

	mu      sync.Mutex
	closed  bool
	sockets map[socketKey]io.Closer
	conns   map[net.Conn]bool
	rnd     *rand.Rand
	errs    []error
}

// socketKey is one bound socket: a Gateway address, a port, a transport.
type socketKey struct {
	addr      string
	port      int32
	transport string
}

// OpenLoopback binds the sockets of the cluster's Gateways as they stand,
// and keeps them in step with every world the cluster settles from now
// on, until the returned function closes them all, with their
// connections, and reports the sockets it could not bind.
func (n *Network) OpenLoopback() (closeAll func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	l := &loopback{
		n: n, ctx: ctx, cancel: cancel, sockets: map[socketKey]io.Closer{}, conns: map[net.Conn]bool{},
		rnd: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())),
	}
	n.cluster.onSettle(l.sync)
	l.sync(ctx)
	return l.close
}

// sync binds the sockets the data plane now needs and closes the others.
func (l *loopback) sync(ctx context.Context) {
	l.syncMu.Lock()
	defer l.syncMu.Unlock()
	dp, err := l.n.dataPlane(ctx)
	if err != nil {
		l.fail(err)
		return
	}
	want := map[socketKey]bool{}
	for addr, gw := range dp.gateways {
		if ip := net.ParseIP(addr); ip == nil || !ip.IsLoopback() {
			continue // never bind outside loopback
		}
		for _, sp := range evaluate.StreamPorts(dp.model, gw) {
			want[socketKey{addr, sp.Port, sp.Transport}] = true
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	for k, s := range l.sockets {
		if !want[k] {
			s.Close()
			delete(l.sockets, k)
		}
	}
	for k := range want {
		if l.sockets[k] == nil {
			l.bind(k)
		}
	}
}

// bind opens the socket k and serves it. The caller holds l.mu.
func (l *loopback) bind(k socketKey) {
	hostport := net.JoinHostPort(k.addr, strconv.Itoa(int(k.port)))
	if k.transport == "UDP" {
		pc, err := net.ListenPacket("udp", hostport)
		if err != nil {
			l.errs = append(l.errs, err)
			return
		}
		l.sockets[k] = pc
		l.wg.Go(func() { l.serveUDP(pc, k) })
		return
	}
	ln, err := net.Listen("tcp", hostport)
	if err != nil {
		l.errs = append(l.errs, err)
		return
	}
	l.sockets[k] = ln
	l.wg.Go(func() { l.acceptTCP(ln, k) })
}

func (l *loopback) fail(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, err)
}

// close unbinds every socket, closes every connection and waits for their
// goroutines.
func (l *loopback) close() error {
	l.n.cluster.onSettle(nil)
	l.mu.Lock()
	l.closed = true
	for _, s := range l.sockets {
		s.Close()
	}
	for c := range l.conns {
		c.Close()
	}
	errs := l.errs
	l.mu.Unlock()
	l.cancel()
	l.wg.Wait()
	return errors.Join(errs...)
}

// connection is a connection (or datagram) arriving on socket k, as the
// evaluator takes it, with the data plane as it stands and the random
// source of its endpoint choice; ok is false when no Gateway holds the
// address any more.
func (l *loopback) connection(k socketKey, protocol string) (dp *dataPlane, c evaluate.Connection, rnd *rand.Rand, ok bool) {
	dp, err := l.n.dataPlane(l.ctx)
	if err != nil {
		return nil, c, nil, false
	}
	gw, err := dp.gatewayAt(k.addr)
	if err != nil {
		return nil, c, nil, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	c = evaluate.Connection{Gateway: gw, Port: k.port, Protocol: protocol, Seed: l.rnd.Int64()}
	return dp, c, rand.New(rand.NewPCG(l.rnd.Uint64(), l.rnd.Uint64())), true
}

func (l *loopback) acceptTCP(ln net.Listener, k socketKey) {
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		l.mu.Lock()
		if l.closed || len(l.conns) >= maxLoopbackConns {
			l.mu.Unlock()
			conn.Close()
			continue
		}
		l.conns[conn] = true
		l.mu.Unlock()
		l.wg.Go(func() {
			defer func() {
				conn.Close()
				l.mu.Lock()
				delete(l.conns, conn)
				l.mu.Unlock()
			}()
			if !l.serveTCP(conn, k) {
				reset(conn)
			}
		})
	}
}

// serveTCP hands one connection to the evaluator and, when it is
// forwarded, to the Pod behind the endpoint; false means the gateway
// drops it.
func (l *loopback) serveTCP(conn net.Conn, k socketKey) bool {
	conn.SetDeadline(time.Now().Add(streamDeadline))
	dp, c, rnd, ok := l.connection(k, "TCP")
	if !ok {
		return false
	}
	res := evaluate.EvaluateConnection(dp.model, c)
	var stream net.Conn = conn
	if res.Outcome == evaluate.NoListener {
		hello, sni, ok := readClientHello(conn)
		if !ok {
			return false
		}
		c.Protocol, c.SNI = "TLS", sni
		res = evaluate.EvaluateConnection(dp.model, c)
		stream = &replayConn{Conn: conn, r: io.MultiReader(bytes.NewReader(hello), conn)}
	}
	t, why := evaluate.StreamTarget(res, c, rnd)
	if why != "" {
		return false
	}
	if len(res.Certificates) > 0 {
		cfg, err := dp.listenerTLS(res.Certificates)
		if err != nil {
			return false
		}
		tc := tls.Server(stream, cfg)
		if tc.HandshakeContext(l.ctx) != nil {
			return true // the client saw the handshake fail
		}
		stream = tc
	}
	pod := dp.pods[t.Endpoint.Address]
	if pod == nil {
		return false
	}
	return dp.serveStream(l.ctx, pod, t.Endpoint.Port, stream)
}

func (l *loopback) serveUDP(pc net.PacketConn, k socketKey) {
	buf := make([]byte, maxDatagram)
	for {
		n, from, err := pc.ReadFrom(buf)
		if err != nil {
			return
		}
		if reply := l.datagram(k, buf[:n]); reply != nil {
			pc.WriteTo(reply, from)
		}
	}
}

// datagram hands one datagram to the evaluator and returns the answer of
// the Pod it is forwarded to; nil drops it.
func (l *loopback) datagram(k socketKey, payload []byte) []byte {
	dp, c, rnd, ok := l.connection(k, "UDP")
	if !ok {
		return nil
	}
	t, why := evaluate.StreamTarget(evaluate.EvaluateConnection(dp.model, c), c, rnd)
	if why != "" {
		return nil
	}
	pod := dp.pods[t.Endpoint.Address]
	if pod == nil {
		return nil
	}
	return dp.answerDatagram(pod, t.Endpoint.Port, payload, net.ParseIP(k.addr))
}

// listenerTLS is the server side of a listener's TLS: the certificates
// of the Secrets ("namespace/name") the evaluator says it serves.
func (dp *dataPlane) listenerTLS(secrets []string) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	for _, key := range secrets {
		s := dp.secrets[key]
		if s == nil {
			return nil, fmt.Errorf("certificate Secret %s is gone", key)
		}
		cert, err := tls.X509KeyPair(s.Data["tls.crt"], s.Data["tls.key"])
		if err != nil {
			return nil, fmt.Errorf("certificate Secret %s: %w", key, err)
		}
		cfg.Certificates = append(cfg.Certificates, cert)
	}
	return cfg, nil
}

// reset closes conn with a TCP RST, as a gateway that drops a connection
// does.
func reset(conn net.Conn) {
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	conn.Close()
}

// errHelloRead stops the handshake readClientHello starts, once the
// ClientHello is read.
var errHelloRead = errors.New("ClientHello read")

// readClientHello reads the client's ClientHello from conn (no more than
// maxClientHello bytes) and returns the bytes read, to be replayed to
// whoever handshakes, and the SNI it carries.
func readClientHello(conn net.Conn) (read []byte, sni string, ok bool) {
	rec := &helloRecorder{Conn: conn}
	cfg := &tls.Config{GetConfigForClient: func(h *tls.ClientHelloInfo) (*tls.Config, error) {
		sni, ok = h.ServerName, true
		return nil, errHelloRead
	}}
	_ = tls.Server(rec, cfg).Handshake()
	return rec.buf.Bytes(), sni, ok
}

// helloRecorder keeps what is read from the client, and swallows the
// alert that the aborted handshake writes.
type helloRecorder struct {
	net.Conn
	buf bytes.Buffer
}

func (r *helloRecorder) Read(p []byte) (int, error) {
	if r.buf.Len() >= maxClientHello {
		return 0, errors.New("ClientHello too large")
	}
	n, err := r.Conn.Read(p)
	r.buf.Write(p[:n])
	return n, err
}

func (r *helloRecorder) Write(p []byte) (int, error) { return len(p), nil }

// replayConn reads the bytes already read from a connection before the
// rest of it.
type replayConn struct {
	net.Conn
	r io.Reader
}

func (c *replayConn) Read(p []byte) (int, error) { return c.r.Read(p) }
