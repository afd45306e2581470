/**
 * A collector for the drop-count tests: a real HTTP server on 127.0.0.1 taking OTLP/HTTP trace
 * exports (`POST /v1/traces`, protobuf). It answers each export after a delay, or never; it
 * decodes the span names (field numbers of opentelemetry-proto's trace.proto, v1) and keeps
 * only those of exports it answered 200 while the exporter still waited: the spans that arrived.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

const SPAN_NAMES_PROTO = `
syntax = "proto3";
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { repeated ScopeSpans scope_spans = 2; }
message ScopeSpans { repeated Span spans = 2; }
message Span { string name = 5; }
`;

const exportRequest = protobuf
  .parse(SPAN_NAMES_PROTO, { keepCase: true })
  .root.lookupType('ExportTraceServiceRequest');

interface DecodedNames {
  resource_spans?: { scope_spans?: { spans?: { name?: string }[] }[] }[];
}

function spanNames(body: Buffer): string[] {
  const decoded = exportRequest.toObject(exportRequest.decode(body)) as DecodedNames;
  return (decoded.resource_spans ?? []).flatMap((resource) =>
    (resource.scope_spans ?? []).flatMap((scope) => (scope.spans ?? []).map((s) => s.name ?? '')),
  );
}

export interface OtlpReceiver {
  /** The base URL, as `observability.otlp.endpoint` takes it. */
  endpoint: string;
  /** Names of the spans in exports answered 200, in order. */
  received(): string[];
  /** How many exports came in (answered or not). */
  exports(): number;
  close(): Promise<void>;
}

/** `answerAfterMs: 'never'` holds every export open until the exporter gives up. */
export async function startOtlpReceiver(options: {
  answerAfterMs: number | 'never';
}): Promise<OtlpReceiver> {
  const received: string[] = [];
  let exports = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    let exporterGaveUp = false;
    res.on('close', () => {
      if (!res.writableFinished) exporterGaveUp = true;
    });
    req.on('end', () => {
      exports++;
      if (options.answerAfterMs === 'never') return;
      setTimeout(() => {
        // The exporter gave up (its timeout): these spans did not arrive.
        if (exporterGaveUp) return;
        received.push(...spanNames(Buffer.concat(chunks)));
        res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end(Buffer.alloc(0));
      }, options.answerAfterMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    received: () => [...received],
    exports: () => exports,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
