package store

// The schema's steps, as SQL: the data migrate.go applies.

// migrations in order; migrations[i].version == i+1.
//
// The next one is appended here, with a test fixture for the data of the
// version before it in migrate_test.go; never create a table before its
// feature exists.
var migrations = []migration{
	{1, "profiles", `
CREATE TABLE profiles (
	name          TEXT PRIMARY KEY,
	region        TEXT NOT NULL DEFAULT '',
	base_url      TEXT NOT NULL DEFAULT '',
	ca_file       TEXT NOT NULL DEFAULT '',
	read_only     INTEGER NOT NULL DEFAULT 0 CHECK (read_only IN (0, 1)),
	is_default    INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
	-- Where the token lives ('keyring', 'file' or '' for none). Never the token.
	token_storage TEXT NOT NULL DEFAULT '' CHECK (token_storage IN ('', 'keyring', 'file')),
	created_at    INTEGER NOT NULL -- unix milliseconds
);
-- At most one default profile, enforced by the database rather than by luck.
CREATE UNIQUE INDEX profiles_one_default ON profiles (is_default) WHERE is_default = 1;
`},
	// The cache names its profile without a foreign key: a profile can be
	// ephemeral (VAULTDECK_TOKEN with no saved profile) and still want a
	// cache. DeleteProfile removes it explicitly. Bookmarks were never
	// read by any feature; version 13 drops the table.
	{2, "bookmarks", `
CREATE TABLE bookmarks (
	profile    TEXT NOT NULL,
	project_id TEXT NOT NULL,
	name       TEXT NOT NULL,
	created_at INTEGER NOT NULL, -- unix milliseconds
	PRIMARY KEY (profile, project_id)
);
`},
	{3, "response cache", `
CREATE TABLE response_cache (
	profile    TEXT NOT NULL,
	key        TEXT NOT NULL,
	body       BLOB NOT NULL,
	fetched_at INTEGER NOT NULL, -- unix milliseconds
	PRIMARY KEY (profile, key)
);
CREATE INDEX response_cache_fetched_at ON response_cache (fetched_at);
`},
	// A receipt of a batch matter deletion or restore: the run, then every
	// pair's outcome by input line. Items are written one request at a
	// time, so a crash mid-run leaves an honest, partial receipt.
	{4, "matter receipts", `
CREATE TABLE matter_receipts (
	id          INTEGER PRIMARY KEY AUTOINCREMENT,
	action      TEXT NOT NULL CHECK (action IN ('delete', 'restore')),
	restore_of  INTEGER REFERENCES matter_receipts (id),
	profile     TEXT NOT NULL,
	endpoint    TEXT NOT NULL,
	file_name   TEXT NOT NULL DEFAULT '',
	file_sha256 TEXT NOT NULL DEFAULT '',
	pairs       INTEGER NOT NULL,
	status      TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'complete', 'canceled', 'stopped')),
	note        TEXT NOT NULL DEFAULT '',
	started_at  INTEGER NOT NULL, -- unix milliseconds
	finished_at INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE matter_receipt_items (
	receipt_id INTEGER NOT NULL REFERENCES matter_receipts (id) ON DELETE CASCADE,
	line       INTEGER NOT NULL,
	client_id  TEXT NOT NULL,
	matter_id  TEXT NOT NULL,
	result     TEXT NOT NULL,
	code       TEXT NOT NULL DEFAULT '',
	detail     TEXT NOT NULL DEFAULT '',
	request    INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (receipt_id, line)
) WITHOUT ROWID;
`},
	// The upload journal: a run is one `vaultdeck upload`; a batch is one
	// request, recorded before it is sent (began_at) and completed with the
	// returned file IDs in one transaction (done_at). The lease keeps two
	// processes from sending or resuming the same batch. Files refused before
	// any request have no batch.
	{5, "upload journal", `
CREATE TABLE upload_runs (
	id         INTEGER PRIMARY KEY,
	profile    TEXT NOT NULL,
	project_id TEXT NOT NULL,
	mode       TEXT NOT NULL CHECK (mode IN ('skip', 'replace', 'keep')),
	created_at INTEGER NOT NULL -- unix milliseconds
);
CREATE INDEX upload_runs_profile ON upload_runs (profile, id);
CREATE TABLE upload_batches (
	id          INTEGER PRIMARY KEY,
	run_id      INTEGER NOT NULL REFERENCES upload_runs (id) ON DELETE CASCADE,
	began_at    INTEGER NOT NULL, -- unix ms, before the request was sent
	done_at     INTEGER,          -- unix ms; NULL while the outcome is unknown
	lease_owner TEXT NOT NULL DEFAULT '',
	lease_until INTEGER NOT NULL DEFAULT 0, -- unix ms
	error       TEXT NOT NULL DEFAULT ''
);
CREATE INDEX upload_batches_open ON upload_batches (run_id) WHERE done_at IS NULL;
CREATE TABLE upload_files (
	id          INTEGER PRIMARY KEY,
	run_id      INTEGER NOT NULL REFERENCES upload_runs (id) ON DELETE CASCADE,
	batch_id    INTEGER REFERENCES upload_batches (id) ON DELETE CASCADE,
	local_path  TEXT NOT NULL,
	file_path   TEXT NOT NULL,
	name        TEXT NOT NULL,
	size        INTEGER NOT NULL,
	content_hash TEXT NOT NULL DEFAULT '', -- algorithm-prefixed: crc32c:hex
	state       TEXT NOT NULL CHECK (state IN ('pending', 'uploaded', 'skipped', 'refused', 'failed', 'replaced')),
	file_id     TEXT NOT NULL DEFAULT '',
	reason      TEXT NOT NULL DEFAULT '',
	status      TEXT NOT NULL DEFAULT '', -- last known processing status, lower case
	uploaded_at INTEGER NOT NULL DEFAULT 0 -- unix ms: the server's upload time when known, else the request's
);
CREATE INDEX upload_files_batch ON upload_files (batch_id);
CREATE INDEX upload_files_file_id ON upload_files (file_id) WHERE file_id != '';
`},
	// Per-profile defaults of the console and the client (theme,
	// stuck-after, timeout), set with `vaultdeck config set`; flags win.
	// Read-only stays the profiles.read_only column. Values are stored as
	// typed (validated by the CLI before they get here).
	{6, "profile settings", `
CREATE TABLE profile_settings (
	profile TEXT NOT NULL,
	key     TEXT NOT NULL,
	value   TEXT NOT NULL,
	PRIMARY KEY (profile, key)
);
`},
	// When a receipt's pairs went out in flight (unix ms, this machine's
	// clock; 0 for rows written with their outcome). A restore compares it
	// with the deleted_at the service lists, to tell a deletion by this
	// run's unanswered request from one made before it.
	{7, "matter receipt sent_at", `
ALTER TABLE matter_receipt_items ADD COLUMN sent_at INTEGER NOT NULL DEFAULT 0;
`},
	// A file whose request's answer was lost and whose arrival the project's
	// listing could neither prove nor rule out (issue 17): 'unproven'. SQLite
	// cannot change a CHECK in place, so the table is rebuilt, rows kept.
	{8, "upload file state unproven", `
CREATE TABLE upload_files_v8 (
	id          INTEGER PRIMARY KEY,
	run_id      INTEGER NOT NULL REFERENCES upload_runs (id) ON DELETE CASCADE,
	batch_id    INTEGER REFERENCES upload_batches (id) ON DELETE CASCADE,
	local_path  TEXT NOT NULL,
	file_path   TEXT NOT NULL,
	name        TEXT NOT NULL,
	size        INTEGER NOT NULL,
	content_hash TEXT NOT NULL DEFAULT '', -- algorithm-prefixed: crc32c:hex
	state       TEXT NOT NULL CHECK (state IN ('pending', 'uploaded', 'skipped', 'refused', 'failed', 'replaced', 'unproven')),
	file_id     TEXT NOT NULL DEFAULT '',
	reason      TEXT NOT NULL DEFAULT '',
	status      TEXT NOT NULL DEFAULT '', -- last known processing status, lower case
	uploaded_at INTEGER NOT NULL DEFAULT 0 -- unix ms: the server's upload time when known, else the request's
);
INSERT INTO upload_files_v8 (id, run_id, batch_id, local_path, file_path, name, size, content_hash, state, file_id, reason, status, uploaded_at)
	SELECT id, run_id, batch_id, local_path, file_path, name, size, content_hash, state, file_id, reason, status, uploaded_at FROM upload_files;
DROP TABLE upload_files;
ALTER TABLE upload_files_v8 RENAME TO upload_files;
CREATE INDEX upload_files_batch ON upload_files (batch_id);
CREATE INDEX upload_files_file_id ON upload_files (file_id) WHERE file_id != '';
`},
	// The access review (issue 22): a snapshot is one crawl of every
	// project's users; a project is pending until its users are committed
	// with it in one transaction, so a killed crawl resumes where it was.
	// One unfinished snapshot per profile (the unique index); the lease
	// keeps two crawls of a profile from reading the same projects.
	{9, "access snapshots", `
CREATE TABLE access_snapshots (
	id          INTEGER PRIMARY KEY,
	profile     TEXT NOT NULL,
	started_at  INTEGER NOT NULL,           -- unix ms
	finished_at INTEGER NOT NULL DEFAULT 0, -- unix ms; 0 while unfinished
	requests    INTEGER NOT NULL DEFAULT 0, -- service requests its crawls made
	lease_owner TEXT NOT NULL DEFAULT '',
	lease_until INTEGER NOT NULL DEFAULT 0  -- unix ms
);
CREATE UNIQUE INDEX access_snapshots_open ON access_snapshots (profile) WHERE finished_at = 0;
CREATE TABLE access_projects (
	snapshot_id INTEGER NOT NULL REFERENCES access_snapshots (id) ON DELETE CASCADE,
	project_id  TEXT NOT NULL,
	name        TEXT NOT NULL,
	updated_at  TEXT NOT NULL, -- project_updated_at, normalised; '' when the service sent none
	state       TEXT NOT NULL CHECK (state IN ('pending', 'read', 'carried')),
	read_at     INTEGER NOT NULL DEFAULT 0, -- unix ms
	PRIMARY KEY (snapshot_id, project_id)
) WITHOUT ROWID;
CREATE TABLE access_grants (
	snapshot_id  INTEGER NOT NULL,
	project_id   TEXT NOT NULL,
	project_name TEXT NOT NULL,
	user_id      TEXT NOT NULL,
	email        TEXT NOT NULL COLLATE NOCASE,
	name         TEXT NOT NULL,
	access_level TEXT NOT NULL,
	PRIMARY KEY (snapshot_id, project_id, email),
	FOREIGN KEY (snapshot_id, project_id) REFERENCES access_projects (snapshot_id, project_id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
) WITHOUT ROWID;
CREATE INDEX access_grants_email ON access_grants (snapshot_id, email);
`},
	// The audit-log mirror (audit.go, issue 21): entries keyed by log and
	// id, with the service's JSON kept byte for byte and the columns
	// queries filter on indexed with time, so a question about one user or
	// address reads only its rows. A log (base URL | workspace) is a small
	// integer in the entries and their five indexes: as text it would be
	// some 60 bytes in each of them, a million times. seq (the rowid) is
	// the order the service listed them in. audit_logs holds each log's
	// cursor; audit_checkpoints what follow delivered.
	{10, "audit mirror", `
CREATE TABLE audit_logs (
	id        INTEGER PRIMARY KEY,
	key       TEXT NOT NULL UNIQUE, -- base URL | workspace id
	cursor    TEXT NOT NULL DEFAULT '',
	first_at  INTEGER NOT NULL DEFAULT 0, -- unix microseconds
	last_at   INTEGER NOT NULL DEFAULT 0,
	entries   INTEGER NOT NULL DEFAULT 0,
	caught_up INTEGER NOT NULL DEFAULT 0, -- unix microseconds of the last short page
	empty     INTEGER NOT NULL DEFAULT 0 CHECK (empty IN (0, 1))
);
CREATE TABLE audit_entries (
	seq   INTEGER PRIMARY KEY,
	log   INTEGER NOT NULL REFERENCES audit_logs (id),
	id    TEXT NOT NULL,
	at    INTEGER NOT NULL, -- unix microseconds; 0 when the service's timestamp was unreadable
	type  TEXT NOT NULL COLLATE NOCASE,
	user  TEXT NOT NULL COLLATE NOCASE,
	ip    TEXT NOT NULL,
	raw   BLOB NOT NULL
);
CREATE UNIQUE INDEX audit_entries_id ON audit_entries (log, id);
CREATE INDEX audit_entries_at ON audit_entries (log, at);
CREATE INDEX audit_entries_type ON audit_entries (log, type, at);
CREATE INDEX audit_entries_user ON audit_entries (log, user, at);
CREATE INDEX audit_entries_ip ON audit_entries (log, ip, at);
CREATE TABLE audit_checkpoints (
	name       TEXT PRIMARY KEY,
	id         TEXT NOT NULL,
	updated_at INTEGER NOT NULL -- unix milliseconds
);
`},
	// The budget ledger (ledger.go): one row per request sent, per bucket
	// (base URL, workspace, category: never a token), pruned after the
	// one-minute window; and a 429's hold per bucket. Every process on the
	// machine reserves from it, so they share the organisation's limit.
	{11, "budget ledger", `
CREATE TABLE budget_sends (
	bucket  TEXT NOT NULL,
	sent_at INTEGER NOT NULL -- unix milliseconds
);
CREATE INDEX budget_sends_bucket ON budget_sends (bucket, sent_at);
CREATE INDEX budget_sends_sent_at ON budget_sends (sent_at);
CREATE TABLE budget_holds (
	bucket TEXT PRIMARY KEY,
	until  INTEGER NOT NULL -- unix milliseconds
);
`},
	// Issue 25. A file's identity when it was planned (device, inode,
	// modification time in unix nanoseconds; 0 for rows written before):
	// a resume sends a file only while it is still that file, not a link
	// or another file put in its place. And what the service's file detail
	// said of an uploaded file: its name there (keep renames) and when a
	// later upload of the same name superseded it (deleted_at, unix ms), so
	// a superseded file is shown as replaced, never as processing.
	{12, "upload file identity and service detail", `
ALTER TABLE upload_files ADD COLUMN dev INTEGER NOT NULL DEFAULT 0;
ALTER TABLE upload_files ADD COLUMN ino INTEGER NOT NULL DEFAULT 0;
ALTER TABLE upload_files ADD COLUMN mtime_ns INTEGER NOT NULL DEFAULT 0;
ALTER TABLE upload_files ADD COLUMN service_name TEXT NOT NULL DEFAULT '';
ALTER TABLE upload_files ADD COLUMN deleted_at INTEGER NOT NULL DEFAULT 0;
`},
	// Issue 28. No feature ever read a bookmark: the table only took
	// space and a DELETE at every profile deletion.
	{13, "drop bookmarks", `
DROP TABLE bookmarks;
`},
	// Issue 27. The activity statistics (audit_stats.go) read each user's
	// addresses from this index alone: grouped by address in its order (no
	// sort of a week's million rows), the time for the range and a first
	// use, the type for a type's count and a first login. Without it the
	// statistics of a busy week took seconds of sorting.
	{14, "audit statistics index", `
CREATE INDEX audit_entries_user_ip ON audit_entries (log, user, ip, at, type);
`},
	// Issue 40. The workspace whoami placed a profile's token in at login:
	// a token that whoami later places in another is refused until login
	// again. Empty for a profile logged in before (nothing is checked).
	{15, "profile workspace", `
ALTER TABLE profiles ADD COLUMN workspace_id TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN workspace_name TEXT NOT NULL DEFAULT '';
`},
	// Issues 43 and 44. The generic write job (api/writejob): one row per
	// job (who ran it, against what, the plan as the person read it, the
	// job it undoes) and one per item, grouped into the requests ("sends")
	// that carry them. An item is in_flight, in the same transaction as the
	// rest of its send, before that request goes; its answer replaces it.
	// previous is what the service said was there before (what undo puts
	// back).
	{16, "write jobs", `
CREATE TABLE write_jobs (
	id             INTEGER PRIMARY KEY AUTOINCREMENT,
	kind           TEXT NOT NULL,
	profile        TEXT NOT NULL,
	workspace_id   TEXT NOT NULL DEFAULT '',
	base_url       TEXT NOT NULL,
	actor_email    TEXT NOT NULL DEFAULT '',
	actor_os_user  TEXT NOT NULL DEFAULT '',
	actor_key      TEXT NOT NULL DEFAULT '', -- the SSH key or certificate a serve session ran it with (issue 45)
	plan           TEXT NOT NULL DEFAULT '',
	undo_of        INTEGER REFERENCES write_jobs (id),
	status         TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'complete', 'stopped', 'canceled')),
	note           TEXT NOT NULL DEFAULT '',
	created_at     INTEGER NOT NULL, -- unix milliseconds
	finished_at    INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE write_job_items (
	job_id    INTEGER NOT NULL REFERENCES write_jobs (id) ON DELETE CASCADE,
	seq       INTEGER NOT NULL,
	send_no   INTEGER NOT NULL,
	target    TEXT NOT NULL,
	label     TEXT NOT NULL DEFAULT '',
	action    TEXT NOT NULL,
	params    TEXT NOT NULL DEFAULT '',
	state     TEXT NOT NULL DEFAULT 'planned' CHECK (state IN ('planned', 'in_flight', 'done', 'failed', 'unknown')),
	outcome   TEXT NOT NULL DEFAULT '',
	previous  TEXT NOT NULL DEFAULT '',
	detail    TEXT NOT NULL DEFAULT '',
	attempts  INTEGER NOT NULL DEFAULT 0,
	sent_at   INTEGER NOT NULL DEFAULT 0,
	done_at   INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (job_id, seq)
);
CREATE INDEX write_jobs_undo_of ON write_jobs (undo_of) WHERE undo_of IS NOT NULL;
`},
	// Issue 45. The record of every write made through `vaultdeck serve`:
	// who (the key or certificate, and the local account), when, what, the
	// outcome and the service's audit entries. A row is written before its
	// request goes; only its outcome (once, from 'sent') and its evidence
	// (once, from none) are filled in afterwards. Triggers refuse every
	// other change and every deletion: vaultdeck has no command that would
	// try, and a program that opens the file with SQLite must drop them
	// first (which `vaultdeck store check` cannot see, and says nothing of).
	{17, "hub actions", `
CREATE TABLE hub_actions (
	id            INTEGER PRIMARY KEY AUTOINCREMENT,
	at            INTEGER NOT NULL, -- unix milliseconds, before the request went
	actor         TEXT NOT NULL,    -- "key SHA256:… alice@laptop" or "certificate alice (key ID …)"
	key_sha256    TEXT NOT NULL DEFAULT '',
	key_comment   TEXT NOT NULL DEFAULT '',
	principal     TEXT NOT NULL DEFAULT '',
	key_id        TEXT NOT NULL DEFAULT '',
	os_user       TEXT NOT NULL DEFAULT '',
	remote        TEXT NOT NULL DEFAULT '',
	profile       TEXT NOT NULL DEFAULT '',
	token_user    TEXT NOT NULL DEFAULT '',
	method        TEXT NOT NULL,
	path          TEXT NOT NULL,
	what          TEXT NOT NULL,
	target        TEXT NOT NULL DEFAULT '',
	status        INTEGER NOT NULL DEFAULT 0,
	outcome       TEXT NOT NULL DEFAULT 'sent' CHECK (outcome IN ('sent', 'done', 'refused', 'failed', 'unknown')),
	detail        TEXT NOT NULL DEFAULT '',
	done_at       INTEGER NOT NULL DEFAULT 0,
	audit_type    TEXT NOT NULL DEFAULT '',
	audit_entries TEXT NOT NULL DEFAULT '', -- the service's entry ids, space-separated
	audit_note    TEXT NOT NULL DEFAULT ''
);
CREATE TRIGGER hub_actions_kept BEFORE DELETE ON hub_actions
BEGIN SELECT RAISE(ABORT, 'the record of writes made through serve cannot be deleted'); END;
CREATE TRIGGER hub_actions_fixed BEFORE UPDATE ON hub_actions
WHEN NEW.id IS NOT OLD.id OR NEW.at IS NOT OLD.at OR NEW.actor IS NOT OLD.actor OR NEW.key_sha256 IS NOT OLD.key_sha256
	OR NEW.key_comment IS NOT OLD.key_comment OR NEW.principal IS NOT OLD.principal OR NEW.key_id IS NOT OLD.key_id
	OR NEW.os_user IS NOT OLD.os_user OR NEW.remote IS NOT OLD.remote OR NEW.profile IS NOT OLD.profile
	OR NEW.token_user IS NOT OLD.token_user OR NEW.method IS NOT OLD.method OR NEW.path IS NOT OLD.path
	OR NEW.what IS NOT OLD.what OR NEW.target IS NOT OLD.target OR NEW.audit_type IS NOT OLD.audit_type
	OR (OLD.outcome != 'sent' AND (NEW.outcome IS NOT OLD.outcome OR NEW.status IS NOT OLD.status
		OR NEW.detail IS NOT OLD.detail OR NEW.done_at IS NOT OLD.done_at))
	OR (OLD.audit_note != '' AND (NEW.audit_entries IS NOT OLD.audit_entries OR NEW.audit_note IS NOT OLD.audit_note))
BEGIN SELECT RAISE(ABORT, 'the record of writes made through serve cannot be changed'); END;
`},
	// A REPLACE onto a kept row's id deletes it without firing the DELETE
	// trigger (SQLite fires it only with recursive_triggers on), so the
	// record refuses any insert onto an id it already holds.
	{18, "hub actions not replaced", `
CREATE TRIGGER hub_actions_entered BEFORE INSERT ON hub_actions
WHEN EXISTS (SELECT 1 FROM hub_actions WHERE id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'the record of writes made through serve cannot be replaced'); END;
`},
	// Issue 45: matter runs and upload runs name who ran them, as write
	// jobs do (actor_os_user, actor_key; writejob.Actor fills them). Rows
	// of older runs keep '' (not known).
	{19, "actors of matter and upload runs", `
ALTER TABLE matter_receipts ADD COLUMN actor_os_user TEXT NOT NULL DEFAULT '';
ALTER TABLE matter_receipts ADD COLUMN actor_key TEXT NOT NULL DEFAULT '';
ALTER TABLE upload_runs ADD COLUMN actor_os_user TEXT NOT NULL DEFAULT '';
ALTER TABLE upload_runs ADD COLUMN actor_key TEXT NOT NULL DEFAULT '';
`},
}
