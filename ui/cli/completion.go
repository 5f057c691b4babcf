package cli

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/vaultdeck/vaultdeck/themes"
)

// Shell completion: each script asks the binary itself (`vaultdeck
// __complete CWORD WORDS...`) for candidates, so commands, flags and
// profile names never drift from what this build and this store hold.

var completionScripts = map[string]string{
	"bash": `# vaultdeck completion for bash: source <(vaultdeck completion bash)
_vaultdeck() {
	local IFS=$'\n'
	COMPREPLY=($(vaultdeck __complete "$COMP_CWORD" "${COMP_WORDS[@]}" 2>/dev/null))
}
complete -o default -F _vaultdeck vaultdeck
`,
	"zsh": `#compdef vaultdeck
# vaultdeck completion for zsh: source <(vaultdeck completion zsh)
_vaultdeck() {
	local -a candidates
	candidates=("${(@f)$(vaultdeck __complete $((CURRENT-1)) "${words[@]}" 2>/dev/null)}")
	compadd -a candidates
}
compdef _vaultdeck vaultdeck
`,
	"fish": `# vaultdeck completion for fish: vaultdeck completion fish | source
function __vaultdeck_complete
	set -l words (commandline -opc) (commandline -ct)
	vaultdeck __complete (math (count $words) - 1) $words 2>/dev/null
end
complete -c vaultdeck -f -a '(__vaultdeck_complete)'
`,
}

func shells() []string { return []string{"bash", "zsh", "fish"} }

func (r *runner) completion(_ context.Context, args []string) int {
	fs := r.newFlagSet("completion", "bash|zsh|fish")
	pos, code, ok := r.parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(pos) != 1 || completionScripts[pos[0]] == "" {
		got := ""
		if len(pos) > 0 {
			got = pos[0]
		}
		return r.usage(fs, "give one shell: bash, zsh or fish (got %q)", got)
	}
	fmt.Fprint(r.env.Stdout, completionScripts[pos[0]])
	return ExitOK
}

// globalValueFlags are the global flags that take a value (the next word).
var globalValueFlags = []string{"--region", "--base-url", "--ca-file", "--profile", "--timeout"}

// leadFlags are the flags of commands implemented outside this package,
// whose -h output cannot be captured.
var leadFlags = map[string][]string{
	"login":    {"--profile", "--region", "--base-url", "--ca-file", "--read-only", "--insecure-storage"},
	"logout":   {"--profile"},
	"profiles": {"--profile", "--forget", "--set-default"},
	"sim":      {"--addr", "--seed", "--scale", "--tls", "--no-rate-limit", "--recycle-bin", "--control", "--stuck-share", "--processing-delay"},
	"serve":    {"--listen", "--authorized-keys", "--host-key", "--allow-writes", "--max-sessions", "--idle-timeout", "--theme", "--stuck-after", "--check"},
	"demo":     {"--read-only", "--theme", "--no-color", "--stuck-after", "--open", "--seed", "--scale", "--no-rate-limit"},
}

var consoleFlagNames = []string{"--read-only", "--theme", "--no-color", "--stuck-after", "--open"}

// complete prints the candidates for words[cword] (words[0] is the program).
func (r *runner) complete(ctx context.Context, args []string) int {
	if len(args) < 1 {
		return ExitUsage
	}
	cword, err := strconv.Atoi(args[0])
	words := args[1:]
	if err != nil || cword < 1 {
		return ExitUsage
	}
	for len(words) <= cword {
		words = append(words, "")
	}
	cur, prev := words[cword], words[cword-1]
	var cands []string
	switch prev {
	case "--profile":
		cands = r.profileNames()
	case "--theme":
		cands = themes.Names()
	case "--open":
		cands = startViews()
	case "--region":
		cands = []string{"us", "eu", "au"}
	case "--scale":
		cands = []string{"small", "large"}
	}
	if cands == nil && !slices.Contains(globalValueFlags, prev) {
		cmd, after := commandOf(words[1:cword])
		switch {
		case strings.HasPrefix(cur, "-"):
			cands = append(globalFlagNames(), r.flagsOf(ctx, cmd)...)
		case cmd == "":
			for _, c := range commands() {
				cands = append(cands, c.name)
			}
		case cmd == "completion" && after == 0:
			cands = shells()
		case cmd == "help" && after == 0:
			for _, c := range commands() {
				cands = append(cands, c.name)
			}
		case cmd == "audit" && after == 0:
			cands = []string{"sync", "follow"}
		case cmd == "config" && after == 0:
			cands = []string{"get", "set", "unset"}
		case cmd == "config" && after == 1:
			cands = settingKeys()
		case cmd == "config" && after == 2 && prev == settingTheme:
			cands = themes.Names()
		case cmd == "config" && after == 2 && prev == settingReadOnly:
			cands = []string{"true", "false"}
		}
	}
	for _, c := range cands {
		if strings.HasPrefix(c, cur) {
			fmt.Fprintln(r.env.Stdout, c)
		}
	}
	return ExitOK
}

// commandOf finds the subcommand among the words before the cursor, and
// how many positional words follow it.
func commandOf(words []string) (string, int) {
	cmd, after := "", 0
	for i := 0; i < len(words); i++ {
		w := words[i]
		if slices.Contains(globalValueFlags, w) {
			i++
			continue
		}
		if strings.HasPrefix(w, "-") {
			continue
		}
		if cmd == "" {
			cmd = w
		} else {
			after++
		}
	}
	return cmd, after
}

func globalFlagNames() []string {
	return append(slices.Clone(globalValueFlags), "--json", "--jsonl", "--csv", "--help", "--version")
}

var flagLine = regexp.MustCompile(`(?m)^\s+-{1,2}([a-z][a-z0-9-]*)`)

// flagsOf lists a command's own flags: from its -h output for the commands
// of this package, so the list is the FlagSet's own.
func (r *runner) flagsOf(ctx context.Context, cmd string) []string {
	if cmd == "" {
		return consoleFlagNames
	}
	if f, ok := leadFlags[cmd]; ok {
		return f
	}
	for _, c := range commands() {
		if c.name != cmd {
			continue
		}
		var out bytes.Buffer
		sub := &runner{env: r.env, g: Globals{}, cmd: cmd}
		sub.env.Stdout, sub.env.Stderr = &out, &out
		c.run(sub, ctx, []string{"-h"})
		var flags []string
		for _, m := range flagLine.FindAllStringSubmatch(out.String(), -1) {
			if f := "--" + m[1]; !slices.Contains(flags, f) {
				flags = append(flags, f)
			}
		}
		return flags
	}
	return nil
}

// profileNames lists the stored profiles (none when the store cannot be
// read: completion must never fail loudly).
func (r *runner) profileNames() []string {
	st, err := r.openStore()
	if err != nil {
		return nil
	}
	defer st.Close()
	ps, err := st.Profiles()
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(ps))
	for _, p := range ps {
		names = append(names, p.Name)
	}
	return names
}
