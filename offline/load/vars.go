package load

import (
	"fmt"

	"github.com/gwsim/gwsim/offline/load/flux"
)

// ReadVars reads --vars-file files and --var values, in that order (a
// later value wins), for Options.Vars. A file is read within
// limits.FileBytes and must be a regular file (or what a path named on
// the command line is, as for -f).
func ReadVars(files, vars []string, limits Limits) (map[string]string, error) {
	limits = limits.withDefaults()
	out := map[string]string{}
	for _, f := range files {
		r := reader{limits: Limits{FileBytes: limits.FileBytes, TotalBytes: limits.FileBytes}}
		_, data, _, problem := r.read(input{path: f})
		if problem != nil {
			return nil, fmt.Errorf("--vars-file %s", problem.Message)
		}
		vals, err := flux.ParseVars(data)
		if err != nil {
			return nil, fmt.Errorf("--vars-file %s: %w", f, err)
		}
		for k, v := range vals {
			out[k] = v
		}
	}
	for _, v := range vars {
		if err := flux.ParseVar(out, v); err != nil {
			return nil, fmt.Errorf("--var: %w", err)
		}
	}
	return out, nil
}
