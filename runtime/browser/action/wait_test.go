package action

import (
	"context"
	"testing"
	"time"
)

func TestSleep(t *testing.T) {
	start := time.Now()
	if !Sleep(context.Background(), start, start.Add(30*time.Millisecond)) {
		t.Fatal("a sleep with time to spare did not end at its end")
	}
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Fatalf("slept %v, less than the 30ms asked", d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if Sleep(ctx, time.Now(), time.Now().Add(time.Hour)) {
		t.Fatal("a sleep past its context's end reported it slept")
	}
}
