// modern_upstream.mjs is an MCP server that speaks only the 2026-07-28
// revision: the official TypeScript SDK v2 server
// (@modelcontextprotocol/server) behind createMcpHandler with
// legacy: 'reject', so an initialize request (or any other request without
// the per-request _meta envelope) is refused with the SDK's
// unsupported-protocol-version error and no 2025 session exists at all.
// It serves one tool, "weather", over streamable HTTP on 127.0.0.1.
//
// It prints its URL as the first stdout line:
//   {"url": "http://127.0.0.1:PORT/mcp"}
// and then one line per JSON-RPC request it was sent, with the HTTP status
// it answered, so a test can see what its client tried:
//   {"method": "initialize", "status": 400, "body": "..."}

import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';

function newServer() {
  const server = new McpServer({ name: 'modern-upstream', version: '1.0.0' });
  server.registerTool(
    'weather',
    {
      description: 'Tells the weather in a city, from a server that speaks only MCP 2026-07-28.',
      inputSchema: z.object({ city: z.string() }),
    },
    async ({ city }) => ({ content: [{ type: 'text', text: `Sunny in ${city}, said a 2026-07-28 server` }] }),
  );
  return server;
}

const mcp = createMcpHandler(newServer, { legacy: 'reject' });

function log(line) {
  process.stdout.write(JSON.stringify(line) + '\n');
}

// methodsOf names the JSON-RPC methods of a request body, for the log.
function methodsOf(body) {
  try {
    const msg = JSON.parse(body);
    return (Array.isArray(msg) ? msg : [msg]).map((m) => m?.method ?? '(response)');
  } catch {
    return ['(not JSON)'];
  }
}

// The handler is web-standard (Request in, Response out); node:http is
// bridged here by hand so the test needs no second adapter package.
const http = createServer(async (req, res) => {
  try {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    }
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body: body.length > 0 ? body : undefined,
      signal: abort.signal,
    });
    const response = await mcp.fetch(request);
    const methods = req.method === 'POST' ? methodsOf(body.toString('utf8')) : [req.method];
    const logged = response.status >= 400 || methods.includes('initialize');
    let answer = '';
    if (logged && response.body && !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      answer = await response.clone().text();
    }
    for (const method of methods) log({ method, status: response.status, body: answer.slice(0, 500) });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) {
      Readable.fromWeb(response.body).pipe(res);
    } else {
      res.end();
    }
  } catch (err) {
    process.stderr.write(`modern upstream: ${err?.stack ?? err}\n`);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
});

http.listen(0, '127.0.0.1', () => {
  log({ url: `http://127.0.0.1:${http.address().port}/mcp` });
});

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    mcp.close().finally(() => process.exit(0));
  });
}
