/** The safe fetch's timings (offsets from the start of the final request) as network-tab phases. */
import type { FetchTimings } from "../../shared/net/safe_fetch.ts";
import type { TimingInfo } from "./schema.ts";

const round = (ms: number) => Math.max(0, Math.round(ms * 100) / 100);

/**
 * Phase durations: DNS, then TCP connect, then TLS, then waiting for the first byte (from the
 * connection being ready), then the download. `total` also covers the redirect hops before.
 */
export function phaseTimings(t: FetchTimings): TimingInfo {
  const ready = t.tls ?? t.connect ?? t.dns ?? 0;
  return {
    dns: t.dns === null ? null : round(t.dns),
    connect: t.connect === null ? null : round(t.connect - (t.dns ?? 0)),
    tls: t.tls === null || t.connect === null ? null : round(t.tls - t.connect),
    ttfb: round(t.ttfb - ready),
    download: round(t.download),
    total: round(t.total),
  };
}
