// Package api is the HTTP client of the workspace's JSON API: one method per
// endpoint (each listing one method returning a Listing), tolerant decoding,
// a client-side request budget shared across the process, retries that
// respect the service's limits, and errors a caller can switch on. It knows
// nothing about terminals.
//
// Records use the spec's JSON names exactly, so `--json` output is the API's
// own objects. Enum-like fields are plain strings: production may send values
// the spec never listed, and those must be shown verbatim, never rejected
// (the lenient field types: lenient.go).
//
// Where each concern lives:
//
//   - the client and its configuration: client.go; what it knows of each
//     endpoint and the spec's limits: endpoints.go
//   - sending one call (token, budget, retries): send.go; one HTTP attempt:
//     attempt.go; the regions' base URLs: baseurl.go; a copy of a body as
//     received: bodytap.go
//   - the budget and the machine-wide ledger: budget.go, ledger.go; the
//     waits told to observers: wait.go
//   - retries after a failure and resending a body that stalled: retry.go;
//     the timeouts: timeout.go
//   - the GET core (a body decoded whole): get.go; a body walked as it
//     arrives: walk.go (over package jsonstream)
//   - errors: errors.go (Error, kinds, messages), errors_status.go (a failed
//     response as an Error), permission.go (a 403 narrowed by whoami),
//     checkfailure.go (a failed token check in one sentence)
//   - listings: listing.go (Listing: Raw, Each, Collect), paged.go (a page
//     read whole, then handed out), pageguard.go, held.go (what a caller may
//     hold), item.go (a record beside its own bytes)
//   - the endpoints, each file with its records, path, query and method:
//     recyclebin.go, projects.go, files.go, projectusers.go (and
//     projectusers_change.go: POST and DELETE, the listing's direct shares),
//     deleteproject.go, filedelete.go (delete_file, get_metadata), getfiles.go, clientmatters.go, matters.go, upload.go
//     (and uploadbody.go), whoami.go; the audit log: audit.go (the listing),
//     audit_reads.go, audit_page.go, audit_order.go, audit_fields.go
//   - serve's sessions sharing one request and one answer: share.go,
//     share_bin.go, share_keep.go
//   - the token removed from everything the service sends: redacting.go
//     (a client's), secret.go (a token known without a client), over
//     package redact
//   - what callers read beside the service: ids.go (IDs as people paste
//     them), projectnames.go (project names from a cached listing)
package api
