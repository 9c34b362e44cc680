// Open loop (constant arrival rate) for make bench-http: RATE requests per
// second for DURATION whatever the latency, so queueing shows in p99.
// Env: URL, RATE, DURATION, SHOP_ID, OUT (summary JSON file).
import http from 'k6/http';

export const options = {
  discardResponseBodies: true,
  summaryTrendStats: ['med', 'p(99)', 'max'],
  scenarios: {
    open: {
      executor: 'constant-arrival-rate',
      rate: Number(__ENV.RATE),
      timeUnit: '1s',
      duration: __ENV.DURATION || '10s',
      preAllocatedVUs: 100,
      maxVUs: 400,
    },
  },
};

const body = JSON.stringify({
  query: 'query($id:ID!){shop(id:$id){id name area address avgPrice score}}',
  variables: { id: __ENV.SHOP_ID || '1' },
});
const params = { headers: { 'Content-Type': 'application/json' } };

export default function () {
  http.post(__ENV.URL, body, params);
}

export function handleSummary(data) {
  const m = data.metrics;
  const line = `RESULT rps=${m.http_reqs.values.rate.toFixed(0)} p50_us=${Math.round(m.http_req_duration.values.med * 1000)} p99_us=${Math.round(m.http_req_duration.values['p(99)'] * 1000)} failed=${m.http_req_failed.values.passes} dropped=${m.dropped_iterations ? m.dropped_iterations.values.count : 0}\n`;
  return { stdout: line };
}
