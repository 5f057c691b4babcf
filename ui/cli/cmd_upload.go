package cli

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
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

func (r *runner) uploadCmd() *cobra.Command {
	c := &cobra.Command{Use: "upload PROJECT_ID PATH... | --resume", Short: "upload files and folders, journaled (--resume finishes interrupted uploads)", Args: cobra.ArbitraryArgs}
	fs := c.Flags()
	mode := new(string)
	*mode = string(api.DuplicateSkip)
	modes := []string{string(api.DuplicateSkip), string(api.DuplicateReplace), string(api.DuplicateKeep)}
	fs.Var(cmdutil.EnumFlag(mode, modes), "mode", "when a file of the same name exists: `skip|replace|keep`: skip, replace (a new version) or keep (both, the new one renamed)")
	_ = c.RegisterFlagCompletionFunc("mode", cmdutil.Fixed(modes))
	resume := fs.Bool("resume", false, "finish every interrupted upload of the profile, sending only what did not arrive")
	sameNames := fs.Bool("same-names", false, "send files of one name from different folders anyway: --mode decides which the project keeps (said before sending); without it such an upload is refused")
	c.RunE = r.run(func(ctx context.Context, pos []string) int {
		if *resume && len(pos) > 0 {
			return r.usage("--resume takes no arguments: it finishes every interrupted upload of the profile")
		}
		if !*resume && len(pos) < 2 {
			return r.usage("give a project ID and at least one file or folder")
		}
		if code, ok := r.refuseReadOnly(); !ok {
			return code
		}
		c, err := r.client()
		if err != nil {
			return r.fail(err)
		}
		st, profile, err := r.journal()
		if err != nil {
			return r.fail(err)
		}
		defer st.Close()
		job := &upload.Runner{API: c, Store: st, Profile: profile}
		var line *progressLine
		if !r.g.JSON && r.stderrIsTerminal() {
			line = &progressLine{w: r.env.Stderr}
			job.Progress = line.update
		}
		// The first Ctrl-C (or SIGTERM) stops after the current request's
		// response; a second one stops now, leaving that request's outcome for
		// a resume to reconcile.
		abort, abortNow := context.WithCancel(context.Background())
		defer abortNow()
		job.Abort = abort
		job.Wait = r.uploadWaits(line)
		ctx = api.WithWaitObserver(ctx, job.Wait) // the resume's listings
		stopNote := context.AfterFunc(ctx, func() {
			again := make(chan os.Signal, 1)
			signal.Notify(again, os.Interrupt, syscall.SIGTERM)
			fmt.Fprintln(r.env.Stderr, "\nvaultdeck upload: stopping after the current request's response (it is needed to avoid duplicates; a request still waiting to be sent is dropped at once); press Ctrl-C again to stop now")
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
			if !r.g.JSON {
				for _, n := range plan.Notes {
					fmt.Fprintf(r.env.Stderr, "vaultdeck upload: %s\n", n)
				}
			}
			if len(plan.Files) == 0 && len(plan.Refused) == 0 {
				return r.fail(errors.New("nothing to upload: the paths hold no files"))
			}
			if same := plan.SameNames(); len(same) > 0 {
				r.saySameNames(same, api.DuplicateMode(*mode), *sameNames)
				if !*sameNames {
					return ExitUsage
				}
			}
			out, err = job.Upload(ctx, pos[0], plan, api.DuplicateMode(*mode))
		}
		if err == nil {
			job.Settle(ctx, &out)
		}
		line.finish()
		if err != nil {
			return r.fail(err)
		}
		return r.uploadReport(out, append(planNotes, out.Notes...))
	})
	return c
}
