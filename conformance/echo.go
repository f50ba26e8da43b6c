package conformance

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/gateway-api/conformance/utils/roundtripper"

	"github.com/gwsim/gwsim/translate/evaluate"
)

// echoPods is the state of the cluster's running echo-basic processes
// (conformance/echo-basic), which outlives a request: what each Pod has
// printed, read back as its logs (clientset.go), and the attempt counters
// of its retry simulation. It is safe for concurrent use.
type echoPods struct {
	mu sync.Mutex
	// logs and attempts are keyed by the Pod's "namespace/name".
	logs map[string][]logLine
	// attempts counts the failed attempts per uuid of /retry/ requests.
	attempts map[string]map[string]int
}

type logLine struct {
	at   time.Time
	text string
}

func newEchoPods() *echoPods {
	return &echoPods{logs: map[string][]logLine{}, attempts: map[string]map[string]int{}}
}

func podKey(pod *corev1.Pod) string { return pod.Namespace + "/" + pod.Name }

// printf records a line the Pod prints to its standard output.
func (p *echoPods) printf(pod *corev1.Pod, format string, args ...any) {
	line := logLine{at: time.Now(), text: fmt.Sprintf(format, args...)}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.logs[podKey(pod)] = append(p.logs[podKey(pod)], line)
}

// output is what the Pod namespace/name printed at or after since (all of
// it when since is zero), one line per print, as its log stream reads.
func (p *echoPods) output(namespace, name string, since time.Time) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	var b strings.Builder
	for _, l := range p.logs[namespace+"/"+name] {
		if !l.at.Before(since) {
			b.WriteString(l.text)
			b.WriteByte('\n')
		}
	}
	return []byte(b.String())
}

// failAttempt is the retry simulation's bookkeeping: it reports whether
// this request for uuid must fail, counting it if so, since the Pod fails
// the first succeedAfter requests of each uuid.
func (p *echoPods) failAttempt(pod *corev1.Pod, uuid string, succeedAfter int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	seen := p.attempts[podKey(pod)]
	if seen == nil {
		seen = map[string]int{}
		p.attempts[podKey(pod)] = seen
	}
	if seen[uuid] >= succeedAfter {
		return false
	}
	seen[uuid]++
	return true
}

// echoRequest is the request an echo-basic Pod receives.
type echoRequest struct {
	path, host, method, proto string
	headers                   http.Header
	// serverName is the SNI of a TLS connection to the echo, if any.
	serverName string
	// peerCertificates are the client certificates of a TLS connection to
	// the echo, PEM-encoded.
	peerCertificates []string
	// client is the address the request comes from (the gateway's).
	client string
}

// echoAnswer is what an echo-basic Pod answers.
type echoAnswer struct {
	status  int
	headers http.Header
	// body is the request as the echo reports it in its JSON body; nil
	// when the answer has no JSON body.
	body *roundtripper.CapturedRequest
	// reset is set when the Pod aborts the connection instead of
	// answering (the retry simulation without ?responseCode=).
	reset bool
	// delay is how long the Pod waits before answering (?delay=).
	delay time.Duration
}

// evaluated is the answer as the evaluator's Exchange takes it.
func (a echoAnswer) evaluated() evaluate.Answer {
	out := evaluate.Answer{Status: a.status, Headers: a.headers, Reset: a.reset, Latency: a.delay}
	if a.body != nil {
		out.Body = a.body
	}
	return out
}

// statusPath is echo-basic's /status/NNN handler, which answers NNN.
var statusPath = regexp.MustCompile(`^/status/(\d\d\d)$`)

// serve answers e as echo-basic's HTTP server in pod does:
//   - /status/NNN answers NNN (400 for anything else under /status/);
//   - /retry/?uuid=U&succeedAfter=N[&responseCode=C] fails the first N
//     requests of each U, with C or by resetting the connection, then
//     echoes (400 without a uuid or a numeric succeedAfter);
//   - any other path is echoed: the Pod prints "Echoing back request made
//     to <path> to client (<client>)" and answers 200 with a JSON body
//     describing the request (namespace and Pod from its NAMESPACE and
//     POD_NAME environment, its HTTP_PORT), the response headers that
//     X-Echo-Set-Header asks for, and Content-Type.
//
// ?delay= is not waited for: the answer says how long it would take, and
// the evaluator decides whether the gateway's timeout runs out first.
func (p *echoPods) serve(pod *corev1.Pod, e echoRequest) echoAnswer {
	a := p.answer(pod, e)
	a.delay = echoDelay(e.path)
	return a
}

// echoDelay is the ?delay= of a request target, 0 without one.
func echoDelay(target string) time.Duration {
	_, query, _ := strings.Cut(target, "?")
	q, _ := url.ParseQuery(query)
	d, err := time.ParseDuration(q.Get("delay"))
	if err != nil {
		return 0
	}
	return d
}

// answer is serve's answer without the delay.
func (p *echoPods) answer(pod *corev1.Pod, e echoRequest) echoAnswer {
	path, query, _ := strings.Cut(e.path, "?")
	path = strings.ReplaceAll(path, "//", "/") // echo-basic's preserveSlashes
	switch {
	case strings.HasPrefix(path, "/status/"):
		status := http.StatusBadRequest
		if m := statusPath.FindStringSubmatch(e.path); m != nil {
			status, _ = strconv.Atoi(m[1])
		}
		return echoAnswer{status: status, headers: http.Header{}}
	case strings.HasPrefix(path, "/retry/"):
		if a, failed := p.retrySimulation(pod, query); failed {
			return a
		}
	}
	p.printf(pod, "Echoing back request made to %s to client (%s)", e.path, e.client)
	headers := e.headers.Clone()
	headers.Del("Host") // a Go server keeps the Host header out of Header
	body := &roundtripper.CapturedRequest{
		Path: e.path, Host: e.host, Method: e.method, Protocol: e.proto, Headers: headers,
		Namespace: podEnv(pod, "NAMESPACE"), Pod: podEnv(pod, "POD_NAME"),
		HTTPPort: cmp.Or(podEnv(pod, "HTTP_PORT"), "3000"), TLS: roundtripper.TLS{ServerName: e.serverName, PeerCertificates: e.peerCertificates},
	}
	h := echoSetHeaders(e.headers)
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	return echoAnswer{status: http.StatusOK, headers: h, body: body}
}

// retrySimulation is echo-basic's /retry/ handler up to the echo: failed
// is set when it answers (or resets) instead of echoing.
func (p *echoPods) retrySimulation(pod *corev1.Pod, query string) (a echoAnswer, failed bool) {
	q, _ := url.ParseQuery(query)
	uuid := q.Get("uuid")
	succeedAfter, err := strconv.Atoi(q.Get("succeedAfter"))
	if uuid == "" || err != nil {
		return echoAnswer{status: http.StatusBadRequest, headers: http.Header{}}, true
	}
	if !p.failAttempt(pod, uuid, succeedAfter) {
		return echoAnswer{}, false
	}
	if code, err := strconv.Atoi(q.Get("responseCode")); err == nil {
		return echoAnswer{status: code, headers: http.Header{}}, true
	}
	return echoAnswer{reset: true}, true
}

// echoSetHeaders reads echo-basic's X-Echo-Set-Header request header:
// comma-separated "name:value" pairs that the echo sets on its response, a
// repeated name joining its values with ",". Empty names are dropped, as a
// Go server does not write them.
func echoSetHeaders(req http.Header) http.Header {
	h := http.Header{}
	for _, list := range req.Values("X-Echo-Set-Header") {
		for kv := range strings.SplitSeq(list, ",") {
			name, value, _ := strings.Cut(strings.TrimSpace(kv), ":")
			if name == "" {
				continue
			}
			name, value = http.CanonicalHeaderKey(name), strings.TrimSpace(value)
			if len(h[name]) == 0 {
				h[name] = []string{value}
			} else {
				h[name][0] += "," + value
			}
		}
	}
	return h
}

// podEnv is the value of the environment variable name in the Pod's
// first container that sets it, as the kubelet resolves it: a literal
// value, or a field of the Pod (metadata.name, metadata.namespace,
// status.podIP). Empty when no container sets it.
func podEnv(pod *corev1.Pod, name string) string {
	for _, ctr := range pod.Spec.Containers {
		for _, env := range ctr.Env {
			if env.Name != name {
				continue
			}
			if env.ValueFrom == nil || env.ValueFrom.FieldRef == nil {
				return env.Value
			}
			switch env.ValueFrom.FieldRef.FieldPath {
			case "metadata.name":
				return pod.Name
			case "metadata.namespace":
				return pod.Namespace
			case "status.podIP":
				return pod.Status.PodIP
			}
			return ""
		}
	}
	return ""
}
