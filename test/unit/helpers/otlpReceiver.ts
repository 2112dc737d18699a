/**
 * A local OTLP/HTTP metrics receiver for the exporter's tests: a real HTTP server that decodes each
 * export with the official OTLP protobuf schema (the protobufjs root generated from opentelemetry-proto,
 * as @opentelemetry/otlp-transformer 0.57 ships it), protobuf or JSON as the request's content type says.
 * It can also refuse (an HTTP status) or hang (never answer), as a broken collector does.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as generated from 'otlp-transformer-057/build/src/generated/root';

/** The one message type used, as the generated code has it (its typings say only `Root`). */
interface MessageType {
  decode(bytes: Uint8Array): object;
  fromObject(plain: object): object;
  toObject(message: object, options: { longs: NumberConstructor; defaults: boolean }): unknown;
}
const root = generated as unknown as { opentelemetry: { proto: { collector: { metrics: { v1: { ExportMetricsServiceRequest: MessageType } } } } } };
const schema = root.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;

/** One decoded export, as protobufjs' plain object (longs as numbers, enums as numbers, bytes as base64). */
export interface DecodedExport {
  contentType: string;
  headers: IncomingMessage['headers'];
  body: ExportBody;
}

export interface ExportBody {
  resourceMetrics?: {
    resource?: { attributes?: KeyValue[] };
    scopeMetrics?: { scope?: { name?: string }; metrics?: MetricBody[] }[];
  }[];
}

interface KeyValue {
  key: string;
  value?: { stringValue?: string; intValue?: number; doubleValue?: number; boolValue?: boolean };
}

interface NumberPoint {
  attributes?: KeyValue[];
  asDouble?: number;
  asInt?: number;
}

interface HistogramPoint {
  attributes?: KeyValue[];
  count?: number;
  sum?: number;
}

interface MetricBody {
  name: string;
  unit?: string;
  sum?: { dataPoints?: NumberPoint[]; isMonotonic?: boolean };
  histogram?: { dataPoints?: HistogramPoint[] };
}

/** One data point, flattened: its metric, attributes and value (a sum's value, a histogram's sum and count). */
export interface Point {
  metric: string;
  unit: string;
  attributes: Record<string, string | number | boolean>;
  value: number;
  count: number;
}

export type ReceiverMode = { kind: 'ok' } | { kind: 'status'; status: number } | { kind: 'hang' };

export interface OtlpReceiver {
  /** http://127.0.0.1:port (the exporter adds /v1/metrics). */
  endpoint: string;
  exports: DecodedExport[];
  /** Requests received, answered or not. */
  received: number;
  mode: ReceiverMode;
  /** Resolves at the next export decoded. */
  nextExport(): Promise<DecodedExport>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: DecodedExport[] = [];
  const waiting: ((decoded: DecodedExport) => void)[] = [];
  const sockets = new Set<Socket>();
  const receiver: OtlpReceiver = {
    endpoint: '',
    exports,
    received: 0,
    mode: { kind: 'ok' },
    nextExport: () => new Promise((resolve) => waiting.push(resolve)),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      receiver.received++;
      const mode = receiver.mode;
      if (mode.kind === 'hang') return;
      if (mode.kind === 'status') {
        response.writeHead(mode.status, { 'content-type': 'text/plain' }).end('refused');
        return;
      }
      if (request.url !== '/v1/metrics' || request.method !== 'POST') {
        response.writeHead(404).end();
        return;
      }
      const contentType = String(request.headers['content-type'] ?? '');
      const bytes = Buffer.concat(chunks);
      const message = contentType.startsWith('application/json') ? schema.fromObject(JSON.parse(bytes.toString('utf8')) as object) : schema.decode(bytes);
      const body = schema.toObject(message, { longs: Number, defaults: false }) as ExportBody;
      const decoded: DecodedExport = { contentType, headers: request.headers, body };
      exports.push(decoded);
      for (const resolve of waiting.splice(0)) resolve(decoded);
      // An empty ExportMetricsServiceResponse: the exporter reads it as the content type it sent.
      if (contentType.startsWith('application/json')) response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      else response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

function valueOf(value: KeyValue['value']): string | number | boolean {
  return value?.stringValue ?? value?.intValue ?? value?.doubleValue ?? value?.boolValue ?? '';
}

export function attributesOf(list: KeyValue[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
}

/** The export's resource attributes (the first resource: the exporter sends one). */
export function resourceOf(body: ExportBody): Record<string, string | number | boolean> {
  return attributesOf(body.resourceMetrics?.[0]?.resource?.attributes);
}

/** Every data point of the export. */
export function pointsOf(body: ExportBody): Point[] {
  const points: Point[] = [];
  for (const resource of body.resourceMetrics ?? [])
    for (const scope of resource.scopeMetrics ?? [])
      for (const metric of scope.metrics ?? []) {
        for (const point of metric.sum?.dataPoints ?? [])
          points.push({
            metric: metric.name,
            unit: metric.unit ?? '',
            attributes: attributesOf(point.attributes),
            value: point.asDouble ?? point.asInt ?? 0,
            count: 1,
          });
        for (const point of metric.histogram?.dataPoints ?? [])
          points.push({
            metric: metric.name,
            unit: metric.unit ?? '',
            attributes: attributesOf(point.attributes),
            value: point.sum ?? 0,
            count: point.count ?? 0,
          });
      }
  return points;
}

/** The sum of the values of `metric`'s points whose attributes include `where`. */
export function total(points: Point[], metric: string, where: Record<string, string> = {}): number {
  return points
    .filter((p) => p.metric === metric && Object.entries(where).every(([key, value]) => p.attributes[key] === value))
    .reduce((sum, p) => sum + p.value, 0);
}
