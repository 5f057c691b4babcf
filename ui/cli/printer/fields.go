package printer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// --json FIELDS is gh's: only the named top-level fields of each item of a
// listing (or of the single object), in the order named, a field the
// service left out of one item as null. Bare --json keeps vaultdeck's own
// meaning, the service's objects whole as sent: gh asks for fields because
// it builds its JSON from GraphQL queries, and vaultdeck's objects are the
// service's own at no extra cost. The selection is a step of the shaper:
// it cuts each item before --jq or --template read it, or, alone, prints
// what it cut as --json would (a listing one array, an item a line).

// jsonFlag is --json[=FIELDS].
type jsonFlag struct{ p *Printer }

// jsonWhole is what pflag hands Set for a bare --json.
const jsonWhole = "true"

func (f *jsonFlag) String() string {
	if f.p.fields != nil {
		return strings.Join(f.p.fields, ",")
	}
	return ""
}
func (f *jsonFlag) Type() string { return "bool" } // so the help reads "--json FIELDS", its value optional
func (f *jsonFlag) Set(s string) error {
	if s == "false" {
		f.p.opt.json, f.p.fields = false, nil
		return nil
	}
	f.p.opt.json = true
	if s == jsonWhole || s == "" {
		f.p.fields = nil
		return nil
	}
	var fields []string
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if !fieldName(name) {
			return fmt.Errorf("%q is not a field name: --json takes a comma-separated list such as name,id (or nothing: the objects whole)", name)
		}
		if !slices.Contains(fields, name) {
			fields = append(fields, name)
		}
	}
	f.p.fields = fields
	return nil
}

// fieldName reports whether s reads as a field's name (letters, digits,
// underscores, not a digit first), as the service's are.
func fieldName(s string) bool {
	for i, c := range []byte(s) {
		letter := c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return s != ""
}

// JoinJSONFields makes `--json name,id` (gh's spelling, a space before
// the fields) `--json=name,id` before the flags are parsed: --json's value
// is optional, and a flag's optional value must be joined to it. The word
// after --json is its fields when it reads as a list of field names and is
// not a command's name (`vaultdeck --json projects` stays a command).
func JoinJSONFields(args []string, isCommand func(string) bool) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if a == "--json" && i+1 < len(args) && fieldList(args[i+1]) && !isCommand(args[i+1]) {
			out = append(out, "--json="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

func fieldList(s string) bool {
	for _, name := range strings.Split(s, ",") {
		if !fieldName(name) {
			return false
		}
	}
	return s != ""
}

// knownFields is the JSON field names of T (a record of the service's),
// sorted; nil when T is not a struct.
func knownFields(t reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		switch {
		case name == "-":
			continue
		case sf.Anonymous && name == "":
			names = append(names, knownFields(sf.Type)...)
			continue
		case !sf.IsExported():
			continue
		case name == "":
			name = sf.Name
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// unknownField is the usage error of a field T does not have.
func unknownField(cmd string, fields, known []string) error {
	for _, f := range fields {
		if !slices.Contains(known, f) {
			return fmt.Errorf("unknown JSON field %q for %s; available fields: %s", f, cmd, strings.Join(known, ", "))
		}
	}
	return nil
}

// project is raw (one object) cut to fields: in their order, a field
// missing as null when known says the listing's records have it, and an
// error naming the fields it has otherwise.
func project(dst, raw []byte, fields, known []string) ([]byte, error) {
	var obj map[string]json.RawMessage
	d := json.NewDecoder(bytes.NewReader(raw))
	if err := d.Decode(&obj); err != nil || obj == nil {
		return nil, fmt.Errorf("--json %s selects the fields of objects, and this is not one", strings.Join(fields, ","))
	}
	dst = append(dst, '{')
	for i, f := range fields {
		v, ok := obj[f]
		if !ok && !slices.Contains(known, f) {
			have := make([]string, 0, len(obj))
			for k := range obj {
				have = append(have, k)
			}
			slices.Sort(have)
			return nil, fmt.Errorf("unknown JSON field %q; available fields: %s", f, strings.Join(have, ", "))
		}
		if !ok {
			v = json.RawMessage("null")
		}
		if i > 0 {
			dst = append(dst, ',')
		}
		k, _ := json.Marshal(f)
		dst = append(dst, k...)
		dst = append(dst, ':')
		dst = append(dst, v...)
	}
	return append(dst, '}'), nil
}
