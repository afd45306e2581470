/**
 * A fake OpenTelemetry collector: a real HTTP server on 127.0.0.1 that takes OTLP/HTTP trace
 * exports (`POST /v1/traces`, `application/x-protobuf`), decodes each with protobufjs against the
 * OTLP trace messages (the field numbers of opentelemetry-proto's trace.proto, common.proto,
 * resource.proto and trace_service.proto, v1), and keeps the spans of the exports it answered
 * 200 while the exporter still waited: the spans that arrived. `down` answers every export 503;
 * `answerAfterMs` answers late, or never, so the exporter gives up and drops them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

const OTLP_TRACE_PROTO = `
syntax = "proto3";
package opentelemetry.proto;

message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope {
  string name = 1; string version = 2; repeated KeyValue attributes = 3;
  uint32 dropped_attributes_count = 4;
}
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }

message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  fixed32 flags = 16;
  string name = 5;
  int32 kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  uint32 dropped_attributes_count = 10;
  message Event {
    fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3;
    uint32 dropped_attributes_count = 4;
  }
  repeated Event events = 11;
  uint32 dropped_events_count = 12;
  Status status = 15;
}
message Status { string message = 2; int32 code = 3; }
`;

const exportRequest = protobuf
  .parse(OTLP_TRACE_PROTO, { keepCase: true })
  .root.lookupType('opentelemetry.proto.ExportTraceServiceRequest');

type AttributeValue = string | number | boolean;

/** One span as the collector got it: ids in hex, attributes flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, AttributeValue>;
  events: { name: string; attributes: Record<string, AttributeValue> }[];
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  statusMessage: string;
  /** The resource's attributes (`service.name`). */
  resource: Record<string, AttributeValue>;
}

interface DecodedKeyValue {
  key: string;
  value?: {
    string_value?: string;
    bool_value?: boolean;
    int_value?: number | string;
    double_value?: number;
  };
}

function attributesOf(list: DecodedKeyValue[] | undefined): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const { key, value } of list ?? []) {
    const item =
      value?.string_value ?? value?.bool_value ?? value?.int_value ?? value?.double_value;
    if (item !== undefined)
      out[key] = typeof item === 'string' && value?.int_value !== undefined ? Number(item) : item;
  }
  return out;
}

interface DecodedSpan {
  trace_id: Buffer;
  span_id: Buffer;
  parent_span_id?: Buffer;
  name: string;
  kind?: number;
  start_time_unix_nano: string;
  end_time_unix_nano: string;
  attributes?: DecodedKeyValue[];
  events?: { name: string; attributes?: DecodedKeyValue[] }[];
  status?: { message?: string; code?: number };
}

interface DecodedExport {
  resource_spans?: {
    resource?: { attributes?: DecodedKeyValue[] };
    scope_spans?: { spans?: DecodedSpan[] }[];
  }[];
}

/** Decodes one protobuf export body into its spans. */
function decodeExport(body: Buffer): ReceivedSpan[] {
  const decoded = exportRequest.toObject(exportRequest.decode(body), {
    longs: String,
    bytes: Buffer,
    defaults: false,
  }) as DecodedExport;
  const hex = (bytes: Buffer | undefined) => (bytes ? Buffer.from(bytes).toString('hex') : '');
  return (decoded.resource_spans ?? []).flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    return (resourceSpans.scope_spans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: hex(span.trace_id),
        spanId: hex(span.span_id),
        parentSpanId: hex(span.parent_span_id),
        name: span.name,
        kind: span.kind ?? 0,
        startMs: Number(BigInt(span.start_time_unix_nano) / 1_000_000n),
        endMs: Number(BigInt(span.end_time_unix_nano) / 1_000_000n),
        attributes: attributesOf(span.attributes),
        events: (span.events ?? []).map((event) => ({
          name: event.name,
          attributes: attributesOf(event.attributes),
        })),
        statusCode: span.status?.code ?? 0,
        statusMessage: span.status?.message ?? '',
        resource,
      })),
    );
  });
}

export interface FakeCollector {
  /** The base URL, as `observability.otlp.endpoint` takes it. */
  endpoint: string;
  spans(): ReceivedSpan[];
  /** Every answered export's headers, in order. */
  exportHeaders(): http.IncomingHttpHeaders[];
  /** How many exports came in, answered or not. */
  exports(): number;
  /** How many exports were refused while down. */
  refused(): number;
  /** While down, every export is answered 503 and nothing is kept. */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

/** How the collector answers: at once (the default), after a delay, or never. */
export interface FakeCollectorOptions {
  answerAfterMs?: number | 'never';
}

export async function startFakeCollector(
  options: FakeCollectorOptions = {},
): Promise<FakeCollector> {
  const answerAfterMs = options.answerAfterMs ?? 0;
  const spans: ReceivedSpan[] = [];
  const headers: http.IncomingHttpHeaders[] = [];
  let down = false;
  let refused = 0;
  let exports = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    let exporterGaveUp = false;
    res.on('close', () => {
      if (!res.writableFinished) exporterGaveUp = true;
    });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      exports++;
      if (down) {
        refused++;
        res.writeHead(503, { 'Content-Type': 'text/plain' }).end('down');
        return;
      }
      if (req.headers['content-type'] !== 'application/x-protobuf') {
        res.writeHead(415).end();
        return;
      }
      if (answerAfterMs === 'never') return;
      const answer = () => {
        // The exporter gave up (its timeout): these spans did not arrive.
        if (exporterGaveUp) return;
        headers.push(req.headers);
        spans.push(...decodeExport(Buffer.concat(chunks)));
        // An empty ExportTraceServiceResponse.
        res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end(Buffer.alloc(0));
      };
      if (answerAfterMs === 0) answer();
      else setTimeout(answer, answerAfterMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans: () => [...spans],
    exportHeaders: () => [...headers],
    exports: () => exports,
    refused: () => refused,
    setDown(value) {
      down = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
