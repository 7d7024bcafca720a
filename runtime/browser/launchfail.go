package browser

import (
	"context"
	"errors"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// LaunchError says why a browser that was found would not start.
type LaunchError struct {
	Bin string // the executable that was started
	// Line is the browser's own first error line as it printed it ("" when it printed
	// none); the log carries it whole.
	Line string
	// Cause says what went wrong in words a person can act on.
	Cause string
	Err   error
}

func (e *LaunchError) Error() string {
	s := "launching " + e.Bin + ": " + e.Cause
	if e.Err != nil {
		s += ": " + errLine(e.Err)
	}
	return s
}

func (e *LaunchError) Unwrap() error { return e.Err }

// launchFailed builds the LaunchError for a start that failed and writes the one log
// line a refusal points people at. cause, when given, overrides the one read from the
// browser's output.
func launchFailed(cfg Config, bin, printed string, err error, cause string) *LaunchError {
	line := firstErrorLine(printed)
	if cause == "" {
		cause = launchCause(line, err, cfg)
	}
	le := &LaunchError{Bin: bin, Line: line, Cause: cause, Err: err}
	cfg.Logger.Error(LaunchFailedLog, "browser", bin, "cause", cause, "browser_error", line, "err", errLine(err))
	return le
}

// errLine is the first line of err, bounded: rod's launcher error repeats everything the
// browser printed, which the log already has in browser_error.
func errLine(err error) string {
	if err == nil {
		return ""
	}
	s, _, _ := strings.Cut(err.Error(), "\n")
	if r := []rune(s); len(r) > limits.MessageCharsMax {
		s = string(r[:limits.MessageCharsMax]) + "…"
	}
	return s
}

// startOutput keeps the first bytes a starting browser prints (stdout and stderr), up to
// max, and nothing once stopped: a running browser keeps printing for its whole life.
type startOutput struct {
	mu      sync.Mutex
	max     int
	buf     []byte
	stopped bool
}

func (o *startOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.stopped {
		if room := o.max - len(o.buf); room > 0 {
			o.buf = append(o.buf, p[:min(room, len(p))]...)
		}
	}
	return len(p), nil
}

// stop ends the capture and returns what was kept.
func (o *startOutput) stop() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.stopped = true
	s := string(o.buf)
	o.buf = nil
	return s
}

// outputNoise are lines Chromium prints on healthy starts too (no system bus in a
// container, crashpad probing cpufreq, zygotes noticing their parent left).
var outputNoise = []string{"dbus/", "crashpad", "zygote_linux", "Fontconfig", "DevTools listening on"}

// firstErrorLine picks the line that says why the browser stopped: its first FATAL line,
// else its first error line that is not start-up noise, else its first line at all.
func firstErrorLine(printed string) string {
	var fatal, errLine, other string
	for _, line := range strings.Split(printed, "\n") {
		line = strings.TrimSpace(strings.Map(printable, line))
		if line == "" {
			continue
		}
		noise := false
		for _, n := range outputNoise {
			noise = noise || strings.Contains(line, n)
		}
		switch {
		case fatal == "" && strings.Contains(line, ":FATAL:"):
			fatal = line
		case noise:
		case errLine == "" && looksLikeError(line):
			errLine = line
		case other == "":
			other = line
		}
	}
	for _, l := range []string{fatal, errLine, other} {
		if l != "" {
			return l
		}
	}
	return ""
}

func printable(r rune) rune {
	if r == '\t' || !unicode.IsControl(r) {
		return r
	}
	return -1
}

func looksLikeError(line string) bool {
	l := strings.ToLower(line)
	for _, w := range []string{":error:", "error", "fail", "cannot", "can't", "unable", "not found", "denied", "missing"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// chromiumLogPrefix is the "[pid:tid:time:LEVEL:file.cc:line] " head of a Chromium log line.
var chromiumLogPrefix = regexp.MustCompile(`^\[[^\]]*:(?:FATAL|ERROR|WARNING|INFO|VERBOSE\d*):[^\]]*\]\s*`)

// BrowserSaid is line without Chromium's log prefix, as a sentence can quote it.
func BrowserSaid(line string) string {
	return strings.TrimSuffix(strings.TrimSpace(chromiumLogPrefix.ReplaceAllString(line, "")), ".")
}

// launchCause names the cause of a failed start from the browser's own line and the
// launcher's error, in words that say what a person can change.
func launchCause(line string, err error, cfg Config) string {
	said := BrowserSaid(line)
	l := strings.ToLower(said)
	var ee *exec.Error
	switch {
	case strings.Contains(l, "socket path too long"):
		return "the temp directory path is too long for the socket Chromium makes in it (" + said + "); set TMPDIR to a short directory such as /tmp"
	case strings.Contains(l, "missing x server") || strings.Contains(l, "cannot open display"):
		return "there is no display for a visible browser window (" + said + "); run Ghostlight headless (without --headful) or give it a DISPLAY"
	case strings.Contains(l, "error while loading shared libraries"):
		return "a library the browser needs is missing (" + said + "); install the browser's dependencies"
	case strings.Contains(l, "no-sandbox") || strings.Contains(l, "no usable sandbox"):
		return "the browser's sandbox cannot run here (" + said + ")"
	case errors.As(err, new(*silentStart)):
		return err.Error() + ", " + strconv.Itoa(launchAttempts(cfg)) + " times" + sayingIf(said)
	case errors.Is(err, context.DeadlineExceeded):
		return "it did not start within " + strconv.Itoa(int(cfg.LaunchTimeout.Seconds())) + " s" + sayingIf(said)
	case errors.As(err, &ee) || isExecFailure(err):
		return "its binary could not be run (" + errLine(err) + ")"
	case said != "":
		return "it exited saying \"" + said + "\""
	}
	return "it exited without printing an error"
}

func sayingIf(said string) string {
	if said == "" {
		return ""
	}
	return " (it said \"" + said + "\")"
}

// isExecFailure spots the start errors the kernel gives for a binary that cannot run
// (rod's own "[launcher]" errors quote the browser's output instead, so they never count).
func isExecFailure(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	if strings.HasPrefix(s, "[launcher]") {
		return false
	}
	for _, w := range []string{"exec format error", "permission denied", "no such file or directory"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
