package load

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitLines(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []int // source line of each document
		data  []string
	}{
		{name: "single document", input: "a: 1\nb: 2\n", want: []int{1}, data: []string{"a: 1\nb: 2\n"}},
		{name: "leading separator", input: "---\na: 1\n", want: []int{2}, data: []string{"a: 1\n"}},
		{name: "comments before content are skipped for the line", input: "# c\n\n---\n# Source: x.yaml\n\na: 1\n", want: []int{6}, data: []string{"# Source: x.yaml\n\na: 1\n"}},
		{name: "empty and comment-only documents dropped", input: "a: 1\n---\n---\n# only\n---\n\n---\nb: 2\n", want: []int{1, 8}, data: []string{"a: 1\n", "b: 2\n"}},
		{name: "separator with comment", input: "a: 1\n--- # next\nb: 2", want: []int{1, 3}, data: []string{"a: 1\n", "b: 2"}},
		{name: "document end marker", input: "a: 1\n...\n---\nb: 2\n...\n", want: []int{1, 4}, data: []string{"a: 1\n", "b: 2\n"}},
		{name: "content after end marker starts a document", input: "a: 1\n...\nb: 2\n", want: []int{1, 3}, data: []string{"a: 1\n", "b: 2\n"}},
		{name: "separator with content starts on its own line", input: "a: 1\n--- {b: 2}\n", want: []int{1, 2}, data: []string{"a: 1\n", "--- {b: 2}\n"}},
		{name: "CRLF", input: "a: 1\r\n---\r\n\r\nb: 2\r\n", want: []int{1, 4}, data: []string{"a: 1\r\n", "\r\nb: 2\r\n"}},
		{name: "BOM", input: "\ufeffa: 1\n", want: []int{1}, data: []string{"a: 1\n"}},
		{name: "dashes that are not a separator", input: "a: |\n  ---\n----: x\n", want: []int{1}, data: []string{"a: |\n  ---\n----: x\n"}},
		{name: "directive", input: "%YAML 1.2\n---\na: 1\n", want: []int{3}, data: []string{"a: 1\n"}},
		{name: "only comments", input: "# nothing\n---\n", want: nil, data: nil},
		{name: "JSON stream", input: "{\"a\": 1}\n\n  {\"b\":\n 2}", want: []int{1, 3}, data: []string{`{"a": 1}`, "{\"b\":\n 2}"}},
		{name: "brace that is YAML", input: "{a: 1}\n---\nb: 2\n", want: []int{1, 3}, data: []string{"{a: 1}\n", "b: 2\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, errs := split("f", []byte(tt.input))
			if len(errs) != 0 {
				t.Fatalf("unexpected errors: %v", errs)
			}
			var lines []int
			var data []string
			for _, d := range docs {
				lines = append(lines, d.line)
				data = append(data, string(d.data))
			}
			if diff := cmp.Diff(tt.want, lines); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.data, data); diff != "" {
				t.Errorf("data (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSplitJSONErrorAfterFirstValue(t *testing.T) {
	docs, errs := split("f.json", []byte("{\"a\": 1}\n{\"b\": }\n"))
	if len(docs) != 1 || len(errs) != 1 {
		t.Fatalf("got %d docs and %v, want 1 doc and 1 error", len(docs), errs)
	}
	if got, want := errs[0].String(), "f.json:2: error: invalid character '}' looking for beginning of value"; got != want {
		t.Errorf("error = %q, want %q", got, want)
	}
}

func TestYAMLMessage(t *testing.T) {
	tests := []struct {
		msg      string
		base     int
		wantLine int
		want     string
	}{
		{"yaml: line 3: mapping values are not allowed", 10, 12, "yaml: line 12: mapping values are not allowed"},
		{"yaml: unmarshal errors:\n  line 2: key \"a\" already set in map\n  line 4: key \"b\" already set in map", 5, 6,
			`yaml: unmarshal errors: line 6: key "a" already set in map line 8: key "b" already set in map`},
		{"yaml: found character that cannot start any token", 7, 0, "yaml: found character that cannot start any token"},
	}
	for _, tt := range tests {
		line, msg := yamlMessage(tt.msg, tt.base)
		if line != tt.wantLine || msg != tt.want {
			t.Errorf("yamlMessage(%q, %d) = %d, %q; want %d, %q", tt.msg, tt.base, line, msg, tt.wantLine, tt.want)
		}
	}
}

func TestClassify(t *testing.T) {
	for line, want := range map[string]lineKind{
		"---": lineSeparator, "--- ": lineSeparator, "---\t# x": lineSeparator, "--- !!map": lineSeparatorWithContent,
		"...": lineEnd, "... # end": lineEnd, "----": lineContent, "---x": lineContent, "  # c": lineBlank,
		"": lineBlank, "%YAML 1.2": lineBlank, "  a: 1": lineContent, "- x": lineContent,
	} {
		if got := classify([]byte(line)); got != want {
			t.Errorf("classify(%q) = %d, want %d", line, got, want)
		}
	}
}
