package routetest

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/explain"
)

func TestBuild(t *testing.T) {
	tests := []struct {
		name    string
		in      Request
		want    explain.Request
		wantErr string
	}{{
		name: "defaults: GET, no port (the scheme's), no SNI for http",
		in:   Request{URL: "http://Shop.Example.com/a%20b?x=1"},
		want: req(evaluate.Request{Scheme: "http", Host: "shop.example.com", Method: "GET", Path: "/a%20b?x=1", Headers: http.Header{}}),
	}, {
		name: "no scheme is http; https sends the URL's host as SNI",
		in:   Request{URL: "shop.example.com/"},
		want: req(evaluate.Request{Scheme: "http", Host: "shop.example.com", Method: "GET", Path: "/", Headers: http.Header{}}),
	}, {
		name: "a Host header replaces the host, not the SNI; method upper-cased",
		in: Request{URL: "https://10.0.0.1:8443/x", Method: "post", Headers: []Header{
			{Name: "Host", Value: "Shop.example.com:443"}, {Name: "X-A", Value: " 1 "}, {Name: "x-a", Value: "2"},
		}},
		want: req(evaluate.Request{Scheme: "https", Host: "shop.example.com", Port: 8443, Method: "POST", Path: "/x",
			SNI: "10.0.0.1", Headers: http.Header{"X-A": {"1", "2"}}}),
	}, {
		name: "Port overrides the URL's; Gateway gets the namespace; SNI and address kept",
		in:   Request{URL: "https://a.example.com:8443/", Port: 9443, Gateway: "gw", SNI: "b.example.com", Address: "192.0.2.1"},
		want: explain.Request{Request: evaluate.Request{Scheme: "https", Host: "a.example.com", Port: 9443, Method: "GET", Path: "/",
			SNI: "b.example.com", Gateway: "ns/gw", Headers: http.Header{}}, Address: "192.0.2.1"},
	}, {
		name:    "unsupported scheme",
		in:      Request{URL: "ftp://a/"},
		wantErr: `unsupported scheme "ftp" in "ftp://a/" (valid: http, https, grpc, grpcs, tcp, udp, tls)`,
	}, {
		name:    "no host",
		in:      Request{URL: "http:///x"},
		wantErr: `URL "http:///x" has no host`,
	}, {
		name:    "port out of range",
		in:      Request{URL: "http://a/", Port: 70000},
		wantErr: "port 70000 is out of range (1-65535)",
	}, {
		name:    "invalid header name",
		in:      Request{URL: "http://a/", Headers: []Header{{Name: "X A", Value: "1"}}},
		wantErr: `invalid header name "X A"`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.in.Build("ns")
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Build (-want +got):\n%s", diff)
			}
		})
	}
}

func req(r evaluate.Request) explain.Request { return explain.Request{Request: r} }
