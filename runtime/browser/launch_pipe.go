package browser

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/launcher/flags"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// launchPiped starts the browser l describes (every flag launch sets) with
// its DevTools on a pipe instead of a port, and waits until it answers on the
// pipe. rod's launcher cannot do this: it waits for a DevTools URL on stderr
// and its leakless guard cannot pass file descriptors, so the process is
// started here.
//
// The browser does not outlive Ghostlight: on Linux it gets SIGKILL when
// Ghostlight's thread that started it dies (Pdeathsig, so also when
// Ghostlight is killed), and everywhere it exits when its pipe closes, which
// the kernel does when Ghostlight dies however it dies. Its helpers die with
// it; stop also kills its process group and anything naming its profile.
//
// With cfg.ExposeDevToolsPort the browser also listens on a loopback DevTools
// port and the returned URL names it (tests and benchmarks that drive the same
// browser beside Ghostlight); otherwise the URL is "" and nothing listens.
func launchPiped(ctx context.Context, cfg Config, l *launcher.Launcher, out *startOutput, root string, dirs []*OwnedDir) (*process, string, error) {
	bin := l.Get(flags.Bin)
	removeDirs := func() {
		for _, d := range dirs {
			_ = d.Remove()
		}
	}
	l.Delete(flags.RemoteDebuggingPort)
	l.Set("remote-debugging-pipe")
	var port *portWatch
	var output io.Writer = out
	if cfg.ExposeDevToolsPort {
		l.Set(flags.RemoteDebuggingPort, "0")
		port = &portWatch{found: make(chan string, 1)}
		output = io.MultiWriter(out, port)
	}
	// fd 3: the browser reads commands; fd 4: it writes replies and events.
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		removeDirs()
		return nil, "", launchFailed(cfg, bin, "", err, "its DevTools pipe could not be made")
	}
	evR, evW, err := os.Pipe()
	if err != nil {
		cmdR.Close()
		cmdW.Close()
		removeDirs()
		return nil, "", launchFailed(cfg, bin, "", err, "its DevTools pipe could not be made")
	}
	pipe := newPipeConn(cmdW, evR, wireMessageMax)
	env, _ := l.GetFlags(flags.Env)
	cmd := exec.Command(bin, l.FormatArgs()...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = output, output
	cmd.ExtraFiles = []*os.File{cmdR, evW}
	cmd.SysProcAttr = pipeProcAttr()
	err = cmd.Start()
	cmdR.Close() // the browser's ends: ours to close once it holds them
	evW.Close()
	if err != nil {
		_ = pipe.Close()
		removeDirs()
		return nil, "", launchFailed(cfg, bin, out.stop(), err, "")
	}
	p := &process{pid: cmd.Process.Pid, root: root, dirs: dirs, exited: make(chan struct{}), pipe: pipe}
	go func() {
		_ = cmd.Wait()
		close(p.exited)
	}()
	fail := func(err error) (*process, string, error) {
		killGroup(p.pid)
		killByArg(root)
		_ = pipe.Close()
		<-p.exited
		killByArg(root)
		removeDirs()
		if ctx.Err() != nil {
			err = errors.Join(err, context.Cause(ctx))
		}
		return nil, "", launchFailed(cfg, bin, out.stop(), err, "")
	}
	hctx, hcancel := context.WithTimeout(ctx, cfg.HelloTimeout)
	err = pipeHello(hctx, pipe, p.exited)
	windowPassed := hctx.Err() != nil
	hcancel()
	if err != nil && windowPassed && ctx.Err() == nil {
		// This start went silent, not the launch's time: it is ended and the
		// caller starts another (launch).
		killGroup(p.pid)
		killByArg(root)
		_ = pipe.Close()
		<-p.exited
		killByArg(root)
		removeDirs()
		return nil, "", &silentStart{printed: out.stop(), waited: cfg.HelloTimeout}
	}
	if err != nil {
		return fail(err)
	}
	u := ""
	if port != nil {
		select {
		case u = <-port.found:
		case <-p.exited:
			return fail(errors.New("the browser exited before it listened on its DevTools port"))
		case <-ctx.Done():
			return fail(errors.New("the browser did not listen on its DevTools port"))
		}
	}
	out.stop()
	return p, u, nil
}

// pipeHello asks the browser its version over the pipe and waits for the
// reply: the browser is up and reading its pipe. A browser that exits first
// (a bad flag, a socket path too long) ends the wait with its exit.
func pipeHello(ctx context.Context, p *pipeConn, exited <-chan struct{}) error {
	// Id 1: the one call made on the pipe before rod takes it; its reply is
	// read here, so it never meets rod's own ids.
	if err := p.Send([]byte(`{"id":1,"method":"Browser.getVersion"}`)); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() {
		for {
			msg, err := p.Read()
			if err != nil {
				done <- err
				return
			}
			if bytes.HasPrefix(msg, []byte(`{"id":1,`)) {
				if bytes.Contains(msg, []byte(`"error":`)) {
					done <- errors.New("the browser refused its first DevTools call: " + string(msg[:min(len(msg), limits.MessageCharsMax)]))
					return
				}
				done <- nil
				return
			}
		}
	}()
	select {
	case err := <-done:
		return err
	case <-exited:
		select {
		case err := <-done:
			if err == nil {
				return errors.New("the browser exited as it started")
			}
			return err
		default:
		}
		return errors.New("the browser exited before it answered on its DevTools pipe")
	case <-ctx.Done():
		_ = p.Close() // ends the reader
		<-done
		return context.Cause(ctx)
	}
}

// portWatch finds "DevTools listening on ws://…" in what the browser prints,
// keeping at most one line of bounded length at a time.
type portWatch struct {
	mu    sync.Mutex
	line  []byte
	sent  bool
	found chan string
}

const portWatchLineMax = limits.LaunchOutputBytesMax

func (w *portWatch) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.sent {
		return len(b), nil
	}
	for _, c := range b {
		if c != '\n' {
			if len(w.line) < portWatchLineMax {
				w.line = append(w.line, c)
			}
			continue
		}
		if _, u, ok := strings.Cut(string(w.line), "DevTools listening on "); ok {
			w.found <- strings.TrimSpace(u)
			w.sent = true
			return len(b), nil
		}
		w.line = w.line[:0]
	}
	return len(b), nil
}
