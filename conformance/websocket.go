package conformance

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/net/websocket"
	wsutil "sigs.k8s.io/gateway-api/conformance/utils/websocket"

	"github.com/gwsim/gwsim/translate/evaluate"
)

// WebSocketDialer is the suite's websocket.Dialer over a Network. The
// upgrade request (GET with Upgrade: websocket) is routed by gwsim's
// evaluator like any request, and the gateway passes the upgrade through
// on every route, as Envoy Gateway does. A Pod running echo-basic's HTTP
// server answers it on /ws with a real WebSocket server that echoes every
// frame back (echo-basic's wsHandler), over a loopback connection; any
// other answer (no route, no endpoint, a path other than /ws, which the
// echo answers with its JSON) fails the handshake with a bad status, as
// websocket.Dial reports it. An address or port nothing listens on
// refuses the connection. Not emulated: wss:// (TLS).
type WebSocketDialer struct {
	Network *Network
}

var _ wsutil.Dialer = (*WebSocketDialer)(nil)

// Dial opens a WebSocket connection to rawURL, as websocket.Dial does.
func (d *WebSocketDialer) Dial(rawURL, protocol, origin string) (*websocket.Conn, error) {
	config, err := websocket.NewConfig(rawURL, origin)
	if err != nil {
		return nil, err
	}
	if protocol != "" {
		config.Protocol = []string{protocol}
	}
	fail := func(err error) (*websocket.Conn, error) { return nil, &websocket.DialError{Config: config, Err: err} }
	if config.Location.Scheme != "ws" {
		return fail(fmt.Errorf("gwsim: %s is not emulated", config.Location.Scheme))
	}
	dp, err := d.Network.dataPlane(context.Background())
	if err != nil {
		return fail(fmt.Errorf("gwsim WebSocket dialer: %w", err))
	}
	echo, err := dp.upgrade(config)
	if err != nil {
		return fail(err)
	}
	// The Pod's server runs on a loopback connection: unlike net.Pipe it
	// buffers, as the TCP connection through the gateway does, so that a
	// client may send several frames before reading the echoes.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fail(err)
	}
	srv := &http.Server{Handler: echo, ReadHeaderTimeout: time.Second}
	go func() { _ = srv.Serve(&oneConnListener{Listener: ln}) }()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		ln.Close()
		return fail(err)
	}
	return websocket.NewClient(config, conn)
}

// upgrade routes the upgrade request of config and returns the WebSocket
// server of the Pod that takes it.
func (dp *dataPlane) upgrade(config *websocket.Config) (http.Handler, error) {
	u := config.Location
	port := int32(80)
	if p := u.Port(); p != "" {
		n, err := strconv.ParseInt(p, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("invalid port %q", p)
		}
		port = int32(n)
	}
	gw, err := dp.gatewayAt(u.Hostname())
	if err != nil {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: err}
	}
	headers := http.Header{"Upgrade": {"websocket"}, "Connection": {"Upgrade"}, "Sec-Websocket-Version": {"13"}}
	if config.Origin != nil {
		headers.Set("Origin", config.Origin.String())
	}
	rnd := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	res := evaluate.Evaluate(dp.model, evaluate.Request{
		Scheme: "http", Host: u.Hostname(), Authority: u.Host, Port: port, Method: http.MethodGet, Path: u.RequestURI(),
		Headers: headers, Gateway: gw, Seed: rnd.Int64(),
	})
	if res.Outcome == evaluate.NoGateway {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errRefused}
	}
	if res.Status == 0 { // no HTTP answer: the connection fails
		return nil, fmt.Errorf("gwsim: %s: %w", res.Reason, io.EOF)
	}
	answer := evaluate.Exchange(res, dp.wsSender(u.Hostname()), rnd)
	if h, ok := answer.Body.(http.Handler); ok && !answer.Local {
		return h, nil
	}
	return nil, websocket.ErrBadStatus
}

// oneConnListener accepts one connection and closes, so that
// http.Server.Serve returns while that connection is served.
type oneConnListener struct {
	net.Listener
	once sync.Once
}

func (l *oneConnListener) Accept() (net.Conn, error) {
	err := net.ErrClosed
	var c net.Conn
	l.once.Do(func() {
		c, err = l.Listener.Accept()
		l.Listener.Close()
	})
	return c, err
}
