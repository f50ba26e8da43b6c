package cmd

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/gwsim/gwsim/internal/fastpath"
	"github.com/gwsim/gwsim/offline"
)

// fastpathChoice is the run's fast-path mode (package internal/fastpath):
// GWSIM_FASTPATH (Env.Fastpath), or the hidden --fastpath flag, which
// wins. "off" sends every call to its library, for a user whose input a
// fast path gets wrong, and for the tests that hold the two paths to the
// same bytes.
type fastpathChoice struct {
	setting string
	mode    fastpath.Mode
}

func (fp *fastpathChoice) register(root *cobra.Command) {
	fs := root.PersistentFlags()
	fs.StringVar(&fp.setting, "fastpath", fp.setting, "on, off, or the fast paths to turn off ("+fastpath.EnvVar+")")
	_ = fs.MarkHidden("fastpath")
}

// parse reads the setting; a bad one is a usage error.
func (fp *fastpathChoice) parse() error {
	m, err := fastpath.Parse(fp.setting)
	if err != nil {
		return usageErrorf("--fastpath or %s: %v", fastpath.EnvVar, err)
	}
	fp.mode = m
	return nil
}

// fastMode is the run's mode; every fast path runs when streams carry
// none (tests that build Streams themselves).
func (s Streams) fastMode() fastpath.Mode {
	if s.fastpath == nil {
		return fastpath.Mode{}
	}
	return s.fastpath.mode
}

// storeFactory is the store the controller runs against: the test's
// choice, else the indexed store, or controller-runtime's fake client when
// the store's fast path is off.
func storeFactory(env Env, mode fastpath.Mode) offline.StoreFactory {
	if env.Store != nil || mode.Fast(fastpath.Store) {
		return env.Store
	}
	return offline.FakeStore
}

// newOutput wraps stdout (or a report file) for a renderer, with the run's
// choice of encoders.
func newOutput(w io.Writer, mode fastpath.Mode) *outputWriter {
	return &outputWriter{w: w, yamlLibrary: !mode.Fast(fastpath.YAMLOut), jsonLibrary: !mode.Fast(fastpath.JSONOut)}
}
