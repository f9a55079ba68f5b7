import { startTestServer } from '../tests/helpers/server';
import { createSession } from '../tests/helpers/factories';
import { seedHistory } from './seed-history';

const SESSIONS = 1500;
const PER_SESSION = 8;
const RUNS = 20;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * History that scales: 1,500 past sessions with 12,000 bookings; the default page of
 * GET /schedule/past (and the other staff lists the admin opens) must stay under 100 KB and 50 ms.
 */
export async function historyBench() {
  const s = await startTestServer();
  try {
    const staff = await s.auth();
    const { workshop, address } = await createSession(s.app, staff);
    await seedHistory(s.database, {
      workshopId: workshop.id,
      addressId: address.id,
      sessions: SESSIONS,
      perSession: PER_SESSION,
    });
    const lists = [
      '/api/v1/schedule/past',
      '/api/v1/schedule/past?skip=1400',
      `/api/v1/schedule/past?workshop_id=${workshop.id}&from=2025-01-01`,
      '/api/v1/schedule/',
      '/api/v1/customers/',
      '/api/v1/customers/?q=гость 1',
      '/api/v1/audit/',
      '/api/v1/stats/',
    ];
    const rows = [];
    for (const url of lists) {
      const times: number[] = [];
      let bytes = 0;
      let count = 0;
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        const res = await fetch(`${s.url}${encodeURI(url)}`, { headers: staff });
        const body = await res.text();
        times.push(performance.now() - t0);
        if (!res.ok) throw new Error(`${url}: ${res.status} ${body}`);
        bytes = Buffer.byteLength(body);
        count = (JSON.parse(body) as { count?: number }).count ?? 0;
      }
      const ms = median(times);
      const kb = bytes / 1024;
      rows.push({
        what: `GET ${url.replace('/api/v1', '')} (${SESSIONS} past sessions, ${SESSIONS * PER_SESSION} bookings${count ? `, count ${count}` : ''})`,
        measured: `${kb.toFixed(1)} KB, ${ms.toFixed(1)} ms median of ${RUNS}`,
        budget: '< 100 KB, < 50 ms',
        ok: kb < 100 && ms < 50,
      });
    }
    return rows;
  } finally {
    await s.close();
  }
}
