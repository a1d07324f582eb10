// A progress bar on stderr for long bulk work (contacts import): done of total, rate and time left,
// redrawn a few times a second. Only on a terminal that redraws (not TERM=dumb); elsewhere it draws nothing.

import { formatDuration } from '../registry/values.js';
import type { IOStreams } from './io.js';

const BAR_WIDTH = 24;
const REDRAW_MS = 200;

export interface Progress {
  /** How many items are done; `note` is shown after the figures (what is waiting, and why). */
  update(done: number, note?: string): void;
  /** Clears the bar. */
  stop(): void;
}

export function startProgress(io: IOStreams, label: string, total: number): Progress {
  if (!io.animatesStderr || total === 0) return { update() {}, stop() {} };
  const started = Date.now();
  let done = 0;
  let note = '';
  const draw = () => {
    const seconds = Math.max(0.001, (Date.now() - started) / 1000);
    const rate = done / seconds;
    const filled = Math.round((done / total) * BAR_WIDTH);
    const left = rate > 0 ? Math.ceil((total - done) / rate) : undefined;
    const eta = done >= total ? '' : left === undefined ? '  ETA --' : `  ETA ${formatDuration(left * 1000)}`;
    const line = `${label} ${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)} ${done}/${total}  ${rate.toFixed(rate < 10 ? 1 : 0)}/s${eta}${note ? `  ${note}` : ''}`;
    io.stderr.write(`\r\x1b[2K${line}`);
  };
  const timer = setInterval(draw, REDRAW_MS);
  timer.unref();
  draw();
  return {
    update(count, text = '') {
      done = count;
      note = text;
    },
    stop() {
      clearInterval(timer);
      io.stderr.write('\r\x1b[2K');
    },
  };
}
