package conformance

import (
	"net/http"
	"strings"

	"google.golang.org/grpc/codes"
	corev1 "k8s.io/api/core/v1"
	pb "sigs.k8s.io/gateway-api/conformance/echo-basic/grpcechoserver"

	"github.com/gwsim/gwsim/translate/evaluate"
)

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
