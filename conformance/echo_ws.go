package conformance

import (
	"io"
	"net/http"
	"strings"

	"golang.org/x/net/websocket"

	"github.com/gwsim/gwsim/translate/evaluate"
)

// wsSender plays the echo Pods for an upgrade request: echo-basic's HTTP
// server upgrades on /ws and answers anything else with its JSON echo.
func (dp *dataPlane) wsSender(client string) evaluate.Send {
	return func(t evaluate.Target) evaluate.Answer {
		pod := dp.pods[t.Endpoint.Address]
		if pod == nil {
			return evaluate.Answer{Reset: true}
		}
		path, _, _ := strings.Cut(t.Request.Path, "?")
		if podEnv(pod, "GRPC_ECHO_SERVER") != "" || strings.ReplaceAll(path, "//", "/") != "/ws" {
			return dp.procs.serve(pod, echoRequest{path: t.Request.Path, host: t.Request.Host, method: http.MethodGet, proto: "HTTP/1.1", headers: t.Request.Headers, client: client}).evaluated()
		}
		return evaluate.Answer{Status: http.StatusSwitchingProtocols, Body: websocket.Handler(func(ws *websocket.Conn) {
			dp.procs.printf(pod, "established websocket connection %s", ws.RemoteAddr())
			_, _ = io.Copy(ws, ws)
		})}
	}
}
