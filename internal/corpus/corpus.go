// Package corpus finds the manifests that gwsim's differential tests run
// over besides its own golden cases: those of the Gateway API conformance
// module. That module is not a dependency of gwsim's (conformance/ is a
// module of its own), so its files are looked up in the module cache,
// where `make test` has put them by the time these tests run.
package corpus

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

// placeholderAddress matches the address entries of the conformance
// manifests that the suite's Applier replaces with the implementation's
// address pools before it applies a Gateway.
var placeholderAddress = regexp.MustCompile(`(?m)^\s*- value: "PLACEHOLDER_(UN)?USABLE_ADDRS"\n`)

// Applied returns a conformance manifest as the suite's Applier sends it
// to the API server: with className and controllerName in place of the
// {GATEWAY_CLASS_NAME} and {GATEWAY_CONTROLLER_NAME} placeholders, and the
// placeholder address entries replaced by the address pools, which are
// empty by default (so they are removed).
func Applied(manifest []byte, className, controllerName string) []byte {
	text := strings.NewReplacer(
		"{GATEWAY_CLASS_NAME}", className,
		"{GATEWAY_CONTROLLER_NAME}", controllerName,
	).Replace(string(manifest))
	return []byte(placeholderAddress.ReplaceAllString(text, ""))
}

// GatewayAPIDir returns the directory of the gateway-api module at the
// version go.mod requires (its CRDs and examples), downloading it into the
// module cache if it is not there yet.
func GatewayAPIDir() (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", "sigs.k8s.io/gateway-api").Output()
	if err != nil {
		return "", fmt.Errorf("go mod download sigs.k8s.io/gateway-api: %w", err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		return "", fmt.Errorf("go mod download sigs.k8s.io/gateway-api: no Dir in %s (%v)", out, err)
	}
	return mod.Dir, nil
}

// EachYAMLFile calls fn with the path and contents of every .yaml and .yml
// file under dir, in lexical order, and stops at the first error.
func EachYAMLFile(dir string, fn func(path string, data []byte) error) error {
	return filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := filepath.Ext(path); ext != ".yaml" && ext != ".yml" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return fn(path, data)
	})
}

// EnvoyGatewayModule is the Envoy Gateway release whose translator golden
// cases (internal/gatewayapi/testdata) the envoy-gateway profile is
// measured against. It is the release go.mod pins for EG's API types.
const EnvoyGatewayModule = "github.com/envoyproxy/gateway@v1.9.1"

// EnvoyGatewayDir returns the directory of EnvoyGatewayModule in the module
// cache, downloading it there if it is not yet (go mod download -json).
func EnvoyGatewayDir() (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", EnvoyGatewayModule).Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %w", EnvoyGatewayModule, err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		return "", fmt.Errorf("go mod download %s: no Dir in %s (%v)", EnvoyGatewayModule, out, err)
	}
	return mod.Dir, nil
}
