//go:build firstframeexit

package console

// exitAfterFirstFrame: built with -tags firstframeexit, the program ends
// the moment its first frame is written, so that `perf stat` counts the
// path to the first frame and nothing after it (ui/e2e/testdata/ffstat,
// BENCHMARKS.md "Time to first frame"). Never set in a release build.
const exitAfterFirstFrame = true
