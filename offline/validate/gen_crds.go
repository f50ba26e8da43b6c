//go:build ignore

// gen_crds copies the Gateway API CRDs of the sigs.k8s.io/gateway-api
// version that go.mod requires from the module cache into crds/, where
// crds.go embeds them, and Envoy Gateway's own CRDs of the
// github.com/envoyproxy/gateway version into crds/envoy-gateway, without
// the Helm chart's enabling condition around each. Run it with `go
// generate ./offline/validate` (or `make crds`) after changing either
// version; TestEmbeddedCRDsMatchModule and
// TestEmbeddedEnvoyGatewayCRDsMatchModule fail until it has been run.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen_crds:", err)
		os.Exit(1)
	}
}

func run() error {
	dir, err := download("sigs.k8s.io/gateway-api")
	if err != nil {
		return err
	}
	for _, channel := range []string{"standard", "experimental"} {
		if err := copyChannel(filepath.Join(dir, "config", "crd", channel), filepath.Join("crds", channel)); err != nil {
			return err
		}
	}
	egDir, err := download("github.com/envoyproxy/gateway")
	if err != nil {
		return err
	}
	return copyEnvoyGateway(filepath.Join(egDir, "charts", "gateway-crds-helm", "templates", "generated"), filepath.Join("crds", "envoy-gateway"))
}

// download returns the module cache directory of module at the version
// go.mod requires.
func download(module string) (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", module).Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %w", module, err)
	}
	return moduleDir(out)
}

// copyEnvoyGateway copies the chart's generated CRD templates, each the
// CRD between a "{{- if ... }}" line and a "{{- end }}" line, as plain
// CRDs.
func copyEnvoyGateway(from, to string) error {
	isEG := func(name string) bool {
		return strings.HasPrefix(name, "gateway.envoyproxy.io_") && strings.HasSuffix(name, ".yaml")
	}
	return copyCRDs(from, to, isEG, stripHelm)
}

// copyChannel copies one Gateway API channel's CRD files as they are.
func copyChannel(from, to string) error {
	return copyCRDs(from, to, isCRDFile, func(s string) string { return s })
}

// copyCRDs replaces folder to with the files of from that keep selects,
// each written as edit returns it.
func copyCRDs(from, to string, keep func(string) bool, edit func(string) string) error {
	if err := os.RemoveAll(to); err != nil {
		return err
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !keep(e.Name()) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), []byte(edit(string(data))), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// stripHelm must match crds.go's stripHelm: the template's lines without
// those holding a Helm action and without the document marker.
func stripHelm(text string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "{{") && line != "---\n" {
			b.WriteString(line)
		}
	}
	return b.String()
}

// moduleDir reads the "Dir" field of `go mod download -json` without a JSON
// dependency on anything but the standard library.
func moduleDir(js []byte) (string, error) {
	for _, line := range strings.Split(string(js), "\n") {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, `"Dir": "`); ok {
			return strings.TrimSuffix(v, `",`), nil
		}
	}
	return "", fmt.Errorf("no Dir in go mod download output")
}

// isCRDFile must match crds.go's isCRDFile: the CRD files, not the
// kustomization or the ValidatingAdmissionPolicy shipped next to them.
func isCRDFile(name string) bool {
	return strings.HasSuffix(name, ".yaml") && strings.HasPrefix(name, "gateway.networking.") && !strings.Contains(name, "_vap_")
}
