package validate

import "strings"

// PathSegments splits a field path as Kubernetes prints it into keys and
// indexes: `a.b[0][k.x].c` gives a, b, 0, k.x, c. The API server's root
// path ("<nil>") has none.
func PathSegments(path string) []string {
	var segs []string
	for path != "" && path != "<nil>" {
		switch path[0] {
		case '.':
			path = path[1:]
		case '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return append(segs, path[1:])
			}
			segs = append(segs, path[1:end])
			path = path[end+1:]
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			segs = append(segs, path[:end])
			path = path[end:]
		}
	}
	return segs
}
