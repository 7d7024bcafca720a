package refusal

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/capture"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
)

// Every executor package's error is a refuser: a changed Refusal signature
// would otherwise let errors.As miss it and every refusal turn "internal".
var (
	_ refuser = (*browser.Error)(nil)
	_ refuser = (*pagejs.Error)(nil)
	_ refuser = (*input.Error)(nil)
	_ refuser = (*capture.Error)(nil)
)

// TestRefusalWords: what the executor leaves to this layer is worded here
// (the cover's quoted name, the wait, the remedy, the denying layer, the
// full-page bound), and a Kind its cause decides reads the cause.
func TestRefusalWords(t *testing.T) {
	deadline := fmt.Errorf("eval: %w", context.DeadlineExceeded)
	cases := []struct {
		err    error
		reason surface.Reason
		msg    string
		limit  string
	}{
		{&pagejs.Error{Kind: pagejs.KindObscured, Role: "button", Name: "Go", Waited: 4850 * time.Millisecond}, surface.ReasonTargetObscured, "a button named \uFDD0\"Go\", still after 4850 ms", ""},
		{&pagejs.Error{Kind: pagejs.KindObscured, Detail: "another element covers it"}, surface.ReasonTargetObscured, "another element", ""},
		{&pagejs.Error{Kind: pagejs.KindNoMatch, Detail: "no match", Waited: time.Second}, surface.ReasonTargetNotFound, "still after 1000 ms", ""},
		{&pagejs.Error{Kind: pagejs.KindUnstable, Detail: "it moved", Waited: time.Second}, surface.ReasonTimeout, "it moved, still after 1000 ms", ""},
		{&pagejs.Error{Kind: pagejs.KindHidden, Detail: "not visible", Waited: time.Second}, surface.ReasonTargetHidden, "not visible", ""},
		{&pagejs.Error{Kind: pagejs.KindRejected, Detail: "undone"}, surface.ReasonInternal, "undone", ""},
		{&pagejs.Error{Kind: pagejs.KindUnavailable, Err: deadline}, surface.ReasonTimeout, "", "900"},
		{&browser.Error{Kind: browser.KindStartupManual, Remedy: browser.RemedyInstall}, surface.ReasonBrowserStartupManual, "install", ""},
		{&browser.Error{Kind: browser.KindHostDenied, Host: "a.example", Layer: "user"}, surface.ReasonHostDenied, "the user layer's host rules stopped it before it left the browser; the tab stayed on its page", ""},
		{&browser.Error{Kind: browser.KindTimeout, Tab: "t1"}, surface.ReasonTimeout, "", "900"},
		{&capture.Error{Kind: capture.KindTooLong, Got: 40, Limit: 12.5}, surface.ReasonNotSupported, "a full page 40 times as long as it is wide passes the 12.5:1 bound (full_page_aspect), so its image would be a sliver; capture the viewport after browser_scroll, or a target", "12.5"},
		{&capture.Error{Kind: capture.KindProtocol, Err: deadline}, surface.ReasonTimeout, "", "900"},
		{&input.Error{Kind: input.KindProtocol, Err: browser.ErrDialogOpened}, surface.ReasonDialogBlocking, "", ""},
		{&input.Error{Kind: input.KindStaging}, surface.ReasonInternal, "unexpected error", ""},
	}
	for _, c := range cases {
		r := For(c.err, 900)
		if r.Reason != c.reason || r.Message != c.msg || r.Limit != c.limit {
			t.Errorf("%v: got %s %q limit %q, want %s %q limit %q", c.err, r.Reason, r.Message, r.Limit, c.reason, c.msg, c.limit)
		}
	}
}
