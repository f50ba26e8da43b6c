package conformance

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	corev1 "k8s.io/api/core/v1"
	pb "sigs.k8s.io/gateway-api/conformance/echo-basic/grpcechoserver"
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
	gw, _, err := dp.port(host, int32(port))
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
	switch {
	case reply != nil:
		resp.Code, resp.Response = reply.code, reply.response
	case answer.Status == http.StatusOK && !answer.Local:
		resp.Code = codes.Unknown // the HTTP echo answers JSON, which is no gRPC answer
	default:
		resp.Code = grpcCode(evaluate.GRPCStatusOfHTTP(answer.Status))
	}
	headers := answer.Headers.Clone()
	headers.Set("Content-Type", "application/grpc")
	for name, values := range headers {
		resp.Headers.Append(strings.ToLower(name), values...)
	}
	return resp
}

// grpcReply is the answer of echo-basic's gRPC server.
type grpcReply struct {
	code     codes.Code
	response *pb.EchoResponse
}

// grpcSender plays the echo Pods for the evaluator's attempts at backends.
func (dp *dataPlane) grpcSender(rpc grpcRPC) evaluate.Send {
	return func(t evaluate.Target) evaluate.Answer {
		pod := dp.pods[t.Endpoint.Address]
		if pod == nil {
			return evaluate.Answer{Reset: true}
		}
		if podEnv(pod, "GRPC_ECHO_SERVER") == "" {
			return dp.procs.serve(pod, echoRequest{
				path: t.Request.Path, host: t.Request.Host, method: http.MethodPost, proto: "HTTP/2.0",
				headers: t.Request.Headers, client: stripPort(rpc.address),
			}).evaluated()
		}
		return evaluate.Answer{Status: http.StatusOK, Body: dp.grpcEcho(pod, rpc, t.Request)}
	}
}

// grpcEcho answers a call as echo-basic's gRPC server in pod does: Echo
// and EchoTwo with the assertions, any other method UNIMPLEMENTED.
func (dp *dataPlane) grpcEcho(pod *corev1.Pod, rpc grpcRPC, fwd evaluate.ForwardedRequest) *grpcReply {
	if rpc.method != "Echo" && rpc.method != "EchoTwo" {
		return &grpcReply{code: codes.Unimplemented}
	}
	dp.procs.printf(pod, "Received over plaintext: ")
	var md []*pb.Header
	for name, values := range fwd.Headers {
		for _, v := range values {
			md = append(md, &pb.Header{Key: strings.ToLower(name), Value: v})
		}
	}
	md = append(md, &pb.Header{Key: ":authority", Value: fwd.Host})
	return &grpcReply{code: codes.OK, response: &pb.EchoResponse{Assertions: &pb.Assertions{
		FullyQualifiedMethod: "/" + grpcEchoService + "/" + rpc.method,
		Headers:              md,
		Authority:            fwd.Host,
		Context: &pb.Context{
			Namespace: podEnv(pod, "NAMESPACE"), Ingress: podEnv(pod, "INGRESS_NAME"),
			ServiceName: podEnv(pod, "SERVICE_NAME"), Pod: podEnv(pod, "POD_NAME"),
		},
	}}}
}

// grpcCode is the code of a gRPC status name ("UNIMPLEMENTED").
func grpcCode(name string) codes.Code {
	var c codes.Code
	if err := c.UnmarshalJSON([]byte(strconv.Quote(name))); err != nil {
		panic(fmt.Sprintf("bug: %q is not a gRPC status: %v", name, err))
	}
	return c
}
