package recorder

import (
	"testing"
	"time"
)

// TestKeepJudgesEachFrameWithTheOneBefore: Keep erases exactly the frames
// its judge refuses, in order, sees each frame's predecessor's tag, and
// leaves a running recording alone.
func TestKeepJudgesEachFrameWithTheOneBefore(t *testing.T) {
	at := time.Now()
	r := &Recorder{state: StateStopped, frames: []frame{
		{data: []byte{1}, at: at, tag: 0, prev: 0},
		{data: []byte{2}, at: at, tag: 2, prev: 0}, // first of document 2: may be painted before it
		{data: []byte{3}, at: at, tag: 2, prev: 2},
		{data: []byte{4}, at: at, tag: 3, prev: 2},
		{data: []byte{5}, at: at, tag: 3, prev: 3},
	}}
	keep := func(tag, prev uint64) bool { return tag == 0 || tag == 3 && prev == 3 }
	if n := r.Keep(keep); n != 3 {
		t.Fatalf("dropped %d frames, want 3", n)
	}
	if len(r.frames) != 2 || r.frames[0].data[0] != 1 || r.frames[1].data[0] != 5 {
		t.Fatalf("kept %v", r.frames)
	}
	r.state = StateRecording
	if n := r.Keep(func(uint64, uint64) bool { return false }); n != 0 || len(r.frames) != 2 {
		t.Fatalf("a running recording lost %d frames", n)
	}
}
