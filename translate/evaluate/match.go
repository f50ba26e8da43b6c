package evaluate

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// matches reports whether every part of m matches req: path, method,
// headers (names case-insensitive) and query parameters (names exact).
func matches(m ir.Match, req Request) bool {
	path, query := splitTarget(req.Path)
	if !pathMatches(m.PathType, m.Path, path) {
		return false
	}
	if m.Method != "" && m.Method != req.Method {
		return false
	}
	for _, h := range m.Headers {
		values := req.Headers.Values(h.Name)
		if len(values) == 0 || !valueMatches(h.Type, h.Value, strings.Join(values, ",")) {
			return false
		}
	}
	for _, q := range m.QueryParams {
		values, ok := query[q.Name]
		if !ok || len(values) == 0 || !valueMatches(q.Type, q.Value, values[0]) {
			return false
		}
	}
	return true
}

func splitTarget(target string) (string, url.Values) {
	path, rawQuery, _ := strings.Cut(target, "?")
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		q = url.Values{}
	}
	return path, q
}

// pathMatches applies the spec's path rules. Exact compares the whole path.
// PathPrefix matches whole segments: "/foo" matches "/foo", "/foo/" and
// "/foo/bar" but not "/foobar", and a trailing slash in the prefix is
// ignored. RegularExpression must match the whole path (RE2, as Envoy).
func pathMatches(typ, value, path string) bool {
	switch typ {
	case "Exact":
		return path == value
	case "RegularExpression":
		re, err := regexp.Compile("^(?:" + value + ")$")
		return err == nil && re.MatchString(path)
	}
	prefix := strings.TrimSuffix(value, "/")
	if prefix == "" {
		return true
	}
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

func valueMatches(typ, want, got string) bool {
	if typ == "RegularExpression" {
		re, err := regexp.Compile("^(?:" + want + ")$")
		return err == nil && re.MatchString(got)
	}
	return want == got
}
