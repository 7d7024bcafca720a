// Package recordings keeps one session's browser_record recordings: their
// handles, the recorder of each and the tab it records, their states, their
// retention and their discard. It is plain, concurrency-safe state:
// runtime/tools starts, resolves, stops and saves recordings during a call
// (and words their facts and outcome), and the workbench (through
// runtime/tools and runtime/server) lists them and replays a stopped one.
// Frames live in the recorders' memory only; nothing here writes a file, a
// log line or an audit record. It knows no MCP and no call: its refusals
// are typed (surface.Refusal), their sentences runtime/language's.
package recordings
