// One real client session against ghostlight, as the Go tests in ../ ask:
//   node clients.mjs ai-sdk|ts-sdk http URL TOKEN PAGE
//   node clients.mjs ai-sdk|ts-sdk stdio BINARY PAGE
// It lists the tools, navigates to PAGE, inspects the tab the navigation
// returned, and prints one JSON line of what it saw (or exits 1 saying why).
import { createMCPClient } from "@ai-sdk/mcp";
import { StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [client, transport, ...rest] = process.argv.slice(2);

async function open() {
  if (client === "ai-sdk") {
    const t = transport === "http"
      ? { type: "http", url: rest[0], headers: { Authorization: `Bearer ${rest[1]}` } }
      : new StdioMCPTransport({ command: rest[0], args: ["serve"], env: process.env, stderr: "inherit" });
    const c = await createMCPClient({ transport: t, clientName: "ghostlight-clients-test" });
    return {
      version: c.initializeResult?.protocolVersion,
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
    list: () => c.listTools(),
    call: (name, args) => c.callTool({ name, arguments: args }),
    close: () => c.close(),
  };
}

const page = rest[rest.length - 1];
const s = await open();
try {
  const tools = (await s.list()).tools;
  const nav = await s.call("browser_navigate", { url: page });
  const tab = nav.structuredContent?.facts?.tab;
  const ins = await s.call("browser_inspect", { tab });
  console.log(JSON.stringify({
    version: s.version,
    tools: tools.length,
    navigate: nav.structuredContent?.status,
    tab,
    inspect: ins.structuredContent?.status,
    items: (ins.structuredContent?.facts?.items ?? []).map((i) => i.name),
  }));
} finally {
  await s.close();
}
