package store

import "fmt"

// JobHeldError is a write job another process holds (LockWriteJob).
type JobHeldError struct {
	ID     int64
	Holder string // "process 123 on host, since …", as the holder wrote it
}

func (e *JobHeldError) Error() string {
	who := e.Holder
	if who == "" {
		who = "it has not written its name yet"
	}
	return fmt.Sprintf("write job %d is being run by another vaultdeck process (%s); nothing was sent by this one: let it finish, or stop it and run this again", e.ID, who)
}
