// Preloaded into a measured process (node -r ./bench/peak-rss.cjs ...): writes its peak resident set
// size, in kilobytes, to the file named by CRM_BENCH_PEAK_FILE when it exits.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  if (process.env.CRM_BENCH_PEAK_FILE) writeFileSync(process.env.CRM_BENCH_PEAK_FILE, String(process.resourceUsage().maxRSS));
});
