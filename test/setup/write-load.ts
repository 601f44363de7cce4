/**
 * A write-load generator that runs as its own process (`node --import tsx test/setup/write-load.ts`), so
 * that the load a test puts on a server is not paced by the test process's event loop: each business of
 * `WRITE_LOAD` (JSON, {@link WriteLoadInput}) sends `POST /v1/client` at `perMinute` requests a minute
 * (evenly spaced, the businesses' schedules staggered), signed with its key, for `durationMs`, over
 * keep-alive connections. Each business is a client of its own that sends on schedule, unless
 * `inFlightPerBusiness` of its requests are still waiting for their answers (then the request is counted
 * as `skipped`: a server slower than the offered rate takes what it can). Prints one line of JSON
 * ({@link WriteLoadResult}) on stdout when the last answer has come.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';

/** What the generator is told (the `WRITE_LOAD` variable). */
export interface WriteLoadInput {
  port: number;
  businesses: { apiKey: string; secretKey: string }[];
  /** Requests a minute per business (the default rate limit is 1,000). */
  perMinute: number;
  durationMs: number;
  /** Requests of one business waiting for an answer at most (default 1). */
  inFlightPerBusiness?: number;
}

/** What it printed: counts of requests by outcome, and the wall time from the first send to the last answer. */
export interface WriteLoadResult {
  sent: number;
  created: number;
  throttled: number;
  otherStatus: number;
  errors: number;
  skipped: number;
  elapsedMs: number;
}

const input = JSON.parse(process.env.WRITE_LOAD ?? '{}') as WriteLoadInput;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const body = JSON.stringify({ companyName: 'noisy' });
const headers = input.businesses.map((b) => ({
  'x-api-key': b.apiKey,
  'x-signature': createHmac('sha256', b.secretKey).update(body).digest('hex'),
  'content-type': 'application/json',
  'content-length': String(Buffer.byteLength(body)),
}));
const result: WriteLoadResult = {
  sent: 0,
  created: 0,
  throttled: 0,
  otherStatus: 0,
  errors: 0,
  skipped: 0,
  elapsedMs: 0,
};
const perBusiness = input.inFlightPerBusiness ?? 1;
const waiting = input.businesses.map(() => 0);
let inFlight = 0;

function send(i: number): void {
  if (waiting[i]! >= perBusiness) {
    result.skipped += 1;
    return;
  }
  waiting[i]! += 1;
  inFlight += 1;
  result.sent += 1;
  const req = http.request(
    { host: '127.0.0.1', port: input.port, method: 'POST', path: '/v1/client', headers: headers[i], agent },
    (res) => {
      res.resume();
      res.on('end', () => {
        waiting[i]! -= 1;
        inFlight -= 1;
        if (res.statusCode === 201) result.created += 1;
        else if (res.statusCode === 429) result.throttled += 1;
        else result.otherStatus += 1;
      });
    },
  );
  req.on('error', () => {
    waiting[i]! -= 1;
    inFlight -= 1;
    result.errors += 1;
  });
  req.end(body);
}

const start = Date.now();
const interval = 60_000 / input.perMinute;
const next = input.businesses.map((_, i) => start + (i * interval) / input.businesses.length);
const timer = setInterval(() => {
  const now = Date.now();
  if (now >= start + input.durationMs) {
    clearInterval(timer);
    const done = setInterval(() => {
      if (inFlight > 0) return;
      clearInterval(done);
      result.elapsedMs = Date.now() - start;
      process.stdout.write(`${JSON.stringify(result)}\n`);
      agent.destroy();
    }, 20);
    return;
  }
  for (let i = 0; i < next.length; i++) {
    while (next[i]! <= now) {
      send(i);
      next[i]! += interval;
    }
  }
}, 5);
