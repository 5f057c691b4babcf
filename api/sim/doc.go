// Package sim is the reference simulator of the workspace API: an
// http.Handler over in-memory, seeded state with its own clock. Use it
// in-process (tests, `vaultdeck demo`) with httptest.NewServer(sim.New(opts))
// or standalone with `vaultdeck sim` (Run).
//
// # Running the simulator
//
//	vaultdeck sim [--addr 127.0.0.1:8080] [--seed N] [--scale small|large]
//	              [--tls] [--no-rate-limit] [--control]
//	              [--stuck-share 0.05] [--processing-delay 30s]
//	              [--audit-trickle 0] [--sharing-changes 0]
//
// Flags:
//
//   - --addr: listen address (default 127.0.0.1:8080; port 0 picks a free
//     port). A non-loopback address works but prints a warning.
//   - --seed: seed of the generated workspace, ids and token values (default 1).
//     The same seed always yields the same data and the same tokens.
//   - --scale: small (default: 12 projects, 40 users, 30 recycle-bin
//     entries, 500 audit entries, ~200 matters) or large (320 projects, 220
//     users in 12 groups, 100,000 recycle-bin entries, 100,000 files in one
//     project, 100,000 audit entries; generated in well under a second).
//   - --tls: serve HTTPS with a fresh self-signed ECDSA certificate for
//     127.0.0.1, ::1 and localhost, written to a temp file (removed on exit).
//   - --no-rate-limit: switch the per-minute limits off (load tests).
//   - --control: enable the /_sim/ control endpoints below.
//   - --stuck-share, --processing-delay: share of new uploads that never
//     finish processing, and how long the others take.
//   - --audit-trickle N: N user audit entries (logins, add-in use) per
//     minute of simulator time; `vaultdeck demo` runs with 3.
//   - --sharing-changes N: N grants, revocations or level changes on random
//     projects at each simulated UTC midnight (default: 5 at large scale,
//     none at small; -1 switches them off).
//
// Before serving it prints, and flushes, lines a script can read:
//
//	base_url http://127.0.0.1:8080
//	ca_file /tmp/vaultdeck-sim-ca-123.pem     (only with --tls)
//	token admin vdsim_admin_<16 hex> Vault API,Modify workspace projects,...
//	token vault-readonly vdsim_vault_readonly_<16 hex> Vault API,View workspace projects,Vault sharing (view only)
//	token no-audit vdsim_no_audit_<16 hex> (all but Territory admin and Organization admin)
//	token no-matters vdsim_no_matters_<16 hex> (all but Client matters admin)
//
// It serves until interrupted.
//
// # Behaviour worth knowing
//
//   - Rate limits per minute (sliding window on the simulator clock): vault 10,
//     audit 60, matters 150 (DELETE and POST /api/v2/matters share it);
//     whoami is unlimited. Over the limit: 429 {"error": ...} with
//     Retry-After in whole seconds. Every authenticated request counts, also
//     one then refused for permissions.
//   - Missing or unknown token: 401. Matter endpoints without Client matters
//     admin: 401. Vault/audit endpoints without a needed permission: 403
//     naming it. Vault sharing switched off: 403 on project users.
//   - New uploads are PROCESSING and become READY_TO_QUERY after the
//     processing delay on the simulator clock, except a stuck share chosen by
//     a hash of the file id. Project deletion is accepted at once and
//     completes 5 simulator seconds later (DeleteDelay; then the project
//     is in the recycle bin, purge scheduled 30 days on: RecycleRetention).
//   - Audit log: earliest, latest, search and the listing, each with an
//     optional log_type. Listing: from must be a UUID; any UUID works as a
//     cursor (entries with a greater id), take must be 1..1000. search's time
//     is whole epoch seconds, at most one year back (older: 400, though the
//     seeded log reaches 14 months back, six in ten of its entries in the
//     last 30 days); 404 when nothing is at or after it. Entries are
//     strictly ascending by id and by timestamp.
//   - Reading the audit log writes to it: every audit read that passes the
//     token, rate and permission checks appends an api:audit_log_fetch
//     entry of the token's user BEFORE it is answered (so latest without a
//     type is the read itself, and a listing from the newest entry is never
//     empty). Accepted mutations append api:vault_delete_project,
//     api:client_matter_management (both documented) and
//     api:vault_upload_files (the simulator's name; none is documented).
//   - Time-driven changes happen when the clock is read, each at its own
//     time: finished deletions, purges, the audit trickle (at most the last 24 hours
//     are filled in after a long jump) and the sharing changes at each
//     midnight (at most 30 days' worth), which move project_updated_at like
//     every sharing change. Nothing runs in the background.
//   - Sharing (POST and DELETE /api/v1/vault/projects/{id}/users, Vault API
//     and Vault sharing; view only is refused): POST {"users": [{"email",
//     "access_level": "MANAGE"|"READ"}]} adds a direct share or changes its
//     level, additively; DELETE {"emails": [...]} removes direct shares only
//     (workspace and group access stays). A user fails one by one in
//     failed with a reason (the Reason* constants: unknown, inactive, the
//     owner, the token's own user, named twice, a bad level, no direct
//     share to remove); the answers carry added, updated (with
//     previous_access_level, the direct share's) and removed. Each accepted
//     request writes one api:vault_update_project_users or
//     api:vault_remove_project_users entry naming the project and the users
//     it changed, and a change moves project_updated_at. A user the seed
//     drew twice for a project has one share, at the higher level.
//   - Recycle bin: deletions spread over 30 days; four entries in 25 purge
//     within 24 hours, five more within 7 days. The bin is purged on time:
//     when an entry's recycle_bin_purged_scheduled_at has passed on the
//     simulator clock it leaves the bin, and a project of the workspace is
//     gone for good (its files too: no listing, endpoint or helper knows
//     them). The documents say the bin holds deleted projects "pending
//     permanent purge" and when each is scheduled, nothing more: the 30
//     days, purging exactly on time (the service's purge job may lag, so
//     clients still expect an overdue entry; the seed has none) and logging
//     no audit entry for a purge (none is documented; the deletion's entry
//     stays) are the simulator's choices. So every project deletion the log
//     shows is in the bin until its purge time and in neither the bin nor
//     the listings after (a planted burst's too: its projects are in the
//     bin, deleted by its user); TestTheLogAgreesWithTheListings walks the
//     log against the listings, before and after a purge: deletions, uploads, sharing changes (an update's entry
//     names each changed user's new level, access_levels, which the
//     projects listing's user_shares say as EDIT or VIEW), file deletions
//     (gone from the listing, get_files' deleted_at at the entry's time)
//     and matter deletions (the entry's deleted is how many the request
//     deleted, the listing's deleted_at at its time; an upsert's restored
//     how many it brought back).
//   - The client-matter listing (GET /api/v1/client_matters) is the
//     public record (facts §6.1) plus the simulator's own mapping from v1
//     names to v2 pairs, which no public document gives: every record has
//     client_id and matter_id (empty for a matter made through v1) and
//     name_delimiter, the workspace's delimiter; a pair resolves to a record
//     whose pair it is or whose name is client_id + name_delimiter +
//     matter_id, as DELETE /api/v2/matters resolves it
//     (TestTheListingNamesThePairsADeletionResolves).
//   - Fixtures in every seed: matter pair 10482/2023-0007 is an
//     identity_conflict (a v1 matter has the same stored name); pairs
//     ACME.EU/M-12 and ACME/EU.M-12 share the stored name ACME.EU.M-12;
//     20917/2022-0114 exists only as a v1 stored name; 31550-2021-0042 is a
//     v1 name found once the delimiter is "-"; 40210/2024-0001 is externally
//     linked (ethical-wall enforcement starts on). "Example Project — Vault
//     Walkthrough" refuses deletion, "Northwind Data Room — Processing
//     Backlog" fails with processing conflicts. One project name and one file
//     name carry terminal escape sequences (ESC[2J, OSC 52) to exercise
//     sanitising.
//
// # Control surface
//
// With --control (in-process: Options.Control), these unauthenticated JSON
// POST endpoints exist under /_sim/; otherwise they answer 404. Each has a Go
// method twin on *Server.
//
//	POST /_sim/reset          {}                                   Reset()
//	    regenerate the state from the seed (clock, tokens and rate windows kept)
//	POST /_sim/delimiter      {"delimiter": "-"}                   SetDelimiter(string)
//	    "" or blank means unset (".")
//	POST /_sim/ethical_wall   {"enabled": true}                    SetEthicalWall(bool)
//	POST /_sim/vault_sharing  {"enabled": false}                   SetVaultSharing(bool)
//	POST /_sim/matters        {"client_id": "C1", "matter_id": "M1", "stored_name": "C1.M1",
//	                           "description": "...", "externally_linked": false,
//	                           "v1": false, "deleted": false}      AddMatter(MatterSpec)
//	    -> {"service_id": uuid}; v1 matters are found by stored name only
//	POST /_sim/projects       {"name": "...", "knowledge_base": false, "example": false,
//	                           "failed_folders": 0, "failed_files": 0,
//	                           "client_matter_id": uuid, "owner_email": "..."}
//	                                                               AddProject(ProjectSpec)
//	    -> {"id": uuid}; failed_* > 0 makes deletion answer the partial failure
//	POST /_sim/files          {"project_id": uuid, "files": [{"name": "a.pdf",
//	                           "status": "PROCESSING", "size": 1234, "ready_in_seconds": 60}]}
//	                                                               AddFiles(id, []FileSpec)
//	    -> {"file_ids": [...]}; PROCESSING without ready_in_seconds stays stuck
//	POST /_sim/audit_trickle  {"per_minute": 3}                    SetAuditTrickle(int)
//	    0 stops the trickle of user audit entries
//	POST /_sim/share          {"project_id": uuid, "email": "...", "level": "READ"}
//	                                                               Share(id, email, level)
//	    a direct grant or level change (READ, MANAGE); "" revokes; moves
//	    project_updated_at
//	POST /_sim/deactivate     {"email": "..."}                     Deactivate(email)
//	    the user reaches nothing from now on and sharing requests naming them fail
//	POST /_sim/advance        {"seconds": 90}                      Advance(time.Duration)
//	    -> {"now": timestamp}
//	POST /_sim/stats          {}                                   RateLimited()
//	    -> {"rate_limited": {"vault": 2}}: the 429s answered so far, per category
//
// Read-only helpers for tests: Now, Tokens, Token, Matters, Projects, File, RateLimited.
package sim
