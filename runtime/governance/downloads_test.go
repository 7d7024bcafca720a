package governance

import "testing"

// downloads: deny by default; --allow-downloads (the command-line layer) or a layer
// allows them; a lower layer may deny what a higher allows, never the reverse.
func TestDownloadsSetting(t *testing.T) {
	cfg, _ := layers(t, "", "", "")
	if mustLoad(t, cfg).AllowsDownloads() {
		t.Fatal("downloads allowed with no layer saying so")
	}
	cfg.CommandLine = CommandLine{AllowDownloads: true}
	if !mustLoad(t, cfg).AllowsDownloads() {
		t.Fatal("--allow-downloads did not allow downloads")
	}
	cfg, p := layers(t, `downloads: "deny"`, "", "")
	cfg.CommandLine = CommandLine{AllowDownloads: true}
	loadErr(t, cfg, "the command-line layer widens downloads", "the command line (--allow-downloads)", p[0]+":1:")
	cfg, _ = layers(t, `downloads: "allow"`, `downloads: "deny"`, "")
	if mustLoad(t, cfg).AllowsDownloads() {
		t.Fatal("the user layer's deny did not narrow the organization's allow")
	}
	cfg, _ = layers(t, "", `downloads: "allow"`, "")
	if !mustLoad(t, cfg).AllowsDownloads() {
		t.Fatal("the user layer's allow did not hold")
	}
}
