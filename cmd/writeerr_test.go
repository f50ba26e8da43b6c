package cmd

import (
	"errors"
	"strings"
	"testing"
)

// fullWriter fails every write, as a full disk or a closed pipe does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestWriteErrorIsNotAUsageError runs every command that prints with its
// output going nowhere: exit 2, the cause named, and no usage hint (the
// call was right; the output could not be written).
func TestWriteErrorIsNotAUsageError(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"gw.yaml": `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: default}
spec:
  gatewayClassName: gwsim
  listeners: [{name: http, port: 80, protocol: HTTP}]
`,
		"cases.yaml": "tests:\n- name: root\n  request: {url: http://example.com/}\n  expect: {outcome: RouteNotFound}\n",
	})
	for _, args := range [][]string{
		{"routes", "-f", dir},
		{"check", "-f", dir, "-o", "json"},
		{"explain", "-f", dir, "http://example.com/"},
		{"test", "-f", dir, "--cases", dir + "/cases.yaml"},
		{"diff", dir, dir},
		{"version", "-o", "json"},
	} {
		var stderr strings.Builder
		code := ExecuteWith(args, Streams{In: strings.NewReader(""), Out: fullWriter{}, Err: &stderr}, Env{})
		if code != exitUsage || !strings.Contains(stderr.String(), "no space left on device") || strings.Contains(stderr.String(), "for usage") {
			t.Errorf("gwsim %s > full disk: exit %d, stderr %q; want exit 2 naming the cause, without a usage hint", strings.Join(args, " "), code, stderr.String())
		}
	}
}
