package pagejs

import (
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkAwaitActionable is what actionability adds to a locate on a page
// at rest: one more look after the next animation frame. Each run starts at
// a random point of the frame interval, as a model's calls do after it
// thinks (back to back, every run would start just after a frame and wait
// nearly a whole one). Compare BenchmarkLocateRandomStart.
func BenchmarkAwaitActionable(b *testing.B) {
	benchLocateFrom(b, func(w *World, id int) error {
		_, err := AwaitActionable(testCtx(b), w, id, LocateOptions{}, time.Now().Add(5*time.Second))
		return err
	})
}

func BenchmarkLocateRandomStart(b *testing.B) {
	benchLocateFrom(b, func(w *World, id int) error {
		_, err := Locate(testCtx(b), w, id)
		return err
	})
}

func benchLocateFrom(b *testing.B, fn func(w *World, id int) error) {
	_, w := openPage(b, bigPage())
	f, err := Find(testCtx(b), w, FindRequest{Text: "Button 5", Max: 1})
	if err != nil || len(f.Matches) == 0 {
		b.Fatal(err)
	}
	id := f.Matches[0].ID
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		time.Sleep(time.Duration(rand.IntN(17000)) * time.Microsecond)
		b.StartTimer()
		if err := fn(w, id); err != nil {
			b.Fatal(err)
		}
	}
}
