//go:build linux

package browser

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// BenchmarkFramePacing is the evidence behind keeping the display's frame
// clock (docs/decisions/frame-clock-stays-the-displays.md): a DOM-changing
// click plus the two animation frames settling waits for, and the CPU a
// main-thread CSS animation costs, on a browser launched as Ghostlight does
// and on one launched with Chromium's frame-rate limit off.
//
//	go test ./runtime/browser -run '^$' -bench FramePacing -benchtime 60x
func BenchmarkFramePacing(b *testing.B) {
	for _, v := range []struct {
		name  string
		flags []string
	}{{"display", nil}, {"unlimited", []string{"--disable-frame-rate-limit"}}} {
		b.Run(v.name, func(b *testing.B) {
			ctx := context.Background()
			cfg := testConfig()
			cfg.TempDir, cfg.ExtraFlags = b.TempDir(), v.flags
			rb, stop, err := LaunchRod(ctx, cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer stop()
			p, err := rb.Page(proto.TargetCreateTarget{URL: "about:blank"})
			if err != nil {
				b.Fatal(err)
			}
			if err := p.SetDocumentContent(`<button id=b style="width:200px;height:50px" onclick="document.getElementById('o').insertAdjacentHTML('beforeend','<p>Saved</p>')">Save</button><div id=o></div>`); err != nil {
				b.Fatal(err)
			}
			var clicks []time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				time.Sleep(rand.N(time.Second / 60)) // a model's click lands at a random point of the frame interval
				b.StartTimer()
				start := time.Now()
				for _, t := range []proto.InputDispatchMouseEventType{proto.InputDispatchMouseEventTypeMousePressed, proto.InputDispatchMouseEventTypeMouseReleased} {
					if err := (proto.InputDispatchMouseEvent{Type: t, X: 50, Y: 20, Button: proto.InputMouseButtonLeft, ClickCount: 1}).Call(p); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := (proto.RuntimeEvaluate{Expression: `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, AwaitPromise: true}).Call(p); err != nil {
					b.Fatal(err)
				}
				clicks = append(clicks, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(clicks)
			b.ReportMetric(float64(clicks[len(clicks)/2].Microseconds())/1000, "ms-median/click")
			if _, err := p.Eval(`() => { const s = document.createElement('style'); s.textContent = '@keyframes grow{from{width:10px}to{width:300px}}'; const d = document.createElement('div'); d.style.cssText = 'height:20px;background:blue;animation:grow 2s linear infinite'; document.body.append(s, d) }`); err != nil {
				b.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond)
			t0, c0 := time.Now(), cpuTicksOf(cfg.TempDir)
			time.Sleep(2 * time.Second)
			// Clock ticks are 1/100 s on Linux: ticks per second is percent of one core.
			b.ReportMetric(float64(cpuTicksOf(cfg.TempDir)-c0)/time.Since(t0).Seconds(), "cpu-%-animating")
		})
	}
}

// cpuTicksOf sums user and system clock ticks of every process whose
// command line names dir (each of a launched browser's processes names its
// profile).
func cpuTicksOf(dir string) int {
	ents, _ := os.ReadDir("/proc")
	total := 0
	for _, e := range ents {
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !strings.Contains(string(cmd), dir) {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(stat)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 12 {
			u, _ := strconv.Atoi(f[11])
			k, _ := strconv.Atoi(f[12])
			total += u + k
		}
	}
	return total
}
