// The Vercel AI SDK's agent loop with the OpenAI provider, as `make client-bytes` measures it:
//   node aisdk-openai.mjs MODEL_BASE_URL COMMAND ARGS...
// connects to the MCP server COMMAND ARGS over stdio (@ai-sdk/mcp), hands its tools to
// generateText with @ai-sdk/openai pointed at the stand-in model (MODEL_BASE_URL, a fake key),
// and prints the model's answer. The stand-in records what the provider sent.
import { createMCPClient } from "@ai-sdk/mcp";
import { StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText } from "ai";

const [baseURL, command, ...args] = process.argv.slice(2);
const mcp = await createMCPClient({ transport: new StdioMCPTransport({ command, args, env: process.env, stderr: "inherit" }) });
try {
  const tools = await mcp.tools();
  const openai = createOpenAI({ baseURL, apiKey: "sk-standin-not-a-key" });
  const { text } = await generateText({ model: openai("gpt-5"), tools, prompt: "Open http://127.0.0.1/ in the browser." });
  console.log(JSON.stringify({ tools: Object.keys(tools).length, text }));
} finally {
  await mcp.close();
}
