package cmd

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/gwsim/gwsim/translate/evaluate"
)

// The output formats of the views a person reads at a terminal (tables)
// or pastes into a review (graphs), beside text/yaml/json in format.go.
const (
	// formatWide is the routes table with every column, nothing elided.
	formatWide format = "wide"
	// formatTable is the status table, one line per object and part.
	formatTable   format = "table"
	formatDot     format = "dot"
	formatMermaid format = "mermaid"
)

// commandOptions are the flags one command adds to the shared pipeline
// flags. complete runs before any file is read, so a mistake in them is a
// usage error (exit 2) like any other flag's.
type commandOptions interface {
	register(fs *pflag.FlagSet)
	complete() error
}

// routesView selects and lays out the rows of `gwsim routes`. Filters apply
// to every output format; NoHeaders to the tables.
type routesView struct {
	NoHeaders bool
	// Gateway and Route are "namespace/name"; Host is a hostname.
	Gateway, Host, Route string
}

func (v *routesView) register(fs *pflag.FlagSet) {
	fs.BoolVar(&v.NoHeaders, "no-headers", false, "leave the header line out of the table")
	fs.StringVar(&v.Gateway, "gateway", "", "only routes served by this Gateway (namespace/name)")
	fs.StringVar(&v.Host, "host", "", "only virtual hosts whose hostname covers this host (it, a wildcard over it, or *)")
	fs.StringVar(&v.Route, "route", "", "only rows of this route (namespace/name, any route kind)")
}

func (v *routesView) complete() error {
	for _, f := range []struct{ flag, value string }{{"--gateway", v.Gateway}, {"--route", v.Route}} {
		if f.value == "" {
			continue
		}
		if ns, name, ok := strings.Cut(f.value, "/"); !ok || ns == "" || name == "" || strings.Contains(name, "/") {
			return usageErrorf("%s %q: want namespace/name", f.flag, f.value)
		}
	}
	return nil
}

// filtered reports whether any filter is set.
func (v *routesView) filtered() bool { return v.Gateway != "" || v.Host != "" || v.Route != "" }

// keep reports whether row passes every filter set.
func (v *routesView) keep(row routeRow) bool {
	if v.Gateway != "" && row.Gateway != v.Gateway {
		return false
	}
	if v.Route != "" && row.Origin.Namespace+"/"+row.Origin.Name != v.Route {
		return false
	}
	return v.Host == "" || evaluate.HostMatches(row.Hostname, v.Host)
}

// tableView lays out a table that has no filters of its own (status).
type tableView struct {
	NoHeaders bool
}

func (v *tableView) register(fs *pflag.FlagSet) {
	fs.BoolVar(&v.NoHeaders, "no-headers", false, "leave the header line out of the table (-o table)")
}

func (v *tableView) complete() error { return nil }
