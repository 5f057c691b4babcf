package matters

import "testing"

// A receipt names who acted (whoami's e-mail) and how the token was found.
func TestReceiptByNamesTheAccountAndTheToken(t *testing.T) {
	for _, c := range []struct{ email, how, want string }{
		{"a@firm.example", "work", "a@firm.example (profile work)"},
		{"a@firm.example", "(VAULTDECK_TOKEN)", "a@firm.example (VAULTDECK_TOKEN)"},
		{"a@firm.example", "(VAULTDECK_TOKEN) over profile work", "a@firm.example (VAULTDECK_TOKEN over profile work)"},
		{"a@firm.example", "(no profile)", "a@firm.example"},
		{"", "(VAULTDECK_TOKEN)", "(VAULTDECK_TOKEN)"},
		{" ", "work", "work"},
	} {
		if got := ReceiptBy(c.email, c.how); got != c.want {
			t.Errorf("ReceiptBy(%q, %q) = %q, want %q", c.email, c.how, got, c.want)
		}
	}
}
