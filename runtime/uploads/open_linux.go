package uploads

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// openBeneath opens rel below root with openat2: the kernel refuses any
// step out of root and any symlink or magic link on the way, at the moment
// of the open. A kernel without openat2 (before 5.6) gets the portable
// check after the open.
func openBeneath(root, rel string) (*os.File, error) {
	dir, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(dir)
	fd, err := unix.Openat2(dir, rel, &unix.OpenHow{
		// O_NONBLOCK: a fifo swapped in must not hold the call.
		Flags:   unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_NOCTTY,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	switch {
	case errors.Is(err, unix.ENOSYS):
		return openCheckAfter(root, rel)
	case errors.Is(err, unix.ELOOP), errors.Is(err, unix.EXDEV):
		return nil, errLink
	case err != nil:
		return nil, err
	}
	return os.NewFile(uintptr(fd), root+string(os.PathSeparator)+rel), nil
}
