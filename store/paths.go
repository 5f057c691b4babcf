package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
)

// FileName is the name of the database file inside the data directory.
const FileName = "vaultdeck.db"

// Paths are the directories vaultdeck keeps its files in.
type Paths struct {
	// Data holds the database.
	Data string
	// Config holds settings the user may edit by hand.
	Config string
	// Tokens holds plain-text token files, used only after the user opts in
	// with `vaultdeck login --insecure-storage`.
	Tokens string
}

// Database is the path of the database file.
func (p Paths) Database() string { return filepath.Join(p.Data, FileName) }

// DefaultPaths works out the directories from the environment it is given
// (never from os.Getenv, so tests and `vaultdeck demo` can point it at a
// temporary home). VAULTDECK_HOME overrides every directory at once; otherwise
// the platform's conventions apply (XDG on Linux and the BSDs).
func DefaultPaths(getenv func(string) string) (Paths, error) {
	return pathsFor(runtime.GOOS, getenv)
}

func pathsFor(goos string, getenv func(string) string) (Paths, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if home := getenv("VAULTDECK_HOME"); home != "" {
		abs, err := filepath.Abs(home)
		if err != nil {
			return Paths{}, fmt.Errorf("VAULTDECK_HOME %q cannot be made absolute: %w", home, err)
		}
		return Paths{Data: abs, Config: abs, Tokens: filepath.Join(abs, "tokens")}, nil
	}

	var data, config string
	switch goos {
	case "windows":
		local, roaming := getenv("LocalAppData"), getenv("AppData")
		if local == "" || roaming == "" {
			return Paths{}, errors.New("neither %LocalAppData% nor %AppData% is set; set VAULTDECK_HOME to the directory vaultdeck should use")
		}
		data, config = filepath.Join(local, "vaultdeck"), filepath.Join(roaming, "vaultdeck")
	case "darwin", "ios":
		home := getenv("HOME")
		if home == "" {
			return Paths{}, errors.New("$HOME is not set; set VAULTDECK_HOME to the directory vaultdeck should use")
		}
		data = filepath.Join(home, "Library", "Application Support", "vaultdeck")
		config = data
	default:
		home := getenv("HOME")
		// The XDG spec says relative paths in these variables are invalid
		// and must be ignored.
		data = xdg(getenv("XDG_DATA_HOME"), home, ".local", "share")
		config = xdg(getenv("XDG_CONFIG_HOME"), home, ".config")
		if data == "" || config == "" {
			return Paths{}, errors.New("$HOME is not set; set VAULTDECK_HOME (or XDG_DATA_HOME and XDG_CONFIG_HOME) to the directory vaultdeck should use")
		}
	}
	return Paths{Data: data, Config: config, Tokens: filepath.Join(config, "tokens")}, nil
}

func xdg(value, home string, fallback ...string) string {
	if value != "" && filepath.IsAbs(value) {
		return filepath.Join(value, "vaultdeck")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(append(append([]string{home}, fallback...), "vaultdeck")...)
}
