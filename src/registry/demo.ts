// Demo records of the sandbox: the seed is deterministic, so these ids exist on every fresh install
// (the examples of the commands and the README use them).

export const DEMO = {
  contact: 'con_ua7xr0zeyzwl2vbo',
  account: 'acc_mzn69mgnrt5mtd36',
  deal: 'deal_m279ns143s296hm4',
  sequence: 'seq_l5zzndpb71w0ultz',
  task: 'task_itdqugao0gncult1',
  /** The demo contact's email, and its account's name (natural keys: src/commands/keys.ts). */
  email: 'zane.sato@globexlogistics.com',
  accountName: 'Globex Logistics',
} as const;
