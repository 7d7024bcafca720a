package browser

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// wallPrefs are profile preferences written before launch that keep the
// browser's own connections inside the policy proxy (wall.go); contexts
// Ghostlight creates (Target.createBrowserContext) inherit them.
//   - webrtc.ip_handling_policy: WebRTC sends no UDP outside a proxy (the
//     --force-webrtc-ip-handling-policy flag alone still let a STUN binding
//     request through on Chromium 156, measured);
//   - net.network_prediction_options 2 (never): no preconnect, DNS
//     prefetch, or speculation-rules prefetch and prerender.
var wallPrefs = map[string]any{
	"webrtc": map[string]any{"ip_handling_policy": "disable_non_proxied_udp", "multiple_routes_enabled": false, "nonproxied_udp_enabled": false},
	"net":    map[string]any{"network_prediction_options": 2},
}

// writeWallPrefs writes the preferences into a fresh profile's Default dir.
func writeWallPrefs(profile string) error {
	dir := filepath.Join(profile, "Default")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(wallPrefs)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "Preferences"), b, 0o600)
}
