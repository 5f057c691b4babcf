// Package upload is the upload job, one home for everything about putting
// local files into a project: walking and planning (plan.go), batches sent
// with a journal (every batch recorded before its request is sent, completed
// with the returned file IDs in one transaction), resuming interrupted runs
// without sending a file twice, reconciling lost answers, and re-uploading
// stuck or failed files. The command line, the console and serve all drive
// it alike; it draws nothing. The HTTP calls themselves are the root api
// package's (api/upload.go, api/uploadbody.go); the persistence it needs is
// named by Journal and satisfied by *store.Store.
package upload
