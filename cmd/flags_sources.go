package cmd

import (
	"github.com/spf13/pflag"
)

// sourceFlags say how repositories that are not plain manifests are read:
// Kustomize directories.
type sourceFlags struct {
	// Kustomize are the -k directories, built as kubectl apply -k would.
	Kustomize []string
	// NoKustomize reads a directory that holds a kustomization file by
	// file, as before gwsim built them.
	NoKustomize bool
}

func (s *sourceFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVarP(&s.Kustomize, "kustomize", "k", nil, "kustomization directory to build and read, as kubectl apply -k (repeatable)")
	fs.BoolVar(&s.NoKustomize, "no-kustomize", false, "read directories that hold a kustomization file by file instead of building them")
}
