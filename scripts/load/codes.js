// Asks for a login code for every phone the load run uses (the admin, the
// feed subscribers and the flash-sale buyers). The codes land in the
// instances' logs; scripts/load/run.sh collects them for main.js.
import http from 'k6/http';

export const options = { vus: 1, iterations: 1, summaryTrendStats: ['p(50)'] };

const BASE = __ENV.BASE_URL;
const USERS = parseInt(__ENV.USERS || '3000', 10);
const SUBS = parseInt(__ENV.SUBS || '10', 10);

export default function () {
  const phones = [__ENV.ADMIN];
  for (let i = 0; i < SUBS; i++) phones.push(String(13700000000 + i));
  for (let i = 0; i < USERS; i++) phones.push(String(13800000000 + i));
  let failed = 0;
  for (let i = 0; i < phones.length; i += 50) {
    const reqs = phones.slice(i, i + 50).map((p) => ['POST', `${BASE}/graphql`,
      JSON.stringify({ query: 'mutation($p: String!) { sendCode(phone: $p) }', variables: { p } }),
      { headers: { 'Content-Type': 'application/json' } }]);
    for (const r of http.batch(reqs)) {
      if (r.status !== 200 || (r.json('errors') || []).length) failed++;
    }
  }
  if (failed) throw new Error(`${failed} sendCode calls failed`);
}
