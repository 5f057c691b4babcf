package store

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
)

// walLost reads the write-ahead log beside path as SQLite does (its header,
// then each frame's salt and cumulative checksum) and says, when frames of
// the log's current generation lie past the point where the checksums stop
// matching, how many: commits SQLite will silently skip (a WAL-only damage
// reads as a whole database with the last commits missing). Frames of an
// older generation past the end (another salt) are the log's reuse, not
// damage, and a broken last frame alone is a commit torn by a crash, which
// never was. "" when nothing is lost or there is no log.
func walLost(path string) (string, error) {
	f, err := os.Open(path + "-wal")
	if err != nil {
		if os.IsNotExist(err) {
			return "", nil
		}
		return "", err
	}
	defer f.Close()
	hdr := make([]byte, 32)
	if _, err := io.ReadFull(f, hdr); err != nil {
		return "", nil // empty or shorter than a header: SQLite ignores it too
	}
	var order binary.ByteOrder
	switch binary.BigEndian.Uint32(hdr) {
	case 0x377f0682:
		order = binary.LittleEndian
	case 0x377f0683:
		order = binary.BigEndian
	default:
		return fmt.Sprintf("the write-ahead log %s-wal has no valid header: SQLite reads the database without it", path), nil
	}
	pageSize := int(binary.BigEndian.Uint32(hdr[8:]))
	salt := hdr[16:24]
	s0, s1 := checksum(order, hdr[:24], 0, 0)
	if s0 != binary.BigEndian.Uint32(hdr[24:]) || s1 != binary.BigEndian.Uint32(hdr[28:]) {
		return fmt.Sprintf("the write-ahead log %s-wal has a damaged header: SQLite reads the database without it", path), nil
	}
	frame := make([]byte, 24+pageSize)
	valid, broken, lost := true, 0, 0
	for n := 1; ; n++ {
		if _, err := io.ReadFull(f, frame); err != nil {
			break
		}
		current := string(frame[8:16]) == string(salt)
		if valid {
			a, b := checksum(order, frame[:8], s0, s1)
			a, b = checksum(order, frame[24:], a, b)
			if current && a == binary.BigEndian.Uint32(frame[16:]) && b == binary.BigEndian.Uint32(frame[20:]) {
				s0, s1 = a, b
				continue
			}
			valid, broken = false, n
			continue // a torn last frame alone is a commit that never was
		}
		if current {
			lost++
		}
	}
	if lost == 0 {
		return "", nil
	}
	return fmt.Sprintf("the write-ahead log %s-wal is damaged at frame %d: %d frames of its commits after it are not read by SQLite", path, broken, lost), nil
}

// checksum is SQLite's WAL checksum over b (a multiple of 8 bytes),
// continuing from s0, s1.
func checksum(order binary.ByteOrder, b []byte, s0, s1 uint32) (uint32, uint32) {
	for i := 0; i+8 <= len(b); i += 8 {
		s0 += order.Uint32(b[i:]) + s1
		s1 += order.Uint32(b[i+4:]) + s0
	}
	return s0, s1
}
