// Load generator for bench/api-load.ts, run in its own process so it does not share the
// server's event loop: argv[2] is a JSON job { url, connections, duration, requests }; prints
// { result, graphqlErrors } as JSON on stdout.
import autocannon from 'autocannon';

const job = JSON.parse(process.argv[2]);
let graphqlErrors = 0;
const result = await autocannon({
  url: job.url,
  connections: job.connections,
  duration: job.duration,
  timeout: 60,
  requests: job.requests.map((r) => ({
    ...r,
    onResponse: (_status, body) => {
      if (body.includes('"errors"')) graphqlErrors++;
    },
  })),
});
process.stdout.write(JSON.stringify({ result, graphqlErrors }));
