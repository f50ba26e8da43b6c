package conformance

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	fakerest "k8s.io/client-go/rest/fake"
	k8stesting "k8s.io/client-go/testing"
)

// Clientset is the suite's clientset (suite.Clientset) over a Network. It
// serves one thing: Pod logs (Pods(ns).GetLogs), which are what the echo
// Pods printed (echoPods), honouring PodLogOptions.SinceTime; the suite
// reads them to see mirrored requests (utils/kubernetes.DumpEchoLogs).
// Every other call fails with an error saying so, rather than answering
// from an empty store: the suite lists objects through suite.Client.
//
// It wraps client-go's fake clientset rather than a reactor on it, because
// the fake's GetLogs does not pass the Pod's name to reactors.
func Clientset(n *Network) kubernetes.Interface {
	cs := fake.NewClientset()
	cs.PrependReactor("*", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, fmt.Errorf("gwsim harness: the clientset serves only Pod logs, not %s %s", a.GetVerb(), a.GetResource().Resource)
	})
	return logsClientset{Clientset: cs, pods: n.pods}
}

type logsClientset struct {
	*fake.Clientset
	pods *echoPods
}

func (c logsClientset) CoreV1() typedcorev1.CoreV1Interface {
	return logsCoreV1{CoreV1Interface: c.Clientset.CoreV1(), pods: c.pods}
}

type logsCoreV1 struct {
	typedcorev1.CoreV1Interface
	pods *echoPods
}

func (c logsCoreV1) Pods(namespace string) typedcorev1.PodInterface {
	return logsPods{PodInterface: c.CoreV1Interface.Pods(namespace), namespace: namespace, pods: c.pods}
}

type logsPods struct {
	typedcorev1.PodInterface
	namespace string
	pods      *echoPods
}

// GetLogs returns a request whose stream is what the Pod has printed, by
// the time it is read, since opts.SinceTime. The container is not checked: an echo Pod has one.
func (p logsPods) GetLogs(name string, opts *corev1.PodLogOptions) *rest.Request {
	var since time.Time
	if opts != nil && opts.SinceTime != nil {
		since = opts.SinceTime.Time
	}
	client := &fakerest.RESTClient{
		Client: fakerest.CreateHTTPClient(func(*http.Request) (*http.Response, error) {
			logs := p.pods.output(p.namespace, name, since)
			return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(bytes.NewReader(logs))}, nil
		}),
		NegotiatedSerializer: scheme.Codecs.WithoutConversion(),
		GroupVersion:         corev1.SchemeGroupVersion,
		VersionedAPIPath:     fmt.Sprintf("/api/v1/namespaces/%s/pods/%s/log", p.namespace, name),
	}
	return client.Request()
}
