package token

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// NoTokenError says no token could be found (or saved) for a profile, why,
// and the three ways out. It is the one message users see for every flavour
// of "the keyring did not work", so it always names all three.
type NoTokenError struct {
	Profile string
	// Saving is set when the token could not be saved (at login), rather
	// than not found.
	Saving bool
	// Keyring is why the keyring failed; nil when it merely had no token.
	Keyring error
	// FileAllowed is set when the profile opted in to file storage, and
	// File says why the file did not help (nil: there was no file).
	FileAllowed bool
	File        error
	FilePath    string
}

func (e *NoTokenError) Error() string {
	var b strings.Builder
	if e.Saving {
		fmt.Fprintf(&b, "the token for profile %q could not be saved in the system keyring", e.Profile)
	} else {
		fmt.Fprintf(&b, "no API token is available for profile %q", e.Profile)
	}
	switch {
	case e.Keyring != nil:
		fmt.Fprintf(&b, ": %v", e.Keyring)
	case !e.Saving:
		b.WriteString(": none is saved in the system keyring")
	}
	if e.FileAllowed && !e.Saving {
		if e.File != nil {
			fmt.Fprintf(&b, ", and the token file cannot be used: %v", e.File)
		} else {
			fmt.Fprintf(&b, ", and there is no token file at %s", e.FilePath)
		}
	}
	fmt.Fprintf(&b, ". To fix it, do one of these: unlock the system keyring (or start one, such as gnome-keyring) and run `vaultdeck login --profile %s`;"+
		" set the %s environment variable;"+
		" or opt in to storing the token in a plain-text file with `vaultdeck login --profile %s --insecure-storage`",
		e.Profile, EnvVar, e.Profile)
	return b.String()
}

// Unwrap exposes the underlying causes to errors.Is and errors.As.
func (e *NoTokenError) Unwrap() []error {
	var out []error
	for _, err := range []error{e.Keyring, e.File} {
		if err != nil {
			out = append(out, err)
		}
	}
	return out
}

// redact keeps a secret out of an error message. A keyring's D-Bus or OS error
// has no business quoting the secret, but the cost of being wrong is a token
// in a log file, so the text is scrubbed anyway.
func redact(err error, secret string) error {
	if err == nil || secret == "" || !strings.Contains(err.Error(), secret) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), secret, "[redacted]"))
}

// ValidateToken checks that a pasted token is plausible: not empty, and no
// spaces or control characters (a token pasted with a stray escape sequence
// would otherwise be saved and fail on every request).
func ValidateToken(tok string) error {
	if tok == "" {
		return errors.New("the token is empty")
	}
	if len(tok) > maxTokenBytes {
		return errors.New("the token is too long to be an API token")
	}
	for _, r := range tok {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == unicode.ReplacementChar {
			return errors.New("the token contains spaces or control characters; paste only the token itself")
		}
	}
	return nil
}
