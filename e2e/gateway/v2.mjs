// v2.mjs is v1.mjs with the official TypeScript SDK v2 client
// (@modelcontextprotocol/client) pinned to protocol 2026-07-28: no
// initialize session, the version and the client's identity in each
// request's _meta. Same spec on stdin, same JSON on stdout. An
// elicitation reaches it as an input_required result; the SDK answers it
// with the handler registered here and retries the call by itself.

import { Client, StreamableHTTPClientTransport, ProtocolError } from '@modelcontextprotocol/client';
import { z } from 'zod';

const anything = z.any();

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function errorOf(err) {
  if (err instanceof ProtocolError) {
    return { code: err.code, message: err.message };
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
  const client = new Client(
    { name: 'gateway-e2e-v2', version: '2.0.0' },
    {
      capabilities: spec.elicitation ? { elicitation: { form: {} } } : {},
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  const elicited = [];
  if (spec.elicitation) {
    client.setRequestHandler('elicitation/create', async (request) => {
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

  const protocolVersion = client.getNegotiatedProtocolVersion?.() ?? null;
  process.stdout.write(JSON.stringify({ protocolVersion, tools, calls, reads, elicited }) + '\n');
  await client.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`gateway v2: ${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
