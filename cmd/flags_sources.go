package cmd

import (
	"github.com/spf13/pflag"

	"github.com/gwsim/gwsim/offline/load"
)

// sourceFlags say how repositories that are not plain manifests are read:
// Kustomize directories and Flux variables.
type sourceFlags struct {
	// Kustomize are the -k directories, built as kubectl apply -k would.
	Kustomize []string
	// NoKustomize reads a directory that holds a kustomization file by
	// file, as before gwsim built them.
	NoKustomize bool
	// VarValues and VarsFiles are --var NAME=VALUE and --vars-file, as
	// given; Vars holds them read.
	VarValues []string
	VarsFiles []string
	Vars      map[string]string
}

func (s *sourceFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVarP(&s.Kustomize, "kustomize", "k", nil, "kustomization directory to build and read, as kubectl apply -k (repeatable)")
	fs.BoolVar(&s.NoKustomize, "no-kustomize", false, "read directories that hold a kustomization file by file instead of building them (and follow no Flux Kustomization)")
	fs.StringArrayVar(&s.VarValues, "var", nil, "value of a Flux ${NAME} variable, as NAME=VALUE (repeatable; a Kustomization's own postBuild values win)")
	fs.StringArrayVar(&s.VarsFiles, "vars-file", nil, "file of Flux variables: NAME=VALUE lines, or a ConfigMap or Secret (repeatable)")
}

// complete reads the variables; a file that cannot be read or parsed is
// a usage error.
func (s *sourceFlags) complete(limits load.Limits) error {
	if len(s.VarValues) == 0 && len(s.VarsFiles) == 0 {
		return nil
	}
	vars, err := load.ReadVars(s.VarsFiles, s.VarValues, limits)
	if err != nil {
		return usageErrorf("%v", err)
	}
	s.Vars = vars
	return nil
}
