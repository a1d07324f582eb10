// The part of autocannon's API the load test uses (the package ships no types).
declare module 'autocannon' {
  interface Request {
    method?: string;
    path?: string;
    body?: string;
    headers?: Record<string, string>;
  }
  interface RequestSpec extends Request {
    setupRequest?: (request: Request) => Request;
    onResponse?: (status: number, body: string) => void;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    requests?: RequestSpec[];
  }
  export interface Result {
    errors: number;
    timeouts: number;
    non2xx: number;
    requests: { total: number; average: number };
    statusCodeStats?: Record<string, { count: number }>;
  }
  export default function autocannon(options: Options, done: (error: Error | null, result: Result) => void): unknown;
}
