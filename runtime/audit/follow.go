package audit

// A policy reload may move or re-bound the audit (audit.path, max_bytes,
// keep): the server's writer follows the settings of each call's snapshot,
// applied between calls, in the order the snapshots were made.

// FollowPolicy lets Follow move the writer; base is the path used while no
// layer sets audit.path (the command line's --audit-path, "" for the
// default location). A writer that does not follow keeps its configuration.
func (w *Writer) FollowPolicy(base string) {
	w.mu.Lock()
	w.follow, w.base = true, base
	w.mu.Unlock()
}

// Follow applies the audit settings of the policy snapshot numbered gen
// (path "" is the base): the file is reopened there, lines held in memory
// follow, and the change is logged. A snapshot older than one applied
// already changes nothing, so a call that started before a reload never
// moves the audit back.
func (w *Writer) Follow(path string, maxBytes int64, keep int, gen uint64) {
	w.mu.Lock()
	if !w.follow || gen <= w.gen {
		w.mu.Unlock()
		return
	}
	w.gen = gen
	if path == "" {
		path = w.base
	}
	before := w.cfg
	w.mu.Unlock()
	w.Reconfigure(Config{Path: path, MaxBytes: maxBytes, Keep: keep})
	if after := w.Config(); after != before {
		w.log.Info("audit settings changed by the policy", "path", after.Path, "max_bytes", after.MaxBytes, "keep", after.Keep)
	}
}
