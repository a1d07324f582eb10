// Failures of the replica that are not the service's: a query that is not valid SQL or would write,
// a replica of another workspace, no replica yet. The CLI maps them to exit codes (src/cli/errors.ts):
// `usage` ones are exit 2, as every mistake caught before anything is sent.

export class MirrorError extends Error {
  readonly usage: boolean;
  readonly hint?: string;
  readonly code: string;

  constructor(message: string, options: { usage?: boolean; hint?: string; code?: string } = {}) {
    super(message);
    this.name = 'MirrorError';
    this.usage = options.usage ?? false;
    this.hint = options.hint;
    this.code = options.code ?? (this.usage ? 'usage' : 'replica');
  }
}
