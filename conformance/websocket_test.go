package conformance

import (
	"errors"
	"testing"

	"golang.org/x/net/websocket"
)

func TestWebSocketDialer(t *testing.T) {
	network, addr := newTestNetwork(t)
	d := &WebSocketDialer{Network: network}
	t.Run("the echo's /ws echoes frames", func(t *testing.T) {
		ws, err := d.Dial("ws://"+addr+"/ws", "", "http://gwsim.test/")
		if err != nil {
			t.Fatal(err)
		}
		defer ws.Close()
		for _, msg := range []any{"text", []byte{1, 2, 3}} {
			if err := websocket.Message.Send(ws, msg); err != nil {
				t.Fatal(err)
			}
		}
		var text string
		var binary []byte
		if err := websocket.Message.Receive(ws, &text); err != nil || text != "text" {
			t.Errorf("text frame = %q, %v", text, err)
		}
		if err := websocket.Message.Receive(ws, &binary); err != nil || string(binary) != "\x01\x02\x03" {
			t.Errorf("binary frame = %v, %v", binary, err)
		}
	})
	for name, url := range map[string]string{
		"a path the echo answers with JSON": "ws://" + addr + "/echo",
		"no route":                          "ws://" + addr + "/nothing",
		"a port nothing listens on":         "ws://" + addr + ":9999/ws",
	} {
		t.Run(name, func(t *testing.T) {
			ws, err := d.Dial(url, "", "http://gwsim.test/")
			if err == nil {
				ws.Close()
				t.Fatal("want an error")
			}
			var de *websocket.DialError
			if !errors.As(err, &de) {
				t.Errorf("err = %v, want a *websocket.DialError as websocket.Dial returns", err)
			}
		})
	}
}
