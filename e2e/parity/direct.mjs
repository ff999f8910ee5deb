// direct.mjs connects to one MCP server with the official TypeScript SDK
// client, without Switchboard, so the e2e parity tests can compare what
// Switchboard shows with what the server itself sends.
//
// It reads a JSON spec on stdin:
//   {"command": "node", "args": [...], "env": {...}, "cwd": "...",   // a stdio server, or
//    "url": "http://127.0.0.1:PORT/mcp",                             // a streamable-HTTP server
//    "calls": [{"name": "echo", "arguments": {...}}, ...],
//    "timeoutMs": 60000}
// and prints one JSON object on stdout:
//   {"tools": [...every page of tools/list, as sent...],
//    "calls": [{"result": {...}} | {"error": {"code": -32602, "message": "...", "data": ...}}, ...]}
//
// Requests go through the SDK's low-level request() with a schema that
// accepts anything, so nothing the server sent is dropped or defaulted.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const anything = z.any();

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

// transportFor builds the transport the spec names. A stdio server's
// stderr goes to ours, so the Go test shows it when something fails.
function transportFor(spec) {
  if (spec.url) {
    return new StreamableHTTPClientTransport(new URL(spec.url));
  }
  return new StdioClientTransport({
    command: spec.command,
    args: spec.args ?? [],
    env: { ...process.env, ...(spec.env ?? {}) },
    cwd: spec.cwd,
    stderr: 'inherit',
  });
}

// errorOf is a failed request as the server answered it: the SDK prefixes
// McpError messages with "MCP error CODE: ", which the server never sent.
function errorOf(err) {
  if (err instanceof McpError) {
    const prefix = `MCP error ${err.code}: `;
    const message = err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message;
    const out = { code: err.code, message };
    if (err.data !== undefined) out.data = err.data;
    return out;
  }
  return { code: null, message: String(err?.message ?? err) };
}

async function main() {
  const spec = await readStdin();
  const timeout = spec.timeoutMs ?? 60000;
  // The client capabilities Switchboard declares upstream (tasks too, so a
  // server offers both clients the same tools), answered as
  // Switchboard answers when nobody can be asked (no roots; elicitation
  // and sampling refused), so servers that adapt to the client (roots,
  // sampling, elicitation) behave alike.
  const client = new Client(
    { name: 'switchboard-parity-direct', version: '1.0.0' },
    {
      capabilities: {
        elicitation: { form: {}, url: {} },
        sampling: {},
        roots: {},
        tasks: { list: {}, cancel: {}, requests: { elicitation: { create: {} }, sampling: { createMessage: {} } } },
      },
    },
  );
  const refuse = () => {
    throw new McpError(ErrorCode.InvalidRequest, 'nobody could be asked');
  };
  client.setRequestHandler(ElicitRequestSchema, refuse);
  client.setRequestHandler(CreateMessageRequestSchema, refuse);
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [] }));
  await client.connect(transportFor(spec), { timeout });

  const tools = [];
  let cursor;
  do {
    const page = await client.request(
      { method: 'tools/list', params: cursor ? { cursor } : {} },
      anything,
      { timeout },
    );
    tools.push(...(page.tools ?? []));
    cursor = page.nextCursor;
  } while (cursor);

  const calls = [];
  for (const call of spec.calls ?? []) {
    try {
      const result = await client.request(
        { method: 'tools/call', params: { name: call.name, arguments: call.arguments ?? {} } },
        anything,
        { timeout },
      );
      calls.push({ result });
    } catch (err) {
      calls.push({ error: errorOf(err) });
    }
  }
  process.stdout.write(JSON.stringify({ tools, calls }) + '\n');
  await client.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`direct: ${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
