package browser

// Kept is one kind of state a caller keeps for a tab's current page (an
// isolated world, a script runner, an evidence collector). It lives on the
// page's binding, so it is freed when the page goes: the tab closed,
// crashed or was recreated behind its handle. Callers hold no map of tabs.
type Kept[T any] struct{ key *byte }

// NewKept makes a new kind of kept state, distinct from every other.
func NewKept[T any]() Kept[T] { return Kept[T]{key: new(byte)} }

// Get returns what is kept for the tab's current page.
func (k Kept[T]) Get(t *Tab) (T, bool) {
	var zero T
	bd := t.binding()
	if bd == nil {
		return zero, false
	}
	bd.mu.Lock()
	defer bd.mu.Unlock()
	v, ok := bd.kept[k.key].(T)
	if !ok {
		return zero, false
	}
	return v, true
}

// Put keeps v for the tab's current page; false (nothing kept) when the
// tab has no live page.
func (k Kept[T]) Put(t *Tab, v T) bool {
	bd := t.binding()
	if bd == nil {
		return false
	}
	bd.mu.Lock()
	defer bd.mu.Unlock()
	if bd.gone != nil {
		return false
	}
	if bd.kept == nil {
		bd.kept = map[*byte]any{}
	}
	bd.kept[k.key] = v
	return true
}

// KeptCount is how many kinds of state the tab's current page keeps (0
// once it is gone): what a test counts to prove a closed tab kept nothing.
func (t *Tab) KeptCount() int {
	bd := t.binding()
	if bd == nil {
		return 0
	}
	bd.mu.Lock()
	defer bd.mu.Unlock()
	return len(bd.kept)
}
