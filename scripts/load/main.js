// The load run behind the balancer (scripts/load/run.sh): anonymous browsing
// of shops and hot blogs, logins, a flash sale with one attempt per distinct
// buyer, and feed subscribers (websockets) receiving an author's posts.
// Prints p50/p95/p99 and the error rate of each step, and writes the
// figures run.sh checks against MySQL to SUMMARY.
import http from 'k6/http';
import ws from 'k6/ws';
import exec from 'k6/execution';
import { Counter, Rate, Trend } from 'k6/metrics';

const BASE = __ENV.BASE_URL;
const WS = BASE.replace(/^http/, 'ws') + '/graphql';
const USERS = parseInt(__ENV.USERS || '3000', 10);
const SUBS = parseInt(__ENV.SUBS || '10', 10);
const STOCK = parseInt(__ENV.STOCK || '1000', 10);
const DURATION = __ENV.DURATION || '60s';
const SECONDS = parseInt(DURATION, 10) * (DURATION.endsWith('m') ? 60 : 1);
const codes = JSON.parse(open(__ENV.CODES));

const steps = ['browse', 'login', 'seckill', 'post'];
const lat = {};
const err = {};
for (const s of steps) {
  lat[s] = new Trend(`step_${s}`, true);
  err[s] = new Rate(`err_${s}`);
}
const accepted = new Counter('seckill_accepted');
const soldOut = new Counter('seckill_sold_out');
const feedReceived = new Counter('feed_received');
const wsConnects = new Counter('ws_connects');
const wsErrors = new Counter('ws_errors');

export const options = {
  summaryTrendStats: ['p(50)', 'p(95)', 'p(99)', 'max', 'count'],
  setupTimeout: '120s',
  scenarios: {
    browse: { executor: 'constant-arrival-rate', exec: 'browse', rate: parseInt(__ENV.BROWSE_RATE || '40', 10),
      timeUnit: '1s', duration: DURATION, preAllocatedVUs: 10, maxVUs: 50 },
    sale: { executor: 'constant-arrival-rate', exec: 'sale', rate: Math.ceil(USERS / SECONDS), timeUnit: '1s',
      duration: DURATION, preAllocatedVUs: 10, maxVUs: 100 },
    author: { executor: 'constant-arrival-rate', exec: 'post', rate: 1, timeUnit: '1s', duration: DURATION,
      preAllocatedVUs: 2, maxVUs: 5 },
    feed: { executor: 'per-vu-iterations', exec: 'feed', vus: SUBS, iterations: 1, maxDuration: `${SECONDS + 15}s` },
  },
};

// gql posts one operation and returns [response, errors, ms].
function gql(query, variables, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const r = http.post(`${BASE}/graphql`, JSON.stringify({ query, variables }), { headers, timeout: '10s' });
  let errors = [];
  let data = null;
  if (r.status === 200) {
    try {
      const body = r.json();
      errors = body.errors || [];
      data = body.data;
    } catch (e) {
      errors = [{ extensions: { code: 'BAD_RESPONSE' } }];
    }
  } else {
    errors = [{ extensions: { code: `HTTP_${r.status}` } }];
  }
  return { data, errors, ms: r.timings.duration };
}

function login(phone) {
  const r = gql('mutation($p: String!, $c: String) { login(phone: $p, code: $c) { token user { id } } }',
    { p: phone, c: codes[phone] });
  if (r.errors.length) throw new Error(`login ${phone}: ${JSON.stringify(r.errors)}`);
  return r.data.login;
}

export function setup() {
  const admin = login(__ENV.ADMIN);
  const now = Date.now();
  const v = gql(`mutation($in: CreateVoucherInput!) { createVoucher(input: $in) { id } }`, { in: {
    shopId: '1', title: 'load test flash sale', payValue: 100, actualValue: 1000,
    seckill: { stock: STOCK, beginTime: new Date(now - 60000).toISOString(), endTime: new Date(now + 3600000).toISOString() },
  } }, admin.token);
  if (v.errors.length) throw new Error(`createVoucher: ${JSON.stringify(v.errors)}`);
  const subs = [];
  for (let i = 0; i < SUBS; i++) {
    const s = login(String(13700000000 + i));
    const f = gql('mutation($u: ID!) { setFollow(userId: $u, follow: true) { id } }', { u: admin.user.id }, s.token);
    if (f.errors.length) throw new Error(`setFollow: ${JSON.stringify(f.errors)}`);
    subs.push(s.token);
  }
  return { admin: admin.token, voucher: v.data.createVoucher.id, subs };
}

export function browse() {
  const n = exec.scenario.iterationInTest;
  const q = [
    ['query($id: ID!) { shop(id: $id) { id name } }', { id: String((n % 14) + 1) }],
    ['{ shops(typeId: 1, first: 10) { edges { node { id name } } } }', {}],
    ['{ hotBlogs(first: 10) { edges { node { id title liked } } } }', {}],
  ][n % 3];
  const r = gql(q[0], q[1]);
  lat.browse.add(r.ms);
  err.browse.add(r.errors.length > 0);
}

export function sale(data) {
  const i = exec.scenario.iterationInTest;
  if (i >= USERS) return;
  const phone = String(13800000000 + i);
  const l = gql('mutation($p: String!, $c: String) { login(phone: $p, code: $c) { token } }', { p: phone, c: codes[phone] });
  lat.login.add(l.ms);
  err.login.add(l.errors.length > 0);
  if (l.errors.length) return;
  const r = gql('mutation($v: ID!) { seckillVoucher(voucherId: $v) { orderId status } }', { v: data.voucher }, l.data.login.token);
  lat.seckill.add(r.ms);
  const code = r.errors.length ? (r.errors[0].extensions || {}).code : '';
  // Sold out is the sale's normal end, not an error.
  err.seckill.add(r.errors.length > 0 && code !== 'OUT_OF_STOCK');
  if (!r.errors.length) accepted.add(1);
  if (code === 'OUT_OF_STOCK') soldOut.add(1);
}

export function post(data) {
  const r = gql('mutation($in: CreateBlogInput!) { createBlog(input: $in) { id } }',
    { in: { title: `load ${exec.scenario.iterationInTest}`, content: 'posted by the load test', shopId: '1' } }, data.admin);
  lat.post.add(r.ms);
  err.post.add(r.errors.length > 0);
}

// feed holds a feedItems subscription for the whole run, reconnecting
// through the balancer whenever the socket closes (an instance was killed).
export function feed(data) {
  const token = data.subs[exec.scenario.iterationInTest % SUBS]; // one iteration per VU: one subscriber each
  const end = Date.now() + SECONDS * 1000;
  while (Date.now() < end - 500) {
    wsConnects.add(1);
    const res = ws.connect(WS, { headers: { 'Sec-WebSocket-Protocol': 'graphql-transport-ws' } }, (socket) => {
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${token}` } })));
      socket.on('message', (m) => {
        const msg = JSON.parse(m);
        if (msg.type === 'connection_ack') {
          socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { feedItems { id } }' } }));
        } else if (msg.type === 'next') {
          feedReceived.add(1);
        } else if (msg.type === 'ping') {
          socket.send(JSON.stringify({ type: 'pong' }));
        }
      });
      socket.on('error', () => wsErrors.add(1));
      socket.setTimeout(() => socket.close(), Math.max(end - Date.now(), 1));
    });
    if (!res || res.status !== 101) {
      wsErrors.add(1);
      http.get(`${BASE}/healthz`); // a pause before trying again
    }
  }
}

function pct(m, k) {
  return m && m.values[k] !== undefined ? m.values[k].toFixed(1) : '-';
}

export function handleSummary(d) {
  const m = d.metrics;
  let out = '\nstep       count     p50 ms   p95 ms   p99 ms   error rate\n';
  for (const s of steps) {
    const t = m[`step_${s}`];
    const e = m[`err_${s}`];
    out += `${s.padEnd(10)} ${String(t ? t.values.count : 0).padStart(6)} ${pct(t, 'p(50)').padStart(9)} ${pct(t, 'p(95)').padStart(8)} ${pct(t, 'p(99)').padStart(8)}   ${e ? (e.values.rate * 100).toFixed(2) : '0.00'}%\n`;
  }
  const c = (k) => (m[k] ? m[k].values.count : 0);
  out += `flash sale: ${c('seckill_accepted')} accepted, ${c('seckill_sold_out')} sold out; feed: ${c('feed_received')} of ${(m.step_post ? m.step_post.values.count : 0) * SUBS} posts received over ${c('ws_connects')} websocket connections (${c('ws_errors')} socket errors)\n`;
  const summary = { accepted: c('seckill_accepted'), feedReceived: c('feed_received'), wsConnects: c('ws_connects'),
    posts: m.step_post ? m.step_post.values.count : 0, voucher: d.setup_data ? d.setup_data.voucher : null };
  return { stdout: out, [__ENV.SUMMARY]: JSON.stringify(summary) };
}
