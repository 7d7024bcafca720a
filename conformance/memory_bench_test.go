package conformance

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// BenchmarkLiveMemory drives the shipped binary over stdio with 1,000 calls
// on one tab and reports the server's resident memory and the proportional
// memory (PSS) of the whole process tree (server plus Chromium).
func BenchmarkLiveMemory(b *testing.B) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Mem</title><main><h1>Memory</h1><p>Some prose.</p><button>Save</button></main>`)
	}))
	defer page.Close()
	for i := 0; i < b.N; i++ {
		s := startStdio(b)
		s.callB(b, "browser_navigate", map[string]any{"url": page.URL + "/"})
		for j := 0; j < 1000; j++ {
			switch j % 3 {
			case 0:
				s.callB(b, "browser_read", map[string]any{"max_chars": 500})
			case 1:
				s.callB(b, "browser_find", map[string]any{"text": "Save"})
			default:
				s.callB(b, "browser_inspect", map[string]any{})
			}
		}
		pid := serverPID(b, s.tmp)
		rss := statusKB(pid, "VmRSS")
		total := 0
		for _, p := range treePIDs(pid) {
			total += pssKB(p)
		}
		b.ReportMetric(float64(rss)/1024, "server-RSS-MB")
		b.ReportMetric(float64(pssKB(pid))/1024, "server-PSS-MB")
		b.ReportMetric(float64(total)/1024, "tree-PSS-MB")
		s.c.Close()
	}
}

func (s *liveServer) callB(b *testing.B, tool string, args map[string]any) {
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := s.c.CallTool(b.Context(), req)
	if err != nil || res.IsError {
		b.Fatalf("%s: %v %v", tool, err, res)
	}
}

// serverPID finds the ghostlight process started with TMPDIR=tmp.
func serverPID(b *testing.B, tmp string) int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if bytes.Contains(env, []byte("TMPDIR="+tmp+"\x00")) && bytes.Contains(cmd, []byte("ghostlight\x00serve")) {
			return pid
		}
	}
	b.Fatal("server process not found")
	return 0
}

func treePIDs(root int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp := statusKB(pid, "PPid"); pp > 0 {
			children[pp] = append(children[pp], pid)
		}
	}
	out := []int{root}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

func statusKB(pid int, key string) int {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && k == key {
			n, _ := strconv.Atoi(strings.Fields(v)[0])
			return n
		}
	}
	return 0
}

func pssKB(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "Pss:") {
			n, _ := strconv.Atoi(strings.Fields(line)[1])
			return n
		}
	}
	return 0
}
