package page

import (
	"testing"
	"unsafe"
)

// TestEnvStaysSmall: every view keeps a copy of its Env and receives one by
// value, so its size is paid at each view's construction, on the heap and
// in stack frames (console.NewModel's frame was 54 KB when the Env held the
// theme's 14 KB of styles by value, and grew the console's stack before its
// first frame; issue 32). The theme is a handle now; keep it so.
func TestEnvStaysSmall(t *testing.T) {
	const limit = 6 << 10
	if n := unsafe.Sizeof(Env{}); n > limit {
		t.Errorf("page.Env is %d bytes (limit %d): hold large values by pointer or handle, as themes.Theme does", n, limit)
	}
}
