package cmd

import (
	"fmt"
	"runtime"
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
	var output string
	valid := []format{formatText, formatJSON}
	c := &cobra.Command{
		Use:   "version",
		Short: "Print gwsim's version and the Gateway API version it implements",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			f, err := parseFormat(output, valid)
			if err != nil {
				return err
			}
			if f == formatJSON {
				return writeJSON(newOutput(streams.Out, streams.fastMode()), readVersions())
			}
			_, err = fmt.Fprintln(streams.Out, versionString())
			return err
		},
	}
	c.Flags().StringVarP(&output, "output", "o", string(formatText), "output format: text|json")
	registerFormatCompletion(c, valid)
	return c
}

// versions is what `gwsim version -o json` prints.
type versions struct {
	// GWSim is the module version, "(devel)" when built from a source tree.
	GWSim string `json:"gwsim"`
	// GatewayAPI is the Gateway API module version gwsim implements.
	GatewayAPI string `json:"gatewayAPI"`
	// Go and Platform are the toolchain and the GOOS/GOARCH built for.
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// readVersions reads the binary's build info. A binary built from a source
// tree reports "(devel)", as the go command does; one built without module
// information reports the Gateway API version of go.mod.
func readVersions() versions {
	v := versions{GWSim: "(devel)", GatewayAPI: gatewayAPIVersion, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info, ok := debug.ReadBuildInfo(); ok {
		if info.Main.Version != "" {
			v.GWSim = info.Main.Version
		}
		for _, dep := range info.Deps {
			if dep.Path == gatewayAPIModule {
				v.GatewayAPI = dep.Version
			}
		}
	}
	return v
}

// versionString renders "gwsim <version>" and, on a second line,
// "gateway-api <version>".
func versionString() string {
	v := readVersions()
	return fmt.Sprintf("gwsim %s\ngateway-api %s", v.GWSim, v.GatewayAPI)
}
