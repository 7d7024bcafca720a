package server

import (
	"errors"

	"github.com/ghostlight-dev/ghostlight/runtime/audit"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
)

// auditStatus is the workbench's banner: why the audit cannot be written
// (the writer's error, path included: the person's own machine) and what
// is refused meanwhile; "" while it can be written. Asking retries a failed
// audit, so the banner clears once the file works again.
func auditStatus(journal any, a *governance.Authority) string {
	j, ok := journal.(interface{ Ready() error })
	if !ok || j == nil {
		return ""
	}
	err := j.Ready()
	if err == nil {
		return ""
	}
	scope := "Calls that act, write or execute are refused until it can; reads and navigations still run, their lines held in memory."
	if required, _ := a.AuditRequired(); required {
		scope = "The audit is required, so every browser call is refused until it can; policy_explain still answers."
	}
	detail := err.Error()
	var ae *audit.Error
	if errors.As(err, &ae) {
		detail = ae.Err.Error()
	}
	return "The audit log cannot be written: " + audit.CauseOf(err) + " (" + detail + "). " + scope
}
