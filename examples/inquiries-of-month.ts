/**
 * Walk all inquiries created in one month (auto-pagination with a date filter), counting them by status.
 *   npx tsx examples/inquiries-of-month.ts 2026-11
 */
import { clientFromEnv, type Env, runIfMain } from './env.ts';

export async function main(
  env: Env,
  month = process.argv[2] ?? new Date().toISOString().slice(0, 7),
): Promise<{ month: string; total: number; byStatus: Record<string, number> }> {
  if (!/^\d{4}-\d{2}$/.test(month)) throw new Error('month: YYYY-MM');
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const bizapi = clientFromEnv(env);
  const byStatus: Record<string, number> = {};
  let total = 0;
  const query = {
    created_start: `${month}-01`,
    created_end: `${month}-${String(last).padStart(2, '0')}`,
    page_size: 100,
  };
  for await (const inquiry of bizapi.paginate('inquiry_list', { params: { query } })) {
    total++;
    const title = inquiry.status?.title ?? '(none)';
    byStatus[title] = (byStatus[title] ?? 0) + 1;
  }
  return { month, total, byStatus };
}

runIfMain(import.meta.url, main);
