package evaluate

import "strings"

// NormalizePath normalises the path of a request target before routing,
// as Envoy-based gateways do by default (Envoy's normalize_path and
// merge_slashes, which Envoy Gateway and Istio turn on): runs of slashes
// become one, and the dot segments "." and ".." are removed by RFC 3986
// section 5.2.4 ("/a/./b/../c" is "/a/c"; ".." above the root stays at the
// root). The query is kept as sent. Percent-encoded characters are left
// encoded: implementations differ on decoding them, and %2F in particular
// is not a separator to most.
func NormalizePath(target string) string {
	path, query, hasQuery := strings.Cut(target, "?")
	path = removeDotSegments(mergeSlashes(path))
	if hasQuery {
		return path + "?" + query
	}
	return path
}

func mergeSlashes(path string) string {
	if !strings.Contains(path, "//") {
		return path
	}
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		if path[i] == '/' && i > 0 && path[i-1] == '/' {
			continue
		}
		b.WriteByte(path[i])
	}
	return b.String()
}

// removeDotSegments is RFC 3986's algorithm on an absolute path: each
// segment is kept, dropped (".") or pops the last kept one (".."); a
// final "." or ".." leaves the path ending with a slash.
func removeDotSegments(path string) string {
	if !strings.Contains(path, ".") {
		return path
	}
	segments := strings.Split(strings.TrimPrefix(path, "/"), "/")
	out := make([]string, 0, len(segments))
	for i, s := range segments {
		last := i == len(segments)-1
		switch s {
		case ".":
			if last {
				out = append(out, "")
			}
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	return "/" + strings.Join(out, "/")
}
