package language

import (
	"fmt"
	"time"
)

// StillAfter closes a refusal's condition with how long the action waited
// for it to clear (an action waits, frame by frame, for its target to be able
// to take it): ", still after 4850 ms". Empty when nothing was waited for.
func StillAfter(waited time.Duration) string {
	if waited <= 0 {
		return ""
	}
	return fmt.Sprintf(", still after %d ms", waited.Milliseconds())
}
