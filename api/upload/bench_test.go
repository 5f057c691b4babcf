package upload

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// benchEnv names the helper role of the test binary: the uploader runs in
// a process of its own so that its peak RSS is measured alone, exactly as
// curl's is.
const benchEnv = "VAULTDECK_UPLOAD_BENCH_HELPER"

// TestUploadBenchHelper is the uploader process of BenchmarkUploadVsCurl;
// it does nothing in a normal test run.
func TestUploadBenchHelper(t *testing.T) {
	if os.Getenv(benchEnv) == "" {
		t.Skip("helper process of BenchmarkUploadVsCurl")
	}
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, err := api.New(api.Config{BaseURL: os.Getenv("BENCH_BASE"), Token: api.StaticToken(os.Getenv("BENCH_TOKEN")), Limits: api.Limits{Vault: -1}})
	if err != nil {
		t.Fatal(err)
	}
	job := &Runner{API: c, Store: st, Profile: "bench"}
	out, err := job.Upload(context.Background(), os.Getenv("BENCH_PROJECT"), Walk([]string{os.Getenv("BENCH_DIR")}), api.DuplicateKeep)
	if err != nil || out.Partial() {
		t.Fatalf("%v %v", err, out.Errors)
	}
}

// BenchmarkUploadVsCurl uploads the same files to the same simulator with
// vaultdeck's uploader (journal, hashing, batching included) and with
// `curl -F` (one curl per batch of the same shape), each in its own
// process, and reports both throughputs and peak RSS. The total size is
// VAULTDECK_BENCH_UPLOAD_MB (default 40, so that -benchtime 1x takes
// seconds); files are a tenth of it, at most 200 MB each. The issue's
// figure: VAULTDECK_BENCH_UPLOAD_MB=2000.
func BenchmarkUploadVsCurl(b *testing.B) {
	if _, err := exec.LookPath("curl"); err != nil {
		b.Skip("curl is not installed")
	}
	total := int64(40)
	if v := os.Getenv("VAULTDECK_BENCH_UPLOAD_MB"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			b.Fatalf("VAULTDECK_BENCH_UPLOAD_MB=%q", v)
		}
		total = n
	}
	fileSize := min(total*1_000_000/10, 200_000_000)
	nFiles := int(total * 1_000_000 / fileSize)
	dir := b.TempDir()
	for i := range nFiles {
		// Sparse files: the page cache serves zeros, so the disk does not
		// decide the figure for either side.
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("exhibit-%02d.pdf", i)))
		if err != nil {
			b.Fatal(err)
		}
		if err := f.Truncate(fileSize); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	// Read every file once before timing: the first read of a sparse
	// file's hole makes the kernel allocate and zero its page-cache pages
	// (about 1.5 s for 900 MB on the 2-core machine), and whoever read
	// first paid it. The first iteration runs vaultdeck first, so that
	// cost fell on vaultdeck in every run of the benchmark.
	warm(b, dir)
	plan := Walk([]string{dir})
	batches := Batches(plan.Files, api.MaxFilesPerUpload, MaxBatchBytes)
	e := simtest.Start(b, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true}})
	s, srvURL, tok := e.Sim, e.URL, e.Token("admin")

	var ours, theirs, oursCPU, theirsCPU time.Duration
	var oursRSS, theirsRSS int64
	var ratios []float64 // curl's time over vaultdeck's, iteration by iteration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pa, _ := s.AddProject(sim.ProjectSpec{Name: fmt.Sprintf("bench vaultdeck %d", i)})
		pc, _ := s.AddProject(sim.ProjectSpec{Name: fmt.Sprintf("bench curl %d", i)})

		runOurs := func() time.Duration {
			cmd := exec.Command(os.Args[0], "-test.run", "^TestUploadBenchHelper$", "-test.count", "1")
			cmd.Env = append(os.Environ(), benchEnv+"=1", "BENCH_BASE="+srvURL, "BENCH_TOKEN="+tok, "BENCH_PROJECT="+pa, "BENCH_DIR="+dir)
			start := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("uploader: %v\n%s", err, out)
			}
			took := time.Since(start)
			ours += took
			oursRSS = max(oursRSS, maxRSS(cmd))
			oursCPU += cpu(cmd)
			return took
		}
		runCurl := func() time.Duration {
			start := time.Now()
			for _, batch := range batches {
				args := []string{"-sS", "--fail", "-o", os.DevNull, "-H", "Authorization: Bearer " + tok, "-F", "duplicate_mode=keep"}
				for _, f := range batch {
					args = append(args, "-F", "file_paths="+f.Path)
				}
				for _, f := range batch {
					args = append(args, "-F", "files=@"+f.Local)
				}
				curl := exec.Command("curl", append(args, srvURL+"/api/v1/vault/upload_files/"+pc)...)
				if out, err := curl.CombinedOutput(); err != nil {
					b.Fatalf("curl: %v\n%s", err, out)
				}
				theirsRSS = max(theirsRSS, maxRSS(curl))
				theirsCPU += cpu(curl)
			}
			took := time.Since(start)
			theirs += took
			return took
		}
		// Alternate who goes first, so neither always meets a warmer or
		// busier machine.
		var o, c time.Duration
		if i%2 == 0 {
			o = runOurs()
			c = runCurl()
		} else {
			c = runCurl()
			o = runOurs()
		}
		ratios = append(ratios, c.Seconds()/o.Seconds())
	}
	b.StopTimer()
	mb := float64(fileSize) * float64(nFiles) / 1e6 * float64(b.N)
	b.ReportMetric(mb/ours.Seconds(), "vaultdeck_MB/s")
	b.ReportMetric(mb/theirs.Seconds(), "curl_MB/s")
	b.ReportMetric(theirs.Seconds()/ours.Seconds(), "throughput_ratio")
	// The pairs' ratios: median and spread (the figure BENCHMARKS.md gives).
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "ratio_median")
	b.ReportMetric(ratios[0], "ratio_min")
	b.ReportMetric(ratios[len(ratios)-1], "ratio_max")
	// CPU (user + system) of each side's processes, per iteration: on two
	// shared cores what the client burns, the simulator cannot use.
	b.ReportMetric(oursCPU.Seconds()/float64(b.N), "vaultdeck_cpu_s")
	b.ReportMetric(theirsCPU.Seconds()/float64(b.N), "curl_cpu_s")
	b.ReportMetric(float64(oursRSS)/1e6, "vaultdeck_peak_RSS_MB")
	b.ReportMetric(float64(theirsRSS)/1e6, "curl_peak_RSS_MB")
}

// warm reads every file under dir once, so both sides find the same page
// cache.
func warm(b *testing.B, dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		_, err = io.Copy(io.Discard, f)
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
}

// cpu is a finished process's user and system time.
func cpu(cmd *exec.Cmd) time.Duration {
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// maxRSS is a finished process's peak resident set in bytes (Linux reports
// kilobytes).
func maxRSS(cmd *exec.Cmd) int64 {
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss) * 1024
	}
	return 0
}
