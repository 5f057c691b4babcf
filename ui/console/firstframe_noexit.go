//go:build !firstframeexit

package console

// exitAfterFirstFrame is false in every ordinary build (see
// firstframe_exit.go).
const exitAfterFirstFrame = false
