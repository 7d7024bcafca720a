package language

import "fmt"

// Sentences of browser_upload. The byte count a receipt names is the facts'
// uploaded_bytes.

const (
	// UploadingFiles is the progress a client sees while an upload runs.
	UploadingFiles = "Uploading files"
	// SavingRecording is the progress a client sees while a recording is saved.
	SavingRecording = "Saving the recording"
	// CapturedImage names a view's image uploaded as the file.
	CapturedImage = "the captured image"
)

// Dropped is a drop receipt's verb: "Dropped 1 file (120 bytes) at".
func Dropped(noun string, bytes int64) string {
	return fmt.Sprintf("Dropped %s (%d bytes) at", noun, bytes)
}

// Attached is a file input receipt's verb: "Attached 2 files (300 bytes) to".
func Attached(noun string, bytes int64) string {
	return fmt.Sprintf("Attached %s (%d bytes) to", noun, bytes)
}

// Where an upload's files must lie, as a refusal of a path outside names it
// (uploads.Rule's Where).
const (
	ClientRootsWhere = "the directories the client shares as MCP roots"
	WorkDirWhere     = "the server's working directory (neither files.read_roots nor the client's MCP roots name upload directories)"
)

// ReadRootsWhere names a layer's files.read_roots.
func ReadRootsWhere(layer string) string { return "the " + layer + " layer's files.read_roots" }
