package sim

import (
	"encoding/hex"
	"math/rand/v2"
	"time"
)

// uuid4 formats 16 bytes from the seeded generator as a version-4 UUID, so
// ids are random-looking yet identical for identical seeds.
func uuid4(rng *rand.Rand) string {
	var b [16]byte
	for i := 0; i < 16; i += 8 {
		v := rng.Uint64()
		for j := 0; j < 8; j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return format(b)
}

// uuid7 is a time-ordered UUID (48-bit Unix milliseconds first), so that
// ordering audit ids as strings orders them by timestamp.
func uuid7(rng *rand.Rand, t time.Time) string {
	var b [16]byte
	ms := uint64(t.UnixMilli())
	for i := 0; i < 6; i++ {
		b[i] = byte(ms >> (8 * (5 - i)))
	}
	v := rng.Uint64()
	for j := 0; j < 8; j++ {
		b[8+j] = byte(v >> (8 * j))
	}
	v = rng.Uint64()
	b[6], b[7] = byte(v), byte(v>>8)
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	return format(b)
}

func format(b [16]byte) string {
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:36], b[10:16])
	return string(out[:])
}

// validUUID reports whether s looks like a canonical lowercase or uppercase UUID.
// It repeats api.IsUUID on purpose: the simulator is the server side and
// imports nothing of the client, so a slip in the client's check shows up
// as a disagreement in tests instead of being trusted by both sides.
func validUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}
