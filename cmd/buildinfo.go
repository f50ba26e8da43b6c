package cmd

import "runtime/debug"

// projectURL is gwsim's home, for output formats that link to the tool.
const projectURL = "https://github.com/gwsim/gwsim"

// gwsimVersion is the main module's version from the build info, or
// "(devel)" for a binary built from a source tree, as the go command says.
func gwsimVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
