package conformance

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ghostlight-dev/ghostlight/conformance/operatorsandbox"
	"github.com/ghostlight-dev/ghostlight/generated/operator"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// The Operator profile's examples, run live: the shipped binary serves
// both surfaces over HTTP; every scenario gets a session of its own (a
// workspace with no tab and no user data), whose one tab the suite opens on
// the pinned reference surface (operatorsandbox), then addresses by the id
// operator_list_surfaces returns. Every result's structuredContent is held
// to the verb's contract with santhosh-tekuri/jsonschema.

type operatorServer struct {
	addr, token string
	auditPath   string
	sandbox     *operatorsandbox.Sandbox
	stderr      *lockedWriter
	out         map[string]*jsonschema.Schema
}

// startOperatorServer serves --surface all over HTTP. Its one policy layer
// denies 127.0.0.2, so the denied-host scenario has a host to be refused
// (the sandbox itself is addressed as 127.0.0.1; localhost would be denied
// with it, being the same loopback).
func startOperatorServer(t *testing.T) *operatorServer {
	t.Helper()
	sb, err := operatorsandbox.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sb.Close)
	ws := filepath.Join(shortTempDir(t), "policy.cue")
	writeLayer(t, ws, "hosts: deny: [\"127.0.0.2\"]\n")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s := &operatorServer{addr: addr, token: "operator-test-token", sandbox: sb, stderr: &lockedWriter{w: &bytes.Buffer{}}, out: map[string]*jsonschema.Schema{},
		auditPath: filepath.Join(filepath.Dir(ws), "audit", "audit.jsonl")}
	cmd := exec.Command(serverBinary(t), "serve", "--http", addr, "--token", s.token, "--surface", "all", "--audit-path", s.auditPath)
	cmd.Env = append(os.Environ(), wsOnlyEnv(ws)...)
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	for _, tool := range operator.Catalog {
		s.out[tool.Name] = compile(t, "mem://"+tool.Name+"/output.json", definitionOf(t, tool).OutputSchema)
	}
	return s
}

// scenario is one session reset to the reference surface.
type scenario struct {
	t       *testing.T
	s       *operatorServer
	c       *client.Client
	surface string // the id operator_list_surfaces returned
}

// reset opens a fresh session and, in it, one tab on the reference surface
// (Ghostlight's browser_navigate: the suite's own reset, not a verb); the
// scenario then addresses it through operator_list_surfaces.
func (s *operatorServer) reset(t *testing.T) *scenario {
	t.Helper()
	c, err := client.NewStreamableHttpClient("http://"+s.addr+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + s.token}))
	if err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.ProtocolVersion20251125 // a session: one workspace per client
	init.Params.ClientInfo = mcp.Implementation{Name: "operator-conformance", Version: "1"}
	for try := 0; ; try++ {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err = c.Initialize(ctx, init)
		cancel()
		if err == nil {
			break
		}
		if try == 100 {
			t.Fatalf("initialize: %v\n%s", err, s.stderr.String())
		}
		time.Sleep(100 * time.Millisecond) // the server is still starting
	}
	t.Cleanup(func() { c.Close() })
	sc := &scenario{t: t, s: s, c: c}
	res := sc.raw("browser_navigate", map[string]any{"url": s.sandbox.URL()})
	if res.IsError {
		t.Fatalf("reset: %s", textOf(res))
	}
	list := sc.verb("operator_list_surfaces", map[string]any{})
	surfaces, _ := list["surfaces"].([]any)
	if len(surfaces) != 1 {
		t.Fatalf("a reset session lists %d surfaces: %v", len(surfaces), list)
	}
	sc.surface = surfaces[0].(map[string]any)["id"].(string)
	return sc
}

func (sc *scenario) raw(tool string, args any) *mcp.CallToolResult {
	sc.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := sc.c.CallTool(ctx, req)
	if err != nil {
		sc.t.Fatalf("%s: %v", tool, err)
	}
	return res
}

func textOf(res *mcp.CallToolResult) string {
	if len(res.Content) > 0 {
		if t, ok := res.Content[0].(mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}

// verb calls an operator verb and holds its answer to the verb's contract:
// structuredContent validates against the outputSchema, the text block
// starts with a summary and carries the same JSON.
func (sc *scenario) verb(tool string, args map[string]any) map[string]any {
	sc.t.Helper()
	res := sc.raw(tool, args)
	raw, _ := json.Marshal(res.StructuredContent)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		sc.t.Fatalf("%s: structuredContent is not JSON: %v", tool, err)
	}
	if err := sc.s.out[tool].Validate(doc); err != nil {
		sc.t.Fatalf("%s: structuredContent breaks the contract: %v\n%s", tool, err, raw)
	}
	text := textOf(res)
	if !textCarries(text, raw) {
		sc.t.Fatalf("%s: text block lacks a summary or the result JSON:\n%s\n%s", tool, text, raw)
	}
	var out map[string]any
	json.Unmarshal(raw, &out)
	out["_isError"] = res.IsError
	out["_text"] = text
	if len(res.Content) > 1 {
		out["_content"] = res.Content[1:]
	}
	return out
}

// example is one of the profile's examples.
type example struct {
	Verb    string
	Request map[string]any
	Result  map[string]any
}

func profileExamples(t *testing.T) []example {
	var p struct {
		Verbs []struct {
			Name    string `json:"name"`
			Example struct {
				Request map[string]any `json:"request"`
				Result  struct {
					StructuredContent map[string]any `json:"structuredContent"`
				} `json:"result"`
			} `json:"example"`
		} `json:"verbs"`
	}
	readJSON(t, "../spec/operator/profile.json", &p)
	var out []example
	for _, v := range p.Verbs {
		out = append(out, example{Verb: v.Name, Request: v.Example.Request, Result: v.Example.Result.StructuredContent})
	}
	return out
}

var handleShape = map[string]*regexp.Regexp{
	"surface": regexp.MustCompile(`^tab_[A-Za-z0-9]+$`),
	"target":  regexp.MustCompile(`^target_[A-Za-z0-9]+$`),
}

// TestLiveOperatorProfileExamples runs every example of the profile against
// the reference surface. Values the reference surface determines must be
// the example's; values it cannot pin (a surface id, a target ref, the
// example's own network address) are checked for shape, and the test says
// so.
func TestLiveOperatorProfileExamples(t *testing.T) {
	s := startOperatorServer(t)
	for _, ex := range profileExamples(t) {
		tool := "operator_" + strings.TrimPrefix(ex.Verb, "operator.")
		t.Run(ex.Verb, func(t *testing.T) {
			if operator.Lookup(tool) == nil {
				// operator/desktop@1 is not implemented: the claim declares the
				// verb unsupported with the profile's degradation (checked in
				// TestOperatorClaimAccountsForTheProfile), and it is not served.
				if ex.Verb != "operator.focus_app" {
					t.Fatalf("%s is neither served nor the unsupported focus_app", ex.Verb)
				}
				t.Logf("%s: not served (operator/desktop@1 unsupported); its example cannot run", ex.Verb)
				return
			}
			// The example result itself is valid under the contract Ghostlight serves.
			want, _ := json.Marshal(ex.Result)
			doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(want))
			if err := s.out[tool].Validate(doc); err != nil {
				t.Fatalf("the profile's example result breaks the served contract: %v", err)
			}
			sc := s.reset(t)
			req := map[string]any{}
			for k, v := range ex.Request {
				req[k] = v
			}
			if _, ok := req["surface_id"]; ok {
				t.Logf("surface_id %v is the example's; the reference surface is addressed by the id list_surfaces returned (%s): shape checked", req["surface_id"], sc.surface)
				req["surface_id"] = sc.surface
			}
			if !handleShape["surface"].MatchString(sc.surface) {
				t.Errorf("surface id %q is not a tab handle", sc.surface)
			}
			switch ex.Verb {
			case "operator.act":
				// The example's ref e47 names the Submit button: the ref is the
				// one perceive returns for it on the reference surface.
				p := sc.verb("operator_perceive", map[string]any{"surface_id": sc.surface, "query": operatorsandbox.ButtonName})
				req["target"] = p["targets"].([]any)[0].(map[string]any)["ref"]
			case "operator.navigate":
				// The example's https://example.org/docs is off the loopback: the
				// reference surface's own /docs stands for it.
				req["url"] = s.sandbox.Origin() + operatorsandbox.DocsPath
			}
			got := sc.verb(tool, req)
			if got["_isError"] == true {
				t.Fatalf("%s refused: %s", tool, got["_text"])
			}
			switch ex.Verb {
			case "operator.list_surfaces":
				sf := got["surfaces"].([]any)
				one := sf[0].(map[string]any)
				exp := ex.Result["surfaces"].([]any)[0].(map[string]any)
				if len(sf) != 1 || one["kind"] != exp["kind"] || one["label"] != exp["label"] || one["label"] != operatorsandbox.Title {
					t.Errorf("surfaces %v, the example's %v", sf, exp)
				}
				if one["address"] != s.sandbox.URL() {
					t.Errorf("address %v, want the reference surface's %s", one["address"], s.sandbox.URL())
				}
				t.Logf("id %v (example: %v): shape checked, not pinned", one["id"], exp["id"])
			case "operator.perceive":
				targets := got["targets"].([]any)
				exp := ex.Result["targets"].([]any)[0].(map[string]any)
				if len(targets) != 1 {
					t.Fatalf("targets %v, the example has one", targets)
				}
				tg := targets[0].(map[string]any)
				if tg["role"] != exp["role"] || tg["name"] != exp["name"] || got["readiness"] != ex.Result["readiness"] {
					t.Errorf("perceive %v, the example's %v", got, ex.Result)
				}
				if ref, _ := tg["ref"].(string); !handleShape["target"].MatchString(ref) {
					t.Errorf("ref %q is not a target handle", ref)
				}
				t.Logf("ref %v (example: %v): shape checked, not pinned", tg["ref"], exp["ref"])
			case "operator.act", "operator.settle", "operator.navigate":
				for k, v := range ex.Result {
					if got[k] != v {
						t.Errorf("%s: %s is %v, the example's %v (%s)", tool, k, got[k], v, got["_text"])
					}
				}
			case "operator.capture":
				if got["width"] != ex.Result["width"] || got["height"] != ex.Result["height"] || got["width"] != float64(operatorsandbox.Width) || got["height"] != float64(operatorsandbox.Height) {
					t.Errorf("capture %vx%v, the example's %vx%v", got["width"], got["height"], ex.Result["width"], ex.Result["height"])
				}
				blocks, _ := got["_content"].([]mcp.Content)
				if len(blocks) != 1 {
					t.Fatalf("capture has %d blocks after the text, want one image", len(blocks))
				}
				img, ok := blocks[0].(mcp.ImageContent)
				if !ok || img.MIMEType != "image/png" {
					t.Fatalf("capture block %#v is not an image/png", blocks[0])
				}
				data, _ := base64.StdEncoding.DecodeString(img.Data)
				cfg, err := png.DecodeConfig(bytes.NewReader(data))
				if err != nil || cfg.Width != operatorsandbox.Width || cfg.Height != operatorsandbox.Height {
					t.Errorf("the PNG is %dx%d (%v), want %dx%d", cfg.Width, cfg.Height, err, operatorsandbox.Width, operatorsandbox.Height)
				}
			default:
				t.Fatalf("no check for %s", ex.Verb)
			}
		})
	}
}

// TestLiveOperatorSemantics: what the profile's examples leave out, on the
// reference surface: a press reports changed only when the surface did, a
// reading continues with next_cursor, kind filters, and Ghostlight's
// refusals (a stale target, a denied host, a credential handoff, bad
// arguments) say what happened and what to do in a form the contracts allow.
func TestLiveOperatorSemantics(t *testing.T) {
	s := startOperatorServer(t)
	refusal := func(t *testing.T, got map[string]any, reason string) map[string]any {
		t.Helper()
		r, _ := got["refusal"].(map[string]any)
		if r["reason"] != reason {
			t.Fatalf("refusal %v, want %s (%s)", got["refusal"], reason, got["_text"])
		}
		if !strings.Contains(got["_text"].(string), "Next: ") {
			t.Errorf("a refusal must say what to do: %s", got["_text"])
		}
		return r
	}
	t.Run("hover changes nothing, press changes the page", func(t *testing.T) {
		sc := s.reset(t)
		p := sc.verb("operator_perceive", map[string]any{"surface_id": sc.surface})
		if !strings.Contains(p["text"].(string), operatorsandbox.Title) {
			t.Errorf("perceive text %q lacks the title", p["text"])
		}
		var link, button string
		for _, x := range p["targets"].([]any) {
			tg := x.(map[string]any)
			switch tg["role"] {
			case "link":
				link = tg["ref"].(string)
			case "button":
				button = tg["ref"].(string)
			}
		}
		got := sc.verb("operator_act", map[string]any{"surface_id": sc.surface, "target": link, "action": "hover"})
		if got["changed"] != false || got["readiness"] != "settled" {
			t.Errorf("hovering a link: %v", got)
		}
		got = sc.verb("operator_act", map[string]any{"surface_id": sc.surface, "target": button, "action": "press"})
		if got["changed"] != true {
			t.Errorf("pressing Submit: %v", got)
		}
		got = sc.verb("operator_act", map[string]any{"surface_id": sc.surface, "target": button, "action": "press"})
		if got["changed"] != false {
			t.Errorf("pressing Submit again writes the same text: %v", got)
		}
	})
	t.Run("a verb and the tools it rests on are audited on one path", func(t *testing.T) {
		sc := s.reset(t)
		p := sc.verb("operator_perceive", map[string]any{"surface_id": sc.surface, "query": operatorsandbox.ButtonName})
		ref := p["targets"].([]any)[0].(map[string]any)["ref"]
		sc.verb("operator_act", map[string]any{"surface_id": sc.surface, "target": ref, "action": "press"})
		var act string
		children := map[string][]string{}
		for _, r := range auditLines(t, s.auditPath) {
			if r.Tool == "operator_act" && r.Workspace == sc.c.GetSessionId() {
				act = r.Invocation
				if r.Decision != "allow" || strings.Join(r.Capabilities, ",") != "action" || r.Branch != "press" {
					t.Errorf("operator_act audited %+v", r)
				}
			}
			if r.Parent != "" {
				children[r.Parent] = append(children[r.Parent], r.Tool)
			}
		}
		got := strings.Join(children[act], ",")
		if act == "" || got != "browser_inspect,browser_read,browser_click,browser_inspect,browser_read" {
			t.Errorf("operator_act %q ran children %q", act, got)
		}
	})
	t.Run("next_cursor continues a reading", func(t *testing.T) {
		sc := s.reset(t)
		first := sc.verb("operator_perceive", map[string]any{"surface_id": sc.surface, "limit": 1})
		cur, _ := first["next_cursor"].(string)
		if len(first["targets"].([]any)) != 1 || cur == "" {
			t.Fatalf("first page %v", first)
		}
		next := sc.verb("operator_perceive", map[string]any{"surface_id": sc.surface, "limit": 1, "cursor": cur})
		a := first["targets"].([]any)[0].(map[string]any)
		b := next["targets"].([]any)[0].(map[string]any)
		if a["ref"] == b["ref"] || next["next_cursor"] != nil {
			t.Errorf("pages %v then %v", a, b)
		}
		bad := sc.verb("operator_perceive", map[string]any{"surface_id": sc.surface, "limit": 1, "cursor": cur, "query": "Docs"})
		refusal(t, bad, "invalid_arguments")
	})
	t.Run("kind filters", func(t *testing.T) {
		sc := s.reset(t)
		got := sc.verb("operator_list_surfaces", map[string]any{"kind": "desktop"})
		if len(got["surfaces"].([]any)) != 0 {
			t.Errorf("desktop surfaces: %v", got)
		}
	})
	t.Run("stale target", func(t *testing.T) {
		sc := s.reset(t)
		p := sc.verb("operator_perceive", map[string]any{"surface_id": sc.surface, "query": operatorsandbox.ButtonName})
		ref := p["targets"].([]any)[0].(map[string]any)["ref"]
		nav := sc.verb("operator_navigate", map[string]any{"surface_id": sc.surface, "url": s.sandbox.Origin() + operatorsandbox.PlainPath})
		if nav["changed"] != true || nav["readiness"] != "settled" {
			t.Fatalf("navigate to a static page: %v", nav)
		}
		got := sc.verb("operator_act", map[string]any{"surface_id": sc.surface, "target": ref, "action": "press"})
		refusal(t, got, "stale_target")
		if got["_isError"] != true || got["changed"] != false || !strings.Contains(got["_text"].(string), "operator_perceive") {
			t.Errorf("stale target: %v", got)
		}
	})
	t.Run("denied host", func(t *testing.T) {
		sc := s.reset(t)
		got := sc.verb("operator_navigate", map[string]any{"surface_id": sc.surface, "url": "http://127.0.0.2:" + s.sandbox.Port() + "/"})
		refusal(t, got, "host_denied")
		if got["_isError"] != true || got["changed"] != false || got["blocked_by"] != "host_denied" {
			t.Errorf("denied host: %v", got)
		}
		if strings.Contains(got["_text"].(string), "policy_explain") {
			t.Errorf("the next step names a tool the operator words replace: %s", got["_text"])
		}
	})
	t.Run("credential handoff", func(t *testing.T) {
		sc := s.reset(t)
		sc.verb("operator_navigate", map[string]any{"surface_id": sc.surface, "url": s.sandbox.Origin() + operatorsandbox.LoginPath})
		p := sc.verb("operator_perceive", map[string]any{"surface_id": sc.surface})
		var field string
		for _, x := range p["targets"].([]any) {
			if tg := x.(map[string]any); tg["role"] == "textbox" {
				field = tg["ref"].(string)
			}
		}
		got := sc.verb("operator_act", map[string]any{"surface_id": sc.surface, "target": field, "action": "enter_text", "value": "hunter2"})
		refusal(t, got, "credential_handoff")
		if got["blocked_by"] != "credential_handoff" || got["changed"] != false {
			t.Errorf("credential handoff: %v", got)
		}
	})
	t.Run("invalid arguments", func(t *testing.T) {
		sc := s.reset(t)
		got := sc.verb("operator_act", map[string]any{"surface_id": sc.surface, "target": "target_1"})
		r := refusal(t, got, "invalid_arguments")
		if r["pointer"] != "/action" || got["changed"] != false || got["_isError"] != true {
			t.Errorf("missing action: %v", got)
		}
	})
}

// TestLiveOperatorToolsList: --surface operator lists exactly the operator
// verbs, each byte for byte its generated definition; --surface all lists
// both surfaces.
func TestLiveOperatorToolsList(t *testing.T) {
	for _, sel := range []string{"operator", "all"} {
		t.Run(sel, func(t *testing.T) {
			c := startRawStdio(t, []string{"TMPDIR=" + shortTempDir(t)}, "--surface", sel)
			c.initialize(map[string]any{})
			names, byName := c.tools()
			want := len(operator.Catalog)
			if sel == "all" {
				want += len(surface.Catalog)
			}
			if len(names) != want {
				t.Fatalf("%d tools listed: %v", len(names), names)
			}
			for name, raw := range byName {
				e := operator.Lookup(name)
				if e == nil && sel == "all" {
					e = surface.Lookup(name)
				}
				if e == nil || !bytes.Equal(raw, e.Definition) {
					t.Errorf("%s: served bytes differ from the generated definition", name)
				}
			}
		})
	}
}
