// v1.mjs connects to Switchboard's MCP gateway with the official
// TypeScript SDK v1 client (@modelcontextprotocol/sdk, the legacy
// initialize session), as an AI client would, so the e2e tests see what
// such a client gets.
//
// It reads a JSON spec on stdin:
//   {"url": "http://127.0.0.1:PORT/mcp", "token": "...",
//    "calls": [{"name": "everything__echo", "arguments": {...}}, ...],
//    "reads": ["demo://resource/static/document/architecture.md", ...],
//    "timeoutMs": 60000,
//    "elicitation": {"action": "accept", "content": {...}}}
// and prints one JSON object on stdout:
//   {"protocolVersion": "...", "tools": [...every page of tools/list, as sent...],
//    "calls": [{"result": {...}} | {"error": {"code": ..., "message": "..."}}, ...],
//    "reads": [{"result": {...}} | {"error": {...}}, ...],
//    "elicited": [...the params of every elicitation/create the client was sent...]}
// With "elicitation" the client declares the capability and answers every
// elicitation request with that fixed answer; without it, it declares none.
//
// Requests go through the SDK's low-level request() with a schema that
// accepts anything, so nothing the gateway sent is dropped or defaulted.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const anything = z.any();

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function errorOf(err) {
  if (err instanceof McpError) {
    const prefix = `MCP error ${err.code}: `;
    const message = err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message;
    return { code: err.code, message };
  }
  return { code: null, message: String(err?.message ?? err) };
}

async function each(items, fn) {
  const out = [];
  for (const item of items ?? []) {
    try {
      out.push({ result: await fn(item) });
    } catch (err) {
      out.push({ error: errorOf(err) });
    }
  }
  return out;
}

async function main() {
  const spec = await readStdin();
  const timeout = spec.timeoutMs ?? 60000;
  const transport = new StreamableHTTPClientTransport(new URL(spec.url), {
    requestInit: { headers: { Authorization: `Bearer ${spec.token}` } },
  });
  const capabilities = spec.elicitation ? { elicitation: { form: {} } } : {};
  const client = new Client({ name: 'gateway-e2e-v1', version: '1.0.0' }, { capabilities });
  const elicited = [];
  if (spec.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      elicited.push(request.params);
      return spec.elicitation;
    });
  }
  await client.connect(transport, { timeout });

  const tools = [];
  let cursor;
  do {
    const page = await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, anything, { timeout });
    tools.push(...(page.tools ?? []));
    cursor = page.nextCursor;
  } while (cursor);

  const calls = await each(spec.calls, (call) =>
    client.request({ method: 'tools/call', params: { name: call.name, arguments: call.arguments ?? {} } }, anything, { timeout }));
  const reads = await each(spec.reads, (uri) =>
    client.request({ method: 'resources/read', params: { uri } }, anything, { timeout }));

  process.stdout.write(JSON.stringify({ protocolVersion: transport.protocolVersion ?? null, tools, calls, reads, elicited }) + '\n');
  await client.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`gateway v1: ${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
