package cmd

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// gatewayAPIModule is the Gateway API module gwsim implements; its version is
// read from the binary's build info, falling back to the version in go.mod
// for binaries built without module information.
const (
	gatewayAPIModule  = "sigs.k8s.io/gateway-api"
	gatewayAPIVersion = "v1.6.3"
)

func newVersionCmd(streams Streams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print gwsim's version and the Gateway API version it implements",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintln(streams.Out, versionString())
			return err
		},
	}
}

// versionString renders "gwsim <version>" and, on a second line,
// "gateway-api <version>". A binary built from a source tree reports
// "(devel)", as the go command does.
func versionString() string {
	gwsim, gwapi := "(devel)", gatewayAPIVersion
	if info, ok := debug.ReadBuildInfo(); ok {
		if v := info.Main.Version; v != "" {
			gwsim = v
		}
		for _, dep := range info.Deps {
			if dep.Path == gatewayAPIModule {
				gwapi = dep.Version
			}
		}
	}
	return fmt.Sprintf("gwsim %s\ngateway-api %s", gwsim, gwapi)
}
