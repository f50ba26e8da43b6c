package store

import (
	"context"
	"fmt"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// benchRoutes is 10k HTTPRoutes in 100 namespaces, each attached to one of
// 100 Gateways in "infra", so an index lookup returns 100 routes.
func benchRoutes() []client.Object {
	const namespaces, perNamespace, gateways = 100, 100, 100
	objs := make([]client.Object, 0, namespaces*perNamespace)
	for n := range namespaces {
		for i := range perNamespace {
			gw := fmt.Sprintf("infra/gw-%d", (n*perNamespace+i)%gateways)
			objs = append(objs, route(fmt.Sprintf("ns-%03d", n), fmt.Sprintf("r-%03d", i), nil, []string{gw}, "a.example.com"))
		}
	}
	return objs
}

// BenchmarkListByIndex lists the routes of one Gateway by field index across
// all namespaces, from this store and, for comparison, from the fake client.
func BenchmarkListByIndex(b *testing.B) {
	ctx := context.Background()
	s, err := NewBuilder(newTestScheme()).WithObjects(benchRoutes()...).
		WithIndex(&gwv1.HTTPRoute{}, parentGatewayField, parentGateways).Build()
	if err != nil {
		b.Fatal(err)
	}
	f := fake.NewClientBuilder().WithScheme(newTestScheme()).WithObjects(benchRoutes()...).
		WithIndex(&gwv1.HTTPRoute{}, parentGatewayField, parentGateways).Build()
	for _, c := range []struct {
		name   string
		client client.Client
	}{{"store", s}, {"fake", f}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				list := &gwv1.HTTPRouteList{}
				gw := fmt.Sprintf("infra/gw-%d", i%100)
				if err := c.client.List(ctx, list, client.MatchingFields{parentGatewayField: gw}); err != nil {
					b.Fatal(err)
				}
				if len(list.Items) != 100 {
					b.Fatalf("got %d routes, want 100", len(list.Items))
				}
			}
		})
	}
}
