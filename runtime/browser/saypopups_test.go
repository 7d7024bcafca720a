package browser

import "testing"

// TestSayPopupsOnceEach: each closed popup's record is handed to exactly
// one result, whichever asks first, and only a popup's.
func TestSayPopupsOnceEach(t *testing.T) {
	ws := &Workspace{}
	ws.blocked.add(Blocked{Tab: "tab_a", Host: "b.test", Kind: RequestPopup, Popup: "tab_p"})
	mark := ws.BlockedMark()
	ws.blocked.add(Blocked{Tab: "tab_a", Host: "b.test", Kind: RequestNavigation})
	ws.blocked.add(Blocked{Tab: "tab_a", Host: "c.test", Kind: RequestPopup})
	ws.blocked.add(Blocked{Tab: "tab_b", Host: "d.test", Kind: RequestPopup, Popup: "tab_q"})

	// A call on tab_a that began at mark says its own tab's popup since then.
	got := ws.SayPopups(mark, "tab_a")
	if len(got) != 1 || got[0].Host != "c.test" {
		t.Fatalf("tab_a since mark: %+v", got)
	}
	if again := ws.SayPopups(mark, "tab_a"); len(again) != 0 {
		t.Fatalf("said twice: %+v", again)
	}
	// The next call's late wording gets every popup not yet said, once.
	late := ws.SayPopups(0, "")
	if len(late) != 2 || late[0].Popup != "tab_p" || late[1].Popup != "tab_q" {
		t.Fatalf("late: %+v", late)
	}
	if again := ws.SayPopups(0, ""); len(again) != 0 {
		t.Fatalf("late said twice: %+v", again)
	}
	// Every record stays for the other readers.
	if all := ws.BlockedSince(0, ""); len(all) != 4 {
		t.Fatalf("records: %+v", all)
	}
}
