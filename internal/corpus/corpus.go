// Package corpus finds the manifests that gwsim's differential tests run
// over besides its own golden cases: those of the Gateway API conformance
// module. That module is not a dependency of gwsim's (conformance/ is a
// module of its own), so its files are looked up in the module cache,
// where `make test` has put them by the time these tests run.
package corpus

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ConformanceModule is the conformance module the tests read.
const ConformanceModule = "sigs.k8s.io/gateway-api/conformance@v1.6.3"

// ConformanceDir returns the conformance module's directory in the module
// cache, or "" when it is not there.
func ConformanceDir() string {
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		out, err := exec.Command("go", "env", "GOMODCACHE").Output()
		if err != nil {
			return ""
		}
		cache = strings.TrimSpace(string(out))
	}
	dir := filepath.Join(cache, filepath.FromSlash(ConformanceModule))
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return dir
}

// ConformanceManifests returns the paths of the conformance module's test
// and base manifests (tests/*.yaml, base/*.yaml), sorted, or nil when the
// module is not in the cache.
func ConformanceManifests() []string {
	dir := ConformanceDir()
	if dir == "" {
		return nil
	}
	var files []string
	for _, pattern := range []string{"tests/*.yaml", "base/*.yaml"} {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		files = append(files, m...)
	}
	return files
}
