package printer

import (
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"text/template"
)

// A template's data keeps the service's numbers exact (json.Number: a
// 19-digit ID prints as sent), and text/template's own eq, lt and the rest
// compare neither json.Number with a literal nor an integer with a float
// ({{if gt .files_count 30}}: "incompatible types for comparison"). These
// replace them: two numbers, whatever their types, compare by value
// (exactly, as rationals); anything else compares as text/template's do
// (strings, booleans, nil; ordering only of strings).

func withComparisons(m template.FuncMap) template.FuncMap {
	m["eq"] = func(a any, bs ...any) (bool, error) {
		if len(bs) == 0 {
			return false, fmt.Errorf("missing argument for comparison")
		}
		for _, b := range bs {
			c, err := tmplCompare(a, b, true)
			if err != nil {
				return false, err
			}
			if c == 0 {
				return true, nil
			}
		}
		return false, nil
	}
	m["ne"] = func(a, b any) (bool, error) { c, err := tmplCompare(a, b, true); return c != 0, err }
	m["lt"] = func(a, b any) (bool, error) { c, err := tmplCompare(a, b, false); return c < 0, err }
	m["le"] = func(a, b any) (bool, error) { c, err := tmplCompare(a, b, false); return c <= 0, err }
	m["gt"] = func(a, b any) (bool, error) { c, err := tmplCompare(a, b, false); return c > 0, err }
	m["ge"] = func(a, b any) (bool, error) { c, err := tmplCompare(a, b, false); return c >= 0, err }
	return m
}

// tmplNumber is x as an exact rational when it is a number.
func tmplNumber(x any) (*big.Rat, bool) {
	switch v := x.(type) {
	case json.Number:
		return new(big.Rat).SetString(string(v))
	case float32, float64:
		f := reflect.ValueOf(v).Float()
		r := new(big.Rat)
		if r.SetFloat64(f) == nil {
			return nil, false // NaN or infinite: not comparable
		}
		return r, true
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return new(big.Rat).SetInt64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return new(big.Rat).SetInt(new(big.Int).SetUint64(rv.Uint())), true
	}
	return nil, false
}

// tmplCompare orders a and b: numbers by value; with equality only,
// strings, booleans and nil as equal or not; without, strings alone.
func tmplCompare(a, b any, equality bool) (int, error) {
	if x, ok := tmplNumber(a); ok {
		if y, ok := tmplNumber(b); ok {
			return x.Cmp(y), nil
		}
	}
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			switch {
			case x < y:
				return -1, nil
			case x > y:
				return 1, nil
			}
			return 0, nil
		}
	case bool:
		if y, ok := b.(bool); ok && equality {
			if x == y {
				return 0, nil
			}
			return 1, nil
		}
	case nil:
		if equality {
			if b == nil {
				return 0, nil
			}
			return 1, nil
		}
	}
	if equality && b == nil {
		return 1, nil
	}
	return 0, fmt.Errorf("incompatible types for comparison: %s and %s", tmplKind(a), tmplKind(b))
}

func tmplKind(x any) string {
	if _, ok := tmplNumber(x); ok {
		return "number"
	}
	switch x.(type) {
	case nil:
		return "null"
	case string:
		return "text"
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	}
	return fmt.Sprintf("%T", x)
}
