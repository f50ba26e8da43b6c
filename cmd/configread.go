package cmd

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/offline/load"
)

// maxConfigBytes bounds the config file, which holds a few hundred bytes
// in practice.
const maxConfigBytes = 1 << 20

// maxUnknownKeys is how many unknown keys are reported one by one: a file
// that is not a gwsim config at all (a link to /etc/shadow) has one on
// every line.
const maxUnknownKeys = 3

// readConfig reads and checks a config file. It is found in the repository
// under test, so it is read as a manifest is (load.ReadFile: a regular
// file, within a size limit, with an open that never blocks), and its
// errors name a line and a key but echo no other text of the file, which
// might not be a config at all. Every problem is an input error (exit 2)
// naming the file: a setting that is silently wrong is worse than one
// that stops the run.
func readConfig(path string) (configFile, error) {
	data, err := load.ReadFile(path, maxConfigBytes)
	if err != nil {
		return configFile{}, fmt.Errorf("reading config: %w", err)
	}
	lines, probs := configLines(data)
	if len(probs) > 0 {
		return configFile{}, newConfigError(path, probs)
	}
	js, err := yaml.YAMLToJSONStrict(data)
	if err != nil {
		// configLines has parsed the same YAML and found it sound.
		return configFile{}, fmt.Errorf("%s: %w", path, err)
	}
	cfg, err := decodeConfig(js)
	if err == nil {
		err = cfg.validate()
	}
	if err != nil {
		return configFile{}, newConfigError(path, atLines(err, lines))
	}
	return cfg, nil
}

// configProblem is one problem of the config file, at a line (0: none).
type configProblem struct {
	line int
	msg  string
}

// configError is every problem of a config file, each with the file's
// name and its line, on one line: error messages are printed with their
// control characters escaped.
type configError struct {
	path     string
	problems []configProblem
}

// newConfigError orders the problems by line; problems without one, which
// sum up, come last.
func newConfigError(path string, probs []configProblem) *configError {
	slices.SortStableFunc(probs, func(a, b configProblem) int {
		return cmp.Compare(cmp.Or(a.line, math.MaxInt), cmp.Or(b.line, math.MaxInt))
	})
	return &configError{path: path, problems: probs}
}

func (e *configError) Error() string {
	var b strings.Builder
	for i, p := range e.problems {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(e.path)
		if p.line > 0 {
			b.WriteString(":" + strconv.Itoa(p.line))
		}
		b.WriteString(": " + p.msg)
	}
	return b.String()
}

// configLines parses the file and returns the line of each setting and of
// each item of a list (`ignore[2]`). It refuses what is not a mapping of
// known settings: a key gwsim does not have, a key given twice, an alias.
func configLines(data []byte) (map[string]int, []configProblem) {
	var root yamlv3.Node
	if err := yamlv3.Unmarshal(data, &root); err != nil {
		return nil, []configProblem{yamlProblem(err)}
	}
	lines := map[string]int{}
	if len(root.Content) == 0 {
		return lines, nil
	}
	top := root.Content[0]
	if top.Kind != yamlv3.MappingNode {
		return nil, []configProblem{{top.Line, "not a mapping of settings"}}
	}
	known := configKeys()
	var probs []configProblem
	unknown := 0
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		switch {
		case !slices.Contains(known, k.Value):
			unknown++
			if unknown <= maxUnknownKeys {
				probs = append(probs, unknownKey(k, known))
			}
		case lines[k.Value] != 0:
			probs = append(probs, configProblem{k.Line, fmt.Sprintf("%s: given twice (first at line %d)", k.Value, lines[k.Value])})
		default:
			lines[k.Value] = k.Line
			if a := firstAlias(v); a != nil {
				probs = append(probs, configProblem{a.Line, k.Value + ": aliases are not supported in the config file"})
			}
			if v.Kind == yamlv3.SequenceNode {
				for j, item := range v.Content {
					lines[k.Value+"["+strconv.Itoa(j)+"]"] = item.Line
				}
			}
		}
	}
	if unknown > maxUnknownKeys {
		probs = append(probs, configProblem{0, fmt.Sprintf("and %d more unknown keys: is this a gwsim config file?", unknown-maxUnknownKeys)})
	}
	return lines, probs
}

// plainKey is a key that is shown in an error: one that looks like a
// setting's name. Anything else might be a line of some other file.
var plainKey = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]{0,62}$`)

func unknownKey(k *yamlv3.Node, known []string) configProblem {
	settings := strings.Join(known, ", ")
	if k.Kind == yamlv3.ScalarNode && plainKey.MatchString(k.Value) {
		return configProblem{k.Line, fmt.Sprintf("unknown setting %q (the settings are %s)", k.Value, settings)}
	}
	return configProblem{k.Line, "not a setting of gwsim; the key is not shown (the settings are " + settings + ")"}
}

// configKeys are the settings the config file has: configFile's JSON
// keys, sorted.
func configKeys() []string {
	t := reflect.TypeFor[configFile]()
	keys := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	slices.Sort(keys)
	return keys
}

func firstAlias(n *yamlv3.Node) *yamlv3.Node {
	if n.Kind == yamlv3.AliasNode {
		return n
	}
	for _, c := range n.Content {
		if a := firstAlias(c); a != nil {
			return a
		}
	}
	return nil
}

// yamlLine is the start of the YAML parser's messages.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// yamlProblem is a YAML syntax error at its line, cut before the first
// quoted text (an anchor's name, a character of the file).
func yamlProblem(err error) configProblem {
	msg := err.Error()
	line := 0
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	return configProblem{line, "not valid YAML: " + beforeQuotedText(msg)}
}

// beforeQuotedText cuts msg before the first quoted text longer than a
// few characters: the parser quotes the indicators it expected (',' or
// ']'), but also names of the file's anchors.
func beforeQuotedText(msg string) string {
	for i := 0; i < len(msg); i++ {
		q := msg[i]
		if q != '\'' && q != '"' && q != '`' {
			continue
		}
		end := strings.IndexByte(msg[i+1:], q)
		if end < 0 || end > 3 {
			return strings.TrimRight(msg[:i], " :")
		}
		i += end + 1
	}
	return msg
}

// decodeConfig decodes the settings one at a time first, so that a value
// of the wrong type is reported by its setting and the type it should
// have (configLines has checked the keys).
func decodeConfig(js []byte) (configFile, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(js, &raw); err != nil {
		return configFile{}, errors.New("not a mapping of settings")
	}
	var errs []error
	for _, key := range slices.Sorted(maps.Keys(raw)) {
		one, _ := json.Marshal(map[string]json.RawMessage{key: raw[key]})
		var c configFile
		if err := strictJSON(one, &c); err != nil {
			msg := typeProblem(err)
			if !strings.HasPrefix(msg, key+": ") {
				msg = key + ": " + msg // a setting's own decoder may name it
			}
			errs = append(errs, errors.New(msg))
		}
	}
	if len(errs) > 0 {
		return configFile{}, errors.Join(errs...)
	}
	var cfg configFile
	return cfg, strictJSON(js, &cfg)
}

func strictJSON(js []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(js))
	d.DisallowUnknownFields()
	return d.Decode(v)
}

// typeProblem says what a setting's value should be, without its text.
func typeProblem(err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err.Error()
	}
	want := "a string"
	switch te.Type.Kind() {
	case reflect.Slice:
		want = "a list of strings"
	case reflect.Map:
		want = "a mapping of strings"
	}
	got := map[string]string{"array": "a list", "object": "a mapping", "number": "a number", "bool": "true or false", "string": "a string"}[te.Value]
	if got == "" {
		got = "something else"
	}
	return fmt.Sprintf("want %s, not %s", want, got)
}

// atLines puts each of err's problems (`key: ...` or `key[i]: ...`) at
// its line.
func atLines(err error, lines map[string]int) []configProblem {
	all := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		all = j.Unwrap()
	}
	probs := make([]configProblem, 0, len(all))
	for _, e := range all {
		key, _, _ := strings.Cut(e.Error(), ":")
		line, ok := lines[key]
		if !ok {
			base, _, _ := strings.Cut(key, "[")
			line = lines[base]
		}
		probs = append(probs, configProblem{line, e.Error()})
	}
	return probs
}
