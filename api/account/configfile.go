package account

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	yamltoken "github.com/goccy/go-yaml/token"

	"github.com/vaultdeck/vaultdeck/api/localfile"
	"github.com/vaultdeck/vaultdeck/store"
)

// ConfigFileName is the configuration file in the configuration directory
// ($XDG_CONFIG_HOME/vaultdeck, or VAULTDECK_HOME): profiles and their
// settings as configuration management writes them. YAML, as gh's
// config.yml is. The file is read as a tree of its own keys (goccy/go-yaml's
// syntax tree), never decoded into types by YAML's rules, so `read-only: no`
// and `timeout: 30` mean what vaultdeck's own checks say, with the line
// that said it.
const ConfigFileName = "config.yaml"

// Keys of a profile in the file besides the settings (Keys()).
const (
	FileKeyRegion       = "region"
	FileKeyBaseURL      = "base-url"
	FileKeyCAFile       = "ca-file"
	FileKeyTokenStorage = "token-storage"
	FileKeyWorkspaceID  = "workspace-id"
)

// fileProfileKeys are every key a profile may have in the file, in the
// order errors list them.
func fileProfileKeys() []string {
	return append([]string{FileKeyRegion, FileKeyBaseURL, FileKeyCAFile, FileKeyTokenStorage, FileKeyWorkspaceID}, Keys()...)
}

// ConfigFile is the file as read: its path, the default profile it names
// and the profiles it declares, each value with its line.
type ConfigFile struct {
	Path        string
	Default     string
	DefaultLine int
	Profiles    []FileProfile
}

// FileProfile is one profile the file declares: its values (as checked,
// in the form the store keeps) and the line of each.
type FileProfile struct {
	Name string
	Line int
	// Values holds each key the file sets, checked; Lines where.
	Values map[string]string
	Lines  map[string]int
}

// Profile returns the declaration of name, or nil.
func (c *ConfigFile) Profile(name string) *FileProfile {
	if c == nil {
		return nil
	}
	for i := range c.Profiles {
		if c.Profiles[i].Name == name {
			return &c.Profiles[i]
		}
	}
	return nil
}

// At names a line of the file for messages: "PATH:LINE".
func (c *ConfigFile) At(line int) string { return fmt.Sprintf("%s:%d", c.Path, line) }

// Owns reports where the file sets key for profile, for `config set`
// and login, which leave a value the file owns to the file.
func (c *ConfigFile) Owns(profile, key string) (string, bool) {
	fp := c.Profile(profile)
	if fp == nil {
		return "", false
	}
	if _, ok := fp.Values[key]; !ok {
		return "", false
	}
	return c.At(fp.Lines[key]), true
}

// ConfigError is a configuration file that cannot be used: where, which
// key, and why. Never the value of a key that looks like a token.
type ConfigError struct {
	Path string
	Line int
	Key  string // the dotted key ("profiles.work.timeout"); "" for the file
	Msg  string
}

func (e *ConfigError) Error() string {
	where := e.Path
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d", e.Path, e.Line)
	}
	if e.Key != "" {
		return fmt.Sprintf("the configuration file %s: %s: %s", where, e.Key, e.Msg)
	}
	return fmt.Sprintf("the configuration file %s: %s", where, e.Msg)
}

// ErrTokenInConfig is wrapped by the error for a key that would hold a
// token: tokens belong to the keyring, a token file or a credential.
var ErrTokenInConfig = errors.New("a token in the configuration file")

// ConfigFilePath is where e's configuration file is.
func ConfigFilePath(e Env) (string, error) {
	p, err := e.Paths()
	if err != nil {
		return "", err
	}
	return filepath.Join(p.Config, ConfigFileName), nil
}

// ReadConfigFile reads e's configuration file through localfile's bound:
// nil and no error when there is none.
func ReadConfigFile(e Env) (*ConfigFile, error) {
	path, err := ConfigFilePath(e)
	if err != nil {
		return nil, err
	}
	b, err := localfile.Read(path, localfile.ConfigFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return ParseConfig(path, b)
}

// tokenish is a key that would hold a secret: refused whatever its value,
// which no message repeats. token-storage says where a token is, not what.
var tokenish = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)token|secret|passw|bearer|credential|api[-_]?key|^auth`)
})

func tokenKey(k string) bool { return k != FileKeyTokenStorage && tokenish().MatchString(k) }

// ParseConfig reads the file's text (path names it in errors).
func ParseConfig(path string, b []byte) (*ConfigFile, error) {
	c := &ConfigFile{Path: path}
	bad := func(line int, key, format string, a ...any) error {
		return &ConfigError{Path: path, Line: line, Key: key, Msg: fmt.Sprintf(format, a...)}
	}
	f, err := parser.ParseBytes(b, 0)
	if err != nil {
		var pe interface {
			GetToken() *yamltoken.Token
			GetMessage() string
		}
		if errors.As(err, &pe) && pe.GetToken() != nil {
			return nil, bad(pe.GetToken().Position.Line, "", "not YAML vaultdeck can read: %s", redactTokenValues(b, pe.GetMessage()))
		}
		return nil, bad(0, "", "not YAML vaultdeck can read")
	}
	if len(f.Docs) > 1 {
		return nil, bad(line(f.Docs[1]), "", "holds more than one YAML document; keep one")
	}
	if len(f.Docs) == 0 || f.Docs[0].Body == nil {
		return c, nil // empty, or comments only
	}
	top, err := mapping(path, "", f.Docs[0].Body)
	if err != nil {
		return nil, err
	}
	for _, kv := range top {
		k, at := keyOf(kv), line(kv.Key)
		switch {
		case tokenKey(k):
			return nil, tokenError(path, at, k)
		case k == "default":
			v, err := scalar(path, k, kv.Value)
			if err != nil {
				return nil, err
			}
			if err := store.ValidateProfileName(v); err != nil {
				return nil, bad(at, k, "%v", err)
			}
			c.Default, c.DefaultLine = v, at
		case k == "profiles":
			ps, err := mapping(path, k, kv.Value)
			if err != nil {
				return nil, err
			}
			for _, pkv := range ps {
				fp, err := readFileProfile(path, pkv)
				if err != nil {
					return nil, err
				}
				c.Profiles = append(c.Profiles, fp)
			}
		default:
			return nil, bad(at, k, "unknown key; the file's keys are default and profiles (vaultdeck help profiles)")
		}
	}
	// A default the file does not declare may be a stored profile's:
	// checked when it is chosen (lookupProfile).
	return c, nil
}

// readFileProfile checks one profile's mapping: its name, known keys,
// each value by the check `config set` and login apply.
func readFileProfile(path string, kv *ast.MappingValueNode) (FileProfile, error) {
	name, at := keyOf(kv), line(kv.Key)
	fp := FileProfile{Name: name, Line: at, Values: map[string]string{}, Lines: map[string]int{}}
	bad := func(line int, key, format string, a ...any) error {
		return &ConfigError{Path: path, Line: line, Key: key, Msg: fmt.Sprintf(format, a...)}
	}
	if err := store.ValidateProfileName(name); err != nil {
		return fp, bad(at, "profiles."+name, "%v", err)
	}
	if _, empty := kv.Value.(*ast.NullNode); empty {
		return fp, nil // a profile with every value its default
	}
	entries, err := mapping(path, "profiles."+name, kv.Value)
	if err != nil {
		return fp, err
	}
	for _, e := range entries {
		k, at := keyOf(e), line(e.Key)
		dotted := "profiles." + name + "." + k
		if tokenKey(k) {
			return fp, tokenError(path, at, dotted)
		}
		if !slices.Contains(fileProfileKeys(), k) {
			return fp, bad(at, dotted, "unknown key; a profile's keys are %s", strings.Join(fileProfileKeys(), ", "))
		}
		v, err := scalar(path, dotted, e.Value)
		if err != nil {
			return fp, err
		}
		if v, err = checkFileValue(k, v); err != nil {
			return fp, bad(line(e.Value), dotted, "%v", err)
		}
		fp.Values[k], fp.Lines[k] = v, at
	}
	if _, r := fp.Values[FileKeyRegion]; r {
		if _, u := fp.Values[FileKeyBaseURL]; u {
			return fp, bad(fp.Lines[FileKeyBaseURL], "profiles."+name, "give region or base-url, not both")
		}
	}
	return fp, nil
}

// checkFileValue checks a value as login and `config set` would and
// returns the form kept. A theme is checked where the themes are known
// (Resolve), with its line.
func checkFileValue(k, v string) (string, error) {
	switch k {
	case FileKeyRegion:
		switch v {
		case "us", "eu", "au":
			return v, nil
		}
		return "", fmt.Errorf("the region %q is unknown: use us, eu or au", v)
	case FileKeyBaseURL:
		v = strings.TrimRight(v, "/")
		return v, CheckProfile(store.Profile{Name: "x", BaseURL: v})
	case FileKeyCAFile:
		if !filepath.IsAbs(v) {
			return "", fmt.Errorf("%q is not an absolute path: a CA file in the configuration file must be one", v)
		}
		return v, nil
	case FileKeyTokenStorage:
		switch v {
		case store.StorageKeyring, store.StorageFile:
			return v, nil
		}
		return "", fmt.Errorf("%q is not keyring or file (where the token is kept; the token itself never is here)", v)
	case FileKeyWorkspaceID:
		if v == "" {
			return "", errors.New("the workspace ID is empty")
		}
		return v, nil
	case KeyTheme:
		if v == "" {
			return "", errors.New("the theme is empty")
		}
		return v, nil
	}
	return Normalize(k, v, nil)
}

func tokenError(path string, line int, key string) error {
	return fmt.Errorf("%w", &tokenConfigError{ConfigError{Path: path, Line: line, Key: key,
		Msg: "tokens are never kept in the configuration file (its value is not repeated here): remove the key, and keep the token in the keyring (`vaultdeck login`), a systemd credential, or VAULTDECK_TOKEN"}})
}

// tokenConfigError is a ConfigError that is also ErrTokenInConfig.
type tokenConfigError struct{ ConfigError }

func (e *tokenConfigError) Error() string        { return e.ConfigError.Error() }
func (e *tokenConfigError) Is(target error) bool { return target == ErrTokenInConfig }
func (e *tokenConfigError) Unwrap() error        { return &e.ConfigError }

// mapping is n's entries, or an error saying that key must be a mapping.
func mapping(path, key string, n ast.Node) ([]*ast.MappingValueNode, error) {
	switch m := n.(type) {
	case *ast.MappingNode:
		return m.Values, nil
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{m}, nil
	}
	what := "the file"
	if key != "" {
		what = key
	}
	return nil, &ConfigError{Path: path, Line: line(n), Key: key, Msg: what + " must be a mapping of keys to values (" + nodeKind(n) + " found)"}
}

// scalar is n's text, or an error when it is a list, mapping or alias.
func scalar(path, key string, n ast.Node) (string, error) {
	switch v := n.(type) {
	case *ast.StringNode:
		return strings.TrimSpace(v.Value), nil
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return strings.TrimSpace(v.GetToken().Value), nil
	case *ast.LiteralNode:
		return strings.TrimSpace(v.Value.Value), nil
	case *ast.NullNode:
		return "", &ConfigError{Path: path, Line: line(n), Key: key, Msg: "has no value; give one or remove the key"}
	}
	return "", &ConfigError{Path: path, Line: line(n), Key: key, Msg: "must be a single value (" + nodeKind(n) + " found)"}
}

func nodeKind(n ast.Node) string {
	switch n.(type) {
	case *ast.SequenceNode:
		return "a list"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.AliasNode, *ast.AnchorNode:
		return "an anchor or alias, which this file does not use"
	case *ast.TagNode:
		return "a tagged value"
	case nil, *ast.NullNode:
		return "nothing"
	}
	return "a single value"
}

func keyOf(kv *ast.MappingValueNode) string {
	if s, ok := kv.Key.(ast.ScalarNode); ok {
		return strings.TrimSpace(fmt.Sprint(s.GetValue()))
	}
	return strings.TrimSpace(kv.Key.String())
}

func line(n ast.Node) int {
	if n == nil || n.GetToken() == nil {
		return 0
	}
	return n.GetToken().Position.Line
}

// redactTokenValues removes from a parser's message any value written
// after a token-looking key, in case the message quotes it.
func redactTokenValues(b []byte, msg string) string {
	for _, l := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok || !tokenKey(strings.TrimSpace(k)) {
			continue
		}
		if v = strings.Trim(strings.TrimSpace(v), `"'`); len(v) >= 4 {
			msg = strings.ReplaceAll(msg, v, "[redacted]")
		}
	}
	return msg
}
