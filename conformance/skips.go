package conformance

import "strings"

// SkipCategory is why the harness does not run an upstream test. The list
// is short and fixed on purpose: a test is either run, or skipped for one
// of these reasons, stated in the report.
type SkipCategory string

const (
	// SkipMesh: the test checks a service mesh (GAMMA), which gwsim does
	// not simulate; it is a gateway simulator.
	SkipMesh SkipCategory = "mesh"
	// SkipNeedsEmulation: the test reads something the harness does not
	// emulate yet (the infrastructure a controller provisions for a
	// Gateway).
	SkipNeedsEmulation SkipCategory = "needs emulation not built yet"
)

// Skip is one skipped test: its category and what exactly is missing.
type Skip struct {
	Category SkipCategory
	Detail   string
}

func (s Skip) String() string { return string(s.Category) + ": " + s.Detail }

// skips returns every upstream test the harness does not run. Mesh tests
// are found by feature (every test whose features include Mesh), the rest
// are listed by name.
func skips() map[string]Skip {
	return map[string]Skip{
		"GatewayInfrastructureMetadata": {SkipNeedsEmulation, "lists the ServiceAccount, Pod or Service a controller provisions for the Gateway (label gateway.networking.k8s.io/gateway-name, through suite.Clientset) to check they carry spec.infrastructure labels and annotations; gwsim provisions no data plane and its IR does not carry spec.infrastructure, so there is nothing to list that the harness would not invent"},
	}
}

// skipFor returns why the harness skips the test with this short name and
// features, if it does.
func skipFor(name string, features []string) (Skip, bool) {
	for _, f := range features {
		if f == "Mesh" {
			return Skip{SkipMesh, "checks a service mesh (GAMMA), which gwsim does not simulate"}, true
		}
	}
	if strings.HasPrefix(name, "Mesh") {
		return Skip{SkipMesh, "checks a service mesh (GAMMA), which gwsim does not simulate"}, true
	}
	s, ok := skips()[name]
	return s, ok
}
