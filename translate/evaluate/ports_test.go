package evaluate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStreamPorts(t *testing.T) {
	model := l4Model()
	// 53 carries a TCP and a UDP listener, 443 two TLS ones; 8443 is HTTPS
	// only, answered by Evaluate.
	want := []StreamPort{{53, "TCP"}, {53, "UDP"}, {443, "TCP"}}
	if diff := cmp.Diff(want, StreamPorts(model, "infra/gw")); diff != "" {
		t.Errorf("StreamPorts (-want +got):\n%s", diff)
	}
	if got := StreamPorts(model, "infra/other"); got != nil {
		t.Errorf("a Gateway that is not in the IR listens on %v", got)
	}
}
