package conformance

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	grpcutil "sigs.k8s.io/gateway-api/conformance/utils/grpc"

	"github.com/gwsim/gwsim/translate/evaluate"
)

// grpcEchoService is the service of echo-basic's gRPC server
// (grpcecho.proto); Echo and EchoTwo are implemented, EchoThree is not.
const grpcEchoService = "gateway_api_conformance.echo_basic.grpcecho.GrpcEcho"

// GRPCClient is the suite's grpc.Client over a Network: each RPC is a
// plaintext HTTP/2 call (h2c, as the suite's insecure client makes) routed
// by gwsim's evaluator (evaluate.GRPCCall), and answered as the backend
// Pod would:
//   - an address or port no Gateway listens on, or a port without an HTTP
//     listener, fails the connection: UNAVAILABLE;
//   - a call the gateway answers itself (no route, a direct response) gets
//     the gRPC status of its HTTP status (evaluate.GRPCStatus); a backend
//     without endpoints, or an endpoint no Pod holds, UNAVAILABLE;
//   - a Pod running echo-basic's gRPC server (GRPC_ECHO_SERVER set)
//     answers Echo and EchoTwo with an EchoResponse whose assertions hold
//     the method, the request metadata as forwarded, the authority and the
//     Pod's context (NAMESPACE, POD_NAME, SERVICE_NAME, INGRESS_NAME), and
//     any other method with UNIMPLEMENTED; a Pod running the HTTP echo
//     answers JSON, which a gRPC client reports as UNKNOWN (or the gRPC
//     status of the echo's HTTP status).
//
// The route's response header modifier applies to the response headers.
// Not emulated: TLS, deadlines (the timeout is not waited for), retries,
// mirrors, and the metadata a gRPC client adds (user-agent, te).
type GRPCClient struct {
	Network *Network
}

var _ grpcutil.Client = (*GRPCClient)(nil)

// SendRPC makes the call expected describes to address ("host:port"). As
// the suite's DefaultClient, an RPC that fails is a Response with its
// code; an error means the call could not be made.
func (g *GRPCClient) SendRPC(_ *testing.T, address string, expected grpcutil.ExpectedResponse, _ time.Duration) (*grpcutil.Response, error) {
	var method string
	switch {
	case expected.EchoRequest != nil:
		method = "Echo"
	case expected.EchoTwoRequest != nil:
		method = "EchoTwo"
	case expected.EchoThreeRequest != nil:
		method = "EchoThree"
	default:
		return &grpcutil.Response{}, errors.New("no request specified")
	}
	dp, err := g.Network.dataPlane(context.Background())
	if err != nil {
		return &grpcutil.Response{}, fmt.Errorf("gwsim gRPC client: %w", err)
	}
	rpc := grpcRPC{address: address, authority: address, method: method}
	if md := expected.RequestMetadata; md != nil {
		rpc.metadata = md.Metadata
		if md.Authority != "" {
			rpc.authority = md.Authority
		}
	}
	return dp.grpcCall(rpc), nil
}

// Close releases nothing: no connection is held.
func (g *GRPCClient) Close() {}

// grpcRPC is one unary call as the client makes it.
type grpcRPC struct {
	address, authority, method string
	metadata                   map[string]string
}

func (dp *dataPlane) grpcCall(rpc grpcRPC) *grpcutil.Response {
	resp := &grpcutil.Response{Code: codes.Unavailable, Headers: &metadata.MD{}, Trailers: &metadata.MD{}}
	host, portText, err := net.SplitHostPort(rpc.address)
	if err != nil {
		host, portText = rpc.address, "443" // grpc's default port
	}
	port, err := strconv.ParseInt(portText, 10, 32)
	if err != nil {
		return resp
	}
	gw, err := dp.gatewayAt(host)
	if err != nil {
		return resp
	}
	rnd := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	req := evaluate.GRPCCall(stripPort(rpc.authority), int32(port), grpcEchoService, rpc.method, rpc.metadata)
	req.Gateway, req.Seed, req.Authority = gw, rnd.Int64(), rpc.authority
	res := evaluate.Evaluate(dp.model, req)
	if res.Status == 0 { // no HTTP answer: the connection fails
		return resp
	}
	answer := evaluate.Exchange(res, dp.grpcSender(rpc), rnd)
	reply, _ := answer.Body.(*grpcReply)
	if reply != nil {
		resp.Code, resp.Response = reply.code, reply.response
	} else {
		// The gateway's own answer, or the HTTP echo's JSON (a 200 that
		// is no gRPC answer is UNKNOWN to a gRPC client).
		resp.Code = grpcCode(evaluate.GRPCStatusOfHTTP(answer.Status))
	}
	headers := answer.Headers.Clone()
	headers.Set("Content-Type", "application/grpc")
	for name, values := range headers {
		resp.Headers.Append(strings.ToLower(name), values...)
	}
	return resp
}

// grpcCode is the code of a gRPC status name ("UNIMPLEMENTED").
func grpcCode(name string) codes.Code {
	var c codes.Code
	if err := c.UnmarshalJSON([]byte(strconv.Quote(name))); err != nil {
		panic(fmt.Sprintf("bug: %q is not a gRPC status: %v", name, err))
	}
	return c
}
