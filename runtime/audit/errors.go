package audit

import (
	"errors"
	"syscall"
)

// Error says why the audit cannot be written. Cause is a short phrase that
// names no path, safe for a model's result; Err carries the detail (path
// included) for the operator's log.
type Error struct {
	Cause string
	Err   error
}

func (e *Error) Error() string { return "audit unavailable: " + e.Cause + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Cause phrases.
const (
	CauseDiskFull   = "the disk is full"
	CauseNotDir     = "a part of its path is not a directory"
	CausePermission = "permission is denied"
	CauseReadOnly   = "the file system is read-only"
	CauseSymlink    = "the file is a symbolic link"
	CauseNotRegular = "the file is not a regular file"
	CauseDirOpen    = "its directory is writable by other users"
	CauseConfig     = "its configuration is invalid"
	CauseOther      = "the file cannot be written"
)

// fail wraps err with the cause its errno names (or the given one).
func fail(err error, cause string) *Error {
	var ae *Error
	if errors.As(err, &ae) {
		return ae
	}
	if cause == "" {
		cause = causeOf(err)
	}
	return &Error{Cause: cause, Err: err}
}

func causeOf(err error) string {
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return CauseDiskFull
	case errors.Is(err, syscall.ENOTDIR):
		return CauseNotDir
	case errors.Is(err, syscall.EROFS):
		return CauseReadOnly
	case errors.Is(err, syscall.ELOOP):
		return CauseSymlink
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		return CausePermission
	}
	return CauseOther
}

// CauseOf returns the path-free cause of an audit error ("" for nil).
func CauseOf(err error) string {
	if err == nil {
		return ""
	}
	var ae *Error
	if errors.As(err, &ae) {
		return ae.Cause
	}
	return causeOf(err)
}
