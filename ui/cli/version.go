package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/vaultdeck/vaultdeck/store"
)

// The release build (.ci/release/build) stamps these with -ldflags -X: the
// version (a tag, or Go's pseudo-version form), the commit and its date.
// A build with -buildvcs=false or from an archive has no VCS stamp of Go's
// own, so without these two builds could not be told apart. They are set
// by the linker only, never at run time.
var stampVersion, stampCommit, stampDate string

// versionInfo is what `vaultdeck version` reports, from the build info the
// Go toolchain stamps into the binary (module version, VCS revision).
type versionInfo struct {
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
	// Schema is the local store's schema this build writes (and the newest
	// it opens): releases of one schema share a store both ways.
	Schema int `json:"store_schema"`
}

func buildVersion() versionInfo {
	v := versionInfo{Version: "(unknown)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH, Schema: store.Schema()}
	if stampVersion != "" {
		v.Version, v.Revision, v.Time = stampVersion, stampCommit, stampDate
		return v
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// String is the one line of `vaultdeck --version`.
func (v versionInfo) String() string {
	s := "vaultdeck " + v.Version
	if v.Revision != "" {
		s += " " + v.Revision[:min(len(v.Revision), 12)]
		if v.Modified {
			s += "+modified"
		}
		if v.Time != "" {
			s += " (" + v.Time + ")"
		}
	}
	return s + " " + v.Go + " " + v.Platform + fmt.Sprintf(", store schema %d", v.Schema)
}
