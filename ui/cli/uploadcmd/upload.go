package uploadcmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// Options are what `upload` and `uploads` work with.
type Options struct {
	IO             *printer.Printer
	Client         func() (*api.Client, error)
	Journal        func() (*store.Store, string, error) // the journal and the active profile; the caller closes it
	RefuseReadOnly func() (code int, ok bool)
}

func options(f *factory.Factory) *Options {
	return &Options{IO: f.IO, Client: f.Client, Journal: f.OpenJournal, RefuseReadOnly: f.RefuseReadOnly}
}

// UploadOptions are what `upload` was asked.
type UploadOptions struct {
	*Options
	Args      []string // PROJECT_ID PATH...
	Mode      string   // skip, replace or keep
	Resume    bool
	SameNames bool
}

// NewCmdUpload is the command; runF, when set, runs instead of RunUpload.
func NewCmdUpload(f *factory.Factory, runF func(context.Context, *UploadOptions) int) *cobra.Command {
	o := &UploadOptions{Options: options(f), Mode: string(api.DuplicateSkip)}
	c := &cobra.Command{Use: "upload PROJECT_ID PATH... | --resume", Short: "upload files and folders, journaled (--resume finishes interrupted uploads)", Args: cobra.ArbitraryArgs}
	fs := c.Flags()
	modes := []string{string(api.DuplicateSkip), string(api.DuplicateReplace), string(api.DuplicateKeep)}
	fs.Var(cmdutil.EnumFlag(&o.Mode, modes), "mode", "when a file of the same name exists: `skip|replace|keep`: skip, replace (a new version) or keep (both, the new one renamed)")
	_ = c.RegisterFlagCompletionFunc("mode", cmdutil.Fixed(modes))
	fs.BoolVar(&o.Resume, "resume", false, "finish every interrupted upload of the profile, sending only what did not arrive")
	fs.BoolVar(&o.SameNames, "same-names", false, "send files of one name from different folders anyway: --mode decides which the project keeps (said before sending); without it such an upload is refused")
	if runF == nil {
		runF = RunUpload
	}
	c.RunE = cmdutil.Run(f, func(ctx context.Context, args []string) int {
		o.Args = args
		return runF(ctx, o)
	})
	return c
}

// RunUpload uploads o's paths to a project, or resumes every interrupted
// upload of the profile, and reports every file.
func RunUpload(ctx context.Context, o *UploadOptions) int {
	pos, mode, resume, sameNames, p := o.Args, &o.Mode, &o.Resume, &o.SameNames, o.IO
	{
		if *resume && len(pos) > 0 {
			return p.Usage("--resume takes no arguments: it finishes every interrupted upload of the profile")
		}
		if !*resume && len(pos) < 2 {
			return p.Usage("give a project ID and at least one file or folder")
		}
		if code, ok := o.RefuseReadOnly(); !ok {
			return code
		}
		c, err := o.Client()
		if err != nil {
			return p.Fail(err)
		}
		st, profile, err := o.Journal()
		if err != nil {
			return p.Fail(err)
		}
		defer st.Close()
		// Limits: the project's limits are read before anything is sent
		// (one get_metadata); past one, the upload is refused with the numbers
		job := &upload.Runner{API: c, Store: st, Profile: profile, Limits: c}
		var line *progressLine
		if w := p.Human(); printer.IsTerminal(w) { // a person watches (with a JSON report, a program does)
			line = &progressLine{w: w}
			job.Progress = line.update
		}
		// The first Ctrl-C (or SIGTERM) stops after the current request's
		// response; a second one stops now, leaving that request's outcome for
		// a resume to reconcile.
		abort, abortNow := context.WithCancel(context.Background())
		defer abortNow()
		job.Abort = abort
		job.Wait = o.uploadWaits(line)
		ctx = api.WithWaitObserver(ctx, job.Wait) // the resume's listings
		stopNote := context.AfterFunc(ctx, func() {
			var lost *printer.StreamError
			if errors.As(context.Cause(ctx), &lost) {
				return // no signal: stdout or stderr was lost, and the job stops as after a first Ctrl-C
			}
			again := make(chan os.Signal, 1)
			signal.Notify(again, os.Interrupt, syscall.SIGTERM)
			fmt.Fprintln(p.Err(), "\nvaultdeck upload: stopping after the current request's response (it is needed to avoid duplicates; a request still waiting to be sent is dropped at once); press Ctrl-C again to stop now")
			go func() {
				defer signal.Stop(again)
				select {
				case <-again:
					abortNow()
				case <-abort.Done():
				}
			}()
		})
		defer stopNote()

		var out upload.Outcome
		var planNotes []string
		if *resume {
			out, err = job.Resume(ctx)
		} else {
			plan := upload.Walk(pos[1:])
			planNotes = plan.Notes
			for _, n := range plan.Notes { // the JSON report carries them
				fmt.Fprintf(p.Human(), "vaultdeck upload: %s\n", sanitize.Line(n))
			}
			if len(plan.Files) == 0 && len(plan.Refused) == 0 {
				return p.Fail(errors.New("nothing to upload: the paths hold no files"))
			}
			if same := plan.SameNames(); len(same) > 0 {
				o.saySameNames(same, api.DuplicateMode(*mode), *sameNames)
				if !*sameNames {
					return printer.ExitUsage
				}
			}
			out, err = job.Upload(ctx, pos[0], plan, api.DuplicateMode(*mode))
		}
		if err == nil {
			job.Settle(ctx, &out)
		}
		line.finish()
		stopNote() // the job is over: a stop now is not one of its requests
		if err != nil {
			return p.Fail(err)
		}
		return o.report(out, append(planNotes, out.Notes...))
	}
}
