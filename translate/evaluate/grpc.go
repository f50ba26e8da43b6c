package evaluate

import (
	"fmt"
	"net/http"

	"github.com/gwsim/gwsim/translate/ir"
)

// GRPCCall is the request a gRPC client sends for one call: an HTTP/2 POST
// to ":path" /<service>/<method> with content-type application/grpc and the
// call's metadata as headers. Routes match it like any other request, so a
// GRPCRoute's match is a path and header match in the IR.
func GRPCCall(host string, port int32, service, method string, metadata map[string]string) Request {
	h := http.Header{}
	h.Set("Content-Type", "application/grpc")
	for k, v := range metadata {
		h.Set(k, v)
	}
	return Request{
		Scheme: "http", Host: host, Port: port, Method: http.MethodPost,
		Path: "/" + service + "/" + method, Headers: h,
	}
}

// GRPCStatus is the gRPC status a client sees for res, by gRPC's mapping of
// HTTP statuses a gateway answers itself (the mapping Envoy applies to its
// local replies to gRPC requests): a routed call is OK as far as routing is
// concerned; no route (404) is UNIMPLEMENTED; 503 is UNAVAILABLE; any other
// error status is UNKNOWN. No Gateway on the port means the connection is
// refused, which a client reports as UNAVAILABLE.
func GRPCStatus(res Result) string {
	if res.Outcome == Routed {
		return "OK"
	}
	if a := faultAbort(res); a != nil && a.GRPCStatus != nil {
		return grpcCodeName(*a.GRPCStatus)
	}
	return GRPCStatusOfHTTP(res.Status)
}

// faultAbort is the fault abort that answered res, nil if none did.
func faultAbort(res Result) *ir.FaultAbort {
	if res.Outcome != FaultAborted || res.Route == nil || res.Route.Policies == nil {
		return nil
	}
	return res.Route.Policies.FaultAbort
}

// grpcCodes are the gRPC status codes' names, by number.
var grpcCodes = [...]string{"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
	"ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
	"UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"}

// grpcCodeName names gRPC status code c.
func grpcCodeName(c int32) string {
	if c >= 0 && int(c) < len(grpcCodes) {
		return grpcCodes[c]
	}
	return fmt.Sprintf("code %d", c)
}

// GRPCStatusOfHTTP is the gRPC status of an HTTP status that a gRPC client
// gets without a gRPC answer (a gateway's local reply, or a backend that
// does not speak gRPC): 0, no HTTP answer at all (a refused or failed
// connection), is UNAVAILABLE; 200 without a gRPC body is UNKNOWN.
func GRPCStatusOfHTTP(status int) string {
	switch status {
	case 0:
		return "UNAVAILABLE"
	case http.StatusBadRequest:
		return "INTERNAL"
	case http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	case http.StatusForbidden:
		return "PERMISSION_DENIED"
	case http.StatusNotFound:
		return "UNIMPLEMENTED"
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return "UNAVAILABLE"
	}
	return "UNKNOWN"
}
