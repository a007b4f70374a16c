// Type test: reins/otel's processor is an sdk-trace-base SpanProcessor without casts.
import { metrics } from "@opentelemetry/api";
import { BasicTracerProvider, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { Regulator, type Decision } from "reins";
import { ReinsSpanProcessor, type ObservedSpan } from "reins/otel";

const r = new Regulator({ userId: "alice" });
const p = new ReinsSpanProcessor(r);
const asProcessor: SpanProcessor = p;
new BasicTracerProvider({ spanProcessors: [p, asProcessor] });

const regulators = new Map<string, Regulator>([["alice", r]]);
const routed = new ReinsSpanProcessor(
  (span: ObservedSpan) => regulators.get(String(span.attributes["ai.telemetry.metadata.userId"])),
  {
    meter: metrics.getMeter("app"),
    onDecision: (d: Decision, span) => `${d.kind} after ${span.name}`,
    onError: (error: unknown, span) => span.spanContext().spanId,
  },
);
new BasicTracerProvider({ spanProcessors: [routed] });

// @ts-expect-error the processor takes a Regulator or a route to one
new ReinsSpanProcessor({ userId: "alice" });
// @ts-expect-error a route returns a Regulator
new ReinsSpanProcessor(() => "alice");
