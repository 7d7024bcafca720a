// Command workbench-shot makes the README's picture of the workbench with
// Ghostlight's own parts: it starts a server (its own headless Chromium for
// the agent), lets an agent session work on a small sign-in page until it
// stops at the password field, opens the workbench in a second Chromium as
// the person would, and captures the Tabs destination with the handoff
// waiting.
//
//	go run ./tools/workbench-shot            # writes docs/workbench.png
//	go run ./tools/workbench-shot -o out.png
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/runtime/audit"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/server"
)

const signIn = `<!doctype html><title>Northwind · Sign in</title>
<style>
html{min-height:100%;background:linear-gradient(160deg,#eef2ff,#f8fafc)}
body{margin:0;font:16px system-ui,sans-serif;color:#111827}
.card{width:380px;margin:110px auto;background:#fff;border-radius:14px;box-shadow:0 10px 30px rgba(17,24,39,.12);padding:34px}
h1{font-size:22px;margin:0 0 6px} p{color:#6b7280;margin:0 0 22px}
label{display:block;font-size:13px;color:#374151;margin:14px 0 6px}
input{width:100%;box-sizing:border-box;padding:11px 12px;border:1px solid #d1d5db;border-radius:8px;font:inherit}
button{margin-top:22px;width:100%;padding:12px;border:0;border-radius:8px;background:#4f46e5;color:#fff;font:600 15px system-ui}
</style>
<div class="card"><h1>Sign in to Northwind</h1><p>Orders, invoices and shipments.</p>
<form method="post" action="/login">
<label for="u">Email</label><input id="u" name="email" value="ada@northwind.example">
<label for="pw">Password</label><input id="pw" name="password" type="password">
<button type="submit">Sign in</button></form></div>`

func main() {
	out := flag.String("o", filepath.Join("docs", "workbench.png"), "where to write the PNG")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "workbench-shot:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir, err := os.MkdirTemp("", "ghostlight-shot-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	log := slog.New(slog.DiscardHandler)

	site, err := listen(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, signIn)
	}))
	if err != nil {
		return err
	}
	defer site.Close()

	journal := audit.Open(audit.Config{Path: filepath.Join(dir, "audit.jsonl")}, log)
	defer journal.Close()
	srv, err := server.New(server.Config{
		Browser: browser.Config{Startup: browser.StartupAuto, Headless: true, Path: os.Getenv("GHOSTLIGHT_BROWSER")},
		Journal: journal, Logger: log, Version: "shot",
	})
	if err != nil {
		return err
	}
	defer srv.Close(context.Background())
	wb, err := srv.Workbench(server.WorkbenchOptions{})
	if err != nil {
		return err
	}
	wbs, err := listen(wb)
	if err != nil {
		return err
	}
	defer wbs.Close()
	wb.SetBase("http://" + wbs.addr)

	// The agent's session: open the page, read the policy, stop at the password.
	p := srv.Pipeline()
	nav := p.Call(ctx, "demo-session", "browser_navigate", []byte(`{"url":"http://`+site.addr+`/"}`), nil)
	if nav.Envelope.Status != "succeeded" {
		return errors.New("navigate: " + nav.Envelope.Summary)
	}
	p.Call(ctx, "demo-session", "policy_explain", []byte(`{}`), nil)
	p.Call(ctx, "demo-session", "browser_read", []byte(`{}`), nil)
	stop := p.Call(ctx, "demo-session", "browser_fill_form", []byte(`{"fields":[{"selector":{"name":"Password"},"value":"x"}]}`), nil)
	if stop.Envelope.Status != "attention_required" {
		return errors.New("the fill did not stop for a handoff: " + stop.Envelope.Summary)
	}

	// The person's browser, at a desktop size.
	person, closePerson, err := browser.LaunchRod(ctx, browser.Config{Headless: true, Path: os.Getenv("GHOSTLIGHT_BROWSER")})
	if err != nil {
		return err
	}
	defer closePerson()
	page, err := person.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		return err
	}
	page = page.Context(ctx)
	if err := (proto.EmulationSetDeviceMetricsOverride{Width: 1440, Height: 900, DeviceScaleFactor: 1}).Call(page); err != nil {
		return err
	}
	if err := page.Navigate(wb.Link()); err != nil {
		return err
	}
	if err := page.WaitLoad(); err != nil {
		return err
	}
	// Wait for the handoff banner and a decoded frame of the agent's tab.
	if _, err := page.Element(`#tab-list li[data-handoff]`); err != nil {
		return err
	}
	for {
		r, err := page.Eval(`() => { const i = document.getElementById('live-image'); return i.complete && i.naturalWidth > 0 && !document.getElementById('live-handoff').hidden }`)
		if err != nil {
			return err
		}
		if r.Value.Bool() {
			break
		}
		select {
		case <-ctx.Done():
			return errors.New("the live view never showed a frame")
		case <-time.After(50 * time.Millisecond):
		}
	}
	png, err := page.Screenshot(false, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote %s (%d bytes)\n", out, len(png))
	return nil
}

// served is a loopback HTTP server of its own.
type served struct {
	addr string
	srv  *http.Server
}

func (s *served) Close() { _ = s.srv.Close() }

func listen(h http.Handler) (*served, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &served{addr: ln.Addr().String(), srv: &http.Server{Handler: h}}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) && !strings.Contains(err.Error(), "closed") {
			fmt.Fprintln(os.Stderr, "workbench-shot: serve:", err)
		}
	}()
	return s, nil
}
