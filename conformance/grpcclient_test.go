package conformance

import (
	"net"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	pb "sigs.k8s.io/gateway-api/conformance/echo-basic/grpcechoserver"
	grpcutil "sigs.k8s.io/gateway-api/conformance/utils/grpc"
)

func TestGRPCClient(t *testing.T) {
	network, addr := newTestNetwork(t)
	g := &GRPCClient{Network: network}
	grpcAddr := net.JoinHostPort(addr, "8080")
	call := func(method, authority string) grpcutil.ExpectedResponse {
		e := grpcutil.ExpectedResponse{RequestMetadata: &grpcutil.RequestMetadata{Authority: authority, Metadata: map[string]string{"X-Test": "a"}}}
		switch method {
		case "Echo":
			e.EchoRequest = &pb.EchoRequest{}
		case "EchoTwo":
			e.EchoTwoRequest = &pb.EchoRequest{}
		default:
			e.EchoThreeRequest = &pb.EchoRequest{}
		}
		return e
	}
	tests := []struct {
		name    string
		address string
		call    grpcutil.ExpectedResponse
		code    codes.Code
		pod     string // prefix, for OK
	}{
		{"Echo reaches the gRPC echo", grpcAddr, call("Echo", "grpc.example"), codes.OK, "grpc-"},
		{"EchoThree: the gRPC echo does not implement it", grpcAddr, call("EchoThree", "grpc.example"), codes.Unimplemented, ""},
		{"EchoTwo to the HTTP echo: its JSON is no gRPC answer", grpcAddr, call("EchoTwo", "grpc.example"), codes.Unknown, ""},
		{"no route for the authority: the gateway's 404", grpcAddr, call("Echo", "other.example"), codes.Unimplemented, ""},
		{"a port without a listener: the connection fails", net.JoinHostPort(addr, "9999"), call("Echo", "grpc.example"), codes.Unavailable, ""},
		{"a TLS port: the plaintext client cannot talk to it", net.JoinHostPort(addr, "8443"), call("Echo", "grpc.example"), codes.Unavailable, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := g.SendRPC(t, tt.address, tt.call, 0)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Code != tt.code {
				t.Fatalf("code = %v, want %v", resp.Code, tt.code)
			}
			if tt.code != codes.OK {
				return
			}
			a := resp.Response.GetAssertions()
			if a.GetFullyQualifiedMethod() != "/"+grpcEchoService+"/Echo" || a.GetContext().GetNamespace() != rtNS ||
				!strings.HasPrefix(a.GetContext().GetPod(), tt.pod) || a.GetAuthority() != "grpc.example" {
				t.Errorf("assertions = %v", a)
			}
			found := false
			for _, h := range a.GetHeaders() {
				found = found || h.GetKey() == "x-test" && h.GetValue() == "a"
			}
			if !found {
				t.Errorf("the echo did not see the metadata x-test: a (%v)", a.GetHeaders())
			}
		})
	}
}
