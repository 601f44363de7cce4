// The part of autocannon's programmatic API the benchmark uses (the package ships no type declarations).
declare module 'autocannon' {
  /** One request template; `setupRequest` may rewrite it before each send. */
  export interface RequestTemplate {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (req: RequestTemplate, context: Record<string, unknown>) => RequestTemplate;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Total requests to send (instead of a duration). */
    amount?: number;
    pipelining?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: RequestTemplate[];
  }
  export interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    total: number;
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    duration: number;
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
