// One real client session against ghostlight, as the Go tests in ../ ask:
//   node clients.mjs ai-sdk|ts-sdk|ts-sdk-2026 http URL TOKEN PAGE
//   node clients.mjs ai-sdk|ts-sdk|ts-sdk-2026 stdio BINARY PAGE
// ai-sdk is @ai-sdk/mcp 2.x with its defaults (server/discover, 2026-07-28);
// ts-sdk the TypeScript SDK 1.x (initialize, 2025-11-25); ts-sdk-2026 the
// TypeScript SDK 2.x client pinned to 2026-07-28. Each lists the tools,
// navigates to PAGE, inspects without naming the tab, clicks the "Press me"
// target naming only the target, and prints one JSON line of what it saw
// (or exits 1 saying why).
import { createMCPClient } from "@ai-sdk/mcp";
import { StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as Client2, StreamableHTTPClientTransport as HTTP2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as Stdio2 } from "@modelcontextprotocol/client/stdio";

const [client, transport, ...rest] = process.argv.slice(2);

async function open() {
  if (client === "ai-sdk") {
    const t = transport === "http"
      ? { type: "http", url: rest[0], headers: { Authorization: `Bearer ${rest[1]}` } }
      : new StdioMCPTransport({ command: rest[0], args: ["serve"], env: process.env, stderr: "inherit" });
    const c = await createMCPClient({ transport: t, clientName: "ghostlight-clients-test" });
    return {
      version: c.initializeResult?.protocolVersion,
      instructions: c.initializeResult?.instructions,
      list: () => c.listTools(),
      call: (name, args) => c.callTool({ name, arguments: args }),
      close: () => c.close(),
    };
  }
  if (client === "ts-sdk-2026") {
    const c = new Client2({ name: "ghostlight-clients-test", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    const t = transport === "http"
      ? new HTTP2(new URL(rest[0]), { requestInit: { headers: { Authorization: `Bearer ${rest[1]}` } } })
      : new Stdio2({ command: rest[0], args: ["serve"], env: process.env, stderr: "inherit" });
    await c.connect(t);
    return {
      version: c.getNegotiatedProtocolVersion(),
      instructions: c.getInstructions(),
      list: () => c.listTools(),
      call: (name, args) => c.callTool({ name, arguments: args }),
      close: () => c.close(),
    };
  }
  const c = new Client({ name: "ghostlight-clients-test", version: "1" });
  const t = transport === "http"
    ? new StreamableHTTPClientTransport(new URL(rest[0]), { requestInit: { headers: { Authorization: `Bearer ${rest[1]}` } } })
    : new StdioClientTransport({ command: rest[0], args: ["serve"], env: process.env, stderr: "inherit" });
  // The SDK tells its transport the version initialize negotiated.
  let version;
  const set = t.setProtocolVersion?.bind(t);
  t.setProtocolVersion = (v) => { version = v; set?.(v); };
  await c.connect(t);
  return {
    version,
    instructions: c.getInstructions(),
    list: () => c.listTools(),
    call: (name, args) => c.callTool({ name, arguments: args }),
    close: () => c.close(),
  };
}

const page = rest[rest.length - 1];
const s = await open();
try {
  const tools = (await s.list()).tools;
  const nav = await s.call("browser_navigate", { url: page, timeout_ms: 30000 });
  const tab = nav.structuredContent?.facts?.tab;
  const ins = await s.call("browser_inspect", {});
  const items = ins.structuredContent?.facts?.items ?? [];
  const target = items.find((i) => i.name === "Press me")?.target;
  const click = target ? await s.call("browser_click", { target }) : undefined;
  console.log(JSON.stringify({
    version: s.version,
    instructions: s.instructions?.length ?? 0,
    tools: tools.length,
    navigate: nav.structuredContent?.status,
    tab,
    inspect: ins.structuredContent?.status,
    inspectSummary: ins.structuredContent?.summary,
    items: items.map((i) => i.name),
    click: click?.structuredContent?.status,
    clickSummary: click?.structuredContent?.summary,
  }));
} finally {
  await s.close();
}
